//! TMA tensor maps (`cuTensorMapEncodeTiled` arguments) for a tile.

pub(crate) mod grouped;
pub(crate) mod tensor_map;
pub(crate) mod tensor_map_check;
pub(crate) mod tensor_map_error;
pub(crate) mod tensor_map_types;

pub use grouped::{GroupValues, GroupedMap, GroupedMapError, MAX_REWRITES};
pub use tensor_map::{TensorMap, TensorMapArgs, TENSOR_MAP_MAX_BOX_BYTES};
pub use tensor_map_error::{TensorMapArg, TensorMapError};
pub use tensor_map_types::{
    TensorMapDataType, TensorMapInterleave, TensorMapL2Promotion, TensorMapOobFill,
    TensorMapSwizzle,
};
