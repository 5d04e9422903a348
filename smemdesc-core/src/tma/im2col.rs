//! Every argument of `cuTensorMapEncodeIm2col`, checked against every rule the CUDA driver API
//! documentation states (section "Tensor Map Object Management", `cuTensorMapEncodeIm2col`), the
//! rules it shares with `cuTensorMapEncodeTiled` checked by the same code as [`TensorMap`]'s, and
//! the facts measured for tiled maps on an H100 (`shared/notes/tensor-maps.md`: the box-size
//! limit, the Blackwell-only options).
//!
//! An im2col map reads a tensor of rank 3 to 5 laid out C, W, H, D, N (innermost first: NWC,
//! NHWC, NDHWC). One load gathers `pixelsPerColumn` pixels, `channelsPerPixel` channels each,
//! from the bounding box the two pixel-box corners cut out of the spatial dimensions (W, H, D).
//! Like [`TensorMap`], an [`Im2colMap`] may leave the address, dims and strides open until run
//! time: [`check`](Im2colMap::check) applies every rule whose inputs are known (a `const` item is
//! checked at compile time by [`expect_valid`](Im2colMap::expect_valid)), and
//! [`try_args`](Im2colMap::try_args) checks the rest and gives the concrete [`Im2colArgs`].

use crate::base::arch::Arch;
use crate::tma::im2col_error::{Im2colArg, Im2colError};
use crate::tma::tensor_map::TensorMap;
use crate::tma::tensor_map_error::{TensorMapArg, TensorMapError};
use crate::tma::tensor_map_types::{
    TensorMapDataType, TensorMapInterleave, TensorMapL2Promotion, TensorMapOobFill,
    TensorMapSwizzle,
};

/// The arguments of one `cuTensorMapEncodeIm2col` call (all but the output pointer), the global
/// ones possibly still open, with the rules checked by [`check`](Self::check).
///
/// Arrays are innermost first, as the driver takes them: `globalDim = [C, W, H, D, N]` (as many as
/// `rank`), `globalStrides[i]` the byte stride of dimension `i + 1`, and the corners W first:
/// `pixelBoxLowerCorner[i]` and `pixelBoxUpperCorner[i]` bound dimension `i + 1` (`rank - 2` of
/// them). Entries beyond those are unused.
///
/// ```
/// use smemdesc_core::*;
/// // NHWC bf16 activations, 8 x 56 x 56 x 64; a 3x3 filter with padding 1: lower corner -1,
/// // upper corner 1 - (3 - 1) = -1; 64 channels (128 B, the 128B swizzle span) x 128 pixels.
/// const M: Im2colMap = Im2colMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 4)
///     .dim(0, 64).dim(1, 56).dim(2, 56).dim(3, 8)
///     .lower(0, -1).lower(1, -1).upper(0, -1).upper(1, -1)
///     .channels_per_pixel(64).pixels_per_column(128)
///     .swizzle(TensorMapSwizzle::B128)
///     .expect_valid();
/// let a = M.address(0x7f00_0000_0000).try_args().unwrap();
/// assert_eq!((a.global_strides[0], a.box_bytes()), (128, 16384));
/// // rank 4 allows corner offsets in -128..=127
/// let e = M.lower(0, -129).check().unwrap_err();
/// assert_eq!(e.argument(), Im2colArg::PixelBoxLowerCorner(0));
/// assert!(e.to_string().contains("-128 to 127"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Im2colMap {
    /// The architecture of the context that will encode it.
    pub arch: Arch,
    /// `tensorDataType`.
    pub data_type: TensorMapDataType,
    /// `tensorRank`.
    pub rank: u32,
    /// `globalAddress` (`None`: given at run time).
    pub global_address: Option<u64>,
    /// `globalDim`, elements (`None`: given at run time).
    pub global_dim: [Option<u64>; 5],
    /// `globalStrides`, bytes (`None`: given at run time, or dense when `dense_strides`).
    pub global_strides: [Option<u64>; 4],
    /// Open strides are the dense ones (as [`TensorMap::dense_strides`]).
    pub dense_strides: bool,
    /// `pixelBoxLowerCorner`, W first.
    pub lower_corner: [i32; 3],
    /// `pixelBoxUpperCorner`, W first.
    pub upper_corner: [i32; 3],
    /// `channelsPerPixel`.
    pub channels_per_pixel: u32,
    /// `pixelsPerColumn`.
    pub pixels_per_column: u32,
    /// `elementStrides`.
    pub element_strides: [u32; 5],
    /// `interleave`.
    pub interleave: TensorMapInterleave,
    /// `swizzle`.
    pub swizzle: TensorMapSwizzle,
    /// `l2Promotion`.
    pub l2_promotion: TensorMapL2Promotion,
    /// `oobFill`.
    pub oob_fill: TensorMapOobFill,
    /// A builder call with an index beyond the arrays, reported by `check`.
    bad_index: Option<Im2colArg>,
}

/// Every argument of `cuTensorMapEncodeIm2col` but the output pointer, all known and checked:
/// what [`Im2colMap::try_args`] returns (or, unchecked, what `gpu/`'s driver comparison sends).
///
/// ```
/// use smemdesc_core::*;
/// let a = Im2colMap::new(Arch::Sm90, TensorMapDataType::Float16, 3)
///     .dim(0, 32).dim(1, 100).dim(2, 4).channels_per_pixel(32).pixels_per_column(64)
///     .address(0x1000).try_args().unwrap();
/// assert_eq!(a.global_strides[..2], [64, 6400]); // dense
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Im2colArgs {
    /// `tensorDataType`.
    pub data_type: TensorMapDataType,
    /// `tensorRank`.
    pub rank: u32,
    /// `globalAddress`.
    pub global_address: u64,
    /// `globalDim` (entries beyond `rank` are 1).
    pub global_dim: [u64; 5],
    /// `globalStrides`, bytes (entries beyond `rank - 1` are 0).
    pub global_strides: [u64; 4],
    /// `pixelBoxLowerCorner` (entries beyond `rank - 2` are 0).
    pub lower_corner: [i32; 3],
    /// `pixelBoxUpperCorner` (entries beyond `rank - 2` are 0).
    pub upper_corner: [i32; 3],
    /// `channelsPerPixel`.
    pub channels_per_pixel: u32,
    /// `pixelsPerColumn`.
    pub pixels_per_column: u32,
    /// `elementStrides`.
    pub element_strides: [u32; 5],
    /// `interleave`.
    pub interleave: TensorMapInterleave,
    /// `swizzle`.
    pub swizzle: TensorMapSwizzle,
    /// `l2Promotion`.
    pub l2_promotion: TensorMapL2Promotion,
    /// `oobFill`.
    pub oob_fill: TensorMapOobFill,
}

impl Im2colMap {
    /// A map of `rank` dimensions with every dim, stride and the address open, corners 0, one
    /// channel per pixel and one pixel per column, element strides 1, no interleave, no swizzle,
    /// L2 promotion 256B, OOB fill NONE.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 5);
    /// assert_eq!((m.rank, m.lower_corner, m.global_dim[0]), (5, [0; 3], None));
    /// ```
    pub const fn new(arch: Arch, data_type: TensorMapDataType, rank: u32) -> Im2colMap {
        Im2colMap {
            arch,
            data_type,
            rank,
            global_address: None,
            global_dim: [None; 5],
            global_strides: [None; 4],
            dense_strides: true,
            lower_corner: [0; 3],
            upper_corner: [0; 3],
            channels_per_pixel: 1,
            pixels_per_column: 1,
            element_strides: [1; 5],
            interleave: TensorMapInterleave::None,
            swizzle: TensorMapSwizzle::None,
            l2_promotion: TensorMapL2Promotion::L2_256B,
            oob_fill: TensorMapOobFill::None,
            bad_index: None,
        }
    }

    /// Sets `globalDim[i]` (elements; 0 = C, 1 = W, 2 = H, 3 = D, then N).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).dim(2, 7).global_dim[2], Some(7));
    /// ```
    pub const fn dim(mut self, i: u32, value: u64) -> Im2colMap {
        if i < 5 {
            self.global_dim[i as usize] = Some(value);
        } else {
            self.bad_index = Some(Im2colArg::Map(TensorMapArg::GlobalDim(i)));
        }
        self
    }

    /// Sets `globalStrides[i]`, the byte stride of dimension `i + 1`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).stride(0, 64).global_strides[0], Some(64));
    /// ```
    pub const fn stride(mut self, i: u32, bytes: u64) -> Im2colMap {
        if i < 4 {
            self.global_strides[i as usize] = Some(bytes);
        } else {
            self.bad_index = Some(Im2colArg::Map(TensorMapArg::GlobalStrides(i)));
        }
        self
    }

    /// Leaves the strides that are not set open until run time instead of dense.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).dim(0, 16).dim(1, 4).runtime_strides();
    /// assert_eq!(m.stride_value(0), None);
    /// ```
    pub const fn runtime_strides(mut self) -> Im2colMap {
        self.dense_strides = false;
        self
    }

    /// Sets `globalAddress`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).address(256).global_address, Some(256));
    /// ```
    pub const fn address(mut self, address: u64) -> Im2colMap {
        self.global_address = Some(address);
        self
    }

    /// Sets `pixelBoxLowerCorner[i]` (0 = W, 1 = H, 2 = D).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 4).lower(1, -2).lower_corner, [0, -2, 0]);
    /// ```
    pub const fn lower(mut self, i: u32, offset: i32) -> Im2colMap {
        if i < 3 {
            self.lower_corner[i as usize] = offset;
        } else {
            self.bad_index = Some(Im2colArg::PixelBoxLowerCorner(i));
        }
        self
    }

    /// Sets `pixelBoxUpperCorner[i]` (0 = W, 1 = H, 2 = D).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 4).upper(0, -2).upper_corner, [-2, 0, 0]);
    /// ```
    pub const fn upper(mut self, i: u32, offset: i32) -> Im2colMap {
        if i < 3 {
            self.upper_corner[i as usize] = offset;
        } else {
            self.bad_index = Some(Im2colArg::PixelBoxUpperCorner(i));
        }
        self
    }

    /// Sets `channelsPerPixel`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).channels_per_pixel(64).channels_per_pixel, 64);
    /// ```
    pub const fn channels_per_pixel(mut self, channels: u32) -> Im2colMap {
        self.channels_per_pixel = channels;
        self
    }

    /// Sets `pixelsPerColumn`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).pixels_per_column(256).pixels_per_column, 256);
    /// ```
    pub const fn pixels_per_column(mut self, pixels: u32) -> Im2colMap {
        self.pixels_per_column = pixels;
        self
    }

    /// Sets `elementStrides[i]` (the traversal stride along dimension `i`).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).element_stride(1, 2).element_strides[1], 2);
    /// ```
    pub const fn element_stride(mut self, i: u32, value: u32) -> Im2colMap {
        if i < 5 {
            self.element_strides[i as usize] = value;
        } else {
            self.bad_index = Some(Im2colArg::Map(TensorMapArg::ElementStrides(i)));
        }
        self
    }

    /// Sets `interleave`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).interleave(TensorMapInterleave::B16);
    /// assert_eq!(m.interleave.value(), 1);
    /// ```
    pub const fn interleave(mut self, interleave: TensorMapInterleave) -> Im2colMap {
        self.interleave = interleave;
        self
    }

    /// Sets `swizzle`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).swizzle(TensorMapSwizzle::B64).swizzle.value(), 2);
    /// ```
    pub const fn swizzle(mut self, swizzle: TensorMapSwizzle) -> Im2colMap {
        self.swizzle = swizzle;
        self
    }

    /// Sets `l2Promotion`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).l2_promotion(TensorMapL2Promotion::None);
    /// assert_eq!(m.l2_promotion.value(), 0);
    /// ```
    pub const fn l2_promotion(mut self, l2: TensorMapL2Promotion) -> Im2colMap {
        self.l2_promotion = l2;
        self
    }

    /// Sets `oobFill`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Float32, 3).oob_fill(TensorMapOobFill::NanRequestZeroFma);
    /// assert_eq!(m.oob_fill.value(), 1);
    /// ```
    pub const fn oob_fill(mut self, fill: TensorMapOobFill) -> Im2colMap {
        self.oob_fill = fill;
        self
    }

    /// The tiled map with the same global arguments and options: the rules both encoders share
    /// are checked on it, by the same code.
    pub(super) const fn shared(&self) -> TensorMap {
        let mut m = TensorMap::new(self.arch, self.data_type, self.rank);
        m.global_address = self.global_address;
        m.global_dim = self.global_dim;
        m.global_strides = self.global_strides;
        m.dense_strides = self.dense_strides;
        m.element_strides = self.element_strides;
        m.interleave = self.interleave;
        m.swizzle = self.swizzle;
        m.l2_promotion = self.l2_promotion;
        m.oob_fill = self.oob_fill;
        m
    }

    /// `globalStrides[i]` as the driver will see it: set, dense (when the dims it needs are
    /// known), or `None` (as [`TensorMap::stride_value`]).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 4).dim(0, 64).dim(1, 56);
    /// assert_eq!((m.stride_value(0), m.stride_value(1), m.stride_value(2)), (Some(128), Some(7168), None));
    /// ```
    pub const fn stride_value(&self, i: u32) -> Option<u64> {
        self.shared().stride_value(i)
    }

    /// Applies every rule whose inputs are known (open values are skipped); the first rule broken
    /// is returned. Rules, in order (CUDA driver API, `cuTensorMapEncodeIm2col`, unless marked):
    ///
    /// 1. `tensorRank` 3, 4 or 5;
    /// 2. the options, as for tiled maps: data type and swizzle accepted on the architecture
    ///    (measured), interleave 32B only with swizzle 32B (documented; stricter than driver
    ///    13.0, which does not check it for im2col maps, as for tiled ones), `16U6_ALIGN16B`
    ///    only with interleave NONE, the swizzles each ALIGN16B type supports,
    ///    NaN-request-zero-FMA fill only for floating-point types;
    /// 3. the global address, dims and strides, as for tiled maps (16-byte alignment, 32 with
    ///    interleave 32B or ALIGN16B; dims in 1..=2^32; strides multiples of 16 (32), below 2^40,
    ///    covering the dimension below: the documented stride formula, stricter than driver
    ///    13.0, which does not check it);
    /// 4. `pixelBoxLowerCorner[i]` and `pixelBoxUpperCorner[i]`, `i < rank - 2`, in
    ///    [-2^15, 2^15 - 1] (rank 3), [-2^7, 2^7 - 1] (rank 4), [-2^4, 2^4 - 1] (rank 5);
    /// 5. the bounding box has non-zero area: `globalDim[d] + upper[i] > lower[i]` with the sum
    ///    in 32-bit signed arithmetic, `d = i + 1` (interleave NONE) or `i` (interleave 16B,
    ///    32B): documented, with the dimension and the 32-bit sum measured (driver 13.0);
    /// 6. `channelsPerPixel` in 1..=256, exactly 128 for ALIGN16B types; its bytes a multiple of
    ///    16 (the tiled inner-box rule, applied to the im2col box's inner dimension) and, with
    ///    interleave NONE and a swizzle, at most the swizzle span;
    /// 7. `pixelsPerColumn` in 1..=1024;
    /// 8. `elementStrides[i]` in 1..=8;
    /// 9. the box, `channelsPerPixel × pixelsPerColumn × size`, ≤ 233,472 B (the limit measured
    ///    for tiled maps).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 3).channels_per_pixel(8);
    /// assert_eq!(m.check(), Ok(()));
    /// assert_eq!(m.pixels_per_column(1025).check(), Err(Im2colError::PixelsOutOfRange { pixels: 1025 }));
    /// ```
    pub const fn check(&self) -> Result<(), Im2colError> {
        if let Some(arg) = self.bad_index {
            return Err(match arg {
                Im2colArg::Map(arg) => Im2colError::Map(TensorMapError::IndexOutOfRange { arg }),
                _ => Im2colError::IndexOutOfRange { arg },
            });
        }
        if self.rank < 3 || self.rank > 5 {
            return Err(Im2colError::RankOutOfRange { rank: self.rank });
        }
        let shared = self.shared();
        if let Err(e) = shared.check_options() {
            return Err(Im2colError::Map(e));
        }
        if let Err(e) = shared.check_global() {
            return Err(Im2colError::Map(e));
        }
        tri!(self.check_corners());
        self.check_box()
    }

    /// [`check`](Self::check) for `const` items: a compile-time panic with the rule's summary.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// const M: Im2colMap = Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).channels_per_pixel(16).expect_valid();
    /// assert_eq!(M.channels_per_pixel, 16);
    /// ```
    pub const fn expect_valid(self) -> Im2colMap {
        match self.check() {
            Ok(()) => self,
            Err(e) => panic!("{}", e.summary()),
        }
    }

    /// Checks every rule and returns the concrete arguments; an open value that was not supplied
    /// is [`TensorMapError::Unresolved`] (in [`Im2colError::Map`]): the
    /// corners, channels and pixels are never open. The run-time (`try_`) form.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).dim(0, 16).dim(1, 9).channels_per_pixel(16);
    /// assert_eq!(m.address(0).try_args().unwrap_err(),
    ///            Im2colError::Map(TensorMapError::Unresolved { arg: TensorMapArg::GlobalDim(2) }));
    /// assert!(m.dim(2, 2).address(0).try_args().is_ok());
    /// ```
    pub const fn try_args(&self) -> Result<Im2colArgs, Im2colError> {
        tri!(self.check());
        let Some(global_address) = self.global_address else {
            return Err(unresolved(TensorMapArg::GlobalAddress));
        };
        let mut global_dim = [1u64; 5];
        let mut global_strides = [0u64; 4];
        let mut lower_corner = [0i32; 3];
        let mut upper_corner = [0i32; 3];
        let mut i = 0;
        while i < self.rank {
            match self.global_dim[i as usize] {
                Some(d) => global_dim[i as usize] = d,
                None => return Err(unresolved(TensorMapArg::GlobalDim(i))),
            }
            if i + 1 < self.rank {
                match self.stride_value(i) {
                    Some(s) => global_strides[i as usize] = s,
                    None => return Err(unresolved(TensorMapArg::GlobalStrides(i))),
                }
            }
            if i + 2 < self.rank {
                lower_corner[i as usize] = self.lower_corner[i as usize];
                upper_corner[i as usize] = self.upper_corner[i as usize];
            }
            i += 1;
        }
        Ok(Im2colArgs {
            data_type: self.data_type,
            rank: self.rank,
            global_address,
            global_dim,
            global_strides,
            lower_corner,
            upper_corner,
            channels_per_pixel: self.channels_per_pixel,
            pixels_per_column: self.pixels_per_column,
            element_strides: self.element_strides,
            interleave: self.interleave,
            swizzle: self.swizzle,
            l2_promotion: self.l2_promotion,
            oob_fill: self.oob_fill,
        })
    }
}

const fn unresolved(arg: TensorMapArg) -> Im2colError {
    Im2colError::Map(TensorMapError::Unresolved { arg })
}

impl Im2colArgs {
    /// The bytes one load moves, `channelsPerPixel × pixelsPerColumn × element size`: the
    /// mbarrier transaction count of one im2col TMA load.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = Im2colMap::new(Arch::Sm90, TensorMapDataType::Float32, 3).dim(0, 4).dim(1, 8).dim(2, 1)
    ///     .channels_per_pixel(4).pixels_per_column(32).address(0).try_args().unwrap();
    /// assert_eq!(a.box_bytes(), 512);
    /// ```
    pub const fn box_bytes(&self) -> u64 {
        crate::tma::im2col_check::im2col_box_bytes(
            self.data_type,
            self.channels_per_pixel,
            self.pixels_per_column,
        )
    }
}
