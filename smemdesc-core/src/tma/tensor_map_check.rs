//! The rules [`TensorMap::check`] applies, one method per group of rules.

use crate::tma::tensor_map::{TensorMap, TENSOR_MAP_MAX_BOX_BYTES};
use crate::tma::tensor_map_error::{TensorMapArg, TensorMapError};
use crate::tma::tensor_map_types::{
    TensorMapDataType, TensorMapInterleave, TensorMapOobFill, TensorMapSwizzle,
};

impl TensorMap {
    /// Rules 1–3: rank, architecture, and the enumerated options.
    pub(super) const fn check_options(&self) -> Result<(), TensorMapError> {
        let (t, rank) = (self.data_type, self.rank);
        if rank == 0 || rank > 5 {
            return Err(TensorMapError::RankOutOfRange { rank });
        }
        if self.tile_box.is_some() && rank < 2 {
            return Err(TensorMapError::TileRank { rank });
        }
        let interleaved = !matches!(self.interleave, TensorMapInterleave::None);
        if interleaved && rank < 3 {
            return Err(TensorMapError::InterleaveRank {
                rank,
                interleave: self.interleave,
            });
        }
        if !t.on(self.arch) {
            return Err(TensorMapError::DataTypeNotOnArch {
                data_type: t,
                arch: self.arch,
            });
        }
        if !self.swizzle.on(self.arch) {
            return Err(TensorMapError::SwizzleNotOnArch {
                swizzle: self.swizzle,
                arch: self.arch,
            });
        }
        if matches!(self.interleave, TensorMapInterleave::B32)
            && !matches!(self.swizzle, TensorMapSwizzle::B32)
        {
            return Err(TensorMapError::InterleaveSwizzle {
                swizzle: self.swizzle,
            });
        }
        if matches!(t, TensorMapDataType::U6x16Align16B) && interleaved {
            return Err(TensorMapError::PackedInterleave {
                data_type: t,
                interleave: self.interleave,
            });
        }
        if t.is_align16b() {
            let ok = match self.swizzle {
                TensorMapSwizzle::None | TensorMapSwizzle::B128 | TensorMapSwizzle::B128Atom32B => {
                    true
                }
                TensorMapSwizzle::B128Atom64B => matches!(t, TensorMapDataType::U6x16Align16B),
                _ => false,
            };
            if !ok {
                return Err(TensorMapError::PackedSwizzle {
                    data_type: t,
                    swizzle: self.swizzle,
                });
            }
        }
        if matches!(self.oob_fill, TensorMapOobFill::NanRequestZeroFma) && !t.is_float() {
            return Err(TensorMapError::OobFillNotFloat { data_type: t });
        }
        Ok(())
    }

    /// Rule 4: what a tile's TMA plan fixes.
    pub(super) const fn check_tile(&self) -> Result<(), TensorMapError> {
        let Some(tile_box) = self.tile_box else {
            return Ok(());
        };
        if self.data_type.box_bits() != tile_box[2] {
            return Err(mismatch(
                TensorMapArg::TensorDataType,
                tile_box[2],
                self.data_type.box_bits(),
            ));
        }
        if !matches!(self.interleave, TensorMapInterleave::None) {
            return Err(mismatch(
                TensorMapArg::Interleave,
                0,
                self.interleave.value(),
            ));
        }
        let mut i = 0;
        while i < self.rank as usize {
            let expected = if i < 2 { tile_box[i] } else { 1 };
            if self.box_dim[i] != expected {
                return Err(mismatch(
                    TensorMapArg::BoxDim(i as u32),
                    expected,
                    self.box_dim[i],
                ));
            }
            if self.element_strides[i] != 1 {
                return Err(mismatch(
                    TensorMapArg::ElementStrides(i as u32),
                    1,
                    self.element_strides[i],
                ));
            }
            i += 1;
        }
        Ok(())
    }

    /// Rules 5–7: the global address, dims and strides (known ones).
    pub(super) const fn check_global(&self) -> Result<(), TensorMapError> {
        let t = self.data_type;
        let wide = t.is_align16b() || matches!(self.interleave, TensorMapInterleave::B32);
        let align: u32 = if wide { 32 } else { 16 };
        if let Some(address) = self.global_address {
            if address % align as u64 != 0 {
                return Err(TensorMapError::AddressMisaligned { address, align });
            }
        }
        let mut i = 0;
        while i < self.rank {
            if let Some(dim) = self.global_dim[i as usize] {
                if dim == 0 || dim > 1 << 32 {
                    return Err(TensorMapError::DimOutOfRange { index: i, dim });
                }
                let multiple = match t {
                    TensorMapDataType::U4x16Align8B => 2,
                    TensorMapDataType::U4x16Align16B | TensorMapDataType::U6x16Align16B => 128,
                    _ => 1,
                };
                if i == 0 && dim % multiple != 0 {
                    return Err(TensorMapError::PackedDim0 {
                        dim,
                        multiple: multiple as u32,
                        data_type: t,
                    });
                }
            }
            i += 1;
        }
        let mut i = 0;
        while i + 1 < self.rank {
            // Dense strides are checked like set ones: a row of 100 bf16 (200 B) is refused, not
            // padded, since padding would read a different tensor.
            let Some(stride) = self.stride_value(i) else {
                i += 1;
                continue;
            };
            if stride % align as u64 != 0 {
                return Err(TensorMapError::StrideNotMultiple {
                    index: i,
                    stride,
                    multiple: align,
                });
            }
            if stride >= 1 << 40 {
                return Err(TensorMapError::StrideTooLarge { index: i, stride });
            }
            let below = if i == 0 {
                match self.global_dim[0] {
                    Some(d) => Some((d * t.global_bits() as u64).div_ceil(8)),
                    None => None,
                }
            } else {
                match (self.stride_value(i - 1), self.global_dim[i as usize]) {
                    // Below 2^40 × 2^32 + 1: cannot overflow u64 (2^73 can; saturate).
                    (Some(s), Some(d)) => Some(s.saturating_mul(d)),
                    _ => None,
                }
            };
            if let Some(min) = below {
                if stride < min {
                    return Err(TensorMapError::StrideTooSmall {
                        index: i,
                        stride,
                        min,
                    });
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// Rules 8–10: the box and element strides.
    pub(super) const fn check_box(&self) -> Result<(), TensorMapError> {
        let t = self.data_type;
        let mut i = 0;
        while i < self.rank {
            let value = self.box_dim[i as usize];
            if value == 0 || value > 256 {
                return Err(TensorMapError::BoxDimOutOfRange { index: i, value });
            }
            i += 1;
        }
        let box0 = self.box_dim[0];
        let bits = box0 as u64 * t.box_bits() as u64;
        if t.is_align16b() && box0 != 128 {
            return Err(TensorMapError::PackedBox0 { box0, data_type: t });
        }
        // Documented for interleave NONE; an H100 (driver 13.0) refuses the other inner boxes
        // with interleave 16B and 32B as well (`gpu/`'s interleave grid, 2026-11-23).
        if bits % 128 != 0 {
            return Err(TensorMapError::BoxInnerNot16B { box0, bits });
        }
        if matches!(self.interleave, TensorMapInterleave::None) {
            let span = self.swizzle.span() as u64;
            if span != 0 && bits > span * 8 {
                return Err(TensorMapError::BoxInnerOverSwizzle {
                    box0,
                    bits,
                    swizzle: self.swizzle,
                });
            }
        }
        let mut i = 0;
        while i < self.rank {
            let value = self.element_strides[i as usize];
            if value == 0 || value > 8 {
                return Err(TensorMapError::ElementStrideOutOfRange { index: i, value });
            }
            i += 1;
        }
        let bytes = box_bytes(t, self.rank, &self.box_dim, &self.element_strides);
        if bytes > TENSOR_MAP_MAX_BOX_BYTES {
            return Err(TensorMapError::BoxBytesTooLarge { bytes });
        }
        Ok(())
    }
}

/// A tile-map argument that differs from what the tile fixes.
const fn mismatch(arg: TensorMapArg, expected: u32, found: u32) -> TensorMapError {
    TensorMapError::TileMismatch {
        arg,
        expected: expected as u64,
        found: found as u64,
    }
}

/// prod floor(boxDim[i] / elementStrides[i]) × element size, rounded up to whole bytes. The rank
/// is at most 5 and the element strides at least 1 (checked before): ≤ 256^5 × 64 bits, no overflow.
pub(super) const fn box_bytes(
    t: TensorMapDataType,
    rank: u32,
    box_dim: &[u32; 5],
    es: &[u32; 5],
) -> u64 {
    let mut i = 0;
    let mut elems: u64 = 1;
    while i < rank as usize && i < 5 {
        elems *= (box_dim[i] / es[i]) as u64;
        i += 1;
    }
    (elems * t.box_bits() as u64).div_ceil(8)
}
