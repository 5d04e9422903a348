//! The canonical MMA operand layouts (PTX "canonical layouts" / CuTe `make_gmma_desc`) and the
//! fixed-slot divide that reads LBO and SBO off an MMA subtile's layout.
//!
//! In 16-byte units, with `W` units per atom row and `R` atom rows, one MMA subtile must be
//! (PTX ISA, wgmma "Shared Memory Matrix Layout" and tcgen05 "Canonical layouts"):
//!
//! | major | swizzle | MN mode | K mode |
//! |---|---|---|---|
//! | K | none | `(8, m):(1, SBO)` | `(1, 2):(–, LBO)` |
//! | K | 32/64/128B | `(8, m):(W, SBO)` | `(2):(1)` (LBO unused) |
//! | MN | none | `(1, m):(–, SBO)` | `(8, k):(1, LBO)` |
//! | MN | 32/64/128B, 128B_base32B | `(W, m):(1, LBO)` | `(R, k):(W, SBO)` |
//!
//! Dividing each mode of the subtile at the inner extent puts the canonical part in the first slot
//! and the repeat (`m` or `k` groups) in the second; the second slot must coalesce to one stride,
//! which is the descriptor's LBO or SBO. A second slot of size 1 is unused; the value written there
//! follows CuTe (`1` for K-major swizzled LBO, `0` otherwise).

use crate::base::arch::Major;
use crate::base::error::{Dim, Error};
use crate::base::swizzle::SwizzleMode;
use crate::layout::algebra::{Layout, Mode};

/// Which descriptor field an outer slot feeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// Leading dimension byte offset.
    Lbo,
    /// Stride dimension byte offset.
    Sbo,
}

/// The canonical form for one (major, swizzle) pair: the inner extents/strides (16-byte units) and
/// which field each outer slot feeds.
///
/// ```
/// use smemdesc_core::{CanonicalForm, Major, Slot, SwizzleMode};
/// let c = CanonicalForm::of(Major::Mn, SwizzleMode::B128);
/// assert_eq!((c.mn_inner, c.mn_inner_stride), (8, 1));
/// assert_eq!((c.k_inner, c.k_inner_stride), (8, 8));
/// assert_eq!((c.mn_outer, c.k_outer), (Slot::Lbo, Slot::Sbo));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CanonicalForm {
    /// Inner MN extent (16-byte units for MN-major, rows for K-major).
    pub mn_inner: u32,
    /// Its stride.
    pub mn_inner_stride: u32,
    /// Inner K extent (16-byte units for K-major, rows for MN-major).
    pub k_inner: u32,
    /// Its stride.
    pub k_inner_stride: u32,
    /// The field the MN repeat feeds.
    pub mn_outer: Slot,
    /// The field the K repeat feeds.
    pub k_outer: Slot,
    /// Value CuTe writes into the LBO field when it is unused (units).
    pub unused_lbo: u32,
}

impl CanonicalForm {
    /// The canonical form of the PTX table for `major` and `swizzle`.
    ///
    /// ```
    /// use smemdesc_core::{CanonicalForm, Major, Slot, SwizzleMode};
    /// let c = CanonicalForm::of(Major::K, SwizzleMode::None);
    /// assert_eq!((c.mn_outer, c.k_outer), (Slot::Sbo, Slot::Lbo));
    /// ```
    pub const fn of(major: Major, swizzle: SwizzleMode) -> CanonicalForm {
        let w = swizzle.atom_width_units();
        let rows = swizzle.atom_rows();
        match major {
            Major::K => CanonicalForm {
                mn_inner: rows,
                mn_inner_stride: w,
                k_inner: if w < 2 { w } else { 2 },
                k_inner_stride: 1,
                mn_outer: Slot::Sbo,
                k_outer: Slot::Lbo,
                unused_lbo: 1,
            },
            Major::Mn => CanonicalForm {
                mn_inner: w,
                mn_inner_stride: 1,
                k_inner: rows,
                k_inner_stride: w,
                mn_outer: if swizzle.is_swizzled() {
                    Slot::Lbo
                } else {
                    Slot::Sbo
                },
                k_outer: if swizzle.is_swizzled() {
                    Slot::Sbo
                } else {
                    Slot::Lbo
                },
                unused_lbo: 0,
            },
        }
    }

    /// Divides an MMA subtile's layout (16-byte units) into the fixed slots and returns
    /// `(LBO, SBO)` in 16-byte units, or [`Error::NotCanonical`] if the inner slots do not match.
    ///
    /// ```
    /// use smemdesc_core::{CanonicalForm, Layout, Major, Mode, SwizzleMode};
    /// // K-major SW128 subtile, 64 rows x 2 units: (8, 8):(8, 64) x (2):(1)
    /// let sub = Layout::new(Mode::new(8, 8).push(8, 64).unwrap(), Mode::new(2, 1));
    /// let (lbo, sbo) = CanonicalForm::of(Major::K, SwizzleMode::B128).offsets(sub).unwrap();
    /// assert_eq!((lbo, sbo), (1, 64)); // SBO = 1024 B
    /// ```
    pub const fn offsets(&self, subtile: Layout) -> Result<(u32, u32), Error> {
        let mn = tri!(split_slot(
            subtile.mn,
            self.mn_inner,
            self.mn_inner_stride,
            Dim::Mn
        ));
        let k = tri!(split_slot(
            subtile.k,
            self.k_inner,
            self.k_inner_stride,
            Dim::K
        ));
        let mut lbo = None;
        let mut sbo = None;
        match self.mn_outer {
            Slot::Lbo => lbo = mn,
            Slot::Sbo => sbo = mn,
        }
        match self.k_outer {
            Slot::Lbo => lbo = k,
            Slot::Sbo => sbo = k,
        }
        let lbo = match lbo {
            Some(v) => v,
            None => self.unused_lbo,
        };
        let sbo = match sbo {
            Some(v) => v,
            None => 0,
        };
        Ok((lbo, sbo))
    }
}

/// Splits `mode` at `inner`, checks the inner part is `inner:stride`, and returns the outer slot's
/// stride (`None` when the outer slot has size 1).
const fn split_slot(mode: Mode, inner: u32, stride: u32, dim: Dim) -> Result<Option<u32>, Error> {
    let (i, o) = match mode.split(inner) {
        Ok(p) => p,
        Err(_) => return Err(Error::NotCanonical { dim }),
    };
    match i.as_single() {
        Some((s, d)) => {
            if s != inner || (s > 1 && d != stride) {
                return Err(Error::NotCanonical { dim });
            }
        }
        None => return Err(Error::NotCanonical { dim }),
    }
    match o.as_single() {
        Some((1, _)) => Ok(None),
        Some((_, d)) => Ok(Some(d)),
        None => Err(Error::NotCanonical { dim }),
    }
}
