//! The SMEM operand tile: its specification, validated layout, declaration plan, TMA box plan and run-time access.

pub mod access;
pub(crate) mod advice;
pub(crate) mod decl;
pub(crate) mod layout;
pub(crate) mod layout_access;
pub(crate) mod literal;
pub(crate) mod smem_form;
pub(crate) mod spec;
pub(crate) mod tma_plan;

pub use decl::{TileDecl, TilePlan};
pub use smem_form::{SmemForm, ValueOffset};
pub use spec::{select_swizzle, TileLayout, TileSpec};
pub use tma_plan::{TmaDataType, TmaPlan, TmaSwizzle};
