//! Block-scale factor tiles (tcgen05 `.block_scale`).

pub(crate) mod tile;

pub use tile::{ScaleDecl, ScaleTile, SCALE_ATOM_BYTES, SCALE_ATOM_FACTORS, SCALE_ATOM_ROWS};
