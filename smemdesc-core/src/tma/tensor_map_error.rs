//! Typed errors of [`TensorMap`](crate::TensorMap): one variant per rule of `cuTensorMapEncodeTiled`
//! (CUDA driver API documentation, "Tensor Map Object Management") and per rule measured on an H100
//! (`shared/notes/tensor-maps.md`), each naming the argument and its legal values.

use crate::base::arch::Arch;
use crate::tma::tensor_map_types::{TensorMapDataType, TensorMapInterleave, TensorMapSwizzle};

/// An argument of `cuTensorMapEncodeTiled` (with the index into its array where it has one).
///
/// ```
/// use smemdesc_core::TensorMapArg;
/// assert_eq!(TensorMapArg::GlobalStrides(1).name(), "globalStrides");
/// assert_eq!(TensorMapArg::GlobalStrides(1).to_string(), "globalStrides[1]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TensorMapArg {
    /// `tensorDataType`.
    TensorDataType,
    /// `tensorRank`.
    TensorRank,
    /// `globalAddress`.
    GlobalAddress,
    /// `globalDim[i]` (elements, innermost first).
    GlobalDim(u32),
    /// `globalStrides[i]` (bytes; the stride of dimension `i + 1`).
    GlobalStrides(u32),
    /// `boxDim[i]`.
    BoxDim(u32),
    /// The whole `boxDim` array (a rule on the box's size).
    Box,
    /// `elementStrides[i]`.
    ElementStrides(u32),
    /// `interleave`.
    Interleave,
    /// `swizzle`.
    Swizzle,
    /// `oobFill`.
    OobFill,
}

impl TensorMapArg {
    /// The parameter's name in `cuda.h` (without the index).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TensorMapArg::BoxDim(0).name(), "boxDim");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            TensorMapArg::TensorDataType => "tensorDataType",
            TensorMapArg::TensorRank => "tensorRank",
            TensorMapArg::GlobalAddress => "globalAddress",
            TensorMapArg::GlobalDim(_) => "globalDim",
            TensorMapArg::GlobalStrides(_) => "globalStrides",
            TensorMapArg::BoxDim(_) | TensorMapArg::Box => "boxDim",
            TensorMapArg::ElementStrides(_) => "elementStrides",
            TensorMapArg::Interleave => "interleave",
            TensorMapArg::Swizzle => "swizzle",
            TensorMapArg::OobFill => "oobFill",
        }
    }

    /// The array index, for the array arguments.
    ///
    /// ```
    /// use smemdesc_core::TensorMapArg;
    /// assert_eq!((TensorMapArg::GlobalDim(3).index(), TensorMapArg::Swizzle.index()), (Some(3), None));
    /// ```
    pub const fn index(self) -> Option<u32> {
        match self {
            TensorMapArg::GlobalDim(i)
            | TensorMapArg::GlobalStrides(i)
            | TensorMapArg::BoxDim(i)
            | TensorMapArg::ElementStrides(i) => Some(i),
            _ => None,
        }
    }
}

impl core::fmt::Display for TensorMapArg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.index() {
            Some(i) => write!(f, "{}[{i}]", self.name()),
            None => f.write_str(self.name()),
        }
    }
}

/// Every way the arguments of a tensor map can be illegal.
///
/// `Display` names the argument, the value and the legal values; [`summary`](Self::summary) is a
/// static text for `const` panics; [`argument`](Self::argument) says which argument is at fault.
///
/// ```
/// use smemdesc_core::{TensorMapArg, TensorMapError};
/// let e = TensorMapError::StrideNotMultiple { index: 0, stride: 1000, multiple: 16 };
/// assert_eq!(e.argument(), TensorMapArg::GlobalStrides(0));
/// assert!(e.to_string().contains("multiple of 16"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TensorMapError {
    /// `tensorRank` is not in 1..=5.
    RankOutOfRange {
        /// The rank given.
        rank: u32,
    },
    /// A tile's tensor map has rank 1 (the box is two-dimensional).
    TileRank {
        /// The rank given.
        rank: u32,
    },
    /// An interleaved layout with rank below 3.
    InterleaveRank {
        /// The rank given.
        rank: u32,
        /// The interleave.
        interleave: TensorMapInterleave,
    },
    /// `globalAddress` is not aligned.
    AddressMisaligned {
        /// The address.
        address: u64,
        /// The alignment it needs (16 or 32 bytes).
        align: u32,
    },
    /// `globalDim[i]` is 0 or above 2^32.
    DimOutOfRange {
        /// The dimension.
        index: u32,
        /// Its value.
        dim: u64,
    },
    /// `globalDim[0]` of a packed type is not a multiple of 128 (ALIGN16B) or 2 (ALIGN8B).
    PackedDim0 {
        /// The value.
        dim: u64,
        /// The multiple it must be.
        multiple: u32,
        /// The data type.
        data_type: TensorMapDataType,
    },
    /// `globalStrides[i]` is not a multiple of 16 (32 with interleave 32B or an ALIGN16B type).
    StrideNotMultiple {
        /// The stride's index.
        index: u32,
        /// Its value (bytes).
        stride: u64,
        /// The multiple it must be.
        multiple: u32,
    },
    /// `globalStrides[i]` is 2^40 or more.
    StrideTooLarge {
        /// The stride's index.
        index: u32,
        /// Its value (bytes; `u64::MAX` for a dense stride that overflowed).
        stride: u64,
    },
    /// `globalStrides[i]` is smaller than the extent of the dimension below it.
    StrideTooSmall {
        /// The stride's index.
        index: u32,
        /// Its value (bytes).
        stride: u64,
        /// The least legal value (bytes).
        min: u64,
    },
    /// `boxDim[i]` is 0 or above 256.
    BoxDimOutOfRange {
        /// The box dimension.
        index: u32,
        /// Its value.
        value: u32,
    },
    /// `boxDim[0]` × element size is not a multiple of 16 bytes (documented for interleave NONE;
    /// measured for 16B and 32B interleave too).
    BoxInnerNot16B {
        /// `boxDim[0]`.
        box0: u32,
        /// Its width in bits (packed 4-bit types give half bytes).
        bits: u64,
    },
    /// `boxDim[0]` × element size exceeds the swizzle span (interleave NONE).
    BoxInnerOverSwizzle {
        /// `boxDim[0]`.
        box0: u32,
        /// Its width in bits.
        bits: u64,
        /// The swizzle.
        swizzle: TensorMapSwizzle,
    },
    /// `boxDim[0]` of an ALIGN16B type is not 128.
    PackedBox0 {
        /// `boxDim[0]`.
        box0: u32,
        /// The data type.
        data_type: TensorMapDataType,
    },
    /// The box holds more than 233,472 bytes (measured driver limit).
    BoxBytesTooLarge {
        /// The box's bytes, prod `floor(boxDim[i] / elementStrides[i])` × element size.
        bytes: u64,
    },
    /// `elementStrides[i]` is 0 or above 8.
    ElementStrideOutOfRange {
        /// The dimension.
        index: u32,
        /// Its value.
        value: u32,
    },
    /// Interleave 32B with a swizzle other than 32B.
    InterleaveSwizzle {
        /// The swizzle given.
        swizzle: TensorMapSwizzle,
    },
    /// `16U6_ALIGN16B` with an interleaved layout.
    PackedInterleave {
        /// The data type.
        data_type: TensorMapDataType,
        /// The interleave given.
        interleave: TensorMapInterleave,
    },
    /// A packed type with a swizzle it does not support.
    PackedSwizzle {
        /// The data type.
        data_type: TensorMapDataType,
        /// The swizzle given.
        swizzle: TensorMapSwizzle,
    },
    /// NaN-request-zero-FMA fill for a non-float type.
    OobFillNotFloat {
        /// The data type.
        data_type: TensorMapDataType,
    },
    /// A data type the architecture's driver refuses (the packed types on sm90).
    DataTypeNotOnArch {
        /// The data type.
        data_type: TensorMapDataType,
        /// The architecture.
        arch: Arch,
    },
    /// A swizzle the architecture's driver refuses (the `128B_ATOM_*` modes on sm90).
    SwizzleNotOnArch {
        /// The swizzle.
        swizzle: TensorMapSwizzle,
        /// The architecture.
        arch: Arch,
    },
    /// An argument of a tile's tensor map differs from what the tile's TMA plan fixes.
    TileMismatch {
        /// The argument.
        arg: TensorMapArg,
        /// The value the tile fixes.
        expected: u64,
        /// The value found.
        found: u64,
    },
    /// A value given at run time was not supplied before encoding.
    Unresolved {
        /// The argument.
        arg: TensorMapArg,
    },
    /// An array index at or beyond the maximum rank 5.
    IndexOutOfRange {
        /// The argument.
        arg: TensorMapArg,
    },
    /// A `globalDim[i]` a kernel rewrites (a grouped map) is above 2^32 − 1:
    /// `tensormap.replace.tile.global_dim` takes a `.b32` (PTX ISA, `tensormap.replace`), so
    /// 2^32, legal in a host encode, would be written as 0.
    RewrittenDimTooLarge {
        /// The dimension.
        index: u32,
        /// Its value.
        dim: u64,
    },
    /// A stride a grouped map keeps dense (computed from the group's dims and written by the
    /// rewrite) was given with another value.
    DenseStrideMismatch {
        /// The stride's index.
        index: u32,
        /// The value given (bytes).
        given: u64,
        /// The value the group's dims give, which the rewrite writes (bytes).
        dense: u64,
    },
}

impl TensorMapError {
    /// Which argument is at fault.
    ///
    /// ```
    /// use smemdesc_core::{TensorMapArg, TensorMapError};
    /// assert_eq!(TensorMapError::BoxDimOutOfRange { index: 1, value: 300 }.argument(), TensorMapArg::BoxDim(1));
    /// ```
    pub const fn argument(&self) -> TensorMapArg {
        match *self {
            TensorMapError::RankOutOfRange { .. }
            | TensorMapError::TileRank { .. }
            | TensorMapError::InterleaveRank { .. } => TensorMapArg::TensorRank,
            TensorMapError::AddressMisaligned { .. } => TensorMapArg::GlobalAddress,
            TensorMapError::DimOutOfRange { index, .. }
            | TensorMapError::RewrittenDimTooLarge { index, .. } => TensorMapArg::GlobalDim(index),
            TensorMapError::PackedDim0 { .. } => TensorMapArg::GlobalDim(0),
            TensorMapError::StrideNotMultiple { index, .. }
            | TensorMapError::StrideTooLarge { index, .. }
            | TensorMapError::StrideTooSmall { index, .. }
            | TensorMapError::DenseStrideMismatch { index, .. } => {
                TensorMapArg::GlobalStrides(index)
            }
            TensorMapError::BoxDimOutOfRange { index, .. } => TensorMapArg::BoxDim(index),
            TensorMapError::BoxInnerNot16B { .. }
            | TensorMapError::BoxInnerOverSwizzle { .. }
            | TensorMapError::PackedBox0 { .. } => TensorMapArg::BoxDim(0),
            TensorMapError::BoxBytesTooLarge { .. } => TensorMapArg::Box,
            TensorMapError::ElementStrideOutOfRange { index, .. } => {
                TensorMapArg::ElementStrides(index)
            }
            TensorMapError::InterleaveSwizzle { .. }
            | TensorMapError::PackedSwizzle { .. }
            | TensorMapError::SwizzleNotOnArch { .. } => TensorMapArg::Swizzle,
            TensorMapError::PackedInterleave { .. } => TensorMapArg::Interleave,
            TensorMapError::OobFillNotFloat { .. } => TensorMapArg::OobFill,
            TensorMapError::DataTypeNotOnArch { .. } => TensorMapArg::TensorDataType,
            TensorMapError::TileMismatch { arg, .. }
            | TensorMapError::Unresolved { arg }
            | TensorMapError::IndexOutOfRange { arg } => arg,
        }
    }

    /// A static one-line summary, usable in `const` panics.
    ///
    /// ```
    /// use smemdesc_core::TensorMapError;
    /// assert_eq!(TensorMapError::RankOutOfRange { rank: 6 }.summary(), "tensorRank must be 1 to 5");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            TensorMapError::RankOutOfRange { .. } => "tensorRank must be 1 to 5",
            TensorMapError::TileRank { .. } => "a tile's tensor map needs tensorRank 2 to 5",
            TensorMapError::InterleaveRank { .. } => "an interleaved tensor map needs tensorRank >= 3",
            TensorMapError::AddressMisaligned { .. } => "globalAddress is not aligned (16 B, or 32 B)",
            TensorMapError::DimOutOfRange { .. } => "globalDim must be in 1..=2^32",
            TensorMapError::PackedDim0 { .. } => {
                "globalDim[0] of a packed type must be a multiple of 128 (ALIGN16B) or 2 (ALIGN8B)"
            }
            TensorMapError::StrideNotMultiple { .. } => {
                "globalStrides must be multiples of 16 bytes (32 for interleave 32B and ALIGN16B types)"
            }
            TensorMapError::StrideTooLarge { .. } => "globalStrides must be below 2^40",
            TensorMapError::StrideTooSmall { .. } => {
                "globalStrides must cover the dimension below (dims and strides are inconsistent)"
            }
            TensorMapError::BoxDimOutOfRange { .. } => "boxDim must be in 1..=256",
            TensorMapError::BoxInnerNot16B { .. } => {
                "boxDim[0] times the element size must be a multiple of 16 bytes"
            }
            TensorMapError::BoxInnerOverSwizzle { .. } => {
                "boxDim[0] times the element size must not exceed the swizzle span"
            }
            TensorMapError::PackedBox0 { .. } => "boxDim[0] of an ALIGN16B type must be 128",
            TensorMapError::BoxBytesTooLarge { .. } => "the box must hold at most 233472 bytes",
            TensorMapError::ElementStrideOutOfRange { .. } => "elementStrides must be in 1..=8",
            TensorMapError::InterleaveSwizzle { .. } => "interleave 32B requires swizzle 32B",
            TensorMapError::PackedInterleave { .. } => "16U6_ALIGN16B requires interleave NONE",
            TensorMapError::PackedSwizzle { .. } => "swizzle not supported for this packed data type",
            TensorMapError::OobFillNotFloat { .. } => {
                "NaN-request-zero-FMA fill needs a floating-point data type"
            }
            TensorMapError::DataTypeNotOnArch { .. } => "tensorDataType not accepted on this arch",
            TensorMapError::SwizzleNotOnArch { .. } => "swizzle not accepted on this arch",
            TensorMapError::TileMismatch { .. } => "argument differs from the tile's TMA plan",
            TensorMapError::Unresolved { .. } => "a run-time value was not supplied",
            TensorMapError::IndexOutOfRange { .. } => "array index beyond the maximum rank 5",
            TensorMapError::RewrittenDimTooLarge { .. } => {
                "a globalDim rewritten on the device must be in 1..=2^32 - 1 (tensormap.replace takes .b32)"
            }
            TensorMapError::DenseStrideMismatch { .. } => {
                "a stride the grouped map keeps dense was given with another value"
            }
        }
    }
}

/// `bits` as bytes, with `.5` for a half byte.
struct Bytes(u64);

impl core::fmt::Display for Bytes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (whole, rest) = (self.0 / 8, self.0 % 8);
        if rest == 0 {
            write!(f, "{whole} B")
        } else {
            write!(f, "{whole}.{} B", rest * 125)
        }
    }
}

fn packed_swizzles(t: TensorMapDataType) -> &'static str {
    match t {
        TensorMapDataType::U6x16Align16B => "NONE, 128B, 128B_ATOM_32B, 128B_ATOM_64B (store only)",
        _ => "NONE, 128B, 128B_ATOM_32B (load only)",
    }
}

impl TensorMapError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let arg = self.argument();
        match *self {
            TensorMapError::RankOutOfRange { rank } => {
                write!(f, "{arg} = {rank}; legal: 1 to 5")
            }
            TensorMapError::TileRank { rank } => write!(
                f,
                "{arg} = {rank}, but a tile's box has two dimensions; legal: 2 to 5"
            ),
            TensorMapError::InterleaveRank { rank, interleave } => write!(
                f,
                "{arg} = {rank} with interleave {}; an interleaved layout needs rank 3 to 5 (or interleave NONE)",
                interleave.name()
            ),
            TensorMapError::AddressMisaligned { address, align } => write!(
                f,
                "{arg} {address:#x} is not {align}-byte aligned; legal: a multiple of {align}"
            ),
            TensorMapError::DimOutOfRange { dim, .. } => {
                write!(f, "{arg} = {dim}; legal: 1 to 2^32 (4294967296)")
            }
            TensorMapError::PackedDim0 { dim, multiple, data_type } => write!(
                f,
                "{arg} = {dim} for {}; legal: a multiple of {multiple} (the count of packed values)",
                data_type.name()
            ),
            TensorMapError::StrideNotMultiple { stride, multiple, .. } => write!(
                f,
                "{arg} = {stride} B; legal: a multiple of {multiple} B below 2^40"
            ),
            TensorMapError::StrideTooLarge { stride, .. } => {
                if stride == u64::MAX {
                    write!(f, "{arg} overflows: the dense stride of these globalDim values is 2^64 B or more; legal: below 2^40 B")
                } else {
                    write!(f, "{arg} = {stride} B; legal: below 2^40 (1099511627776) B")
                }
            }
            TensorMapError::StrideTooSmall { index, stride, min } => write!(
                f,
                "{arg} = {stride} B is smaller than the {min} B that dimension {index} spans; legal: at least {min} B (a multiple of 16)"
            ),
            TensorMapError::BoxDimOutOfRange { value, .. } => {
                write!(f, "{arg} = {value}; legal: 1 to 256")
            }
            TensorMapError::BoxInnerNot16B { box0, bits } => write!(
                f,
                "{arg} = {box0} elements is {}; the inner box must be a multiple of 16 B (with any interleave)",
                Bytes(bits)
            ),
            TensorMapError::BoxInnerOverSwizzle { box0, bits, swizzle } => write!(
                f,
                "{arg} = {box0} elements is {} but {} spans {} B; legal: an inner box of at most {} B",
                Bytes(bits),
                swizzle.name(),
                swizzle.span(),
                swizzle.span()
            ),
            TensorMapError::PackedBox0 { box0, data_type } => write!(
                f,
                "{arg} = {box0} for {}; legal: exactly 128",
                data_type.name()
            ),
            TensorMapError::BoxBytesTooLarge { bytes } => write!(
                f,
                "the box holds {bytes} B (prod of floor(boxDim[i] / elementStrides[i]) x element size); the driver accepts at most 233472 B (228 KiB)"
            ),
            TensorMapError::ElementStrideOutOfRange { value, .. } => {
                write!(f, "{arg} = {value}; legal: 1 to 8")
            }
            TensorMapError::InterleaveSwizzle { swizzle } => write!(
                f,
                "{arg} {} with CU_TENSOR_MAP_INTERLEAVE_32B; legal: CU_TENSOR_MAP_SWIZZLE_32B only",
                swizzle.name()
            ),
            TensorMapError::PackedInterleave { data_type, interleave } => write!(
                f,
                "{arg} {} with {}; legal: CU_TENSOR_MAP_INTERLEAVE_NONE only",
                interleave.name(),
                data_type.name()
            ),
            TensorMapError::PackedSwizzle { data_type, swizzle } => write!(
                f,
                "{arg} {} is not supported for {}; legal: {}",
                swizzle.name(),
                data_type.name(),
                packed_swizzles(data_type)
            ),
            TensorMapError::OobFillNotFloat { data_type } => write!(
                f,
                "{arg} NAN_REQUEST_ZERO_FMA with {}, which is not a floating-point type; legal: CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE",
                data_type.name()
            ),
            TensorMapError::DataTypeNotOnArch { data_type, arch } => write!(
                f,
                "{arg} {} is refused by the driver on {} (Blackwell only); legal there: UINT8 ... TFLOAT32_FTZ (values 0-12)",
                data_type.name(),
                arch.name()
            ),
            TensorMapError::SwizzleNotOnArch { swizzle, arch } => write!(
                f,
                "{arg} {} is refused by the driver on {} (Blackwell only); legal there: NONE, 32B, 64B, 128B",
                swizzle.name(),
                arch.name()
            ),
            TensorMapError::TileMismatch { expected, found, .. } => match arg {
                TensorMapArg::TensorDataType => write!(
                    f,
                    "{arg} has {found}-bit elements but the tile holds {expected}-bit ones; legal: a {expected}-bit type"
                ),
                _ => write!(
                    f,
                    "{arg} = {found}, but the tile's TMA plan fixes it; legal: {expected}"
                ),
            },
            TensorMapError::Unresolved { .. } => write!(
                f,
                "{arg} is a run-time value and was not supplied; set it before encoding"
            ),
            TensorMapError::IndexOutOfRange { .. } => {
                write!(f, "{arg} is beyond the maximum rank; legal indices: 0 to 4 (globalStrides: 0 to 3)")
            }
            TensorMapError::RewrittenDimTooLarge { dim, .. } => write!(
                f,
                "{arg} = {dim} is rewritten on the device, and tensormap.replace.tile.global_dim takes a .b32 (PTX ISA, tensormap.replace): it would be written as {}; legal for a rewritten dim: 1 to 2^32 - 1 (4294967295); 2^32 only as a constant of the template (host-encoded)",
                dim as u32
            ),
            TensorMapError::DenseStrideMismatch { given, dense, .. } => write!(
                f,
                "{arg} = {given} B was given, but the grouped map keeps it dense: the rewrite writes the {dense} B this group's dims give; legal: 0 (not given) or {dense}, or list {arg} as rewritten to give it per group"
            ),
        }
    }
}
