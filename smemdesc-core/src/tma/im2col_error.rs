//! Typed errors of [`Im2colMap`](crate::Im2colMap): the rules `cuTensorMapEncodeIm2col` shares
//! with `cuTensorMapEncodeTiled` are [`TensorMapError`]s (wrapped in [`Im2colError::Map`]); the
//! rules of its own arguments (rank, pixel-box corners, channels per pixel, pixels per column, the
//! box size) have their own variants, each naming the argument and its legal values.

use crate::tma::tensor_map_error::{TensorMapArg, TensorMapError};
use crate::tma::tensor_map_types::{TensorMapDataType, TensorMapSwizzle};

/// An argument of `cuTensorMapEncodeIm2col`: one it shares with `cuTensorMapEncodeTiled`, or one
/// of its own (with the index into its array where it has one).
///
/// ```
/// use smemdesc_core::{Im2colArg, TensorMapArg};
/// assert_eq!(Im2colArg::PixelBoxLowerCorner(1).to_string(), "pixelBoxLowerCorner[1]");
/// assert_eq!(Im2colArg::Map(TensorMapArg::GlobalDim(0)).to_string(), "globalDim[0]");
/// assert_eq!(Im2colArg::ChannelsPerPixel.name(), "channelsPerPixel");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Im2colArg {
    /// An argument both encoders take (`tensorRank`, `globalDim[i]`, `elementStrides[i]`, ...).
    Map(TensorMapArg),
    /// `pixelBoxLowerCorner[i]`: the offset of the bounding box's first corner along spatial
    /// dimension `i + 1` (W first).
    PixelBoxLowerCorner(u32),
    /// `pixelBoxUpperCorner[i]`: the offset of the bounding box's last corner along spatial
    /// dimension `i + 1` (W first).
    PixelBoxUpperCorner(u32),
    /// `channelsPerPixel`.
    ChannelsPerPixel,
    /// `pixelsPerColumn`.
    PixelsPerColumn,
}

impl Im2colArg {
    /// The parameter's name in `cuda.h` (without the index).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Im2colArg::PixelBoxUpperCorner(0).name(), "pixelBoxUpperCorner");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Im2colArg::Map(a) => a.name(),
            Im2colArg::PixelBoxLowerCorner(_) => "pixelBoxLowerCorner",
            Im2colArg::PixelBoxUpperCorner(_) => "pixelBoxUpperCorner",
            Im2colArg::ChannelsPerPixel => "channelsPerPixel",
            Im2colArg::PixelsPerColumn => "pixelsPerColumn",
        }
    }

    /// The array index, for the array arguments.
    ///
    /// ```
    /// use smemdesc_core::Im2colArg;
    /// assert_eq!((Im2colArg::PixelBoxUpperCorner(2).index(), Im2colArg::PixelsPerColumn.index()), (Some(2), None));
    /// ```
    pub const fn index(self) -> Option<u32> {
        match self {
            Im2colArg::Map(a) => a.index(),
            Im2colArg::PixelBoxLowerCorner(i) | Im2colArg::PixelBoxUpperCorner(i) => Some(i),
            _ => None,
        }
    }
}

impl core::fmt::Display for Im2colArg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.index() {
            Some(i) => write!(f, "{}[{i}]", self.name()),
            None => f.write_str(self.name()),
        }
    }
}

/// Every way the arguments of an im2col tensor map can be illegal.
///
/// `Display` names the argument, the value and the legal values; [`summary`](Self::summary) is a
/// static text for `const` panics; [`argument`](Self::argument) says which argument is at fault.
///
/// ```
/// use smemdesc_core::{Im2colArg, Im2colError};
/// let e = Im2colError::PixelsOutOfRange { pixels: 2048 };
/// assert_eq!(e.argument(), Im2colArg::PixelsPerColumn);
/// assert!(e.to_string().contains("legal: 1 to 1024"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Im2colError {
    /// A rule `cuTensorMapEncodeIm2col` shares with `cuTensorMapEncodeTiled` (address, dims,
    /// strides, element strides, the enumerated options and the architecture).
    Map(TensorMapError),
    /// `tensorRank` is not 3, 4 or 5.
    RankOutOfRange {
        /// The rank given.
        rank: u32,
    },
    /// A pixel-box corner offset outside the range its rank allows.
    CornerOutOfRange {
        /// `PixelBoxLowerCorner(i)` or `PixelBoxUpperCorner(i)`.
        arg: Im2colArg,
        /// The offset given.
        value: i32,
        /// The tensor rank (it sets the range).
        rank: u32,
    },
    /// The bounding box is empty along a spatial dimension: `globalDim[d] + pixelBoxUpperCorner[i]`,
    /// computed as the driver does in 32-bit signed arithmetic, is not above
    /// `pixelBoxLowerCorner[i]`. `d` is `i + 1` (W, H, D) with interleave NONE and `i` with
    /// interleave 16B or 32B; both the dimension and the 32-bit sum are measured (driver 13.0,
    /// `docs/guide/host.md`, "Im2col maps against the driver").
    EmptyBoundingBox {
        /// The corner index `i`.
        index: u32,
        /// The dimension `d` the corners bound (`i + 1`, or `i` with interleave).
        dim_index: u32,
        /// `globalDim[d]`.
        dim: u64,
        /// `pixelBoxLowerCorner[i]`.
        lower: i32,
        /// `pixelBoxUpperCorner[i]`.
        upper: i32,
    },
    /// `channelsPerPixel` is 0 or above 256.
    ChannelsOutOfRange {
        /// The value given.
        channels: u32,
    },
    /// `channelsPerPixel` of an ALIGN16B type is not 128.
    PackedChannels {
        /// The value given.
        channels: u32,
        /// The data type.
        data_type: TensorMapDataType,
    },
    /// `channelsPerPixel` × element size is not a multiple of 16 bytes (the inner box rule of
    /// tiled maps, applied to the im2col box's inner dimension).
    ChannelsNot16B {
        /// The value given.
        channels: u32,
        /// Its width in bits.
        bits: u64,
    },
    /// `channelsPerPixel` × element size exceeds the swizzle span (interleave NONE).
    ChannelsOverSwizzle {
        /// The value given.
        channels: u32,
        /// Its width in bits.
        bits: u64,
        /// The swizzle.
        swizzle: TensorMapSwizzle,
    },
    /// `pixelsPerColumn` is 0 or above 1024.
    PixelsOutOfRange {
        /// The value given.
        pixels: u32,
    },
    /// The box, `channelsPerPixel` × `pixelsPerColumn` × element size, holds more than 233,472
    /// bytes (the box limit measured for tiled maps, `shared/notes/tensor-maps.md`).
    BoxBytesTooLarge {
        /// The box's bytes.
        bytes: u64,
    },
    /// A corner index at or beyond 3 (a rank-5 map has three spatial dimensions).
    IndexOutOfRange {
        /// The argument.
        arg: Im2colArg,
    },
}

impl From<TensorMapError> for Im2colError {
    fn from(e: TensorMapError) -> Self {
        Im2colError::Map(e)
    }
}

/// The legal range of a pixel-box corner offset for `rank` (3: one offset in [-2^15, 2^15 - 1],
/// 4: two in [-2^7, 2^7 - 1], 5: three in [-2^4, 2^4 - 1]); `None` for other ranks.
///
/// ```
/// assert_eq!(smemdesc_core::im2col_corner_range(4), Some((-128, 127)));
/// assert_eq!(smemdesc_core::im2col_corner_range(2), None);
/// ```
pub const fn im2col_corner_range(rank: u32) -> Option<(i32, i32)> {
    match rank {
        3 => Some((-32768, 32767)),
        4 => Some((-128, 127)),
        5 => Some((-16, 15)),
        _ => None,
    }
}

/// The largest im2col offset a `cp.async.bulk.tensor` load of `rank` takes (PTX ISA, "Tensors",
/// im2col mode, "Bounding Box": offsets in [0, 2^16 - 1] (rank 3), [0, 2^8 - 1] (rank 4),
/// [0, 2^5 - 1] (rank 5)); `None` for other ranks. The instruction's operands are 16-bit
/// registers, but only these values are valid.
///
/// ```
/// assert_eq!(smemdesc_core::im2col_offset_max(4), Some(255));
/// assert_eq!(smemdesc_core::im2col_offset_max(5), Some(31));
/// assert_eq!(smemdesc_core::im2col_offset_max(6), None);
/// ```
pub const fn im2col_offset_max(rank: u32) -> Option<u32> {
    match rank {
        3 => Some(65535),
        4 => Some(255),
        5 => Some(31),
        _ => None,
    }
}

impl Im2colError {
    /// Which argument is at fault.
    ///
    /// ```
    /// use smemdesc_core::{Im2colArg, Im2colError, TensorMapArg};
    /// assert_eq!(Im2colError::RankOutOfRange { rank: 2 }.argument(), Im2colArg::Map(TensorMapArg::TensorRank));
    /// ```
    pub const fn argument(&self) -> Im2colArg {
        match *self {
            Im2colError::Map(e) => Im2colArg::Map(e.argument()),
            Im2colError::RankOutOfRange { .. } => Im2colArg::Map(TensorMapArg::TensorRank),
            Im2colError::CornerOutOfRange { arg, .. } | Im2colError::IndexOutOfRange { arg } => arg,
            Im2colError::EmptyBoundingBox { index, .. } => Im2colArg::PixelBoxUpperCorner(index),
            Im2colError::ChannelsOutOfRange { .. }
            | Im2colError::PackedChannels { .. }
            | Im2colError::ChannelsNot16B { .. }
            | Im2colError::ChannelsOverSwizzle { .. } => Im2colArg::ChannelsPerPixel,
            Im2colError::PixelsOutOfRange { .. } | Im2colError::BoxBytesTooLarge { .. } => {
                Im2colArg::PixelsPerColumn
            }
        }
    }

    /// A static one-line summary, usable in `const` panics.
    ///
    /// ```
    /// use smemdesc_core::Im2colError;
    /// assert_eq!(Im2colError::RankOutOfRange { rank: 6 }.summary(), "an im2col tensorRank must be 3, 4 or 5");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            Im2colError::Map(e) => e.summary(),
            Im2colError::RankOutOfRange { .. } => "an im2col tensorRank must be 3, 4 or 5",
            Im2colError::CornerOutOfRange { .. } => {
                "pixel-box corner out of range (rank 3: -32768..=32767, 4: -128..=127, 5: -16..=15)"
            }
            Im2colError::EmptyBoundingBox { .. } => {
                "the bounding box must have non-zero area (globalDim + upper > lower, in 32-bit signed arithmetic)"
            }
            Im2colError::ChannelsOutOfRange { .. } => "channelsPerPixel must be in 1..=256",
            Im2colError::PackedChannels { .. } => {
                "channelsPerPixel of an ALIGN16B type must be 128"
            }
            Im2colError::ChannelsNot16B { .. } => {
                "channelsPerPixel times the element size must be a multiple of 16 bytes"
            }
            Im2colError::ChannelsOverSwizzle { .. } => {
                "channelsPerPixel times the element size must not exceed the swizzle span"
            }
            Im2colError::PixelsOutOfRange { .. } => "pixelsPerColumn must be in 1..=1024",
            Im2colError::BoxBytesTooLarge { .. } => "the im2col box must hold at most 233472 bytes",
            Im2colError::IndexOutOfRange { .. } => "corner index beyond the 3 spatial dimensions",
        }
    }
}

/// `bits` as bytes, with `.5` for a half byte.
fn bytes(bits: u64) -> (u64, &'static str) {
    (bits / 8, if bits % 8 == 0 { "" } else { ".5" })
}

impl Im2colError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let arg = self.argument();
        match *self {
            Im2colError::Map(e) => core::fmt::Display::fmt(&e, f),
            Im2colError::RankOutOfRange { rank } => {
                write!(f, "{arg} = {rank}; legal for an im2col map: 3, 4 or 5")
            }
            Im2colError::CornerOutOfRange { value, rank, .. } => {
                let (lo, hi) = im2col_corner_range(rank).unwrap_or_default();
                write!(
                    f,
                    "{arg} = {value}; legal with tensorRank {rank}: {lo} to {hi}"
                )
            }
            Im2colError::EmptyBoundingBox {
                index,
                dim_index,
                dim,
                lower,
                upper,
            } => {
                let end = dim as i128 + upper as i128;
                let note = if dim_index == index {
                    " (with interleave, corner i bounds globalDim[i])"
                } else {
                    ""
                };
                if end > i32::MAX as i128 {
                    write!(
                        f,
                        "{arg} = {upper} with globalDim[{dim_index}] = {dim}: the driver adds them in 32-bit signed arithmetic, where {end} wraps to {}, not above pixelBoxLowerCorner[{index}] = {lower}; legal: globalDim + upper - lower >= 1 with globalDim + upper below 2^31{note}",
                        end as i32
                    )
                } else {
                    write!(
                        f,
                        "{arg} = {upper} with pixelBoxLowerCorner[{index}] = {lower} and globalDim[{dim_index}] = {dim} leaves an empty bounding box ({dim} + {upper} - {lower} = {}); legal: globalDim + upper - lower >= 1{note}",
                        end - lower as i128
                    )
                }
            }
            Im2colError::ChannelsOutOfRange { channels } => {
                write!(f, "{arg} = {channels}; legal: 1 to 256")
            }
            Im2colError::PackedChannels {
                channels,
                data_type,
            } => write!(
                f,
                "{arg} = {channels} for {}; legal: exactly 128",
                data_type.name()
            ),
            Im2colError::ChannelsNot16B { channels, bits } => {
                let (b, half) = bytes(bits);
                write!(
                    f,
                    "{arg} = {channels} elements is {b}{half} B; the inner box must be a multiple of 16 B"
                )
            }
            Im2colError::ChannelsOverSwizzle {
                channels,
                bits,
                swizzle,
            } => {
                let (b, half) = bytes(bits);
                write!(
                    f,
                    "{arg} = {channels} elements is {b}{half} B but {} spans {} B; legal: at most {} B of channels per pixel",
                    swizzle.name(),
                    swizzle.span(),
                    swizzle.span()
                )
            }
            Im2colError::PixelsOutOfRange { pixels } => {
                write!(f, "{arg} = {pixels}; legal: 1 to 1024")
            }
            Im2colError::BoxBytesTooLarge { bytes } => write!(
                f,
                "the box holds {bytes} B (channelsPerPixel x pixelsPerColumn x element size); legal: at most 233472 B (228 KiB)"
            ),
            Im2colError::IndexOutOfRange { .. } => write!(
                f,
                "{arg} is beyond the 3 spatial dimensions; legal corner indices: 0 to rank - 3"
            ),
        }
    }
}
