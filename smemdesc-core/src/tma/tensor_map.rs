//! Every argument of `cuTensorMapEncodeTiled`, checked against every rule the CUDA driver API
//! documentation states (section "Tensor Map Object Management", `cuTensorMapEncodeTiled`) and the
//! rules measured on an H100 (`shared/notes/tensor-maps.md`: the box-size limit, the
//! Blackwell-only options).
//!
//! A [`TensorMap`] may leave the global address, dims and strides open (`None`: supplied at run
//! time). [`TensorMap::check`] applies every rule whose inputs are known, so a `const` item with
//! constant dims is checked at compile time ([`TensorMap::expect_valid`]); once the run-time values
//! are set, [`TensorMap::try_args`] checks the rest and gives the concrete [`TensorMapArgs`].

use crate::base::arch::{Arch, Major};
use crate::cluster::Multicast;
use crate::tile::decl::TilePlan;
use crate::tma::tensor_map_check::box_bytes;
use crate::tma::tensor_map_error::{TensorMapArg, TensorMapError};
use crate::tma::tensor_map_types::{
    TensorMapDataType, TensorMapInterleave, TensorMapL2Promotion, TensorMapOobFill,
    TensorMapSwizzle,
};

/// The largest box the driver accepts, in bytes (measured: `shared/notes/tensor-maps.md`).
///
/// ```
/// assert_eq!(smemdesc_core::TENSOR_MAP_MAX_BOX_BYTES, 228 * 1024);
/// ```
pub const TENSOR_MAP_MAX_BOX_BYTES: u64 = 233_472;

/// The arguments of one `cuTensorMapEncodeTiled` call (all but the output pointer), some possibly
/// still open, with the rules checked by [`check`](Self::check).
///
/// Arrays are innermost first, as the driver takes them; entries at and beyond `rank` are unused.
/// `global_strides[i]` is the byte stride of dimension `i + 1`.
///
/// ```
/// use smemdesc_core::*;
/// // A 4096 x 4096 row-major bf16 matrix read in 64 x 128 boxes with 128B swizzle.
/// const M: TensorMap = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
///     .dim(0, 4096).dim(1, 4096).stride(0, 8192)
///     .box_dim(0, 64).box_dim(1, 128)
///     .swizzle(TensorMapSwizzle::B128)
///     .expect_valid();
/// let args = M.address(0x7f00_0000_0000).try_args().unwrap();
/// assert_eq!((args.global_dim[1], args.box_dim[0], args.swizzle.value()), (4096, 64, 3));
/// // a 256-B inner box with 128B swizzle is refused, naming boxDim[0] and the legal span
/// let e = M.box_dim(0, 128).check().unwrap_err();
/// assert_eq!(e.argument(), TensorMapArg::BoxDim(0));
/// assert!(e.to_string().contains("at most 128 B"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorMap {
    /// The architecture of the context that will encode it (the driver refuses Blackwell-only
    /// options on sm90).
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
    /// Open strides are the dense ones: `globalStrides[0] = globalDim[0] × element size`,
    /// `globalStrides[i] = globalStrides[i - 1] × globalDim[i]`.
    pub dense_strides: bool,
    /// `boxDim`.
    pub box_dim: [u32; 5],
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
    /// The box `[inner, rows]` and element bits a tile's TMA plan fixes, for maps made by
    /// [`for_tile`](Self::for_tile).
    pub(super) tile_box: Option<[u32; 3]>,
    /// A builder call with an index beyond rank 5, reported by `check`.
    bad_index: Option<TensorMapArg>,
}

/// Every argument of `cuTensorMapEncodeTiled` but the output pointer, all known and checked:
/// what [`TensorMap::try_args`] returns.
///
/// ```
/// use smemdesc_core::*;
/// let a = TensorMap::new(Arch::Sm90, TensorMapDataType::Float32, 2)
///     .dim(0, 64).dim(1, 64).box_dim(0, 32).box_dim(1, 8).address(0x1000).try_args().unwrap();
/// assert_eq!(a.global_strides[0], 256); // dense: 64 x 4 B
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorMapArgs {
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
    /// `boxDim`.
    pub box_dim: [u32; 5],
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

impl TensorMap {
    /// A map of `rank` dimensions with every dim, stride and the address open, box and element
    /// strides 1, no interleave, no swizzle, L2 promotion 256B (what CUTLASS-style GEMMs and `gpu/`
    /// use), OOB fill NONE.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm100, TensorMapDataType::Uint8, 3);
    /// assert_eq!((m.rank, m.global_dim[0], m.l2_promotion), (3, None, TensorMapL2Promotion::L2_256B));
    /// ```
    pub const fn new(arch: Arch, data_type: TensorMapDataType, rank: u32) -> TensorMap {
        TensorMap {
            arch,
            data_type,
            rank,
            global_address: None,
            global_dim: [None; 5],
            global_strides: [None; 4],
            dense_strides: true,
            box_dim: [1; 5],
            element_strides: [1; 5],
            interleave: TensorMapInterleave::None,
            swizzle: TensorMapSwizzle::None,
            l2_promotion: TensorMapL2Promotion::L2_256B,
            oob_fill: TensorMapOobFill::None,
            tile_box: None,
            bad_index: None,
        }
    }

    /// The map that loads `plan`'s tile from a global tensor of `rank` dimensions (2 to 5): data
    /// type, swizzle and box come from the tile's TMA plan (`boxDim = [inner, rows, 1, …]`). Dim 0 is
    /// the tile's contiguous dimension (K for K-major, M/N for MN-major), dim 1 the other one, dims
    /// 2.. are outer (batch) dimensions. A tile's map keeps interleave NONE and element strides 1:
    /// anything else would not write the layout the descriptors describe.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// const A: TilePlan = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).expect_valid();
    /// const M: TensorMap = TensorMap::for_tile(&A, 2).dim(0, 4096).dim(1, 8192).expect_valid();
    /// assert_eq!((M.box_dim[0], M.box_dim[1]), (64, 128));
    /// assert_eq!(M.swizzle, TensorMapSwizzle::B128);
    /// ```
    pub const fn for_tile(plan: &TilePlan, rank: u32) -> TensorMap {
        let tma = &plan.tma;
        let mut m = TensorMap::new(
            plan.decl.arch,
            TensorMapDataType::of_tma(tma.data_type),
            rank,
        );
        m.swizzle = TensorMapSwizzle::of_tma(tma.swizzle);
        m.box_dim[0] = tma.box_inner;
        m.box_dim[1] = tma.box_rows;
        m.tile_box = Some([tma.box_inner, tma.box_rows, m.data_type.box_bits()]);
        m
    }

    /// [`for_tile`](Self::for_tile) for a dense 2-D matrix of `mn × k` elements (M × K for A,
    /// N × K for B): dims ordered by the tile's major-ness, strides dense.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// const B: TilePlan = TileDecl::new(Arch::Sm90, Operand::B, ElementType::F16, Major::Mn, 64, 64).expect_valid();
    /// let a = TensorMap::for_tile_matrix(&B, 512, 1024).address(0).try_args().unwrap();
    /// assert_eq!((a.global_dim[0], a.global_dim[1], a.global_strides[0]), (512, 1024, 1024));
    /// ```
    pub const fn for_tile_matrix(plan: &TilePlan, mn: u64, k: u64) -> TensorMap {
        let (inner, outer) = match plan.decl.major {
            Major::K => (k, mn),
            Major::Mn => (mn, k),
        };
        TensorMap::for_tile(plan, 2).dim(0, inner).dim(1, outer)
    }

    /// The map one CTA loads its slices of a multicast tile with: the box becomes the slice's
    /// (`Multicast::slice_box_dim`). Only a map of the tile the plan slices takes it: on any
    /// other map the box is set but [`check`](Self::check) refuses it as not the tile's.
    ///
    /// ```
    /// use smemdesc_core::{*, cluster::*};
    /// const SLICED: TilePlan = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 256, 64).expect_valid();
    /// let mc = Cluster::new(2, 1).unwrap().multicast(Operand::B, &SLICED.tile, None).unwrap();
    /// let m = TensorMap::for_tile_matrix(&SLICED, 4096, 4096).multicast_slices(&mc).address(0);
    /// assert_eq!((m.box_dim[0], m.box_dim[1]), (64, 128));
    /// assert!(m.check().is_ok());
    /// // The tile's box with rows set by hand, or another tile's map with this plan's slices: refused.
    /// assert!(TensorMap::for_tile_matrix(&SLICED, 4096, 4096).box_dim(1, 128).address(0).check().is_err());
    /// const SMALL: TilePlan = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 64, 64).expect_valid();
    /// assert!(TensorMap::for_tile_matrix(&SMALL, 4096, 4096).multicast_slices(&mc).address(0).check().is_err());
    /// ```
    pub const fn multicast_slices(mut self, mc: &Multicast) -> TensorMap {
        let plan = mc.plan();
        let [inner, rows] = mc.slice_box_dim();
        let bits = self.data_type.box_bits();
        if let Some([i, r, b]) = self.tile_box {
            if i == plan.box_inner && r == plan.box_rows && b == bits {
                self.tile_box = Some([inner, rows, bits]);
            }
        }
        self.box_dim[0] = inner;
        self.box_dim[1] = rows;
        self
    }

    /// Sets `globalDim[i]` (elements).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 2).dim(1, 7);
    /// assert_eq!(m.global_dim[1], Some(7));
    /// ```
    pub const fn dim(mut self, i: u32, value: u64) -> TensorMap {
        if i < 5 {
            self.global_dim[i as usize] = Some(value);
        } else {
            self.bad_index = Some(TensorMapArg::GlobalDim(i));
        }
        self
    }

    /// Sets `globalStrides[i]`, the byte stride of dimension `i + 1`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 2).stride(0, 4096);
    /// assert_eq!(m.global_strides[0], Some(4096));
    /// ```
    pub const fn stride(mut self, i: u32, bytes: u64) -> TensorMap {
        if i < 4 {
            self.global_strides[i as usize] = Some(bytes);
        } else {
            self.bad_index = Some(TensorMapArg::GlobalStrides(i));
        }
        self
    }

    /// Leaves the strides that are not set open until run time instead of dense.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 2).dim(0, 64).dim(1, 64).runtime_strides();
    /// assert_eq!(m.stride_value(0), None);
    /// ```
    pub const fn runtime_strides(mut self) -> TensorMap {
        self.dense_strides = false;
        self
    }

    /// Sets `globalAddress`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 1).address(64).global_address, Some(64));
    /// ```
    pub const fn address(mut self, address: u64) -> TensorMap {
        self.global_address = Some(address);
        self
    }

    /// Sets `boxDim[i]`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 2).box_dim(1, 8).box_dim[1], 8);
    /// ```
    pub const fn box_dim(mut self, i: u32, value: u32) -> TensorMap {
        if i < 5 {
            self.box_dim[i as usize] = value;
        } else {
            self.bad_index = Some(TensorMapArg::BoxDim(i));
        }
        self
    }

    /// Sets `elementStrides[i]`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 2).element_stride(1, 2).element_strides[1], 2);
    /// ```
    pub const fn element_stride(mut self, i: u32, value: u32) -> TensorMap {
        if i < 5 {
            self.element_strides[i as usize] = value;
        } else {
            self.bad_index = Some(TensorMapArg::ElementStrides(i));
        }
        self
    }

    /// Sets `interleave`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).interleave(TensorMapInterleave::B16);
    /// assert_eq!(m.interleave.value(), 1);
    /// ```
    pub const fn interleave(mut self, interleave: TensorMapInterleave) -> TensorMap {
        self.interleave = interleave;
        self
    }

    /// Sets `swizzle`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 2).swizzle(TensorMapSwizzle::B64);
    /// assert_eq!(m.swizzle.value(), 2);
    /// ```
    pub const fn swizzle(mut self, swizzle: TensorMapSwizzle) -> TensorMap {
        self.swizzle = swizzle;
        self
    }

    /// Sets `l2Promotion`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 2).l2_promotion(TensorMapL2Promotion::L2_64B);
    /// assert_eq!(m.l2_promotion.value(), 1);
    /// ```
    pub const fn l2_promotion(mut self, l2: TensorMapL2Promotion) -> TensorMap {
        self.l2_promotion = l2;
        self
    }

    /// Sets `oobFill`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Float16, 2).oob_fill(TensorMapOobFill::NanRequestZeroFma);
    /// assert_eq!(m.oob_fill.value(), 1);
    /// ```
    pub const fn oob_fill(mut self, fill: TensorMapOobFill) -> TensorMap {
        self.oob_fill = fill;
        self
    }

    /// Sets `tensorDataType` (a tile's map accepts only a type of the tile's element size).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Float32, 2).data_type(TensorMapDataType::Tfloat32);
    /// assert_eq!(m.data_type.value(), 11);
    /// ```
    pub const fn data_type(mut self, data_type: TensorMapDataType) -> TensorMap {
        self.data_type = data_type;
        self
    }

    /// `globalStrides[i]` as the driver will see it: the value set, else the dense stride when
    /// [`dense_strides`](Self::dense_strides) and the dims it needs are known, else `None`. A dense
    /// stride that overflows `u64` is `u64::MAX` (refused as ≥ 2^40).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 3).dim(0, 100).dim(1, 10).stride(0, 256);
    /// assert_eq!((m.stride_value(0), m.stride_value(1)), (Some(256), Some(2560)));
    /// ```
    pub const fn stride_value(&self, i: u32) -> Option<u64> {
        if i >= 4 {
            return None;
        }
        if let Some(s) = self.global_strides[i as usize] {
            return Some(s);
        }
        if !self.dense_strides {
            return None;
        }
        let below = if i == 0 {
            match self.global_dim[0] {
                // ceil(dim0 × bits / 8): packed 4-bit rows end on a half byte otherwise.
                Some(d) => match d.checked_mul(self.data_type.global_bits() as u64) {
                    Some(bits) => bits.div_ceil(8),
                    None => return Some(u64::MAX),
                },
                None => return None,
            }
        } else {
            match (self.stride_value(i - 1), self.global_dim[i as usize]) {
                (Some(s), Some(d)) => match s.checked_mul(d) {
                    Some(v) => v,
                    None => return Some(u64::MAX),
                },
                _ => return None,
            }
        };
        Some(below)
    }

    /// Applies every rule whose inputs are known (open values are skipped); the first rule broken
    /// is returned. Rules, in order (CUDA driver API, `cuTensorMapEncodeTiled`, unless marked
    /// measured):
    ///
    /// 1. `tensorRank` non-zero and ≤ 5; ≥ 3 when `interleave` is not NONE (a tile's map: ≥ 2);
    /// 2. data type and swizzle accepted on the architecture (measured: Blackwell-only options);
    /// 3. interleave 32B only with swizzle 32B; `16U6_ALIGN16B` only with interleave NONE; the
    ///    swizzles each ALIGN16B type supports; NaN-request-zero-FMA fill only for float types;
    /// 4. a tile's map keeps the tile's box, element size, interleave NONE and element strides 1;
    /// 5. `globalAddress` 16-byte aligned, 32 with interleave 32B or an ALIGN16B type;
    /// 6. `globalDim[i]` in 1..=2^32; `globalDim[0]` a multiple of 128 (ALIGN16B) or 2 (ALIGN8B);
    /// 7. `globalStrides[i]` a multiple of 16 (32 with interleave 32B or ALIGN16B), < 2^40, and at
    ///    least the bytes of the dimension below (`globalStrides[0] ≥ globalDim[0] × size`,
    ///    `globalStrides[i] ≥ globalStrides[i-1] × globalDim[i]`);
    /// 8. `boxDim[i]` in 1..=256; `boxDim[0] × size` a multiple of 16 B (documented for interleave
    ///    NONE; measured: the driver refuses the others with interleave 16B and 32B too) and,
    ///    with interleave NONE and a swizzle, ≤ the swizzle span; `boxDim[0] = 128` for ALIGN16B
    ///    types;
    /// 9. `elementStrides[i]` in 1..=8;
    /// 10. measured: the box's bytes, prod `floor(boxDim[i] / elementStrides[i])` × size, ≤ 233,472.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).box_dim(0, 64).box_dim(1, 64);
    /// assert_eq!(m.check(), Ok(()));
    /// assert_eq!(m.stride(0, 1000).check().unwrap_err(),
    ///            TensorMapError::StrideNotMultiple { index: 0, stride: 1000, multiple: 16 });
    /// ```
    pub const fn check(&self) -> Result<(), TensorMapError> {
        if let Some(arg) = self.bad_index {
            return Err(TensorMapError::IndexOutOfRange { arg });
        }
        tri!(self.check_options());
        tri!(self.check_tile());
        tri!(self.check_global());
        self.check_box()
    }

    /// [`check`](Self::check) for `const` items: a compile-time panic with the rule's summary.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// const M: TensorMap = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 2).box_dim(0, 16).expect_valid();
    /// assert_eq!(M.box_dim[0], 16);
    /// ```
    pub const fn expect_valid(self) -> TensorMap {
        match self.check() {
            Ok(()) => self,
            Err(e) => panic!("{}", e.summary()),
        }
    }

    /// Checks every rule and returns the concrete arguments; an open value that was not supplied
    /// is [`TensorMapError::Unresolved`]. This is the run-time (`try_`) form.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Float16, 2).dim(0, 64).box_dim(0, 8);
    /// assert_eq!(m.address(0).try_args().unwrap_err(), TensorMapError::Unresolved { arg: TensorMapArg::GlobalDim(1) });
    /// assert_eq!(m.dim(1, 3).address(8).try_args().unwrap_err().argument(), TensorMapArg::GlobalAddress);
    /// assert!(m.dim(1, 3).address(16).try_args().is_ok());
    /// ```
    pub const fn try_args(&self) -> Result<TensorMapArgs, TensorMapError> {
        tri!(self.check());
        let Some(global_address) = self.global_address else {
            return Err(TensorMapError::Unresolved {
                arg: TensorMapArg::GlobalAddress,
            });
        };
        let mut global_dim = [1u64; 5];
        let mut global_strides = [0u64; 4];
        let mut i = 0;
        while i < self.rank {
            match self.global_dim[i as usize] {
                Some(d) => global_dim[i as usize] = d,
                None => {
                    return Err(TensorMapError::Unresolved {
                        arg: TensorMapArg::GlobalDim(i),
                    })
                }
            }
            i += 1;
        }
        let mut i = 0;
        while i + 1 < self.rank {
            match self.stride_value(i) {
                Some(s) => global_strides[i as usize] = s,
                None => {
                    return Err(TensorMapError::Unresolved {
                        arg: TensorMapArg::GlobalStrides(i),
                    })
                }
            }
            i += 1;
        }
        Ok(TensorMapArgs {
            data_type: self.data_type,
            rank: self.rank,
            global_address,
            global_dim,
            global_strides,
            box_dim: self.box_dim,
            element_strides: self.element_strides,
            interleave: self.interleave,
            swizzle: self.swizzle,
            l2_promotion: self.l2_promotion,
            oob_fill: self.oob_fill,
        })
    }
}

impl TensorMapArgs {
    /// The bytes one box moves (prod `floor(boxDim[i] / elementStrides[i])` × element size): the
    /// mbarrier transaction count of one TMA load.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// const A: TilePlan = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).expect_valid();
    /// let a = TensorMap::for_tile_matrix(&A, 4096, 4096).address(0).try_args().unwrap();
    /// assert_eq!(a.box_bytes(), 16384);
    /// ```
    pub const fn box_bytes(&self) -> u64 {
        box_bytes(
            self.data_type,
            self.rank,
            &self.box_dim,
            &self.element_strides,
        )
    }
}
