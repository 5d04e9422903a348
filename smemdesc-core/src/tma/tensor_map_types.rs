//! The enumerations `cuTensorMapEncodeTiled` takes, complete as in `cuda.h` (CUDA 12.8 and later,
//! CUDA 13): `CUtensorMapDataType`, `CUtensorMapSwizzle`, `CUtensorMapInterleave`,
//! `CUtensorMapL2promotion`, `CUtensorMapFloatOOBfill`. Values and sizes are those of the CUDA driver
//! API documentation of `cuTensorMapEncodeTiled` (section "Tensor Map Object Management").
//!
//! [`TmaDataType`](crate::TmaDataType) and [`TmaSwizzle`](crate::TmaSwizzle) are the subsets a tile's
//! TMA plan uses; [`TensorMapDataType::of_tma`] and [`TensorMapSwizzle::of_tma`] convert by value.

use crate::base::arch::Arch;
use crate::tile::tma_plan::{TmaDataType, TmaSwizzle};

/// `CUtensorMapDataType`, every enumerator of `cuda.h`.
///
/// ```
/// use smemdesc_core::TensorMapDataType as T;
/// assert_eq!(T::Bfloat16.value(), 9);
/// assert_eq!(T::U4x16Align16B.name(), "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B");
/// assert_eq!(T::from_value(15), Some(T::U6x16Align16B));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TensorMapDataType {
    /// `UINT8` = 0 (1 byte).
    Uint8,
    /// `UINT16` = 1 (2 bytes).
    Uint16,
    /// `UINT32` = 2 (4 bytes).
    Uint32,
    /// `INT32` = 3 (4 bytes).
    Int32,
    /// `UINT64` = 4 (8 bytes).
    Uint64,
    /// `INT64` = 5 (8 bytes).
    Int64,
    /// `FLOAT16` = 6 (2 bytes).
    Float16,
    /// `FLOAT32` = 7 (4 bytes).
    Float32,
    /// `FLOAT64` = 8 (8 bytes).
    Float64,
    /// `BFLOAT16` = 9 (2 bytes).
    Bfloat16,
    /// `FLOAT32_FTZ` = 10 (4 bytes).
    Float32Ftz,
    /// `TFLOAT32` = 11 (4 bytes).
    Tfloat32,
    /// `TFLOAT32_FTZ` = 12 (4 bytes).
    Tfloat32Ftz,
    /// `16U4_ALIGN8B` = 13: 16 packed 4-bit values in 8 bytes, no gaps (Blackwell).
    U4x16Align8B,
    /// `16U4_ALIGN16B` = 14: 16 packed 4-bit values per 16 bytes of shared memory, 8-byte gaps
    /// (Blackwell).
    U4x16Align16B,
    /// `16U6_ALIGN16B` = 15: 16 packed 6-bit values per 16 bytes of shared memory, 4-byte gaps
    /// (Blackwell).
    U6x16Align16B,
}

impl TensorMapDataType {
    /// Every enumerator, in `cuda.h` order (index = value).
    ///
    /// ```
    /// use smemdesc_core::TensorMapDataType as T;
    /// assert!(T::ALL.iter().enumerate().all(|(i, t)| t.value() == i as u32));
    /// ```
    pub const ALL: [TensorMapDataType; 16] = [
        TensorMapDataType::Uint8,
        TensorMapDataType::Uint16,
        TensorMapDataType::Uint32,
        TensorMapDataType::Int32,
        TensorMapDataType::Uint64,
        TensorMapDataType::Int64,
        TensorMapDataType::Float16,
        TensorMapDataType::Float32,
        TensorMapDataType::Float64,
        TensorMapDataType::Bfloat16,
        TensorMapDataType::Float32Ftz,
        TensorMapDataType::Tfloat32,
        TensorMapDataType::Tfloat32Ftz,
        TensorMapDataType::U4x16Align8B,
        TensorMapDataType::U4x16Align16B,
        TensorMapDataType::U6x16Align16B,
    ];

    /// The enumerator's value in `cuda.h`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapDataType::Tfloat32Ftz.value(), 12);
    /// ```
    pub const fn value(self) -> u32 {
        self as u32
    }

    /// The enumerator with value `v`, if any.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapDataType::from_value(16), None);
    /// ```
    pub const fn from_value(v: u32) -> Option<TensorMapDataType> {
        if v < 16 {
            Some(Self::ALL[v as usize])
        } else {
            None
        }
    }

    /// The data type of a tile's TMA plan (same `cuda.h` value).
    ///
    /// ```
    /// use smemdesc_core::{TensorMapDataType, TmaDataType};
    /// assert_eq!(TensorMapDataType::of_tma(TmaDataType::Bfloat16), TensorMapDataType::Bfloat16);
    /// ```
    pub const fn of_tma(t: TmaDataType) -> TensorMapDataType {
        match Self::from_value(t.value()) {
            Some(d) => d,
            // Every `TmaDataType` value is a `cuda.h` enumerator (checked by the unit tests).
            None => TensorMapDataType::Uint8,
        }
    }

    /// The enumerator's name in `cuda.h`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapDataType::Int64.name(), "CU_TENSOR_MAP_DATA_TYPE_INT64");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            TensorMapDataType::Uint8 => "CU_TENSOR_MAP_DATA_TYPE_UINT8",
            TensorMapDataType::Uint16 => "CU_TENSOR_MAP_DATA_TYPE_UINT16",
            TensorMapDataType::Uint32 => "CU_TENSOR_MAP_DATA_TYPE_UINT32",
            TensorMapDataType::Int32 => "CU_TENSOR_MAP_DATA_TYPE_INT32",
            TensorMapDataType::Uint64 => "CU_TENSOR_MAP_DATA_TYPE_UINT64",
            TensorMapDataType::Int64 => "CU_TENSOR_MAP_DATA_TYPE_INT64",
            TensorMapDataType::Float16 => "CU_TENSOR_MAP_DATA_TYPE_FLOAT16",
            TensorMapDataType::Float32 => "CU_TENSOR_MAP_DATA_TYPE_FLOAT32",
            TensorMapDataType::Float64 => "CU_TENSOR_MAP_DATA_TYPE_FLOAT64",
            TensorMapDataType::Bfloat16 => "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
            TensorMapDataType::Float32Ftz => "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ",
            TensorMapDataType::Tfloat32 => "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32",
            TensorMapDataType::Tfloat32Ftz => "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ",
            TensorMapDataType::U4x16Align8B => "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B",
            TensorMapDataType::U4x16Align16B => "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B",
            TensorMapDataType::U6x16Align16B => "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B",
        }
    }

    /// Bits one value occupies in global memory (the packed types are stored without gaps there).
    ///
    /// ```
    /// use smemdesc_core::TensorMapDataType as T;
    /// assert_eq!((T::Float64.global_bits(), T::U6x16Align16B.global_bits()), (64, 6));
    /// ```
    pub const fn global_bits(self) -> u32 {
        match self {
            TensorMapDataType::Uint8 => 8,
            TensorMapDataType::Uint16
            | TensorMapDataType::Float16
            | TensorMapDataType::Bfloat16 => 16,
            TensorMapDataType::Uint32
            | TensorMapDataType::Int32
            | TensorMapDataType::Float32
            | TensorMapDataType::Float32Ftz
            | TensorMapDataType::Tfloat32
            | TensorMapDataType::Tfloat32Ftz => 32,
            TensorMapDataType::Uint64 | TensorMapDataType::Int64 | TensorMapDataType::Float64 => 64,
            TensorMapDataType::U4x16Align8B | TensorMapDataType::U4x16Align16B => 4,
            TensorMapDataType::U6x16Align16B => 6,
        }
    }

    /// Bits one value occupies in the shared-memory box: the element size the box rules use. The
    /// ALIGN16B types spread 16 values over 16 bytes (8 or 4 bytes of gaps), so 8 bits each;
    /// `16U4_ALIGN8B` packs them, 4 bits each.
    ///
    /// ```
    /// use smemdesc_core::TensorMapDataType as T;
    /// assert_eq!((T::U4x16Align8B.box_bits(), T::U4x16Align16B.box_bits()), (4, 8));
    /// ```
    pub const fn box_bits(self) -> u32 {
        match self {
            TensorMapDataType::U4x16Align16B | TensorMapDataType::U6x16Align16B => 8,
            _ => self.global_bits(),
        }
    }

    /// A floating-point type (the ones `CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA` allows).
    ///
    /// ```
    /// use smemdesc_core::TensorMapDataType as T;
    /// assert!(T::Tfloat32.is_float() && !T::Int32.is_float() && !T::U6x16Align16B.is_float());
    /// ```
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            TensorMapDataType::Float16
                | TensorMapDataType::Float32
                | TensorMapDataType::Float64
                | TensorMapDataType::Bfloat16
                | TensorMapDataType::Float32Ftz
                | TensorMapDataType::Tfloat32
                | TensorMapDataType::Tfloat32Ftz
        )
    }

    /// One of the packed sub-byte types (`16U4_ALIGN8B`, `16U4_ALIGN16B`, `16U6_ALIGN16B`).
    ///
    /// ```
    /// assert!(smemdesc_core::TensorMapDataType::U4x16Align8B.is_packed());
    /// ```
    pub const fn is_packed(self) -> bool {
        matches!(
            self,
            TensorMapDataType::U4x16Align8B
                | TensorMapDataType::U4x16Align16B
                | TensorMapDataType::U6x16Align16B
        )
    }

    /// `16U4_ALIGN16B` or `16U6_ALIGN16B`: 32-byte address and strides, `boxDim[0] = 128`.
    ///
    /// ```
    /// assert!(!smemdesc_core::TensorMapDataType::U4x16Align8B.is_align16b());
    /// ```
    pub const fn is_align16b(self) -> bool {
        matches!(
            self,
            TensorMapDataType::U4x16Align16B | TensorMapDataType::U6x16Align16B
        )
    }

    /// Whether the driver accepts the type for a context of `arch`. The packed types were never
    /// accepted on an sm90 context (measured on an H100, `shared/notes/tensor-maps.md`).
    ///
    /// ```
    /// use smemdesc_core::{Arch, TensorMapDataType as T};
    /// assert!(!T::U4x16Align8B.on(Arch::Sm90) && T::U4x16Align8B.on(Arch::Sm100));
    /// ```
    pub const fn on(self, arch: Arch) -> bool {
        !self.is_packed() || arch.has_tcgen05()
    }
}

/// `CUtensorMapSwizzle`, every enumerator of `cuda.h`.
///
/// ```
/// use smemdesc_core::TensorMapSwizzle as S;
/// assert_eq!(S::B128Atom64B.value(), 6);
/// assert_eq!(S::B64.span(), 64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TensorMapSwizzle {
    /// `CU_TENSOR_MAP_SWIZZLE_NONE` = 0.
    None,
    /// `CU_TENSOR_MAP_SWIZZLE_32B` = 1: 16-B chunks within a 32-B span.
    B32,
    /// `CU_TENSOR_MAP_SWIZZLE_64B` = 2: 16-B chunks within a 64-B span.
    B64,
    /// `CU_TENSOR_MAP_SWIZZLE_128B` = 3: 16-B chunks within a 128-B span.
    B128,
    /// `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B` = 4: 32-B chunks within a 128-B span (Blackwell).
    B128Atom32B,
    /// `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B` = 5 (Blackwell).
    B128Atom32BFlip8B,
    /// `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B` = 6: 64-B chunks within a 128-B span (Blackwell).
    B128Atom64B,
}

impl TensorMapSwizzle {
    /// Every enumerator, index = value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapSwizzle::ALL.len(), 7);
    /// ```
    pub const ALL: [TensorMapSwizzle; 7] = [
        TensorMapSwizzle::None,
        TensorMapSwizzle::B32,
        TensorMapSwizzle::B64,
        TensorMapSwizzle::B128,
        TensorMapSwizzle::B128Atom32B,
        TensorMapSwizzle::B128Atom32BFlip8B,
        TensorMapSwizzle::B128Atom64B,
    ];

    /// The enumerator's value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapSwizzle::B128.value(), 3);
    /// ```
    pub const fn value(self) -> u32 {
        self as u32
    }

    /// The enumerator with value `v`, if any.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapSwizzle::from_value(7), None);
    /// ```
    pub const fn from_value(v: u32) -> Option<TensorMapSwizzle> {
        if v < 7 {
            Some(Self::ALL[v as usize])
        } else {
            None
        }
    }

    /// The swizzle of a tile's TMA plan (same `cuda.h` value).
    ///
    /// ```
    /// use smemdesc_core::{TensorMapSwizzle, TmaSwizzle};
    /// assert_eq!(TensorMapSwizzle::of_tma(TmaSwizzle::B128Atom32B), TensorMapSwizzle::B128Atom32B);
    /// ```
    pub const fn of_tma(s: TmaSwizzle) -> TensorMapSwizzle {
        match Self::from_value(s.value()) {
            Some(v) => v,
            // Every `TmaSwizzle` value is a `cuda.h` enumerator (checked by the unit tests).
            None => TensorMapSwizzle::None,
        }
    }

    /// The enumerator's name in `cuda.h`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapSwizzle::B32.name(), "CU_TENSOR_MAP_SWIZZLE_32B");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            TensorMapSwizzle::None => "CU_TENSOR_MAP_SWIZZLE_NONE",
            TensorMapSwizzle::B32 => "CU_TENSOR_MAP_SWIZZLE_32B",
            TensorMapSwizzle::B64 => "CU_TENSOR_MAP_SWIZZLE_64B",
            TensorMapSwizzle::B128 => "CU_TENSOR_MAP_SWIZZLE_128B",
            TensorMapSwizzle::B128Atom32B => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
            TensorMapSwizzle::B128Atom32BFlip8B => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B",
            TensorMapSwizzle::B128Atom64B => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
        }
    }

    /// The swizzle span in bytes, the largest inner box extent it allows (0 for `NONE`: no limit).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapSwizzle::B128Atom32B.span(), 128);
    /// ```
    pub const fn span(self) -> u32 {
        match self {
            TensorMapSwizzle::None => 0,
            TensorMapSwizzle::B32 => 32,
            TensorMapSwizzle::B64 => 64,
            _ => 128,
        }
    }

    /// Whether the driver accepts the swizzle for a context of `arch`. The `128B_ATOM_*` modes were
    /// never accepted on an sm90 context (measured on an H100, `shared/notes/tensor-maps.md`).
    ///
    /// ```
    /// use smemdesc_core::{Arch, TensorMapSwizzle as S};
    /// assert!(S::B128.on(Arch::Sm90) && !S::B128Atom64B.on(Arch::Sm90));
    /// ```
    pub const fn on(self, arch: Arch) -> bool {
        self.value() <= 3 || arch.has_tcgen05()
    }
}

/// `CUtensorMapInterleave`.
///
/// ```
/// assert_eq!(smemdesc_core::TensorMapInterleave::B32.value(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TensorMapInterleave {
    /// `CU_TENSOR_MAP_INTERLEAVE_NONE` = 0.
    None,
    /// `CU_TENSOR_MAP_INTERLEAVE_16B` = 1.
    B16,
    /// `CU_TENSOR_MAP_INTERLEAVE_32B` = 2.
    B32,
}

impl TensorMapInterleave {
    /// Every enumerator, index = value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapInterleave::ALL.len(), 3);
    /// ```
    pub const ALL: [TensorMapInterleave; 3] = [
        TensorMapInterleave::None,
        TensorMapInterleave::B16,
        TensorMapInterleave::B32,
    ];

    /// The enumerator's value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapInterleave::None.value(), 0);
    /// ```
    pub const fn value(self) -> u32 {
        self as u32
    }

    /// The enumerator's name in `cuda.h`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapInterleave::B16.name(), "CU_TENSOR_MAP_INTERLEAVE_16B");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            TensorMapInterleave::None => "CU_TENSOR_MAP_INTERLEAVE_NONE",
            TensorMapInterleave::B16 => "CU_TENSOR_MAP_INTERLEAVE_16B",
            TensorMapInterleave::B32 => "CU_TENSOR_MAP_INTERLEAVE_32B",
        }
    }
}

/// `CUtensorMapL2promotion`.
///
/// ```
/// assert_eq!(smemdesc_core::TensorMapL2Promotion::L2_256B.value(), 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum TensorMapL2Promotion {
    /// `CU_TENSOR_MAP_L2_PROMOTION_NONE` = 0.
    None,
    /// `CU_TENSOR_MAP_L2_PROMOTION_L2_64B` = 1.
    L2_64B,
    /// `CU_TENSOR_MAP_L2_PROMOTION_L2_128B` = 2.
    L2_128B,
    /// `CU_TENSOR_MAP_L2_PROMOTION_L2_256B` = 3.
    L2_256B,
}

impl TensorMapL2Promotion {
    /// Every enumerator, index = value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapL2Promotion::ALL.len(), 4);
    /// ```
    pub const ALL: [TensorMapL2Promotion; 4] = [
        TensorMapL2Promotion::None,
        TensorMapL2Promotion::L2_64B,
        TensorMapL2Promotion::L2_128B,
        TensorMapL2Promotion::L2_256B,
    ];

    /// The enumerator's value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapL2Promotion::L2_128B.value(), 2);
    /// ```
    pub const fn value(self) -> u32 {
        self as u32
    }

    /// The enumerator's name in `cuda.h`.
    ///
    /// ```
    /// use smemdesc_core::TensorMapL2Promotion as L;
    /// assert_eq!(L::L2_64B.name(), "CU_TENSOR_MAP_L2_PROMOTION_L2_64B");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            TensorMapL2Promotion::None => "CU_TENSOR_MAP_L2_PROMOTION_NONE",
            TensorMapL2Promotion::L2_64B => "CU_TENSOR_MAP_L2_PROMOTION_L2_64B",
            TensorMapL2Promotion::L2_128B => "CU_TENSOR_MAP_L2_PROMOTION_L2_128B",
            TensorMapL2Promotion::L2_256B => "CU_TENSOR_MAP_L2_PROMOTION_L2_256B",
        }
    }
}

/// `CUtensorMapFloatOOBfill`.
///
/// ```
/// assert_eq!(smemdesc_core::TensorMapOobFill::NanRequestZeroFma.value(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TensorMapOobFill {
    /// `CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE` = 0 (out-of-bound elements read as zero).
    None,
    /// `CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA` = 1 (floating-point types only).
    NanRequestZeroFma,
}

impl TensorMapOobFill {
    /// Every enumerator, index = value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapOobFill::ALL.len(), 2);
    /// ```
    pub const ALL: [TensorMapOobFill; 2] =
        [TensorMapOobFill::None, TensorMapOobFill::NanRequestZeroFma];

    /// The enumerator's value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapOobFill::None.value(), 0);
    /// ```
    pub const fn value(self) -> u32 {
        self as u32
    }

    /// The enumerator's name in `cuda.h`.
    ///
    /// ```
    /// use smemdesc_core::TensorMapOobFill as F;
    /// assert_eq!(F::NanRequestZeroFma.name(), "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            TensorMapOobFill::None => "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE",
            TensorMapOobFill::NanRequestZeroFma => {
                "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA"
            }
        }
    }
}
