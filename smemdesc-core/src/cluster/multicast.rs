//! One operand's TMA multicast plan inside a cluster.

use super::{Cluster, ClusterError};
use crate::{Operand, TileLayout, TmaPlan};

/// One operand's multicast plan: which CTAs share its tile, the box slice each issues (tile
/// coordinates and SMEM offset), the `ctaMask`, and the bytes every CTA's barrier receives.
///
/// The tile's TMA plan cuts a stage into `boxes` boxes of `box_rows` rows; each of the `count`
/// CTAs sharing the tile issues, for every box, rows `index·slice_rows .. (index+1)·slice_rows`
/// of it (a box of `[box_inner, slice_rows]`: [`slice_box_dim`](Self::slice_box_dim)),
/// multicast to all `count` CTAs at the same SMEM offset.
///
/// ```
/// use smemdesc_core::*;
/// use smemdesc_core::cluster::*;
/// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
/// let c = Cluster::new(1, 2).unwrap(); // two CTAs along N share the A tile
/// let m = c.multicast(Operand::A, &a, None).unwrap();
/// assert_eq!((m.index(2 - 1), m.cta_mask(0), m.slice_offset(1, 0)), (1, 0b11, 64 * 128));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Multicast {
    cluster: Cluster,
    operand: Operand,
    count: u32,
    plan: TmaPlan,
    slice_rows: u32,
    row_pitch: u32,
    stage_bytes: u32,
    tile: TileLayout,
}

impl Multicast {
    pub(super) const fn new(
        cluster: Cluster,
        operand: Operand,
        tile: &TileLayout,
        tma_box: Option<(u32, u32)>,
    ) -> Result<Multicast, ClusterError> {
        let plan = match TmaPlan::new(tile, tma_box) {
            Ok(p) => p,
            Err(e) => return Err(ClusterError::Plan(e)),
        };
        let count = cluster.sharing(operand);
        let atom_rows = tile.swizzle_mode().atom_rows();
        let box_rows = plan.box_rows;
        if box_rows % count != 0 || (box_rows / count) % atom_rows != 0 {
            let mut legal = 0u32;
            let mut c = 1;
            while c <= 16 {
                if box_rows % c == 0 && (box_rows / c) % atom_rows == 0 {
                    legal |= 1 << c;
                }
                c += 1;
            }
            return Err(ClusterError::NotDividing {
                operand,
                count,
                box_rows,
                atom_rows,
                legal,
            });
        }
        Ok(Multicast {
            cluster,
            operand,
            count,
            plan,
            slice_rows: box_rows / count,
            row_pitch: plan.box_bytes / box_rows,
            stage_bytes: plan.boxes * plan.box_bytes,
            tile: *tile,
        })
    }

    /// CTAs sharing the tile (1: no multicast).
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(Cluster::new(4, 1).unwrap().multicast(Operand::B, &t, None).unwrap().count(), 4);
    /// ```
    #[inline]
    pub const fn count(&self) -> u32 {
        self.count
    }

    /// The operand.
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(Cluster::new(1, 1).unwrap().multicast(Operand::A, &t, None).unwrap().operand(), Operand::A);
    /// ```
    #[inline]
    pub const fn operand(&self) -> Operand {
        self.operand
    }

    /// The tile's own TMA plan (whole boxes).
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 128).build().unwrap();
    /// assert_eq!(Cluster::new(1, 1).unwrap().multicast(Operand::A, &t, None).unwrap().plan().boxes, 2);
    /// ```
    #[inline]
    pub const fn plan(&self) -> TmaPlan {
        self.plan
    }

    /// Rows of each CTA's slice of a box.
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(Cluster::new(1, 4).unwrap().multicast(Operand::A, &t, None).unwrap().slice_rows(), 32);
    /// ```
    #[inline]
    pub const fn slice_rows(&self) -> u32 {
        self.slice_rows
    }

    /// `boxDim` of the tensor map the slices are loaded with: `[box_inner, slice_rows]`.
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 64).build().unwrap();
    /// assert_eq!(Cluster::new(2, 1).unwrap().multicast(Operand::B, &t, None).unwrap().slice_box_dim(), [64, 128]);
    /// ```
    #[inline]
    pub const fn slice_box_dim(&self) -> [u32; 2] {
        [self.plan.box_inner, self.slice_rows]
    }

    /// Bytes of one slice.
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 64).build().unwrap();
    /// assert_eq!(Cluster::new(2, 1).unwrap().multicast(Operand::B, &t, None).unwrap().slice_bytes(), 16384);
    /// ```
    #[inline]
    pub const fn slice_bytes(&self) -> u32 {
        self.slice_rows * self.row_pitch
    }

    /// Slices each CTA issues per stage (one per box).
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 128).build().unwrap();
    /// assert_eq!(Cluster::new(2, 1).unwrap().multicast(Operand::B, &t, None).unwrap().slices(), 2);
    /// ```
    #[inline]
    pub const fn slices(&self) -> u32 {
        self.plan.boxes
    }

    /// The position of CTA `rank` among the CTAs sharing its tile (which slice it issues):
    /// its cluster `j` for A, its `i` for B.
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// let m = Cluster::new(2, 2).unwrap().multicast(Operand::B, &t, None).unwrap();
    /// assert_eq!((m.index(0), m.index(1), m.index(2), m.index(3)), (0, 1, 0, 1));
    /// ```
    #[inline]
    pub const fn index(&self, rank: u32) -> u32 {
        let (i, j) = self.cluster.coords(rank);
        match self.operand {
            Operand::A => j,
            Operand::B => i,
        }
    }

    /// The `ctaMask` of `cp.async.bulk.tensor … .multicast::cluster` for CTA `rank`'s slices:
    /// bit `r` set for every CTA `r` that shares its tile (itself included).
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// let m = Cluster::new(2, 2).unwrap().multicast(Operand::A, &t, None).unwrap();
    /// assert_eq!((m.cta_mask(0), m.cta_mask(3)), (0b0101, 0b1010));
    /// ```
    #[inline]
    pub const fn cta_mask(&self, rank: u32) -> u16 {
        let (i, j) = self.cluster.coords(rank);
        let mut mask = 0u16;
        let mut p = 0;
        while p < self.count {
            let r = match self.operand {
                Operand::A => self.cluster.rank(i, p),
                Operand::B => self.cluster.rank(p, j),
            };
            mask |= 1 << r;
            p += 1;
        }
        mask
    }

    /// Tile coordinates `(mn0, k0)` of the first element of CTA `rank`'s slice of box `b`.
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 64).build().unwrap();
    /// let m = Cluster::new(2, 1).unwrap().multicast(Operand::B, &t, None).unwrap();
    /// assert_eq!(m.slice_coord(1, 0), (128, 0));
    /// ```
    #[inline]
    pub const fn slice_coord(&self, rank: u32, b: u32) -> (u32, u32) {
        let (mn, k) = self.plan.box_coord(b);
        let d = self.index(rank) * self.slice_rows;
        match self.plan.box_coord_major_is_k() {
            true => (mn + d, k),
            false => (mn, k + d),
        }
    }

    /// SMEM byte offset (from the stage's start) of CTA `rank`'s slice of box `b`, in every
    /// receiving CTA.
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 128).build().unwrap();
    /// let m = Cluster::new(2, 1).unwrap().multicast(Operand::B, &t, None).unwrap();
    /// assert_eq!((m.slice_offset(1, 0), m.slice_offset(0, 1)), (16384, 32768));
    /// ```
    #[inline]
    pub const fn slice_offset(&self, rank: u32, b: u32) -> u32 {
        self.box_offset(b) + self.index(rank) * self.slice_rows * self.row_pitch
    }

    #[inline]
    const fn box_offset(&self, b: u32) -> u32 {
        self.plan.box_offset(&self.tile, b)
    }

    /// Bytes CTA `rank` issues per stage.
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 64).build().unwrap();
    /// assert_eq!(Cluster::new(2, 1).unwrap().multicast(Operand::B, &t, None).unwrap().issued_bytes(), 16384);
    /// ```
    #[inline]
    pub const fn issued_bytes(&self) -> u32 {
        self.slices() * self.slice_bytes()
    }

    /// Bytes of this operand that arrive at every CTA's full barrier per stage: the whole tile
    /// (its slices come from all `count` sharers). A stage's `expect_tx` is the sum over the
    /// operands ([`expect_tx_total`](Self::expect_tx_total)).
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(Cluster::new(1, 2).unwrap().multicast(Operand::A, &t, None).unwrap().expect_tx(), 16384);
    /// ```
    #[inline]
    pub const fn expect_tx(&self) -> u32 {
        self.stage_bytes
    }

    /// `expect_tx` of a stage holding `a` and `b`.
    ///
    /// ```
    /// # use smemdesc_core::{*, cluster::*};
    /// let c = Cluster::new(2, 1).unwrap();
    /// let a = c.multicast(Operand::A, &TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap(), None).unwrap();
    /// let b = c.multicast(Operand::B, &TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 64).build().unwrap(), None).unwrap();
    /// assert_eq!(Multicast::expect_tx_total(&a, &b), 16384 + 32768);
    /// ```
    #[inline]
    pub const fn expect_tx_total(a: &Multicast, b: &Multicast) -> u32 {
        a.expect_tx() + b.expect_tx()
    }
}
