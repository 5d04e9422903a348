//! A grouped GEMM's groups on the host and in the scheduler: per-group shapes checked against the
//! tile, the persistent tile order over the groups, and multicast across a group boundary
//! refused.

/// One group: `C_g (m × n) = A_g (m × k) · B_gᵀ`. `m` may be 0 (an expert with no tokens) or any
/// tail: the TMA store clips C at the group's rows.
///
/// ```
/// let g = smemdesc::grouped::GroupShape { m: 300, n: 4096, k: 4096 };
/// assert_eq!(g.flops(), 2 * 300 * 4096 * 4096);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupShape {
    /// Rows of A and C.
    pub m: u32,
    /// Rows of B, columns of C.
    pub n: u32,
    /// The reduction extent.
    pub k: u32,
}

impl GroupShape {
    /// `2 m n k`.
    pub const fn flops(&self) -> u64 {
        2 * self.m as u64 * self.n as u64 * self.k as u64
    }
}

/// Why a grouped problem does not fit the kernel's tile.
///
/// ```
/// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};
/// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
/// # pub struct A;
/// # #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
/// # pub struct B;
/// # #[smem_storage(arch = sm90)]
/// # pub struct S { a: A, b: B, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
/// # #[smem_pipeline(storage = S, loads = (a: A, b: B), consumers = 2)]
/// # pub struct Pipe;
/// use smemdesc::grouped::*;
/// let g = [GroupShape { m: 64, n: 4000, k: 4096 }];
/// assert_eq!(GroupedTiles::new::<Pipe>(&g, 128, 256, 64).unwrap_err(), GroupedError::NotBlocked { group: 0, dim: 'n', value: 4000, block: 256 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupedError {
    /// No groups.
    NoGroups,
    /// A zero tile extent.
    ZeroTile,
    /// `n` or `k` of a group is not a whole number of the tile's blocks (only `m` may have a
    /// tail: the store clips it; a K or N tail would read or write past the group).
    NotBlocked {
        /// The group.
        group: usize,
        /// `'n'` or `'k'`.
        dim: char,
        /// Its value.
        value: u32,
        /// The block it must be a multiple of.
        block: u32,
    },
    /// More tiles than a `u32` counts.
    TooManyTiles,
    /// The pipeline's cluster has CTAs along N (`y` of them, or A multicast): CTAs sharing A
    /// would need every group's N tiles to line up with the cluster, which this schedule (M
    /// tiles first within a group) does not provide.
    ClusterAlongN {
        /// The cluster's `y`.
        y: u32,
    },
    /// [`GroupedTiles::write_table`]'s output does not hold exactly one entry per tile.
    TableLength {
        /// Entries given.
        len: usize,
        /// Tiles of the schedule ([`GroupedTiles::tiles`]).
        tiles: u32,
    },
    /// A group with tiles at an index the table's word cannot hold ([`pack_tile`]: the group in
    /// bits 22–31, so groups 0 to 1,023).
    TableGroupTooLarge {
        /// The group.
        group: usize,
        /// The number of groups the word holds (1,024).
        limit: u32,
    },
    /// A group with more tiles along M or N than the table's word holds ([`pack_tile`]: the M
    /// tile in bits 11–21, the N tile in bits 0–10, so 2,048 each).
    TableTilesTooLarge {
        /// The group.
        group: usize,
        /// `'m'` or `'n'`.
        dim: char,
        /// Its tiles along `dim`.
        tiles: u32,
        /// The tiles the word holds along `dim` (2,048).
        limit: u32,
    },
    /// A cluster of `x` CTAs along M sharing B would span two groups (their B differ): the
    /// group's M tiles are not a multiple of `x`.
    MulticastAcrossGroups {
        /// The group.
        group: usize,
        /// Its M tiles.
        m_tiles: u32,
        /// CTAs along M.
        x: u32,
    },
}

impl GroupedError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            GroupedError::NoGroups => f.write_str("a grouped GEMM needs at least one group"),
            GroupedError::ZeroTile => f.write_str("the tile extents must be non-zero"),
            GroupedError::NotBlocked { group, dim, value, block } => write!(
                f,
                "group {group}: {dim} = {value} is not a multiple of the tile's {block} (only m may have a tail)"
            ),
            GroupedError::TooManyTiles => f.write_str("more than 2^32 - 1 tiles"),
            GroupedError::ClusterAlongN { y } => write!(
                f,
                "the pipeline's cluster has {y} CTAs along N (or multicasts A): the grouped schedule walks each group's M tiles first and supports clusters along M only; legal: cluster = (x, 1) without A multicast"
            ),
            GroupedError::TableLength { len, tiles } => write!(
                f,
                "the tile table has {len} entries but the schedule has {tiles} tiles; legal: exactly tiles() = {tiles} entries"
            ),
            GroupedError::TableGroupTooLarge { group, limit } => write!(
                f,
                "group {group} has tiles, but the tile table packs the group index into 10 bits (pack_tile: bits 22-31); legal: tiles only in groups 0 to {} (later groups empty)",
                limit.saturating_sub(1)
            ),
            GroupedError::TableTilesTooLarge { group, dim, tiles, limit } => write!(
                f,
                "group {group} has {tiles} tiles along {dim}, but the tile table packs a tile index into 11 bits (pack_tile: bits {}); legal: at most {limit} tiles along {dim} per group",
                if dim == 'm' { "11-21" } else { "0-10" }
            ),
            GroupedError::MulticastAcrossGroups { group, m_tiles, x } => write!(
                f,
                "group {group} has {m_tiles} M tiles, not a multiple of the cluster's {x}: a cluster would share B across two groups; legal: no B multicast, or groups padded to {x} M tiles"
            ),
        }
    }
}

/// One output tile: its group and origin, and the rows of it that are the group's.
///
/// ```
/// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};
/// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
/// # pub struct A;
/// # #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
/// # pub struct B;
/// # #[smem_storage(arch = sm90)]
/// # pub struct S { a: A, b: B, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
/// # #[smem_pipeline(storage = S, loads = (a: A, b: B), consumers = 2)]
/// # pub struct Pipe;
/// use smemdesc::grouped::*;
/// let g = [GroupShape { m: 300, n: 512, k: 64 }];
/// let t = GroupedTiles::new::<Pipe>(&g, 128, 256, 64).unwrap();
/// assert_eq!(t.locate(5), Some(GroupTile { group: 0, m0: 256, n0: 256, rows: 44 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupTile {
    /// The group.
    pub group: u32,
    /// First row in the group.
    pub m0: u32,
    /// First column.
    pub n0: u32,
    /// Rows of the tile inside the group (`bm` but for the group's last M tile).
    pub rows: u32,
}

/// The persistent scheduler's order: groups in turn, each group's tiles M-major (consecutive
/// tiles share the N tile, so consecutive CTAs read the same B), empty groups skipped.
///
/// ```
/// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};
/// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
/// # pub struct A;
/// # #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
/// # pub struct B;
/// # #[smem_storage(arch = sm90)]
/// # pub struct S { a: A, b: B, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
/// # #[smem_pipeline(storage = S, loads = (a: A, b: B), consumers = 2)]
/// # pub struct Pipe;
/// use smemdesc::grouped::*;
/// // Three experts with 300, 0 and 128 tokens, N = 512, K = 4096, 128 x 256 tiles.
/// let g = [GroupShape { m: 300, n: 512, k: 4096 }, GroupShape { m: 0, n: 512, k: 4096 }, GroupShape { m: 128, n: 512, k: 4096 }];
/// let t = GroupedTiles::new::<Pipe>(&g, 128, 256, 64).unwrap();
/// assert_eq!((t.tiles(), t.group_tiles(0), t.group_tiles(1), t.group_tiles(2)), (8, 6, 0, 2));
/// assert_eq!(t.locate(6), Some(GroupTile { group: 2, m0: 0, n0: 0, rows: 128 }));
/// assert_eq!(t.locate(8), None);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct GroupedTiles<'a> {
    groups: &'a [GroupShape],
    bm: u32,
    bn: u32,
    tiles: u32,
    cluster_m: u32,
}

impl<'a> GroupedTiles<'a> {
    /// The schedule of `groups` in `bm × bn` tiles with `bk` per K step for the kernel whose
    /// loads pipeline `P` declares, checked. The cluster is `P`'s: when `P` multicasts B over
    /// `x` CTAs along M, every group's M tiles must be a multiple of `x`, or a cluster would
    /// share one group's B with another group's rows (DeepGEMM #415/#429 found this at run
    /// time); A multicast (CTAs along N sharing A) has no grouped schedule here and is refused.
    ///
    /// ```
    /// use smemdesc::grouped::*;
    /// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
    /// # pub struct A;
    /// # #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
    /// # pub struct B;
    /// # #[smem_storage(arch = sm90)]
    /// # pub struct S { a: A, b: B, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
    /// #[smem_pipeline(storage = S, loads = (a: A, b: B), consumers = 2)]
    /// pub struct Pipe;
    /// #[smem_pipeline(storage = S, loads = (a: A, b: B), consumers = 2, multicast = (b), cluster = (2, 1))]
    /// pub struct PipeMcB;
    /// let g = [GroupShape { m: 300, n: 256, k: 64 }]; // 3 M tiles
    /// assert!(GroupedTiles::new::<Pipe>(&g, 128, 256, 64).is_ok());
    /// assert_eq!(GroupedTiles::new::<PipeMcB>(&g, 128, 256, 64).unwrap_err(),
    ///            GroupedError::MulticastAcrossGroups { group: 0, m_tiles: 3, x: 2 });
    /// ```
    pub fn new<P: crate::pipeline::Pipeline>(
        groups: &'a [GroupShape],
        bm: u32,
        bn: u32,
        bk: u32,
    ) -> Result<Self, GroupedError> {
        let t = Self::blocked(groups, bm, bn, bk)?;
        let spec = P::LAYOUT.spec();
        let (mut a_mc, mut b_mc) = (false, false);
        for l in spec.loads() {
            if l.multicast {
                match l.operand {
                    Some(crate::Operand::A) => a_mc = true,
                    Some(crate::Operand::B) => b_mc = true,
                    None => {}
                }
            }
        }
        let (x, y) = spec.cluster;
        if a_mc || y != 1 {
            return Err(GroupedError::ClusterAlongN { y });
        }
        if b_mc {
            t.multicast_m(x)
        } else {
            Ok(GroupedTiles { cluster_m: x, ..t })
        }
    }

    /// The groups blocked into tiles (no cluster yet).
    fn blocked(groups: &'a [GroupShape], bm: u32, bn: u32, bk: u32) -> Result<Self, GroupedError> {
        if groups.is_empty() {
            return Err(GroupedError::NoGroups);
        }
        if bm == 0 || bn == 0 || bk == 0 {
            return Err(GroupedError::ZeroTile);
        }
        let mut tiles: u32 = 0;
        for (i, g) in groups.iter().enumerate() {
            if g.n % bn != 0 {
                return Err(GroupedError::NotBlocked {
                    group: i,
                    dim: 'n',
                    value: g.n,
                    block: bn,
                });
            }
            if g.k == 0 || g.k % bk != 0 {
                return Err(GroupedError::NotBlocked {
                    group: i,
                    dim: 'k',
                    value: g.k,
                    block: bk,
                });
            }
            let t =
                g.m.div_ceil(bm)
                    .checked_mul(g.n / bn)
                    .ok_or(GroupedError::TooManyTiles)?;
            tiles = tiles.checked_add(t).ok_or(GroupedError::TooManyTiles)?;
        }
        Ok(GroupedTiles {
            groups,
            bm,
            bn,
            tiles,
            cluster_m: 1,
        })
    }

    /// Refuses B multicast over `x` CTAs along M unless every group's M tiles are a multiple of
    /// `x` (so a cluster never spans two groups).
    fn multicast_m(self, x: u32) -> Result<Self, GroupedError> {
        for (i, g) in self.groups.iter().enumerate() {
            let m_tiles = g.m.div_ceil(self.bm);
            if x == 0 || m_tiles % x != 0 {
                return Err(GroupedError::MulticastAcrossGroups {
                    group: i,
                    m_tiles,
                    x,
                });
            }
        }
        Ok(GroupedTiles {
            cluster_m: x,
            ..self
        })
    }

    /// The grid of a persistent launch on `ctas` resident CTAs (the SM count, for one CTA per
    /// SM): no more CTAs than tiles, at least one cluster, and whole clusters of the
    /// pipeline's cluster size. The kernel walks tiles `ctaid, ctaid + grid, …`
    /// below [`tiles`](Self::tiles).
    ///
    /// ```
    /// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
    /// # pub struct A;
    /// # #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
    /// # pub struct B;
    /// # #[smem_storage(arch = sm90)]
    /// # pub struct S { a: A, b: B, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
    /// # #[smem_pipeline(storage = S, loads = (a: A, b: B), consumers = 2)]
    /// # pub struct Pipe;
    /// use smemdesc::grouped::*;
    /// let g = [GroupShape { m: 1000, n: 4096, k: 4096 }, GroupShape { m: 24, n: 4096, k: 4096 }];
    /// let t = GroupedTiles::new::<Pipe>(&g, 128, 256, 64).unwrap(); // (8 + 1) x 16 = 144 tiles
    /// assert_eq!((t.tiles(), t.persistent_grid(132)), (144, 132));
    /// let small = [GroupShape { m: 100, n: 512, k: 64 }];
    /// assert_eq!(GroupedTiles::new::<Pipe>(&small, 128, 256, 64).unwrap().persistent_grid(132), 2);
    /// let pairs = [GroupShape { m: 256, n: 256, k: 64 }; 3];
    /// # #[smem_pipeline(storage = S, loads = (a: A, b: B), consumers = 2, multicast = (b), cluster = (2, 1))]
    /// # pub struct PipeMcB;
    /// let t = GroupedTiles::new::<PipeMcB>(&pairs, 128, 256, 64).unwrap();
    /// assert_eq!(t.persistent_grid(5), 4); // whole 2-CTA clusters
    /// ```
    pub const fn persistent_grid(&self, ctas: u32) -> u32 {
        let x = self.cluster_m;
        let n = if self.tiles < ctas { self.tiles } else { ctas };
        let whole = n - n % x;
        if whole == 0 {
            x
        } else {
            whole
        }
    }

    /// Tiles over all groups.
    pub const fn tiles(&self) -> u32 {
        self.tiles
    }

    /// The schedule as the table a kernel reads, one `u32` per tile in order:
    /// [`pack_tile`]`(group, m tile, n tile)`, so the kernel finds its tile with one load and no
    /// division ([`unpack_tile`]; a division by a value loaded from memory is a branchy sequence
    /// that can make ptxas serialise the kernel's `wgmma`). `out` must hold [`tiles`](Self::tiles)
    /// entries ([`GroupedError::TableLength`]). The word holds 1,024 groups and 2,048 tiles along
    /// M and along N: a group at index 1,024 or more with tiles, or a group with more tiles along
    /// M or N, is [`GroupedError::TableGroupTooLarge`] or [`GroupedError::TableTilesTooLarge`],
    /// and `out` is left as it was.
    ///
    /// ```
    /// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
    /// # pub struct A;
    /// # #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
    /// # pub struct B;
    /// # #[smem_storage(arch = sm90)]
    /// # pub struct S { a: A, b: B, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
    /// # #[smem_pipeline(storage = S, loads = (a: A, b: B), consumers = 2)]
    /// # pub struct Pipe;
    /// use smemdesc::grouped::*;
    /// let g = [GroupShape { m: 300, n: 512, k: 64 }, GroupShape { m: 0, n: 512, k: 64 }, GroupShape { m: 1, n: 512, k: 64 }];
    /// let t = GroupedTiles::new::<Pipe>(&g, 128, 256, 64).unwrap();
    /// let mut table = vec![0u32; t.tiles() as usize];
    /// t.write_table(&mut table).unwrap();
    /// assert_eq!(unpack_tile(table[4]), (0, 1, 1)); // group 0, M tile 1, N tile 1
    /// assert_eq!(unpack_tile(table[6]), (2, 0, 0)); // the empty group has no tiles
    /// // 2,049 M tiles in one group: the word's 11 bits hold 2,048.
    /// let big = [GroupShape { m: 2049 * 128, n: 256, k: 64 }];
    /// let t = GroupedTiles::new::<Pipe>(&big, 128, 256, 64).unwrap();
    /// let mut table = vec![0u32; t.tiles() as usize];
    /// assert_eq!(t.write_table(&mut table), Err(GroupedError::TableTilesTooLarge { group: 0, dim: 'm', tiles: 2049, limit: 2048 }));
    /// ```
    pub fn write_table(&self, out: &mut [u32]) -> Result<(), GroupedError> {
        let len = out.len();
        if len != self.tiles as usize {
            return Err(GroupedError::TableLength {
                len,
                tiles: self.tiles,
            });
        }
        // The word's limits first, so nothing is written for a schedule it cannot hold.
        const GROUPS: u32 = 1 << 10;
        const TILES: u32 = 1 << 11;
        for (i, s) in self.groups.iter().enumerate() {
            let (m_tiles, n_tiles) = (s.m.div_ceil(self.bm), s.n / self.bn);
            if m_tiles == 0 || n_tiles == 0 {
                continue;
            }
            if i >= GROUPS as usize {
                return Err(GroupedError::TableGroupTooLarge {
                    group: i,
                    limit: GROUPS,
                });
            }
            for (dim, tiles) in [('m', m_tiles), ('n', n_tiles)] {
                if tiles > TILES {
                    return Err(GroupedError::TableTilesTooLarge {
                        group: i,
                        dim,
                        tiles,
                        limit: TILES,
                    });
                }
            }
        }
        for (t, slot) in out.iter_mut().enumerate() {
            // Every tile is located (t < tiles) and packs (the limits above).
            let word = self
                .locate(t as u32)
                .and_then(|tile| pack_tile(tile.group, tile.m0 / self.bm, tile.n0 / self.bn));
            *slot = word.ok_or(GroupedError::TableLength {
                len,
                tiles: self.tiles,
            })?;
        }
        Ok(())
    }

    /// Tiles of group `g` (0 for an empty group or an index past the end).
    pub fn group_tiles(&self, g: usize) -> u32 {
        self.groups
            .get(g)
            .map_or(0, |s| s.m.div_ceil(self.bm) * (s.n / self.bn))
    }

    /// Tile `t` of the schedule (`None` past the end): a scan over the groups, as a kernel
    /// does with the per-group tile counts.
    pub fn locate(&self, mut t: u32) -> Option<GroupTile> {
        for (i, s) in self.groups.iter().enumerate() {
            let m_tiles = s.m.div_ceil(self.bm);
            let n = m_tiles * (s.n / self.bn);
            if t < n {
                let (mi, ni) = (t % m_tiles, t / m_tiles);
                let m0 = mi * self.bm;
                return Some(GroupTile {
                    group: i as u32,
                    m0,
                    n0: ni * self.bn,
                    rows: (s.m - m0).min(self.bm),
                });
            }
            t -= n;
        }
        None
    }
}

/// A tile of the schedule as one word: group in bits 22–31, M tile in 11–21, N tile in 0–10
/// (`None` past 1024 groups or 2048 tiles along M or N).
///
/// ```
/// use smemdesc::grouped::{pack_tile, unpack_tile};
/// assert_eq!(pack_tile(3, 5, 7).map(unpack_tile), Some((3, 5, 7)));
/// assert_eq!(pack_tile(1024, 0, 0), None);
/// ```
pub const fn pack_tile(group: u32, mi: u32, ni: u32) -> Option<u32> {
    if group >= 1 << 10 || mi >= 1 << 11 || ni >= 1 << 11 {
        return None;
    }
    Some(group << 22 | mi << 11 | ni)
}

/// `(group, m tile, n tile)` of a packed tile: shifts and masks (what a kernel runs).
///
/// ```
/// assert_eq!(smemdesc::grouped::unpack_tile(0x00c0_2807), (3, 5, 7));
/// ```
#[inline(always)]
pub const fn unpack_tile(w: u32) -> (u32, u32, u32) {
    (w >> 22, (w >> 11) & 0x7ff, w & 0x7ff)
}

/// One group's matrix in global memory as the host holds it: its first element, rows, columns
/// (innermost) and row stride.
///
/// ```
/// use smemdesc::grouped::GroupMatrix;
/// let a = GroupMatrix { address: 0x7f00_0000_0000, rows: 300, cols: 4096, row_stride_bytes: 8192 };
/// let v = a.values().unwrap();
/// assert_eq!((v.dims[0], v.dims[1], v.strides[0]), (4096, 300, 8192));
/// // An expert with no tokens has no map to encode: the schedule skips it.
/// assert!(GroupMatrix { rows: 0, ..a }.values().is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupMatrix {
    /// Global address of element (0, 0).
    pub address: u64,
    /// Rows (`globalDim[1]`).
    pub rows: u64,
    /// Columns, contiguous (`globalDim[0]`).
    pub cols: u64,
    /// Bytes between rows (`globalStrides[0]`).
    pub row_stride_bytes: u64,
}

impl GroupMatrix {
    /// The values of a 2-D map of this matrix, or `None` for an empty one.
    pub const fn values(&self) -> Option<super::GroupValues> {
        if self.rows == 0 || self.cols == 0 {
            return None;
        }
        Some(
            super::GroupValues::new(self.address)
                .dim(0, self.cols)
                .dim(1, self.rows)
                .stride(0, self.row_stride_bytes),
        )
    }
}

/// Checks every non-empty group's values against a grouped declaration with the host encode's
/// rules ([`GroupedMap::check_group`](super::GroupedMap::check_group)): the first group that
/// breaks one, with the rule. Empty groups (`None`) are skipped, as the schedule skips them.
///
/// ```
/// use smemdesc::grouped::*;
/// use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapSwizzle};
/// let a = GroupedMap::new(
///     TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 4096).box_dim(0, 64)
///         .box_dim(1, 128).swizzle(TensorMapSwizzle::B128),
///     &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1), TensorMapArg::GlobalStrides(0)],
/// ).unwrap();
/// let m = |address, rows| GroupMatrix { address, rows, cols: 4096, row_stride_bytes: 8192 };
/// let ok = [m(0x10000, 300), m(0x10000 + 300 * 8192, 0), m(0x10000 + 300 * 8192, 5)];
/// assert_eq!(check_groups(&a, ok.iter().map(GroupMatrix::values)), Ok(2));
/// // A group that starts 8 B into a row (tokens of another dtype before it): refused.
/// let bad = [m(0x10000, 300), m(0x10008, 5)];
/// let e = check_groups(&a, bad.iter().map(GroupMatrix::values)).unwrap_err();
/// assert_eq!((e.0, e.1.argument()), (1, TensorMapArg::GlobalAddress));
/// ```
pub fn check_groups(
    map: &super::GroupedMap,
    groups: impl IntoIterator<Item = Option<super::GroupValues>>,
) -> Result<usize, (usize, crate::TensorMapError)> {
    let mut checked = 0;
    for (i, g) in groups.into_iter().enumerate() {
        if let Some(v) = g {
            map.check_group(&v).map_err(|e| (i, e))?;
            checked += 1;
        }
    }
    Ok(checked)
}
