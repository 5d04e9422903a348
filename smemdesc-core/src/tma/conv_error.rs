//! Why a convolution, or its implicit-GEMM A tile through im2col TMA
//! ([`ImplicitGemmA`](crate::tma::ImplicitGemmA)), cannot be formed.

use crate::tma::im2col_error::Im2colError;
use crate::TensorMapDataType;

/// A spatial dimension of a 2-D convolution.
///
/// ```
/// use smemdesc_core::tma::Spatial;
/// assert_eq!(Spatial::W.name(), "W");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spatial {
    /// Height (filter R, output P); corner and offset index 1.
    H,
    /// Width (filter S, output Q); corner and offset index 0.
    W,
}

impl Spatial {
    /// `"H"` or `"W"`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::tma::Spatial::H.name(), "H");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Spatial::H => "H",
            Spatial::W => "W",
        }
    }
}

/// Why a convolution, or its implicit-GEMM A tile through im2col TMA, cannot be formed.
///
/// ```
/// use smemdesc_core::tma::{Conv2d, ConvError, ImplicitGemmA};
/// use smemdesc_core::TensorMapDataType;
/// let e = ImplicitGemmA::new(Conv2d::new(1, 8, 8, 24, 8, 1, 1), TensorMapDataType::Float16, 64, 16)
///     .unwrap_err();
/// assert_eq!(e, ConvError::Channels { c: 24, bk: 16 });
/// assert!(e.to_string().contains("multiple"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvError {
    /// A dimension (N, H, W, C, K_out, R or S), stride or dilation is zero.
    Zero {
        /// Which one.
        what: &'static str,
    },
    /// The padded input is smaller than the dilated filter: no output along `dim`.
    EmptyOutput {
        /// The dimension.
        dim: Spatial,
    },
    /// A stride beyond the tensor map's largest element stride (8).
    Stride {
        /// The dimension.
        dim: Spatial,
        /// The stride.
        stride: u32,
    },
    /// A pixel-box corner the conv implies is outside the rank-4 range (−128..=127).
    Corner {
        /// The dimension.
        dim: Spatial,
        /// The corner value (`-pad` or `pad - dilation·(R - 1)`).
        value: i64,
        /// `true` for the upper corner.
        upper: bool,
    },
    /// A coordinate beyond the signed 32-bit tensor coordinates: `W` or `H` plus its padding
    /// (legal: below 2^31), or `N` (legal: below 2^30).
    Coordinate {
        /// `"W"`, `"H"` or `"N"`.
        what: &'static str,
    },
    /// The element type is packed (sub-byte).
    DataType {
        /// The type.
        data_type: TensorMapDataType,
    },
    /// `C` is not a multiple of the channels per load (`BK`).
    Channels {
        /// Input channels.
        c: u32,
        /// Channels per load.
        bk: u32,
    },
    /// `BK` outside `1..=256` (`channelsPerPixel`).
    ChannelsPerPixel {
        /// Channels per load.
        bk: u32,
    },
    /// Pixels per load outside `1..=1024`, or not dividing `BM`.
    PixelsPerColumn {
        /// Rows of the tile.
        bm: u32,
        /// Pixels per load.
        pixels: u32,
    },
    /// An M-block, K-step or load index beyond the plan.
    Index {
        /// Which index.
        what: &'static str,
        /// Its value.
        value: u64,
        /// The number of them.
        count: u64,
    },
    /// `M = N·P·Q` output pixels (rounded up to whole M-blocks), the K extent or an input
    /// coordinate beyond the 32-bit words of a kernel's [`Im2colWalk`](crate::tma::Im2colWalk).
    Rows {
        /// Output pixels `N·P·Q`.
        m: u64,
    },
    /// The last filter tap's im2col offset, `dilation·(R − 1)` (or `(S − 1)`), beyond what a
    /// rank-4 `cp.async.bulk.tensor` takes: 0..=255 (PTX ISA, "Tensors", im2col mode,
    /// "Bounding Box": [`im2col_offset_max`](crate::im2col_offset_max)). The corners alone
    /// allow 256 (pad 128).
    Offset {
        /// The dimension.
        dim: Spatial,
        /// The offset.
        value: u64,
    },
    /// The im2col map the plan implies breaks a rule of `cuTensorMapEncodeIm2col`
    /// ([`Im2colMap::check`](crate::Im2colMap::check)), e.g. a dense stride of 2^40 B or more.
    Map {
        /// The map's error.
        error: Im2colError,
    },
    /// A count beyond its integer type: the output size `P` or `Q` (`u32`), the K-steps
    /// (`u32`), `M = N·P·Q` (`u64`) or the FLOPs (`u64`).
    Overflow {
        /// Which count, in words.
        what: &'static str,
    },
    /// The im2col loads (or the filter's map) do not fill the declared operand tile
    /// ([`ImplicitGemmA::check_tile`](crate::tma::ImplicitGemmA::check_tile)).
    Tile {
        /// What differs.
        mismatch: FillMismatch,
    },
}

/// What keeps an implicit-GEMM plan's loads from filling a declared operand tile.
///
/// ```
/// use smemdesc_core::tma::FillMismatch;
/// assert!(FillMismatch::Swizzle.text().contains("swizzle"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FillMismatch {
    /// The tile is MN-major: im2col writes each pixel's channels contiguously (K-major).
    Major,
    /// The tile's element type is not the plan's.
    DataType,
    /// The tile's rows are not the plan's `BM`.
    Rows,
    /// The tile's K extent (or its box's inner extent) is not the channels per load `BK`.
    Channels,
    /// The tile's TMA boxes are not `BK × pixels` boxes placed one after the other along M.
    Boxes,
    /// The map's swizzle is not the tile's.
    Swizzle,
}

impl FillMismatch {
    /// What differs, in words.
    ///
    /// ```
    /// assert!(smemdesc_core::tma::FillMismatch::Major.text().contains("K-major"));
    /// ```
    pub const fn text(self) -> &'static str {
        match self {
            FillMismatch::Major => {
                "the tile must be K-major (im2col writes each pixel's channels contiguously)"
            }
            FillMismatch::DataType => "the tile's element type is not the plan's",
            FillMismatch::Rows => "the tile's rows are not the plan's BM",
            FillMismatch::Channels => "the tile's K extent is not the channels per load (BK)",
            FillMismatch::Boxes => {
                "the tile's TMA boxes are not BK x pixels boxes stacked densely along M"
            }
            FillMismatch::Swizzle => "the map's swizzle is not the tile's",
        }
    }
}

impl ConvError {
    /// The rule broken, without numbers: what a `const` panic can say
    /// ([`ImplicitGemmA::expect_new`](crate::tma::ImplicitGemmA::expect_new)).
    ///
    /// ```
    /// use smemdesc_core::tma::{ConvError, Spatial};
    /// let e = ConvError::Offset { dim: Spatial::H, value: 256 };
    /// assert!(e.summary().contains("0..=255"));
    /// ```
    pub const fn summary(&self) -> &'static str {
        match *self {
            ConvError::Zero { .. } => "a convolution size, stride or dilation is zero; legal: at least 1",
            ConvError::EmptyOutput { .. } => "no output: the padded input is smaller than the dilated filter",
            ConvError::Stride { .. } => "a convolution stride beyond 8: im2col traversal strides (elementStrides) are 1..=8",
            ConvError::Corner { .. } => "a pixel-box corner the convolution implies is outside a rank-4 im2col map's -128..=127 (lower = -pad, upper = pad - dilation*(R-1))",
            ConvError::Coordinate { .. } => "W or H plus its padding (below 2^31), or N (below 2^30), beyond the signed 32-bit tensor coordinates",
            ConvError::DataType { .. } => "implicit-GEMM tiles of packed (sub-byte) types are not modelled",
            ConvError::Channels { .. } => "C is not a multiple of the channels per load (BK)",
            ConvError::ChannelsPerPixel { .. } => "the channels per load (BK) are outside channelsPerPixel's 1..=256",
            ConvError::PixelsPerColumn { .. } => "the pixels per load are outside pixelsPerColumn's 1..=1024 or do not divide BM",
            ConvError::Index { .. } => "an M-block, K-step or load index beyond the plan",
            ConvError::Rows { .. } => "M, the K extent or an input coordinate beyond a kernel walk's 32-bit words",
            ConvError::Offset { .. } => "the last filter tap's im2col offset, dilation*(taps-1), is beyond the 0..=255 a rank-4 cp.async.bulk.tensor takes (PTX ISA, Tensors, im2col mode, Bounding Box)",
            ConvError::Map { error } => error.summary(),
            ConvError::Overflow { .. } => "a count (P, Q or the K-steps: u32; M or the FLOPs: u64) overflows its integer type",
            ConvError::Tile { mismatch } => mismatch.text(),
        }
    }
}

impl ConvError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ConvError::Zero { what } => write!(f, "{what} is zero; legal: at least 1"),
            ConvError::EmptyOutput { dim } => write!(f, "no output along {}: the padded input is smaller than the dilated filter", dim.name()),
            ConvError::Stride { dim, stride } => write!(f, "stride {stride} along {}: im2col traversal strides are 1..=8", dim.name()),
            ConvError::Corner { dim, value, upper } => write!(f, "the {} corner along {} would be {value}: a rank-4 im2col map takes -128..=127 (lower = -pad, upper = pad - dilation*(R-1))", if upper { "upper" } else { "lower" }, dim.name()),
            ConvError::Coordinate { what } => write!(f, "{what} (plus padding) exceeds the signed 32-bit tensor coordinates; legal: W, H + pad < 2^31, N < 2^30"),
            ConvError::DataType { data_type } => write!(f, "{}: implicit-GEMM tiles of packed types are not modelled", data_type.name()),
            ConvError::Channels { c, bk } => write!(f, "C = {c} is not a multiple of the {bk} channels per load"),
            ConvError::ChannelsPerPixel { bk } => write!(f, "{bk} channels per load: channelsPerPixel is 1..=256"),
            ConvError::PixelsPerColumn { bm, pixels } => write!(f, "{pixels} pixels per load for a {bm}-row tile: pixelsPerColumn is 1..=1024 and must divide BM"),
            ConvError::Index { what, value, count } => write!(f, "{what} {value} beyond the plan's {count}"),
            ConvError::Rows { m } => write!(f, "M = N*P*Q = {m} output pixels: a kernel's run-time walk indexes pixels, K and input coordinates in 32 bits"),
            ConvError::Offset { dim, value } => write!(f, "the last filter tap's im2col offset along {} would be dilation*(taps-1) = {value}: a rank-4 cp.async.bulk.tensor takes offsets 0..=255 (PTX ISA, Tensors, im2col mode, Bounding Box: [0, 2^8 - 1])", dim.name()),
            ConvError::Map { error } => write!(f, "the plan's im2col map is illegal: {error}"),
            ConvError::Overflow { what } => write!(f, "{what} overflows its integer type (P, Q and the K-steps are u32, M and the FLOPs u64)"),
            ConvError::Tile { mismatch } => write!(f, "the loads do not fill the operand tile: {}", mismatch.text()),
        }
    }
}

impl core::error::Error for ConvError {}
