//! The MMA instruction: shapes, kinds, the tcgen05 instruction descriptor (idesc).

pub(crate) mod format;
pub(crate) mod idesc;
pub(crate) mod idesc_codec;
pub(crate) mod idesc_error;
pub(crate) mod idesc_error_text;
pub(crate) mod shape;

pub use format::{format_code, format_type, is_block_scaled};
pub use idesc::{AccumType, InstrDesc, ScaleFormat};
pub use idesc_codec::{idesc_fields, Idesc, IdescField};
pub use idesc_error::IdescError;
pub use shape::{check_mma_shape, check_mn_major, MmaKind, MmaShape, Operand};
