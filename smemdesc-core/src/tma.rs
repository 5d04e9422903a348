//! TMA (`cp.async.bulk.tensor`) plans that write exactly the layout a tile's descriptors describe.
//!
//! Rules (CUDA driver API `cuTensorMapEncodeTiled`, and what the tensor core reads): the box's inner (contiguous) extent is
//! exactly one swizzle atom wide; TMA writes a box row after row, densely, and swizzles on the
//! absolute SMEM address, so a box may only cover atoms that follow each other in SMEM along the
//! strided dimension — decided from the tile's layout: a whole column of atoms when the tile stacks
//! atoms along the strided dimension first (K-major `mn_first`, MN-major `k_first`, or either order
//! when the tile is one atom wide), one atom otherwise; `boxDim[i] <= 256`.

use crate::arch::Major;
use crate::dtype::ElementType;
use crate::error::Error;
use crate::swizzle::SwizzleMode;
use crate::tile::TileLayout;

/// `CUtensorMapSwizzle` (CUDA driver API, `cuda.h`).
///
/// ```
/// use smemdesc_core::{SwizzleMode, TmaSwizzle};
/// assert_eq!(TmaSwizzle::of(SwizzleMode::B128).value(), 3);
/// assert_eq!(TmaSwizzle::of(SwizzleMode::B128Base32B).name(), "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaSwizzle {
    /// `CU_TENSOR_MAP_SWIZZLE_NONE` = 0.
    None,
    /// `CU_TENSOR_MAP_SWIZZLE_32B` = 1.
    B32,
    /// `CU_TENSOR_MAP_SWIZZLE_64B` = 2.
    B64,
    /// `CU_TENSOR_MAP_SWIZZLE_128B` = 3.
    B128,
    /// `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B` = 4 (sm100).
    B128Atom32B,
}

impl TmaSwizzle {
    /// The TMA swizzle that writes what the MMA swizzle `mode` reads.
    ///
    /// ```
    /// use smemdesc_core::{SwizzleMode, TmaSwizzle};
    /// assert_eq!(TmaSwizzle::of(SwizzleMode::None), TmaSwizzle::None);
    /// ```
    #[inline]
    pub const fn of(mode: SwizzleMode) -> TmaSwizzle {
        match mode {
            SwizzleMode::None => TmaSwizzle::None,
            SwizzleMode::B32 => TmaSwizzle::B32,
            SwizzleMode::B64 => TmaSwizzle::B64,
            SwizzleMode::B128 => TmaSwizzle::B128,
            SwizzleMode::B128Base32B => TmaSwizzle::B128Atom32B,
        }
    }

    /// The enum's numeric value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TmaSwizzle::B128Atom32B.value(), 4);
    /// ```
    #[inline]
    pub const fn value(self) -> u32 {
        match self {
            TmaSwizzle::None => 0,
            TmaSwizzle::B32 => 1,
            TmaSwizzle::B64 => 2,
            TmaSwizzle::B128 => 3,
            TmaSwizzle::B128Atom32B => 4,
        }
    }

    /// The enumerator's name in `cuda.h`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TmaSwizzle::B64.name(), "CU_TENSOR_MAP_SWIZZLE_64B");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            TmaSwizzle::None => "CU_TENSOR_MAP_SWIZZLE_NONE",
            TmaSwizzle::B32 => "CU_TENSOR_MAP_SWIZZLE_32B",
            TmaSwizzle::B64 => "CU_TENSOR_MAP_SWIZZLE_64B",
            TmaSwizzle::B128 => "CU_TENSOR_MAP_SWIZZLE_128B",
            TmaSwizzle::B128Atom32B => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
        }
    }
}

/// `CUtensorMapDataType` for an element type (CUDA driver API, `cuda.h`). fp8 values are moved as
/// `UINT8`; fp6/fp4 as the packed types of their SMEM form ([`SmemForm::tma_data_type`](crate::SmemForm::tma_data_type)).
/// An `f32` operand is an input of the tf32 MMA (`kind::tf32`),
/// so its tensor map is `TFLOAT32`: the driver has a distinct 4-byte TF32 tensor data type, and TMA
/// converts the f32 values to tf32 on the copy into shared memory (CUTLASS loads `float` operands
/// of tf32 GEMMs through `tfloat32_t` maps for this reason). `FLOAT32` would copy the raw bits and
/// leave the tensor core to drop the low 13 mantissa bits instead of rounding them.
///
/// ```
/// use smemdesc_core::{ElementType, TmaDataType};
/// assert_eq!(TmaDataType::of(ElementType::BF16).value(), 9);
/// assert_eq!(TmaDataType::of(ElementType::E4M3).name(), "CU_TENSOR_MAP_DATA_TYPE_UINT8");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaDataType {
    /// `UINT8` = 0.
    Uint8,
    /// `FLOAT16` = 6.
    Float16,
    /// `FLOAT32` = 7.
    Float32,
    /// `BFLOAT16` = 9.
    Bfloat16,
    /// `TFLOAT32` = 11.
    Tfloat32,
    /// `16U4_ALIGN8B` = 13: packed fp4, two values per byte, no gaps.
    U4x16Align8B,
    /// `16U4_ALIGN16B` = 14: 16 fp4 values in 8 bytes, then 8 bytes of padding.
    U4x16Align16B,
    /// `16U6_ALIGN16B` = 15: 16 fp6 values in 12 bytes, then 4 bytes of padding.
    U6x16Align16B,
}

impl TmaDataType {
    /// The data type TMA moves `dtype` as, in the SMEM form of its dense kind (fp6/fp4: padded).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, TmaDataType};
    /// assert_eq!(TmaDataType::of(ElementType::TF32), TmaDataType::Tfloat32);
    /// assert_eq!(TmaDataType::of(ElementType::E2M1), TmaDataType::U4x16Align16B);
    /// assert_eq!(TmaDataType::of(ElementType::E3M2), TmaDataType::U6x16Align16B);
    /// assert_eq!(TmaDataType::of(ElementType::F32), TmaDataType::Tfloat32);
    /// ```
    #[inline]
    pub const fn of(dtype: ElementType) -> TmaDataType {
        match dtype {
            ElementType::F16 => TmaDataType::Float16,
            ElementType::BF16 => TmaDataType::Bfloat16,
            ElementType::TF32 => TmaDataType::Tfloat32,
            // f32 operands feed the tf32 MMA: TMA rounds them to tf32 (see above).
            ElementType::F32 => TmaDataType::Tfloat32,
            ElementType::E2M1 => TmaDataType::U4x16Align16B,
            ElementType::E2M3 | ElementType::E3M2 => TmaDataType::U6x16Align16B,
            _ => TmaDataType::Uint8,
        }
    }

    /// The enum's numeric value.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TmaDataType::Tfloat32.value(), 11);
    /// ```
    #[inline]
    pub const fn value(self) -> u32 {
        match self {
            TmaDataType::Uint8 => 0,
            TmaDataType::Float16 => 6,
            TmaDataType::Float32 => 7,
            TmaDataType::Bfloat16 => 9,
            TmaDataType::Tfloat32 => 11,
            TmaDataType::U4x16Align8B => 13,
            TmaDataType::U4x16Align16B => 14,
            TmaDataType::U6x16Align16B => 15,
        }
    }

    /// The enumerator's name in `cuda.h`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::TmaDataType::Float16.name(), "CU_TENSOR_MAP_DATA_TYPE_FLOAT16");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            TmaDataType::Uint8 => "CU_TENSOR_MAP_DATA_TYPE_UINT8",
            TmaDataType::Float16 => "CU_TENSOR_MAP_DATA_TYPE_FLOAT16",
            TmaDataType::Float32 => "CU_TENSOR_MAP_DATA_TYPE_FLOAT32",
            TmaDataType::Bfloat16 => "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
            TmaDataType::Tfloat32 => "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32",
            TmaDataType::U4x16Align8B => "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B",
            TmaDataType::U4x16Align16B => "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B",
            TmaDataType::U6x16Align16B => "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B",
        }
    }
}

/// How TMA fills one stage of a tile: `boxes` boxes of `box_rows × box_inner` elements.
///
/// `box_inner` runs along the contiguous dimension (K for K-major, M/N for MN-major) and is one
/// swizzle atom wide; `box_rows` runs along the other. For `cuTensorMapEncodeTiled`,
/// `boxDim = [box_inner, box_rows]` ([`box_dim`](Self::box_dim)).
///
/// ```
/// # use smemdesc_core::*;
/// // a 64 x 256 B K-major SW128 tile -> 2 boxes of 64 x 128 B (a box spans one 128-B atom)
/// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 128).swizzle(SwizzleMode::B128).build().unwrap();
/// let p = TmaPlan::new(&t, None).unwrap();
/// assert_eq!((p.boxes, p.box_rows, p.box_inner * 2), (2, 64, 128));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmaPlan {
    /// Rows of the box (along the strided dimension).
    pub box_rows: u32,
    /// Inner extent of the box in elements (one atom row).
    pub box_inner: u32,
    /// Boxes per stage.
    pub boxes: u32,
    /// Bytes per box.
    pub box_bytes: u32,
    /// The tensor map's swizzle.
    pub swizzle: TmaSwizzle,
    /// The tensor map's data type.
    pub data_type: TmaDataType,
    /// Alignment of the SMEM destination in smemdesc storage (the swizzle pattern's repeat, at
    /// least 128 B; TMA itself needs only 128 B on sm90, measured on an H100: see
    /// `PlacedTile::<Absolute>::tma_dst`).
    pub smem_align: u32,
    boxes_strided: u32,
    boxes_contig: u32,
    strided_first: bool,
    major: Major,
}

impl TmaPlan {
    /// Plans the boxes of `tile`; `request = Some((rows, inner))` asks for a specific box, checked
    /// against the rules, otherwise the largest legal box is used.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// // a 64 x 64 B K-major SW32 tile stacked K-first -> 16 boxes of 8 x 32 B (one atom each)
    /// let t = TileSpec::new(Arch::Sm90, ElementType::E4M3, Major::K, 64, 64)
    ///     .swizzle(SwizzleMode::B32).order(Order::KFirst).build().unwrap();
    /// let p = TmaPlan::new(&t, None).unwrap();
    /// assert_eq!((p.boxes, p.box_rows, p.box_inner), (16, 8, 32));
    /// // a box twice the atom's width is refused, naming the legal one
    /// let e = TmaPlan::new(&t, Some((8, 64))).unwrap_err();
    /// assert!(e.to_string().contains("32 elements"));
    /// ```
    #[inline]
    pub const fn new(tile: &TileLayout, request: Option<(u32, u32)>) -> Result<TmaPlan, Error> {
        let spec = tile.spec();
        let swizzle = tile.swizzle_mode();
        let ebytes = spec.dtype.smem_bytes();
        // Box extents count values ("Dimension for the packed data types must reflect the number
        // of individual U# values"); a packed fp4 cell holds 2.
        let vpc = spec.form.values_per_cell();
        let inner = swizzle.atom_width() / ebytes * vpc;
        let data_type = spec.form.tma_data_type(spec.dtype);
        let padded = matches!(
            data_type,
            TmaDataType::U4x16Align16B | TmaDataType::U6x16Align16B
        );
        let atom_rows = swizzle.atom_rows();
        let (strided, contig) = match spec.major {
            Major::K => (spec.tile_mn, spec.tile_k),
            Major::Mn => (spec.tile_k, spec.tile_mn),
        };
        // Contiguity is read off the layout, not the order's name: a tile with one atom along its
        // contiguous dimension has the same layout in both stacking orders.
        // Boxes are numbered in SMEM order: along the strided dimension first when the layout's
        // second atom along it directly follows the first.
        // The layout counts cells (a packed fp4 cell holds `vpc` values along the contiguous K).
        let cs = Coords {
            major: spec.major,
            strided,
            contig: contig / vpc,
            inner: inner / vpc,
        };
        let strided_first =
            strided == atom_rows || element_at(tile, cs, atom_rows, 0) == atom_rows * cs.inner;
        // The largest legal rows: a multiple of the atom's rows dividing the strided extent, <= 256,
        // every box covering only atoms that follow each other in SMEM.
        let mut max_rows = if strided < 256 { strided } else { 256 };
        max_rows -= max_rows % atom_rows;
        while max_rows > atom_rows && (strided % max_rows != 0 || !box_is_dense(tile, cs, max_rows))
        {
            max_rows -= atom_rows;
        }
        let rows = match request {
            None => max_rows,
            Some((rows, req_inner)) => {
                if padded && req_inner != 128 {
                    return Err(Error::TmaPaddedBoxInner {
                        data_type,
                        inner: req_inner,
                        requested: true,
                        swizzle,
                    });
                }
                if req_inner != inner {
                    return Err(Error::TmaBoxWidth {
                        inner: req_inner,
                        inner_bytes: req_inner.saturating_mul(ebytes) / vpc,
                        swizzle,
                        legal_inner: inner,
                        max_rows,
                    });
                }
                if rows > 256 {
                    return Err(Error::TmaBoxRowsOver256 {
                        rows,
                        max_rows,
                        inner,
                    });
                }
                if rows == 0
                    || rows % atom_rows != 0
                    || strided % rows != 0
                    || !box_is_dense(tile, cs, rows)
                {
                    return Err(Error::TmaBoxRowsIllegal {
                        rows,
                        atom_rows,
                        max_rows,
                        inner,
                    });
                }
                rows
            }
        };
        if padded && inner != 128 {
            return Err(Error::TmaPaddedBoxInner {
                data_type,
                inner,
                requested: false,
                swizzle,
            });
        }
        let boxes_strided = strided / rows;
        let boxes_contig = contig / inner;
        Ok(TmaPlan {
            box_rows: rows,
            box_inner: inner,
            boxes: boxes_strided * boxes_contig,
            box_bytes: rows * inner * ebytes / vpc,
            swizzle: TmaSwizzle::of(swizzle),
            data_type,
            smem_align: tile.align(),
            boxes_strided,
            boxes_contig,
            strided_first,
            major: spec.major,
        })
    }

    /// `boxDim` for `cuTensorMapEncodeTiled`: `[inner, rows]` (innermost first).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(TmaPlan::new(&t, None).unwrap().box_dim(), [64, 128]);
    /// ```
    #[inline]
    pub const fn box_dim(&self) -> [u32; 2] {
        [self.box_inner, self.box_rows]
    }

    /// The tile coordinates `(mn0, k0)` (elements) of box `b`'s first element. Boxes are numbered in
    /// increasing SMEM order. K-major boxes cover `mn0..mn0+box_rows × k0..k0+box_inner`, MN-major
    /// boxes `mn0..mn0+box_inner × k0..k0+box_rows`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 128).build().unwrap();
    /// let p = TmaPlan::new(&t, None).unwrap();
    /// assert_eq!(p.box_coord(1), (0, 64));
    /// ```
    #[inline]
    pub const fn box_coord(&self, b: u32) -> (u32, u32) {
        let (s, c) = if self.strided_first {
            (b % self.boxes_strided, b / self.boxes_strided)
        } else {
            (b / self.boxes_contig, b % self.boxes_contig)
        };
        let (strided0, contig0) = (s * self.box_rows, c * self.box_inner);
        match self.major {
            Major::K => (strided0, contig0),
            Major::Mn => (contig0, strided0),
        }
    }

    /// Byte offset of box `b` from the start of its stage (add `stage × stage_bytes`).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 128).build().unwrap();
    /// let p = TmaPlan::new(&t, None).unwrap();
    /// assert_eq!(p.box_offset(&t, 1), 8192);
    /// ```
    #[inline]
    pub const fn box_offset(&self, tile: &TileLayout, b: u32) -> u32 {
        let (mn, k) = self.box_coord(b);
        let spec = tile.spec();
        tile.layout().eval(mn, k / spec.form.values_per_cell()) * spec.dtype.smem_bytes()
    }

    /// Whether box rows run along MN (K-major tile) rather than K.
    #[inline]
    pub(crate) const fn box_coord_major_is_k(&self) -> bool {
        matches!(self.major, Major::K)
    }
}

/// A tile's extents seen from TMA in layout cells: `strided` rows of `contig` cells, boxes `inner`
/// cells wide.
#[derive(Clone, Copy)]
struct Coords {
    major: Major,
    strided: u32,
    contig: u32,
    inner: u32,
}

/// The element offset the tile's layout gives row `s` (strided), column `k` (contiguous).
#[inline]
const fn element_at(tile: &TileLayout, c: Coords, s: u32, k: u32) -> u32 {
    match c.major {
        Major::K => tile.layout().eval(s, k),
        Major::Mn => tile.layout().eval(k, s),
    }
}

/// Whether every box of `rows` rows (at multiples of `rows` along the strided dimension and of
/// `inner` along the contiguous one) lies densely in SMEM, row after row, the way TMA writes it:
/// row `r` of a box at `inner × r` elements past the box's first element. Read off the tile's
/// layout; rows past the strided extent are not looked at. Within an atom rows are dense, so the
/// first row of each atom decides (`rows` is a multiple of the atom's rows).
#[inline]
const fn box_is_dense(tile: &TileLayout, c: Coords, rows: u32) -> bool {
    let atom_rows = tile.swizzle_mode().atom_rows();
    let mut s0 = 0;
    while s0 < c.strided {
        let mut c0 = 0;
        while c0 < c.contig {
            let first = element_at(tile, c, s0, c0);
            let mut r = atom_rows;
            while r < rows && s0 + r < c.strided {
                if element_at(tile, c, s0 + r, c0) != first + r * c.inner {
                    return false;
                }
                r += atom_rows;
            }
            c0 += c.inner;
        }
        s0 += rows;
    }
    true
}
