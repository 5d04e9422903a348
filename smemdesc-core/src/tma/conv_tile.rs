//! The operand tiles of an implicit-GEMM convolution: the A tile its im2col loads fill, and the
//! filter (B) over the same K order.
//!
//! An im2col load of `pixels × bk` elements writes its pixels as rows of `bk` elements, one row
//! after the other, with the map's swizzle: the bytes a tiled TMA box of `bk` (inner) × `pixels`
//! (rows) writes. So it fills a declared operand tile exactly when that tile is K-major, its K
//! extent is the channels per load, and its own TMA plan stacks boxes of `bk × pixels` densely
//! along M ([`ImplicitGemmA::check_tile`]); the map then takes the tile's swizzle
//! ([`ImplicitGemmA::for_tile`]).
//!
//! The filter `K_out × R × S × C` (KRSC) is, read as a matrix, the `K_out × (R·S·C)` K-major B
//! operand with `k = (r·S + s)·C + c`: the order the A loads produce, so K-step `kk` reads B's
//! columns from [`KStep::k0`] ([`ImplicitGemmA::filter_map`]).
//!
//! ```
//! use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
//! use smemdesc_core::*;
//! const CONV_A: TilePlan = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).expect_valid();
//! const CONV_B: TilePlan = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 256, 64).expect_valid();
//! // ResNet-50 conv4_x 3x3: 256 -> 256 channels at 14 x 14, pad 1
//! let conv = Conv2d::new(32, 14, 14, 256, 256, 3, 3).pad(1, 1);
//! let a = ImplicitGemmA::for_tile(conv, &CONV_A).unwrap();
//! assert_eq!((a.bm, a.bk, a.pixels, a.swizzle), (128, 64, 128, TensorMapSwizzle::B128));
//! assert!(a.map(Arch::Sm90).check().is_ok());
//! let b = a.filter_map(&CONV_B).unwrap(); // [256, 2304] bf16, 64 x 256 boxes
//! assert_eq!((b.global_dim[0], b.global_dim[1], b.box_dim[0], b.box_dim[1]), (Some(2304), Some(256), 64, 256));
//! assert_eq!(a.k_step(13).unwrap().k0, 13 * 64); // tap (1, 0), channels 64..128
//! ```

use crate::tile::TilePlan;
use crate::tma::conv::{Conv2d, ImplicitGemmA};
use crate::tma::conv_error::{ConvError, FillMismatch};
use crate::tma::im2col::Im2colMap;
use crate::tma::tensor_map::TensorMap;
use crate::{Arch, Major, TensorMapDataType, TensorMapSwizzle};

impl ImplicitGemmA {
    /// The plan whose loads fill `tile`: `BM` = its rows, `BK` = its K extent, the pixels per
    /// load = its TMA box rows, the map's swizzle = its swizzle ([`check_tile`](Self::check_tile)
    /// holds).
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ConvError, FillMismatch, ImplicitGemmA};
    /// use smemdesc_core::*;
    /// let mn = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::Mn, 64, 64).expect_valid();
    /// let conv = Conv2d::new(1, 8, 8, 64, 64, 1, 1);
    /// assert_eq!(ImplicitGemmA::for_tile(conv, &mn).unwrap_err(), ConvError::Tile { mismatch: FillMismatch::Major });
    /// ```
    pub const fn for_tile(conv: Conv2d, tile: &TilePlan) -> Result<ImplicitGemmA, ConvError> {
        if !matches!(tile.decl.major, Major::K) {
            return Err(tile_err(FillMismatch::Major));
        }
        let spec = tile.tile.spec();
        let dt = TensorMapDataType::of_tma(tile.tma.data_type);
        let a = match ImplicitGemmA::new(conv, dt, spec.tile_mn, spec.tile_k) {
            Ok(a) => a,
            Err(e) => return Err(e),
        };
        let mut a = match a.pixels_per_load(tile.tma.box_rows) {
            Ok(a) => a,
            Err(e) => return Err(e),
        };
        a.swizzle = TensorMapSwizzle::of_tma(tile.tma.swizzle);
        if let Err(e) = a.check_tile(tile) {
            return Err(e);
        }
        match a.map(tile.decl.arch).check() {
            Ok(()) => Ok(a),
            Err(error) => Err(ConvError::Map { error }),
        }
    }

    /// [`new`](Self::new) for `const` items: the plan, or a compile-time panic with the rule's
    /// [`summary`](ConvError::summary) (in a `const`, `cargo check` fails on the declaration).
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// use smemdesc_core::TensorMapDataType;
    /// const A: ImplicitGemmA =
    ///     ImplicitGemmA::expect_new(Conv2d::new(1, 8, 8, 64, 64, 3, 3).pad(1, 1), TensorMapDataType::Bfloat16, 128, 64);
    /// assert_eq!(A.k_steps(), 9);
    /// ```
    pub const fn expect_new(
        conv: Conv2d,
        data_type: TensorMapDataType,
        bm: u32,
        bk: u32,
    ) -> ImplicitGemmA {
        match ImplicitGemmA::new(conv, data_type, bm, bk) {
            Ok(a) => a,
            Err(e) => panic!("{}", e.summary()),
        }
    }

    /// Whether this plan's loads fill `tile` (one stage) exactly as the tile's own TMA boxes
    /// would: a K-major tile of the plan's element type, `BM × BK`, whose boxes are `BK` (all of
    /// K) × the pixels per load, placed one after the other along M; and a swizzle equal to the
    /// tile's.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ConvError, FillMismatch, ImplicitGemmA};
    /// use smemdesc_core::*;
    /// let t = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).expect_valid();
    /// let conv = Conv2d::new(1, 8, 8, 64, 64, 1, 1);
    /// let a = ImplicitGemmA::new(conv, TensorMapDataType::Bfloat16, 128, 64).unwrap();
    /// // the same rows and channels, but the swizzle is not set: the load would land unswizzled
    /// assert_eq!(a.check_tile(&t), Err(ConvError::Tile { mismatch: FillMismatch::Swizzle }));
    /// assert_eq!(a.swizzle(TensorMapSwizzle::B128).check_tile(&t), Ok(()));
    /// ```
    pub const fn check_tile(&self, tile: &TilePlan) -> Result<(), ConvError> {
        let spec = tile.tile.spec();
        let tma = &tile.tma;
        let eb = self.data_type.box_bits() / 8;
        let mismatch = if !matches!(tile.decl.major, Major::K) {
            Some(FillMismatch::Major)
        } else if TensorMapDataType::of_tma(tma.data_type).value() != self.data_type.value() {
            Some(FillMismatch::DataType)
        } else if spec.tile_mn != self.bm {
            Some(FillMismatch::Rows)
        } else if spec.tile_k != self.bk || tma.box_inner != self.bk {
            Some(FillMismatch::Channels)
        } else if tma.box_rows != self.pixels
            || tma.boxes != self.loads_per_step()
            || tma.box_bytes != self.pixels * self.bk * eb
        {
            Some(FillMismatch::Boxes)
        } else if TensorMapSwizzle::of_tma(tma.swizzle).value() != self.swizzle.value() {
            Some(FillMismatch::Swizzle)
        } else {
            let mut b = 0;
            let mut bad = None;
            while b < tma.boxes {
                let (mn0, k0) = tma.box_coord(b);
                if mn0 != b * self.pixels
                    || k0 != 0
                    || tma.box_offset(&tile.tile, b) != b * tma.box_bytes
                {
                    bad = Some(FillMismatch::Boxes);
                    break;
                }
                b += 1;
            }
            bad
        };
        match mismatch {
            Some(m) => Err(tile_err(m)),
            None => Ok(()),
        }
    }

    /// The im2col map the plan implies, for `arch`: dims `[C, W, H, N]` (dense strides, address
    /// open), the corners, `BK` channels × pixels-per-load pixels, the conv strides as element
    /// strides and the plan's [`swizzle`](Self::swizzle); set the OOB fill and address on it,
    /// then [`check`](Im2colMap::check).
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// use smemdesc_core::{Arch, TensorMapDataType};
    /// let c = Conv2d::new(1, 16, 16, 32, 8, 3, 3).stride(2, 2).pad(1, 1);
    /// let m = ImplicitGemmA::new(c, TensorMapDataType::Float16, 64, 32).unwrap().map(Arch::Sm90);
    /// assert_eq!((m.lower_corner, m.upper_corner, m.element_strides), ([-1, -1, 0], [-1, -1, 0], [1, 2, 2, 1, 1]));
    /// assert!(m.check().is_ok());
    /// ```
    pub const fn map(&self, arch: Arch) -> Im2colMap {
        let c = &self.conv;
        let (lower, upper) = c.corners();
        Im2colMap::new(arch, self.data_type, 4)
            .dim(0, c.c as u64)
            .dim(1, c.w as u64)
            .dim(2, c.h as u64)
            .dim(3, c.n as u64)
            .lower(0, lower[0] as i32)
            .lower(1, lower[1] as i32)
            .upper(0, upper[0] as i32)
            .upper(1, upper[1] as i32)
            .channels_per_pixel(self.bk)
            .pixels_per_column(self.pixels)
            .element_stride(1, c.stride.1)
            .element_stride(2, c.stride.0)
            .swizzle(self.swizzle)
    }

    /// The plan with the map's swizzle set to `swizzle` ([`map`](Self::map) applies it).
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// use smemdesc_core::{TensorMapDataType, TensorMapSwizzle};
    /// let a = ImplicitGemmA::new(Conv2d::new(1, 8, 8, 64, 64, 1, 1), TensorMapDataType::Bfloat16, 128, 64).unwrap();
    /// assert_eq!(a.swizzle(TensorMapSwizzle::B64).swizzle, TensorMapSwizzle::B64);
    /// ```
    pub const fn swizzle(mut self, swizzle: TensorMapSwizzle) -> ImplicitGemmA {
        self.swizzle = swizzle;
        self
    }

    /// The filter's tiled map for B tile `tile`: the `K_out × R × S × C` filter read as the
    /// K-major `K_out × (R·S·C)` matrix (dense), with the tile's box and swizzle. The tile must be
    /// K-major, of the plan's element type, with the plan's K extent (one K-step per stage, at
    /// column [`KStep::k0`](crate::tma::KStep::k0)).
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ConvError, FillMismatch, ImplicitGemmA};
    /// use smemdesc_core::*;
    /// let a = ImplicitGemmA::new(Conv2d::new(1, 8, 8, 64, 128, 3, 3), TensorMapDataType::Bfloat16, 128, 64).unwrap();
    /// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 128, 64).expect_valid();
    /// let m = a.filter_map(&b).unwrap();
    /// assert_eq!((m.global_dim[0], m.global_dim[1]), (Some(576), Some(128)));
    /// let wide = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 128, 32).expect_valid();
    /// assert_eq!(a.filter_map(&wide).unwrap_err(), ConvError::Tile { mismatch: FillMismatch::Channels });
    /// ```
    pub const fn filter_map(&self, tile: &TilePlan) -> Result<TensorMap, ConvError> {
        let spec = tile.tile.spec();
        if !matches!(tile.decl.major, Major::K) {
            return Err(tile_err(FillMismatch::Major));
        }
        if TensorMapDataType::of_tma(tile.tma.data_type).value() != self.data_type.value() {
            return Err(tile_err(FillMismatch::DataType));
        }
        if spec.tile_k != self.bk {
            return Err(tile_err(FillMismatch::Channels));
        }
        Ok(TensorMap::for_tile_matrix(
            tile,
            self.conv.k as u64,
            self.gemm_k(),
        ))
    }
}

impl Conv2d {
    /// The pixel-box corners the convolution implies, W first: `lower = −pad`,
    /// `upper = pad − dilation·(R − 1)`. The upper corner is exact down to `i64::MIN` and
    /// saturates there (a dilation and filter near `u32::MAX` reach about `−2^64`); any value
    /// that low is far outside every corner range, so [`ImplicitGemmA::new`] refuses it alike.
    ///
    /// ```
    /// use smemdesc_core::tma::Conv2d;
    /// let c = Conv2d::new(1, 16, 16, 8, 8, 3, 5).pad(1, 2).dilation(2, 1);
    /// assert_eq!(c.corners(), ([-2, -1], [2 - 4, 1 - 4]));
    /// let huge = Conv2d::new(1, 16, 16, 8, 8, u32::MAX, u32::MAX).dilation(u32::MAX, u32::MAX);
    /// assert_eq!(huge.corners().1, [i64::MIN, i64::MIN]);
    /// ```
    pub const fn corners(&self) -> ([i64; 2], [i64; 2]) {
        let lw = -(self.pad.1 as i64);
        let lh = -(self.pad.0 as i64);
        (
            [lw, lh],
            [
                upper(self.pad.1, self.dilation.1, self.s),
                upper(self.pad.0, self.dilation.0, self.r),
            ],
        )
    }

    /// Output elements `N·P·Q·K_out` times the filter taps and channels, doubled: the
    /// convolution's multiply-adds as FLOPs (`2·M·N·K` of the implicit GEMM). Refused without
    /// output ([`output`](Self::output)'s error), or as [`ConvError::Overflow`] when the count
    /// exceeds `u64`.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ConvError};
    /// assert_eq!(Conv2d::new(2, 8, 8, 16, 32, 3, 3).pad(1, 1).flops(), Ok(2 * (2 * 64) * 32 * (9 * 16)));
    /// let huge = Conv2d::new(1 << 20, 1 << 20, 1 << 20, 1 << 10, 1 << 10, 1, 1);
    /// assert_eq!(huge.flops(), Err(ConvError::Overflow { what: "the FLOPs 2*N*P*Q*K_out*R*S*C" }));
    /// ```
    pub const fn flops(&self) -> Result<u64, ConvError> {
        let (p, q) = match self.output() {
            Ok(o) => o,
            Err(e) => return Err(e),
        };
        let f = [
            2,
            self.n as u64,
            p as u64,
            q as u64,
            self.k as u64,
            self.r as u64,
            self.s as u64,
            self.c as u64,
        ];
        match product(&f) {
            Some(f) => Ok(f),
            None => Err(ConvError::Overflow {
                what: "the FLOPs 2*N*P*Q*K_out*R*S*C",
            }),
        }
    }
}

impl ImplicitGemmA {
    /// The counts a plan's methods return fit their types (K-steps `u32`, `M` rounded up to
    /// whole M-blocks `u64`), and the map the plan implies passes [`Im2colMap::check`] (as an
    /// sm100 map: sm90's options are a subset; [`map`](Self::map) for sm90 may still refuse a
    /// type only sm100 takes).
    pub(super) const fn check_extents(&self) -> Result<(), ConvError> {
        let c = &self.conv;
        let blocks = match c.c.checked_div(self.bk) {
            Some(b) => b as u64,
            None => 0,
        };
        match product(&[c.r as u64, c.s as u64, blocks]) {
            Some(k) if k <= u32::MAX as u64 => {}
            _ => {
                return Err(ConvError::Overflow {
                    what: "the K-steps R*S*C/BK",
                })
            }
        }
        match product(&[c.n as u64, self.out.0 as u64, self.out.1 as u64]) {
            Some(m) if m.checked_add(self.bm as u64).is_some() => {}
            _ => return Err(ConvError::Overflow { what: "M = N*P*Q" }),
        }
        match self.map(Arch::Sm100).check() {
            Ok(()) => Ok(()),
            Err(error) => Err(ConvError::Map { error }),
        }
    }
}

/// The product of `xs`, `None` past `u64`.
const fn product(xs: &[u64]) -> Option<u64> {
    let mut acc: u64 = 1;
    let mut i = 0;
    while i < xs.len() {
        acc = match acc.checked_mul(xs[i]) {
            Some(v) => v,
            None => return None,
        };
        i += 1;
    }
    Some(acc)
}

const fn tile_err(mismatch: FillMismatch) -> ConvError {
    ConvError::Tile { mismatch }
}

/// `pad − dil·(taps − 1)` (`taps ≥ 1`), saturated at `i64::MIN` (exact in `i128`).
const fn upper(pad: u32, dil: u32, taps: u32) -> i64 {
    let v = pad as i128 - dil as i128 * (taps as i128 - 1);
    if v < i64::MIN as i128 {
        i64::MIN
    } else {
        v as i64
    }
}
