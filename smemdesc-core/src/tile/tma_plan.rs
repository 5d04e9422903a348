//! TMA (`cp.async.bulk.tensor`) plans that write exactly the layout a tile's descriptors describe.
//!
//! Rules (CUDA driver API `cuTensorMapEncodeTiled`, and what the tensor core reads): the box's inner (contiguous) extent is
//! exactly one swizzle atom wide; TMA writes a box row after row, densely, and swizzles on the
//! absolute SMEM address, so a box may only cover atoms that follow each other in SMEM along the
//! strided dimension — decided from the tile's layout: a whole column of atoms when the tile stacks
//! atoms along the strided dimension first (K-major `mn_first`, MN-major `k_first`, or either order
//! when the tile is one atom wide), one atom otherwise; `boxDim[i] <= 256`.

use crate::base::arch::Major;
use crate::base::error::Error;
use crate::base::error_data::BoxSource;
use crate::layout::algebra::Mode;
use crate::tile::spec::TileLayout;

pub use crate::base::tma_types::{TmaDataType, TmaSwizzle};

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
    pub(super) boxes_strided: u32,
    pub(super) boxes_contig: u32,
    pub(super) strided_first: bool,
    pub(super) major: Major,
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
                        source: BoxSource::Requested,
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
                source: BoxSource::Swizzle,
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

    /// [`box_coord`](Self::box_coord) as two modes of the box index: box `b`'s origin is
    /// `(mn.eval(b), k.eval(b))` for `b < boxes` — a mixed-radix sum, which code generic over
    /// a tile type evaluates with constant shapes and strides (no division by a run-time value,
    /// no table).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 128).build().unwrap();
    /// let p = TmaPlan::new(&t, None).unwrap();
    /// let (mn, k) = p.box_coord_modes();
    /// for b in 0..p.boxes {
    ///     assert_eq!((mn.eval(b), k.eval(b)), p.box_coord(b));
    /// }
    /// ```
    pub const fn box_coord_modes(&self) -> (Mode, Mode) {
        // Strided index s and contiguous index c of box b, the first listed varying fastest.
        let (first, second) = if self.strided_first {
            (self.boxes_strided, self.boxes_contig)
        } else {
            (self.boxes_contig, self.boxes_strided)
        };
        let (s_strides, c_strides) = if self.strided_first {
            ((self.box_rows, 0), (0, self.box_inner))
        } else {
            ((0, self.box_rows), (self.box_inner, 0))
        };
        let strided = Mode::from_parts(2, [first, second, 1, 1], [s_strides.0, s_strides.1, 0, 0]);
        let contig = Mode::from_parts(2, [first, second, 1, 1], [c_strides.0, c_strides.1, 0, 0]);
        match self.major {
            Major::K => (strided, contig),
            Major::Mn => (contig, strided),
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
