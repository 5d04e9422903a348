//! The CUDA driver's TMA swizzle and data-type enums (`CUtensorMapSwizzle`,
//! `CUtensorMapDataType`) as the tile types name them.

use crate::base::dtype::ElementType;
use crate::base::swizzle::SwizzleMode;

/// `CUtensorMapSwizzle` (CUDA driver API, `cuda.h`).
///
/// ```
/// use smemdesc_core::{SwizzleMode, TmaSwizzle};
/// assert_eq!(TmaSwizzle::of(SwizzleMode::B128).value(), 3);
/// assert_eq!(TmaSwizzle::of(SwizzleMode::B128Base32B).name(), "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaSwizzle {
    /// `CU_TENSOR_MAP_SWIZZLE_NONE` = 0.
    None,
    /// `CU_TENSOR_MAP_SWIZZLE_32B` = 1.
    B32,
    /// `CU_TENSOR_MAP_SWIZZLE_64B` = 2.
    B64,
    /// `CU_TENSOR_MAP_SWIZZLE_128B` = 3.
    B128,
    /// `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B` = 4 (sm100).
    B128Atom32B,
}

impl TmaSwizzle {
    /// The TMA swizzle that writes what the MMA swizzle `mode` reads.
    ///
    /// ```
    /// use smemdesc_core::{SwizzleMode, TmaSwizzle};
    /// assert_eq!(TmaSwizzle::of(SwizzleMode::None), TmaSwizzle::None);
    /// ```
    #[inline]
    pub const fn of(mode: SwizzleMode) -> TmaSwizzle {
        match mode {
            SwizzleMode::None => TmaSwizzle::None,
            SwizzleMode::B32 => TmaSwizzle::B32,
            SwizzleMode::B64 => TmaSwizzle::B64,
            SwizzleMode::B128 => TmaSwizzle::B128,
            SwizzleMode::B128Base32B => TmaSwizzle::B128Atom32B,
        }
    }

    /// The enum's numeric value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TmaSwizzle::B128Atom32B.value(), 4);
    /// ```
    #[inline]
    pub const fn value(self) -> u32 {
        match self {
            TmaSwizzle::None => 0,
            TmaSwizzle::B32 => 1,
            TmaSwizzle::B64 => 2,
            TmaSwizzle::B128 => 3,
            TmaSwizzle::B128Atom32B => 4,
        }
    }

    /// The enumerator's name in `cuda.h`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TmaSwizzle::B64.name(), "CU_TENSOR_MAP_SWIZZLE_64B");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            TmaSwizzle::None => "CU_TENSOR_MAP_SWIZZLE_NONE",
            TmaSwizzle::B32 => "CU_TENSOR_MAP_SWIZZLE_32B",
            TmaSwizzle::B64 => "CU_TENSOR_MAP_SWIZZLE_64B",
            TmaSwizzle::B128 => "CU_TENSOR_MAP_SWIZZLE_128B",
            TmaSwizzle::B128Atom32B => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
        }
    }
}

/// `CUtensorMapDataType` for an element type (CUDA driver API, `cuda.h`). fp8 values are moved as
/// `UINT8`; fp6/fp4 as the packed types of their SMEM form ([`SmemForm::tma_data_type`](crate::SmemForm::tma_data_type)).
/// An `f32` operand is an input of the tf32 MMA (`kind::tf32`),
/// so its tensor map is `TFLOAT32`: the driver has a distinct 4-byte TF32 tensor data type, and TMA
/// converts the f32 values to tf32 on the copy into shared memory (CUTLASS loads `float` operands
/// of tf32 GEMMs through `tfloat32_t` maps for this reason). `FLOAT32` would copy the raw bits and
/// leave the tensor core to drop the low 13 mantissa bits instead of rounding them.
///
/// ```
/// use smemdesc_core::{ElementType, TmaDataType};
/// assert_eq!(TmaDataType::of(ElementType::BF16).value(), 9);
/// assert_eq!(TmaDataType::of(ElementType::E4M3).name(), "CU_TENSOR_MAP_DATA_TYPE_UINT8");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaDataType {
    /// `UINT8` = 0.
    Uint8,
    /// `FLOAT16` = 6.
    Float16,
    /// `FLOAT32` = 7.
    Float32,
    /// `BFLOAT16` = 9.
    Bfloat16,
    /// `TFLOAT32` = 11.
    Tfloat32,
    /// `16U4_ALIGN8B` = 13: packed fp4, two values per byte, no gaps.
    U4x16Align8B,
    /// `16U4_ALIGN16B` = 14: 16 fp4 values in 8 bytes, then 8 bytes of padding.
    U4x16Align16B,
    /// `16U6_ALIGN16B` = 15: 16 fp6 values in 12 bytes, then 4 bytes of padding.
    U6x16Align16B,
}

impl TmaDataType {
    /// The data type TMA moves `dtype` as, in the SMEM form of its dense kind (fp6/fp4: padded).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, TmaDataType};
    /// assert_eq!(TmaDataType::of(ElementType::TF32), TmaDataType::Tfloat32);
    /// assert_eq!(TmaDataType::of(ElementType::E2M1), TmaDataType::U4x16Align16B);
    /// assert_eq!(TmaDataType::of(ElementType::E3M2), TmaDataType::U6x16Align16B);
    /// assert_eq!(TmaDataType::of(ElementType::F32), TmaDataType::Tfloat32);
    /// ```
    #[inline]
    pub const fn of(dtype: ElementType) -> TmaDataType {
        match dtype {
            ElementType::F16 => TmaDataType::Float16,
            ElementType::BF16 => TmaDataType::Bfloat16,
            ElementType::TF32 => TmaDataType::Tfloat32,
            // f32 operands feed the tf32 MMA: TMA rounds them to tf32 (see above).
            ElementType::F32 => TmaDataType::Tfloat32,
            ElementType::E2M1 => TmaDataType::U4x16Align16B,
            ElementType::E2M3 | ElementType::E3M2 => TmaDataType::U6x16Align16B,
            _ => TmaDataType::Uint8,
        }
    }

    /// The enum's numeric value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TmaDataType::Tfloat32.value(), 11);
    /// ```
    #[inline]
    pub const fn value(self) -> u32 {
        match self {
            TmaDataType::Uint8 => 0,
            TmaDataType::Float16 => 6,
            TmaDataType::Float32 => 7,
            TmaDataType::Bfloat16 => 9,
            TmaDataType::Tfloat32 => 11,
            TmaDataType::U4x16Align8B => 13,
            TmaDataType::U4x16Align16B => 14,
            TmaDataType::U6x16Align16B => 15,
        }
    }

    /// The enumerator's name in `cuda.h`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TmaDataType::Float16.name(), "CU_TENSOR_MAP_DATA_TYPE_FLOAT16");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            TmaDataType::Uint8 => "CU_TENSOR_MAP_DATA_TYPE_UINT8",
            TmaDataType::Float16 => "CU_TENSOR_MAP_DATA_TYPE_FLOAT16",
            TmaDataType::Float32 => "CU_TENSOR_MAP_DATA_TYPE_FLOAT32",
            TmaDataType::Bfloat16 => "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
            TmaDataType::Tfloat32 => "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32",
            TmaDataType::U4x16Align8B => "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B",
            TmaDataType::U4x16Align16B => "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B",
            TmaDataType::U6x16Align16B => "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B",
        }
    }
}
