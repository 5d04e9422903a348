//! The errors of the Tensor Memory plan and maps.

use crate::base::error_data::Indexed;
use crate::base::kind::Operand;
use crate::base::text::ConstText;
use crate::mma::idesc::AccumType;

/// Why a Tensor Memory accumulator, load map or plan is refused.
///
/// ```
/// use smemdesc_core::*;
/// let e = TmemAccum::new(96, 64, 1, AccumType::F32).unwrap_err();
/// assert_eq!(e, TmemError::IllegalM { m: 96, cta_group: 1 });
/// assert_eq!(e.to_string(), "M = 96 has no Tensor Memory data path with cta_group::1; legal: 64, 128 [rule tmem.datapath-m; PTX ISA 8.6, \"tcgen05: Data path layout organization\"]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmemError {
    /// `cta_group` other than 1 or 2.
    CtaGroup {
        /// The value given.
        cta_group: u32,
    },
    /// An M with no data-path layout for this CTA group (1: 64, 128; 2: 128, 256).
    IllegalM {
        /// The instruction's M.
        m: u32,
        /// The CTA group.
        cta_group: u32,
    },
    /// N outside the instruction's range or off its step for this M and CTA group.
    IllegalN {
        /// The instruction's N.
        n: u32,
        /// The step N must be a multiple of (and its least value).
        step: u32,
        /// The instruction's M (64, 128 or 256: an M without a data path is
        /// [`IllegalM`](Self::IllegalM)).
        m: u16,
        /// The CTA group (1 or 2).
        cta_group: u8,
    },
    /// An accumulator type whose placement in Tensor Memory is not modeled (f16).
    AccumNotModeled {
        /// The accumulator type.
        accum: AccumType,
    },
    /// A `.num` that is not a power of two, or too large for the shape (at most 128 registers).
    IllegalNum {
        /// The `.num` given.
        num: u32,
        /// The largest legal `.num` of the shape.
        max: u32,
    },
    /// A load-shape text that does not parse (`32x32b.x16`, `16x32bx2.x1`, optionally
    /// `.pack::16b`).
    BadLoadText,
    /// A 32-lane shape on an accumulator that uses 16 lanes of each subpartition (M = 64,
    /// `cta_group::1`): half of the warp's threads would read lanes that hold no element.
    LoadLanes {
        /// Lanes the shape reads per warp.
        shape_lanes: u32,
        /// Lanes of each 32-lane subpartition the accumulator uses.
        accum_lanes: u32,
    },
    /// The load's column span does not divide the accumulator's columns.
    LoadColumns {
        /// Columns one load covers.
        load_cols: u32,
        /// Columns the accumulator occupies.
        accum_cols: u32,
    },
    /// `.pack::16b` on 32-bit data.
    PackNot16Bit,
    /// An index out of range (`what`, the index and the count).
    OutOfRange {
        /// What was indexed.
        what: Indexed,
        /// The index given.
        index: u32,
        /// The number of legal indices.
        count: u32,
    },
    /// A TMEM lane/column that holds no accumulator element.
    NotAnElement {
        /// The lane.
        lane: u32,
        /// The column.
        col: u32,
    },
    /// The plan needs more than the 512 columns of an SM.
    OverCapacity {
        /// Columns the regions need.
        cols: u32,
    },
    /// An explicit allocation that is not a power of two in 32..=512.
    AllocNotPow2 {
        /// The allocation given.
        alloc: u32,
    },
    /// An explicit allocation smaller than the columns the regions need.
    AllocTooSmall {
        /// The allocation given.
        alloc: u32,
        /// Columns the regions need.
        cols: u32,
    },
    /// A plan for a pairing that is not an sm100 `tcgen05.mma`.
    NotSm100,
    /// Zero accumulator stages.
    NoStages,
    /// Block-scaled kind without both scale-factor tiles, a dense kind with them, or tiles that
    /// do not belong to the pairing (operand, kind, vector size, CTA group).
    ScaleTiles,
    /// An instruction descriptor whose scale-factor id disagrees with the columns the factors
    /// were copied to.
    ScaleIdMismatch {
        /// The scale factors of A or of B.
        operand: Operand,
        /// The id in the descriptor.
        id: u32,
        /// The id the plan's columns give.
        expected: u32,
    },
}

impl TmemError {
    /// A static one-line summary (for `const` panics).
    ///
    /// ```
    /// use smemdesc_core::TmemError;
    /// assert_eq!(TmemError::PackNot16Bit.summary(), ".pack::16b needs 16-bit data");
    /// ```
    #[inline]
    pub const fn summary(&self) -> &'static str {
        match self {
            TmemError::CtaGroup { .. } => "cta_group must be 1 or 2",
            TmemError::IllegalM { .. } => "M has no Tensor Memory data path with this cta_group",
            TmemError::IllegalN { .. } => "N is not a legal tcgen05 shape",
            TmemError::AccumNotModeled { .. } => {
                "the Tensor Memory placement of an f16 accumulator is not modeled"
            }
            TmemError::IllegalNum { .. } => "tcgen05.ld .num must be a power of two, at most 128 registers",
            TmemError::BadLoadText => "load shape must read like 32x32b.x16 or 16x32bx2.x1",
            TmemError::LoadLanes { .. } => {
                "a 32x32b load reads 32 lanes of each subpartition, but an M = 64 cta_group::1 accumulator uses only lanes 0-15 of each: threads 16-31 would receive no element (use a 16-lane shape)"
            }
            TmemError::LoadColumns { .. } => "the load's columns do not divide the accumulator's",
            TmemError::PackNot16Bit => ".pack::16b needs 16-bit data",
            TmemError::OutOfRange { .. } => "index out of range",
            TmemError::NotAnElement { .. } => "this TMEM lane/column holds no accumulator element",
            TmemError::OverCapacity { .. } => "Tensor Memory has 512 columns per SM",
            TmemError::AllocNotPow2 { .. } => {
                "tcgen05.alloc takes a power of two from 32 to 512 columns"
            }
            TmemError::AllocTooSmall { .. } => "the allocation is smaller than the plan's regions",
            TmemError::NotSm100 => "a Tensor Memory plan needs an sm100 pairing",
            TmemError::NoStages => "at least one accumulator stage",
            TmemError::ScaleTiles => {
                "block-scaled kinds need their SFA and SFB tiles (and dense kinds none)"
            }
            TmemError::ScaleIdMismatch { .. } => {
                "the instruction descriptor's scale-factor id disagrees with the plan's columns"
            }
        }
    }

    /// The message with numbers, usable in `const` panics.
    ///
    /// ```
    /// use smemdesc_core::TmemError;
    /// let e = TmemError::AllocNotPow2 { alloc: 96 };
    /// assert_eq!(e.message().as_str(), "tcgen05.alloc takes a power of two from 32 to 512 columns, not 96");
    /// ```
    pub const fn message(&self) -> ConstText<512> {
        let t = ConstText::new();
        match *self {
            TmemError::CtaGroup { cta_group } => {
                t.str("cta_group must be 1 or 2, not ").num(cta_group)
            }
            TmemError::IllegalM { m, cta_group } => t
                .str("M = ")
                .num(m)
                .str(" has no Tensor Memory data path with cta_group::")
                .num(cta_group)
                .str(if cta_group == 2 {
                    "; legal: 128, 256"
                } else {
                    "; legal: 64, 128"
                }),
            TmemError::IllegalN {
                n,
                step,
                m,
                cta_group,
            } => t
                .str("N = ")
                .num(n)
                .str(" is not a legal tcgen05.mma N for M = ")
                .num(m as u32)
                .str(" with cta_group::")
                .num(cta_group as u32)
                .str("; legal: a multiple of ")
                .num(step)
                .str(" from ")
                .num(step)
                .str(" to 256 (PTX ISA, tcgen05.mma, the dense kinds' shapes: a multiple of 8 for M = 64, of 16 for M = 128 and for M = 256 with cta_group::2, of 32 for M = 128 with cta_group::2, whose CTAs each hold N/2 columns in two lane halves)"),
            TmemError::AccumNotModeled { .. } => t.str(self.summary()).str("; use f32 or s32"),
            TmemError::IllegalNum { num, max } => t
                .str("tcgen05.ld .x")
                .num(num)
                .str(": .num must be a power of two from 1 to ")
                .num(max)
                .str(" for this shape"),
            TmemError::LoadColumns {
                load_cols,
                accum_cols,
            } => t
                .str("one load covers ")
                .num(load_cols)
                .str(" columns, which does not divide the accumulator's ")
                .num(accum_cols),
            TmemError::OutOfRange { what, index, count } => t
                .str(what.name())
                .str(" ")
                .num(index)
                .str(" out of range (count ")
                .num(count)
                .str(")"),
            TmemError::NotAnElement { lane, col } => t
                .str("lane ")
                .num(lane)
                .str(", column ")
                .num(col)
                .str(" holds no accumulator element"),
            TmemError::OverCapacity { cols } => t
                .str("the regions need ")
                .num(cols)
                .str(" columns; Tensor Memory has 512 per SM"),
            TmemError::AllocNotPow2 { alloc } => t.str(self.summary()).str(", not ").num(alloc),
            TmemError::AllocTooSmall { alloc, cols } => t
                .str("an allocation of ")
                .num(alloc)
                .str(" columns is smaller than the ")
                .num(cols)
                .str(" the regions need"),
            TmemError::ScaleIdMismatch {
                operand,
                id,
                expected,
            } => t
                .str("the instruction descriptor's SF")
                .str(match operand {
                    Operand::A => "A",
                    Operand::B => "B",
                })
                .str(" id is ")
                .num(id)
                .str(", but the plan's columns give ")
                .num(expected),
            _ => t.str(self.summary()),
        }
    }
}

impl TmemError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.message().as_str())
    }
}
