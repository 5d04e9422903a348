//! A forward convolution as an implicit GEMM, and the im2col TMA loads that fill its A tile.
//!
//! The convolution reads NHWC activations (`N × H × W × C`) and a `K_out × R × S × C` filter, with
//! a stride, a padding and a dilation per spatial dimension, and writes `N × P × Q × K_out`
//! outputs. As a GEMM, `M = N·P·Q` (output pixels, `q` fastest, then `p`, then `n`) and
//! `K = R·S·C` in the order the loads produce: `k = (r·S + s)·C + c`, one K-step per
//! `(r, s, c-block)` with the channel block fastest.
//!
//! One im2col load (PTX ISA, "Tensors", im2col mode, and `cp.async.bulk.tensor`) gathers
//! `pixelsPerColumn` pixels of `channelsPerPixel` channels. Its tensor coordinates `(c, w, h, n)`
//! name the first pixel; the two pixel-box corners bound the pixels the traversal walks,
//! `[lower, dim − 1 + upper]` per spatial dimension, stepping by the element strides, W first,
//! then H, then N: past the upper bound in W the walk starts the next row (H + stride) at the
//! lower bound, past it in H the next image. So a load of consecutive output pixels may cross
//! rows and images, as GEMM rows do. The 16-bit im2col offsets (W first) shift every gathered
//! pixel by the filter tap; pixels outside the tensor are filled (zero with OOB fill NONE), which
//! is the padding.
//!
//! The conv implies the corners `lower = −pad` and `upper = pad − dilation·(R − 1)` (the CUDA
//! driver documentation's example), the element strides = the conv strides, the load
//! coordinates `(c0, q·stride − pad, p·stride − pad, n)` of the load's first output pixel
//! `(n, p, q)` and the offsets `(s·dilation_w, r·dilation_h)` of the tap. The corners' rank-4
//! range (−128..=127) bounds the taps: `upper ≥ −128` keeps `dilation·(R − 1) ≤ pad + 128`, and a
//! tap reaching past it is refused as a corner. That still allows 256 (pad 128), one past the
//! offsets a rank-4 load takes (0..=255: PTX ISA, "Tensors", im2col mode, "Bounding Box"), so the
//! last tap's offset is checked too ([`ConvError::Offset`]). This
//! module covers 2-D convolutions (rank-4 maps); rank 3 and 5 are not modelled.
//!
//! Measured on an H200 (`gpu/device-logs/2026-11-27-im2col-walk`, `rust_kernels --im2col-walk`):
//! every planned load of five convolutions (stride 2, padding, dilation 2, a 3×5 filter with
//! per-dimension settings, 1×1; tiles crossing rows and images), issued as a real
//! `cp.async.bulk.tensor.4d…im2col`, gathers exactly the naive im2col matrix's rows: the walk
//! above is the hardware's.
//!
//! ```
//! use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
//! use smemdesc_core::{Arch, TensorMapDataType, TensorMapSwizzle};
//! // ResNet-50 conv2_x 3x3: 8 x 56 x 56 x 64, pad 1
//! let conv = Conv2d::new(8, 56, 56, 64, 64, 3, 3).pad(1, 1);
//! let a = ImplicitGemmA::new(conv, TensorMapDataType::Bfloat16, 128, 64).unwrap();
//! assert_eq!((a.gemm_m(), a.gemm_k(), a.k_steps()), (8 * 56 * 56, 576, 9));
//! let map = a.map(Arch::Sm90).swizzle(TensorMapSwizzle::B128);
//! assert!(map.check().is_ok());
//! // K-step 4 is the centre tap (r, s) = (1, 1); M-block 1 starts at output pixel 128 = (0, 2, 16)
//! let l = a.load(1, 4, 0).unwrap();
//! assert_eq!((l.coords, l.offsets), ([0, 15, 1, 0], [1, 1]));
//! assert_eq!((l.first_row, l.rows, l.bytes), (0, 128, 128 * 128));
//! ```

use crate::tma::conv_error::{ConvError, Spatial};
use crate::tma::im2col_check::{IM2COL_MAX_CHANNELS, IM2COL_MAX_PIXELS};
use crate::tma::im2col_error::{im2col_corner_range, im2col_offset_max};
use crate::{TensorMapDataType, TensorMapSwizzle};

/// The largest traversal stride (`elementStrides`) a tensor map takes.
const MAX_ELEMENT_STRIDE: u32 = 8;

/// A forward 2-D convolution over NHWC activations: sizes, stride, padding and dilation (each
/// `(h, w)`).
///
/// ```
/// use smemdesc_core::tma::Conv2d;
/// let c = Conv2d::new(2, 9, 7, 16, 32, 3, 3).stride(2, 2).pad(1, 1).dilation(2, 2);
/// assert_eq!(c.output(), Ok((4, 3))); // P = (9 + 2 - 4 - 1) / 2 + 1, Q = (7 + 2 - 4 - 1) / 2 + 1
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Conv2d {
    /// Images.
    pub n: u32,
    /// Input height.
    pub h: u32,
    /// Input width.
    pub w: u32,
    /// Input channels.
    pub c: u32,
    /// Output channels (filters).
    pub k: u32,
    /// Filter height.
    pub r: u32,
    /// Filter width.
    pub s: u32,
    /// Strides `(h, w)`.
    pub stride: (u32, u32),
    /// Zero padding `(h, w)`, both sides.
    pub pad: (u32, u32),
    /// Dilations `(h, w)`.
    pub dilation: (u32, u32),
}

impl Conv2d {
    /// A convolution of `n × h × w × c` by `k × r × s × c`, stride 1, no padding, dilation 1.
    ///
    /// ```
    /// let c = smemdesc_core::tma::Conv2d::new(1, 4, 4, 8, 8, 1, 1);
    /// assert_eq!((c.stride, c.pad, c.dilation), ((1, 1), (0, 0), (1, 1)));
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub const fn new(n: u32, h: u32, w: u32, c: u32, k: u32, r: u32, s: u32) -> Conv2d {
        Conv2d {
            n,
            h,
            w,
            c,
            k,
            r,
            s,
            stride: (1, 1),
            pad: (0, 0),
            dilation: (1, 1),
        }
    }

    /// Sets the strides.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::tma::Conv2d::new(1, 4, 4, 8, 8, 1, 1).stride(2, 1).stride, (2, 1));
    /// ```
    pub const fn stride(mut self, h: u32, w: u32) -> Conv2d {
        self.stride = (h, w);
        self
    }

    /// Sets the padding.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::tma::Conv2d::new(1, 4, 4, 8, 8, 3, 3).pad(1, 1).pad, (1, 1));
    /// ```
    pub const fn pad(mut self, h: u32, w: u32) -> Conv2d {
        self.pad = (h, w);
        self
    }

    /// Sets the dilations.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::tma::Conv2d::new(1, 9, 9, 8, 8, 3, 3).dilation(2, 2).dilation, (2, 2));
    /// ```
    pub const fn dilation(mut self, h: u32, w: u32) -> Conv2d {
        self.dilation = (h, w);
        self
    }

    /// The output size `(P, Q)`: `(H + 2·pad − dilation·(R − 1) − 1) / stride + 1` per dimension,
    /// computed exactly (64-bit); a size beyond `u32` is [`ConvError::Overflow`].
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ConvError, Spatial};
    /// assert_eq!(Conv2d::new(1, 56, 56, 64, 64, 3, 3).pad(1, 1).output(), Ok((56, 56)));
    /// assert_eq!(Conv2d::new(1, 2, 8, 8, 8, 3, 3).output(), Err(ConvError::EmptyOutput { dim: Spatial::H }));
    /// // each stride is checked on its own (65536 x 65536 is not a zero product)
    /// assert_eq!(Conv2d::new(1, 8, 8, 8, 8, 1, 1).stride(65536, 65536).output(), Ok((1, 1)));
    /// let wide = Conv2d::new(1, 8, u32::MAX, 8, 8, 1, 1).pad(0, u32::MAX);
    /// assert_eq!(wide.output(), Err(ConvError::Overflow { what: "the output width Q" }));
    /// ```
    pub const fn output(&self) -> Result<(u32, u32), ConvError> {
        let checks: [(u32, &'static str); 11] = [
            (self.n, "N"),
            (self.h, "H"),
            (self.w, "W"),
            (self.c, "C"),
            (self.k, "K_out"),
            (self.r, "R"),
            (self.s, "S"),
            (self.stride.0, "a stride"),
            (self.stride.1, "a stride"),
            (self.dilation.0, "a dilation"),
            (self.dilation.1, "a dilation"),
        ];
        let mut i = 0;
        while i < checks.len() {
            if checks[i].0 == 0 {
                return Err(ConvError::Zero { what: checks[i].1 });
            }
            i += 1;
        }
        let p = match out_len(self.h, self.pad.0, self.r, self.stride.0, self.dilation.0) {
            Ok(p) => p,
            Err(empty) => return Err(out_err(empty, Spatial::H)),
        };
        let q = match out_len(self.w, self.pad.1, self.s, self.stride.1, self.dilation.1) {
            Ok(q) => q,
            Err(empty) => return Err(out_err(empty, Spatial::W)),
        };
        Ok((p, q))
    }
}

/// An index beyond the plan.
const fn index(what: &'static str, value: u64, count: u64) -> ConvError {
    ConvError::Index { what, value, count }
}

/// `(len + 2·pad − dil·(taps − 1) − 1) / stride + 1` (inputs non-zero), or `Err(true)` when that
/// is no output, `Err(false)` when it exceeds `u32`. Exact: `len + 2·pad < 2^34` and
/// `dil·(taps − 1) + 1 ≤ (2^32 − 1)^2 + 1 < 2^64`.
const fn out_len(len: u32, pad: u32, taps: u32, stride: u32, dil: u32) -> Result<u32, bool> {
    let span = len as u64 + 2 * pad as u64;
    let reach = dil as u64 * (taps as u64 - 1) + 1;
    if span < reach {
        return Err(true);
    }
    let out = (span - reach) / stride as u64 + 1;
    if out > u32::MAX as u64 {
        Err(false)
    } else {
        Ok(out as u32)
    }
}

/// The error of an [`out_len`] failure along `dim`.
const fn out_err(empty: bool, dim: Spatial) -> ConvError {
    if empty {
        ConvError::EmptyOutput { dim }
    } else {
        ConvError::Overflow {
            what: match dim {
                Spatial::H => "the output height P",
                Spatial::W => "the output width Q",
            },
        }
    }
}

/// One K-step of the A tile: the filter tap `(r, s)` and the first channel `c0` it loads.
///
/// ```
/// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
/// let a = ImplicitGemmA::new(Conv2d::new(1, 8, 8, 32, 8, 3, 3), smemdesc_core::TensorMapDataType::Float16, 64, 16)
///     .unwrap();
/// let k = a.k_step(5).unwrap(); // (r·3 + s)·2 + cb = 5
/// assert_eq!((k.r, k.s, k.c0, k.k0), (0, 2, 16, 5 * 16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KStep {
    /// Filter row.
    pub r: u32,
    /// Filter column.
    pub s: u32,
    /// First channel.
    pub c0: u32,
    /// First GEMM column, `(r·S + s)·C + c0`.
    pub k0: u64,
}

/// One im2col TMA load of the A tile: the instruction's operands and where it lands.
///
/// ```
/// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
/// let a = ImplicitGemmA::new(Conv2d::new(1, 8, 8, 16, 8, 1, 1), smemdesc_core::TensorMapDataType::Float32, 64, 16)
///     .unwrap()
///     .pixels_per_load(32)
///     .unwrap();
/// let l = a.load(0, 0, 1).unwrap(); // second load: output pixels 32..64 = rows 4..8
/// assert_eq!((l.coords, l.offsets, l.first_row, l.byte_offset), ([0, 0, 4, 0], [0, 0], 32, 32 * 64));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Im2colLoad {
    /// Tensor coordinates `(c, w, h, n)`, innermost first, as `cp.async.bulk.tensor.4d` takes
    /// them: the first channel and the input origin `(q·stride_w − pad_w, p·stride_h − pad_h, n)`
    /// of the load's first output pixel.
    pub coords: [i32; 4],
    /// The 16-bit im2col offsets, W first: `(s·dilation_w, r·dilation_h)`.
    pub offsets: [u16; 2],
    /// The first tile row (output pixel `m0 + first_row`) the load fills.
    pub first_row: u32,
    /// Rows (pixels) it fills.
    pub rows: u32,
    /// Its first byte in the tile (rows of `BK` elements, dense; a swizzle permutes within).
    pub byte_offset: u32,
    /// Its bytes (`rows · BK · element bytes`, the `expect_tx` share).
    pub bytes: u32,
}

/// The implicit-GEMM A tile of a [`Conv2d`] filled by im2col TMA: `BM` output pixels × `BK`
/// channels of one filter tap per K-step, `BM / pixels_per_load` loads per K-step.
///
/// ```
/// use smemdesc_core::tma::{Conv2d, ConvError, ImplicitGemmA, Spatial};
/// use smemdesc_core::TensorMapDataType as T;
/// let c = Conv2d::new(1, 32, 32, 64, 64, 3, 3).pad(1, 1).dilation(2, 2);
/// let a = ImplicitGemmA::new(c, T::Bfloat16, 128, 64).unwrap();
/// assert_eq!(a.conv.corners(), ([-1, -1], [-3, -3]));
/// assert_eq!(a.load(0, 8, 0).unwrap().offsets, [4, 4]); // tap (2, 2), dilation 2
/// let wide = Conv2d::new(1, 300, 300, 64, 64, 3, 3).pad(1, 1).dilation(100, 1);
/// assert_eq!(ImplicitGemmA::new(wide, T::Bfloat16, 128, 64).unwrap_err(),
///            ConvError::Corner { dim: Spatial::H, value: -199, upper: true });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImplicitGemmA {
    /// The convolution.
    pub conv: Conv2d,
    /// The activations' element type.
    pub data_type: TensorMapDataType,
    /// Tile rows (output pixels).
    pub bm: u32,
    /// Tile columns: channels per load (`channelsPerPixel`).
    pub bk: u32,
    /// Pixels per load (`pixelsPerColumn`), dividing `bm`.
    pub pixels: u32,
    /// Output size `(P, Q)`.
    pub out: (u32, u32),
    /// The map's swizzle: none from [`new`](Self::new), the tile's from
    /// [`for_tile`](Self::for_tile).
    pub swizzle: TensorMapSwizzle,
}

impl ImplicitGemmA {
    /// The plan for tiles of `bm` output pixels × `bk` channels, one load of `bm` pixels per
    /// K-step; refuses a conv or tile that im2col mode cannot express.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ConvError, ImplicitGemmA, Spatial};
    /// use smemdesc_core::TensorMapDataType as T;
    /// let c = Conv2d::new(1, 64, 64, 64, 64, 1, 1).stride(9, 1);
    /// assert_eq!(ImplicitGemmA::new(c, T::Bfloat16, 128, 64).unwrap_err(),
    ///            ConvError::Stride { dim: Spatial::H, stride: 9 });
    /// ```
    pub const fn new(
        conv: Conv2d,
        data_type: TensorMapDataType,
        bm: u32,
        bk: u32,
    ) -> Result<ImplicitGemmA, ConvError> {
        let out = match conv.output() {
            Ok(o) => o,
            Err(e) => return Err(e),
        };
        let dims = [(Spatial::W, 1usize), (Spatial::H, 0usize)];
        let (lo, hi) = match im2col_corner_range(4) {
            Some(r) => r,
            None => (0, 0),
        };
        let max_offset = match im2col_offset_max(4) {
            Some(m) => m,
            None => 0,
        };
        let (lower, upper) = conv.corners();
        let mut i = 0;
        while i < 2 {
            let (dim, t) = dims[i];
            let (stride, len, pad) = if t == 0 {
                (conv.stride.0, conv.h, conv.pad.0)
            } else {
                (conv.stride.1, conv.w, conv.pad.1)
            };
            if stride > MAX_ELEMENT_STRIDE {
                return Err(ConvError::Stride { dim, stride });
            }
            let mut u = 0;
            while u < 2 {
                let value = if u == 0 { lower[i] } else { upper[i] };
                if value < lo as i64 || value > hi as i64 {
                    return Err(ConvError::Corner {
                        dim,
                        value,
                        upper: u == 1,
                    });
                }
                u += 1;
            }
            // The last tap's offset, dilation·(taps − 1) (< 2^64): the corners above allow up
            // to 256 (pad 128), one more than a rank-4 load's offset takes.
            let (dil, taps) = if t == 0 {
                (conv.dilation.0, conv.r)
            } else {
                (conv.dilation.1, conv.s)
            };
            let reach = dil as u64 * (taps as u64 - 1);
            if reach > max_offset as u64 {
                return Err(ConvError::Offset { dim, value: reach });
            }
            if len as u64 + pad as u64 > i32::MAX as u64 {
                return Err(ConvError::Coordinate { what: dim.name() });
            }
            i += 1;
        }
        if data_type.box_bits() % 8 != 0 || data_type.is_packed() {
            return Err(ConvError::DataType { data_type });
        }
        if bk == 0 || bk > IM2COL_MAX_CHANNELS {
            return Err(ConvError::ChannelsPerPixel { bk });
        }
        if conv.c % bk != 0 {
            return Err(ConvError::Channels { c: conv.c, bk });
        }
        if bm == 0 || bm > IM2COL_MAX_PIXELS {
            return Err(ConvError::PixelsPerColumn { bm, pixels: bm });
        }
        if conv.n as u64 > i32::MAX as u64 / 2 {
            return Err(ConvError::Coordinate { what: "N" });
        }
        let a = ImplicitGemmA {
            conv,
            data_type,
            bm,
            bk,
            pixels: bm,
            out,
            swizzle: TensorMapSwizzle::None,
        };
        match a.check_extents() {
            Ok(()) => Ok(a),
            Err(e) => Err(e),
        }
    }

    /// Splits each K-step into `bm / pixels` loads of `pixels` pixels.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ConvError, ImplicitGemmA};
    /// let a = ImplicitGemmA::new(Conv2d::new(1, 8, 8, 16, 8, 1, 1), smemdesc_core::TensorMapDataType::Float16, 64, 16).unwrap();
    /// assert_eq!(a.pixels_per_load(16).unwrap().loads_per_step(), 4);
    /// assert_eq!(a.pixels_per_load(24).unwrap_err(), ConvError::PixelsPerColumn { bm: 64, pixels: 24 });
    /// ```
    pub const fn pixels_per_load(mut self, pixels: u32) -> Result<ImplicitGemmA, ConvError> {
        if pixels == 0 || pixels > IM2COL_MAX_PIXELS || self.bm % pixels != 0 {
            return Err(ConvError::PixelsPerColumn {
                bm: self.bm,
                pixels,
            });
        }
        self.pixels = pixels;
        Ok(self)
    }

    /// GEMM M: `N·P·Q`.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let a = ImplicitGemmA::new(Conv2d::new(2, 8, 8, 16, 8, 3, 3), smemdesc_core::TensorMapDataType::Float16, 64, 16).unwrap();
    /// assert_eq!(a.gemm_m(), 2 * 6 * 6);
    /// ```
    pub const fn gemm_m(&self) -> u64 {
        (self.conv.n as u64 * self.out.0 as u64).saturating_mul(self.out.1 as u64)
    }

    /// GEMM K: `R·S·C`.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let a = ImplicitGemmA::new(Conv2d::new(2, 8, 8, 16, 8, 3, 3), smemdesc_core::TensorMapDataType::Float16, 64, 16).unwrap();
    /// assert_eq!(a.gemm_k(), 9 * 16);
    /// ```
    pub const fn gemm_k(&self) -> u64 {
        (self.conv.r as u64 * self.conv.s as u64).saturating_mul(self.conv.c as u64)
    }

    /// M-blocks: `⌈M / BM⌉` (the last one's rows past M are out of the tensor, so zero-filled).
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let a = ImplicitGemmA::new(Conv2d::new(1, 10, 10, 16, 8, 1, 1), smemdesc_core::TensorMapDataType::Float16, 64, 16).unwrap();
    /// assert_eq!(a.m_blocks(), 2);
    /// ```
    pub const fn m_blocks(&self) -> u64 {
        match self.bm {
            0 => 0,
            bm => self.gemm_m().div_ceil(bm as u64),
        }
    }

    /// K-steps: `R·S·C / BK`.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let a = ImplicitGemmA::new(Conv2d::new(1, 10, 10, 64, 8, 3, 3), smemdesc_core::TensorMapDataType::Float16, 64, 16).unwrap();
    /// assert_eq!(a.k_steps(), 36);
    /// ```
    pub const fn k_steps(&self) -> u32 {
        let blocks = match self.conv.c.checked_div(self.bk) {
            Some(b) => b as u64,
            None => 0,
        };
        let steps = (self.conv.r as u64 * self.conv.s as u64).saturating_mul(blocks);
        if steps > u32::MAX as u64 {
            u32::MAX
        } else {
            steps as u32
        }
    }

    /// Loads per K-step: `BM / pixels per load`.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let a = ImplicitGemmA::new(Conv2d::new(1, 10, 10, 64, 8, 3, 3), smemdesc_core::TensorMapDataType::Float16, 64, 16).unwrap();
    /// assert_eq!(a.loads_per_step(), 1);
    /// ```
    pub const fn loads_per_step(&self) -> u32 {
        match self.bm.checked_div(self.pixels) {
            Some(l) => l,
            None => 0,
        }
    }

    /// The tile's bytes (`BM · BK · element bytes`), the `expect_tx` of one K-step.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let a = ImplicitGemmA::new(Conv2d::new(1, 10, 10, 64, 8, 3, 3), smemdesc_core::TensorMapDataType::Bfloat16, 128, 64).unwrap();
    /// assert_eq!(a.tile_bytes(), 16384);
    /// ```
    pub const fn tile_bytes(&self) -> u32 {
        let bytes = self.bm as u64 * self.bk as u64 * (self.data_type.box_bits() / 8) as u64;
        if bytes > u32::MAX as u64 {
            u32::MAX
        } else {
            bytes as u32
        }
    }

    /// The K-step `kk`: tap `(r, s)` and channel block, in `(r, s, c-block)` order.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let a = ImplicitGemmA::new(Conv2d::new(1, 10, 10, 16, 8, 3, 3), smemdesc_core::TensorMapDataType::Float16, 64, 16).unwrap();
    /// assert_eq!(a.k_step(7).unwrap().r, 2);
    /// assert!(a.k_step(9).is_err());
    /// ```
    pub const fn k_step(&self, kk: u32) -> Result<KStep, ConvError> {
        if kk >= self.k_steps() {
            return Err(index("K-step", kk as u64, self.k_steps() as u64));
        }
        let blocks = self.conv.c / self.bk;
        let tap = kk / blocks;
        let c0 = (kk % blocks) * self.bk;
        let (r, s) = (tap / self.conv.s, tap % self.conv.s);
        Ok(KStep {
            r,
            s,
            c0,
            k0: tap as u64 * self.conv.c as u64 + c0 as u64,
        })
    }

    /// Load `j` of K-step `kk` of M-block `mb` (output pixels from `mb·BM + j·pixels`).
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let c = Conv2d::new(2, 9, 9, 16, 8, 3, 3).stride(2, 2).pad(1, 1);
    /// let a = ImplicitGemmA::new(c, smemdesc_core::TensorMapDataType::Float16, 16, 16).unwrap();
    /// // P = Q = 5: M-block 2 starts at pixel 32 = image 1, (p, q) = (1, 2)
    /// assert_eq!(a.load(2, 1, 0).unwrap().coords, [0, 2 * 2 - 1, 2 - 1, 1]);
    /// ```
    pub const fn load(&self, mb: u64, kk: u32, j: u32) -> Result<Im2colLoad, ConvError> {
        if mb >= self.m_blocks() {
            return Err(index("M-block", mb, self.m_blocks()));
        }
        if j >= self.loads_per_step() {
            return Err(index("load", j as u64, self.loads_per_step() as u64));
        }
        let k = match self.k_step(kk) {
            Ok(k) => k,
            Err(e) => return Err(e),
        };
        let c = &self.conv;
        let m = mb as u128 * self.bm as u128 + j as u128 * self.pixels as u128;
        if m > u64::MAX as u128 {
            return Err(ConvError::Overflow { what: "M = N*P*Q" });
        }
        let m = m as u64;
        let pq = self.out.0 as u64 * self.out.1 as u64;
        let n = m / pq;
        let p = (m % pq) / self.out.1 as u64;
        let q = m % self.out.1 as u64;
        let w = q as i64 * c.stride.1 as i64 - c.pad.1 as i64;
        let h = p as i64 * c.stride.0 as i64 - c.pad.0 as i64;
        let eb = self.data_type.box_bits() / 8;
        let first_row = j * self.pixels;
        // `new` keeps the last tap's offsets within the rank-4 range; a plan built field by
        // field may not.
        let (ow, oh) = (
            k.s as u64 * c.dilation.1 as u64,
            k.r as u64 * c.dilation.0 as u64,
        );
        if ow > 255 {
            return Err(ConvError::Offset {
                dim: Spatial::W,
                value: ow,
            });
        }
        if oh > 255 {
            return Err(ConvError::Offset {
                dim: Spatial::H,
                value: oh,
            });
        }
        Ok(Im2colLoad {
            coords: [k.c0 as i32, w as i32, h as i32, n as i32],
            offsets: [ow as u16, oh as u16],
            first_row,
            rows: self.pixels,
            byte_offset: first_row * self.bk * eb,
            bytes: self.pixels * self.bk * eb,
        })
    }
}
