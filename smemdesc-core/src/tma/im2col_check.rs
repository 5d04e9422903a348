//! The rules of `cuTensorMapEncodeIm2col`'s own arguments that [`Im2colMap::check`] applies after
//! the ones it shares with tiled maps: the pixel-box corners, and the box (channels per pixel,
//! pixels per column, element strides, size).

use crate::tma::im2col::Im2colMap;
use crate::tma::im2col_error::{im2col_corner_range, Im2colArg, Im2colError};
use crate::tma::tensor_map::TENSOR_MAP_MAX_BOX_BYTES;
use crate::tma::tensor_map_error::TensorMapError;
use crate::tma::tensor_map_types::{TensorMapDataType, TensorMapInterleave};

/// The most channels one pixel of an im2col load holds (`channelsPerPixel`).
///
/// ```
/// assert_eq!(smemdesc_core::IM2COL_MAX_CHANNELS, 256);
/// ```
pub const IM2COL_MAX_CHANNELS: u32 = 256;

/// The most pixels one im2col load gathers (`pixelsPerColumn`).
///
/// ```
/// assert_eq!(smemdesc_core::IM2COL_MAX_PIXELS, 1024);
/// ```
pub const IM2COL_MAX_PIXELS: u32 = 1024;

impl Im2colMap {
    /// Rules 4–5: each corner offset within its rank's range, and a bounding box of non-zero area
    /// along every spatial dimension whose size is known.
    ///
    /// The box rule is the documented one ("the bounding box ... must have non-zero area":
    /// `globalDim + upper - lower >= 1`) as the driver applies it, measured on 30,000 rows
    /// (driver 13.0, `docs/guide/host.md`): it adds `globalDim[d] + upper[i]` in 32-bit signed
    /// arithmetic and refuses a sum not above `lower[i]`, and `d` is `i + 1` (W, H, D) with
    /// interleave NONE but `i` with interleave 16B or 32B.
    pub(super) const fn check_corners(&self) -> Result<(), Im2colError> {
        let Some((lo, hi)) = im2col_corner_range(self.rank) else {
            return Err(Im2colError::RankOutOfRange { rank: self.rank });
        };
        let spatial = self.rank - 2;
        let mut i = 0;
        while i < spatial {
            let (l, u) = (self.lower_corner[i as usize], self.upper_corner[i as usize]);
            if l < lo || l > hi {
                return Err(Im2colError::CornerOutOfRange {
                    arg: Im2colArg::PixelBoxLowerCorner(i),
                    value: l,
                    rank: self.rank,
                });
            }
            if u < lo || u > hi {
                return Err(Im2colError::CornerOutOfRange {
                    arg: Im2colArg::PixelBoxUpperCorner(i),
                    value: u,
                    rank: self.rank,
                });
            }
            i += 1;
        }
        let interleaved = !matches!(self.interleave, TensorMapInterleave::None);
        let mut i = 0;
        while i < spatial {
            let (l, u) = (self.lower_corner[i as usize], self.upper_corner[i as usize]);
            let d = if interleaved { i } else { i + 1 };
            if let Some(dim) = self.global_dim[d as usize] {
                // dim ≤ 2^32 (checked before) and |u| ≤ 2^15: the i64 sum is exact; `as i32`
                // wraps it as the driver's 32-bit addition does.
                let end = (dim as i64 + u as i64) as i32;
                if end <= l {
                    return Err(Im2colError::EmptyBoundingBox {
                        index: i,
                        dim_index: d,
                        dim,
                        lower: l,
                        upper: u,
                    });
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// Rules 6–9: channels per pixel, pixels per column, element strides, the box's bytes.
    pub(super) const fn check_box(&self) -> Result<(), Im2colError> {
        let (t, channels) = (self.data_type, self.channels_per_pixel);
        if channels == 0 || channels > IM2COL_MAX_CHANNELS {
            return Err(Im2colError::ChannelsOutOfRange { channels });
        }
        if t.is_align16b() && channels != 128 {
            return Err(Im2colError::PackedChannels {
                channels,
                data_type: t,
            });
        }
        let bits = channels as u64 * t.box_bits() as u64;
        if bits % 128 != 0 {
            return Err(Im2colError::ChannelsNot16B { channels, bits });
        }
        if matches!(self.interleave, TensorMapInterleave::None) {
            let span = self.swizzle.span() as u64;
            if span != 0 && bits > span * 8 {
                return Err(Im2colError::ChannelsOverSwizzle {
                    channels,
                    bits,
                    swizzle: self.swizzle,
                });
            }
        }
        let pixels = self.pixels_per_column;
        if pixels == 0 || pixels > IM2COL_MAX_PIXELS {
            return Err(Im2colError::PixelsOutOfRange { pixels });
        }
        let mut i = 0;
        while i < self.rank {
            let value = self.element_strides[i as usize];
            if value == 0 || value > 8 {
                return Err(Im2colError::Map(TensorMapError::ElementStrideOutOfRange {
                    index: i,
                    value,
                }));
            }
            i += 1;
        }
        let bytes = im2col_box_bytes(t, channels, pixels);
        if bytes > TENSOR_MAP_MAX_BOX_BYTES {
            return Err(Im2colError::BoxBytesTooLarge { bytes });
        }
        Ok(())
    }
}

/// `channels × pixels × element size`, rounded up to whole bytes (≤ 2^32 × 2^32 × 64 bits: no
/// overflow for `u32` inputs).
pub(super) const fn im2col_box_bytes(t: TensorMapDataType, channels: u32, pixels: u32) -> u64 {
    let bits = channels as u128 * pixels as u128 * t.box_bits() as u128;
    let bytes = bits.div_ceil(8);
    if bytes > u64::MAX as u128 {
        u64::MAX
    } else {
        bytes as u64
    }
}
