//! Where the scale factors of a block-scaled `mma.sync` (sm120 `kind::mxf8f6f4`, `mxf4`,
//! `mxf4nvf4`) sit: PTX ISA "Block Scaling for `mma.sync`" and its scale_A / scale_B fragment
//! figures. Each scale operand is one 32-bit register per lane (`scale-a-data`,
//! `scale-b-data`); the selectors `{byte-id, thread-id}` say which lanes and bytes are read:
//!
//! * scale_A (`16 × V`, V = 1/2/4 per the scale vector): in the quad of `groupID = g`, lane
//!   `4g + 2·thread-id-a` holds row `g`, lane `4g + 2·thread-id-a + 1` row `g + 8`; factor `v`
//!   of the row is byte `byte-id-a + v`. `thread-id-a ∈ {0, 1}`.
//! * scale_B (`V × 8`): lane `4n + thread-id-b` holds column `n`; factor `v` is byte
//!   `byte-id-b + v`. `thread-id-b ∈ {0, 1, 2, 3}`.
//! * `byte-id ∈ {0,1,2,3}` for `1X`, `{0, 2}` for `2X`, `{0}` for `4X`.
//!
//! (CuTe's `mma_traits_sm120.hpp` `SFALayout`/`SFBLayout` describe the same placement for
//! selectors 0; the tests check it against them.)

use super::{FragOperand, MmaSync};

/// The `{byte-id, thread-id}` selector pair of one scale operand.
///
/// ```
/// let s = smemdesc_core::fragment::ScaleSelector { byte_id: 2, thread_id: 1 };
/// assert_eq!(s.byte_id + s.thread_id, 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ScaleSelector {
    /// `byte-id-a` / `byte-id-b`.
    pub byte_id: u32,
    /// `thread-id-a` / `thread-id-b`.
    pub thread_id: u32,
}

impl MmaSync {
    /// Whether `sel` is a legal selector for the scale operand of A or B (`None` for C, and for
    /// forms that are not block-scaled).
    ///
    /// ```
    /// use smemdesc_core::ElementType as T;
    /// use smemdesc_core::fragment::*;
    /// let m = MmaSync::with_kind(SyncArch::Sm120, SyncShape::M16N8K64, SyncKind::Mxf4,
    ///     T::E2M1, T::E2M1, None).unwrap();
    /// assert_eq!(m.scale_selector_ok(FragOperand::A, ScaleSelector { byte_id: 2, thread_id: 1 }), Some(true));
    /// assert_eq!(m.scale_selector_ok(FragOperand::A, ScaleSelector { byte_id: 1, thread_id: 0 }), Some(false));
    /// ```
    pub const fn scale_selector_ok(&self, op: FragOperand, sel: ScaleSelector) -> Option<bool> {
        let v = match self.scale {
            Some((v, _)) => v.count(),
            None => return None,
        };
        let tid_max = match op {
            FragOperand::A => 2,
            FragOperand::B => 4,
            FragOperand::C => return None,
        };
        Some(sel.thread_id < tid_max && sel.byte_id % v == 0 && sel.byte_id + v <= 4)
    }

    /// Scale factor `v` of row `index` of A (column `index` of B): the `(lane, byte)` of
    /// `scale-a-data`/`scale-b-data` that holds it under selector `sel`, or `None` when out of
    /// range or the selector is illegal.
    ///
    /// ```
    /// use smemdesc_core::ElementType as T;
    /// use smemdesc_core::fragment::*;
    /// let m = MmaSync::with_kind(SyncArch::Sm120, SyncShape::M16N8K64, SyncKind::Mxf4Nvf4,
    ///     T::E2M1, T::E2M1, Some((ScaleVec::X4, ScaleType::Ue4m3))).unwrap();
    /// // row 9 (g = 1, upper half) with thread-id-a 0: lane 5; factor 3 in byte 3
    /// assert_eq!(m.scale_slot(FragOperand::A, 9, 3, ScaleSelector::default()), Some((5, 3)));
    /// ```
    pub const fn scale_slot(
        &self,
        op: FragOperand,
        index: u32,
        v: u32,
        sel: ScaleSelector,
    ) -> Option<(u32, u32)> {
        match self.scale_selector_ok(op, sel) {
            Some(true) => {}
            _ => return None,
        }
        let count = match self.scale {
            Some((s, _)) => s.count(),
            None => return None,
        };
        if v >= count {
            return None;
        }
        match op {
            FragOperand::A if index < 16 => Some((
                4 * (index & 7) + 2 * sel.thread_id + (index >> 3),
                sel.byte_id + v,
            )),
            FragOperand::B if index < 8 => Some((4 * index + sel.thread_id, sel.byte_id + v)),
            _ => None,
        }
    }

    /// The inverse of [`MmaSync::scale_slot`]: which `(index, v)` byte `byte` of lane `lane`
    /// supplies, or `None` if the instruction does not read it.
    ///
    /// ```
    /// use smemdesc_core::ElementType as T;
    /// use smemdesc_core::fragment::*;
    /// let m = MmaSync::with_kind(SyncArch::Sm120, SyncShape::M16N8K32, SyncKind::Mxf8f6f4,
    ///     T::E4M3, T::E4M3, None).unwrap();
    /// assert_eq!(m.scale_of(FragOperand::B, 13, 0, ScaleSelector { byte_id: 0, thread_id: 1 }), Some((3, 0)));
    /// assert_eq!(m.scale_of(FragOperand::B, 12, 0, ScaleSelector { byte_id: 0, thread_id: 1 }), None);
    /// ```
    pub const fn scale_of(
        &self,
        op: FragOperand,
        lane: u32,
        byte: u32,
        sel: ScaleSelector,
    ) -> Option<(u32, u32)> {
        match self.scale_selector_ok(op, sel) {
            Some(true) => {}
            _ => return None,
        }
        let count = match self.scale {
            Some((s, _)) => s.count(),
            None => return None,
        };
        if lane >= 32 || byte < sel.byte_id || byte >= sel.byte_id + count {
            return None;
        }
        let v = byte - sel.byte_id;
        let t = lane & 3;
        match op {
            FragOperand::A if t >> 1 == sel.thread_id => Some(((lane >> 2) + 8 * (t & 1), v)),
            FragOperand::B if t == sel.thread_id => Some((lane >> 2, v)),
            _ => None,
        }
    }
}
