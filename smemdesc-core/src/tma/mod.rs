//! TMA tensor maps: `cuTensorMapEncodeTiled` arguments (for a tile, or any tensor) and
//! `cuTensorMapEncodeIm2col` arguments (convolution activations).

pub(crate) mod conv;
pub(crate) mod conv_error;
pub(crate) mod conv_tile;
pub(crate) mod conv_walk;
pub(crate) mod gather4;
pub(crate) mod grouped;
pub(crate) mod grouped_dense;
mod grouped_window;
pub(crate) mod im2col;
pub(crate) mod im2col_check;
pub(crate) mod im2col_error;
pub(crate) mod oob_window;
pub(crate) mod tensor_map;
pub(crate) mod tensor_map_check;
pub(crate) mod tensor_map_error;
pub(crate) mod tensor_map_types;

pub use conv::{Conv2d, Im2colLoad, ImplicitGemmA, KStep};
pub use conv_error::{ConvError, FillMismatch, Spatial};
pub use conv_walk::Im2colWalk;
pub use gather4::{Gather4, Gather4Error, GATHER4_ROWS};
pub use grouped::{GroupValues, GroupedMap, GroupedMapError, MAX_REWRITES};
pub use im2col::{Im2colArgs, Im2colMap};
pub use im2col_check::{IM2COL_MAX_CHANNELS, IM2COL_MAX_PIXELS};
pub use im2col_error::{im2col_corner_range, im2col_offset_max, Im2colArg, Im2colError};
pub use oob_window::{check_oob_base_128kb, tensor_span_bytes, OobWindowError, OOB_WINDOW_128K};
pub use tensor_map::{TensorMap, TensorMapArgs, TENSOR_MAP_MAX_BOX_BYTES};
pub use tensor_map_error::{TensorMapArg, TensorMapError};
pub use tensor_map_types::{
    TensorMapDataType, TensorMapInterleave, TensorMapL2Promotion, TensorMapOobFill,
    TensorMapSwizzle,
};
