//! A layout class of the check: the element type and the layout of A and B, with the negative
//! controls' switches (shared by [`crate::plan`] and [`crate::placement`]).

use smemdesc_core::{ElementType, Major, Order, Placement, SwizzleMode};

/// One operand's layout choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandCfg {
    /// Contiguous dimension.
    pub major: Major,
    /// Swizzle mode.
    pub swizzle: SwizzleMode,
    /// Atom stacking order.
    pub order: Order,
}

/// A layout class: element type and the layout of A and B.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassCfg {
    /// Short name (used in tables and kernel names).
    pub name: String,
    /// Element type of A and B.
    pub dtype: ElementType,
    /// Operand A layout.
    pub a: OperandCfg,
    /// Operand B layout.
    pub b: OperandCfg,
    /// Negative control: A's descriptors get a deliberately wrong SBO.
    pub wrong_sbo: bool,
    /// How A's bytes are written (spec §7): `Absolute` (TMA to A's address) or `Relative` (TMA to
    /// an aligned staging area, then copied verbatim to A's address by the threads).
    pub placement: Placement,
    /// Bytes past the 1024-aligned base where A sits (0 for the aligned classes).
    pub smem_offset: u32,
    /// Negative control: A's descriptors use the other placement model's base_offset.
    pub wrong_placement: bool,
}
