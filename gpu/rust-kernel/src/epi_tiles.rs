//! The declarations of the issue-22 kernels (`epi.rs`): the bf16 GEMM's A and B tiles paired by
//! `#[smem_mma]` for a 1x1, 2x1 and 1x2 cluster (each module's `A_MULTICAST`, `B_MULTICAST`,
//! `EXPECT_TX` are the core's `Cluster::multicast`), the epilogue's C/D tile
//! (`#[smem_epilogue_tile]`: stmatrix.x4 lane offsets, register pairs, TMA store box and
//! swizzle) and one `#[smem_storage]` per cluster shape placing all of it. Target-independent
//! (no `asm!`): the host program (`gpu/src/bin/rust_kernels/epi.rs`) includes this file, so
//! its tensor maps, launch bytes and cluster dimensions come from the same declarations.

use smemdesc::cluster::Multicast;
use smemdesc::pipeline::{Independent, Load, Pipeline, Single, TileLoad};
use smemdesc::smem::TileAt;
use smemdesc::{smem_epilogue_tile, smem_mma, smem_pipeline, smem_storage, Mbarrier, SmemTile};

/// Declares the A/B pair of the GEMM (128x64 / 256x64 bf16, K-major, 128B swizzle, 4 stages,
/// wgmma m64n256k16) in module `$m` for cluster `($x, $y)`, and its storage.
macro_rules! cluster_decl {
    ($m:ident, $x:literal, $y:literal, $doc:literal) => {
        #[doc = $doc]
        #[smem_mma(accum = f32, cluster = ($x, $y))]
        pub mod $m {
            use smemdesc::smem_tile;
            /// A: 128 x 64 bf16 per stage (two 64-row wgmma subtiles, one per consumer).
            #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
                                swizzle = 128B, order = mn_first, mma = m64n256k16, stages = 4)]
            pub struct A;
            /// B: 256 x 64 bf16 per stage (N x K).
            #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K,
                                swizzle = 128B, order = mn_first, mma = m64n256k16, stages = 4)]
            pub struct B;
        }
    };
}

cluster_decl!(
    cl11,
    1,
    1,
    "No cluster (1x1): every CTA loads its own A and B."
);
cluster_decl!(
    cl21,
    2,
    1,
    "Cluster 2x1: two CTAs along M share B (each issues one 128-row slice to both)."
);
cluster_decl!(
    cl12,
    1,
    2,
    "Cluster 1x2: two CTAs along N share A (each issues one 64-row slice to both)."
);

/// One consumer warpgroup's C sub-tile: 64 x 64 bf16 of its m64n256 accumulator, row-major,
/// written with stmatrix.x4, stored by TMA, 2 stages; the swizzle is the core's pick (the widest
/// conflict-free one) and the TMA store map's must agree (128B).
#[smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 256, stages = 2,
                     writer = stmatrix_x4, reader = tma_store, tma_swizzle = 128B)]
pub struct CTile;

/// Most TMA store boxes per C stage [`C_BOXES`] holds.
pub const MAX_C_BOXES: usize = 8;
/// The C tile's TMA store boxes, `CTile::tma_box(b)` for `b < CTile::TMA_BOXES`: SMEM offset
/// and tile coordinates `(inner0, row0)` (a table evaluated at compile time; kernels index it
/// with constants).
pub const C_BOXES: [(u32, (u32, u32)); MAX_C_BOXES] = {
    assert!(CTile::TMA_BOXES as usize <= MAX_C_BOXES);
    let mut t = [(0, (0, 0)); MAX_C_BOXES];
    let mut b = 0;
    while b < CTile::TMA_BOXES {
        t[b as usize] = CTile::tma_box(b);
        b += 1;
    }
    t
};

/// `[warp][instr][lane]`: the byte offset lane `lane` of warp `warp` of a consumer warpgroup
/// passes to writer instruction `instr` (`CTile::writer_offset(0, warp, instr, lane)`), for the
/// host's check against the CUDA C++ side's `epi_decl.h`. The kernels evaluate
/// `CTile::writer_offset` themselves with their run-time lane (integer arithmetic, no table).
pub const fn c_lane_offsets() -> [[[u32; 32]; 4]; 4] {
    const { assert!(CTile::INSTRUCTIONS == 4) };
    let mut t = [[[0; 32]; 4]; 4];
    let mut w = 0;
    while w < 4 {
        let mut i = 0;
        while i < 4 {
            let mut l = 0;
            while l < 32 {
                t[w][i][l] = CTile::writer_offset(0, w as u32, i as u32, l as u32);
                l += 1;
            }
            i += 1;
        }
        w += 1;
    }
    t
}

/// Declares the storage `$s` of cluster module `$m`: A and B stages, one C tile per consumer
/// warpgroup, the `full` and `empty` mbarriers.
macro_rules! storage_decl {
    ($s:ident, $m:ident) => {
        /// One CTA's dynamic shared memory.
        #[smem_storage(arch = sm90)]
        pub struct $s {
            a: $m::A,
            b: $m::B,
            #[smem(epilogue)]
            c0: CTile,
            #[smem(epilogue)]
            c1: CTile,
            full: [Mbarrier; 4],
            empty: [Mbarrier; 4],
        }
    };
}
storage_decl!(Storage11, cl11);
storage_decl!(Storage21, cl21);
storage_decl!(Storage12, cl12);

/// The pipeline of each cluster shape: a stage loads A and B (B multicast along M in 2x1, A
/// along N in 1x2); two consumer warpgroups, one elected thread each releasing the stage in
/// every CTA that wrote into it. `expect_tx` and `empty_arrivals` are stated (what the kernels
/// before the port hard-coded) and checked against the derived numbers.
#[smem_pipeline(storage = Storage11, loads = (a: cl11::A, b: cl11::B), consumers = 2,
                expect_tx = 49152, empty_arrivals = 2)]
pub struct Pipe11;
/// 2x1: B multicast.
#[smem_pipeline(storage = Storage21, loads = (a: cl21::A, b: cl21::B), multicast = (b),
                cluster = (2, 1), consumers = 2, expect_tx = 49152, empty_arrivals = 4)]
pub struct Pipe21;
/// 1x2: A multicast.
#[smem_pipeline(storage = Storage12, loads = (a: cl12::A, b: cl12::B), multicast = (a),
                cluster = (1, 2), consumers = 2, expect_tx = 49152, empty_arrivals = 4)]
pub struct Pipe12;

/// Rows of C per CTA.
pub const BM: u32 = 128;
/// Columns of C per CTA.
pub const BN: u32 = 256;
/// K per stage.
pub const BK: u32 = 64;
/// Pipeline stages.
pub const STAGES: u32 = 4;
/// Consumer warpgroups (one per 64-row A subtile); one producer warpgroup more.
pub const CONSUMERS: u32 = 2;
/// Threads per CTA.
pub const THREADS: u32 = 128 * (CONSUMERS + 1);

/// One operand's multicast plan as constant tables for ranks 0 and 1 (a kernel indexes them
/// with constants only: `rank` selects between the two).
#[derive(Clone, Copy, Debug)]
pub struct Slices {
    /// CTAs sharing the tile (1: no multicast).
    pub count: u32,
    /// Slices (boxes) each CTA issues per stage.
    pub n: u32,
    /// `[rank][slice]`: SMEM offset from the stage base.
    pub off: [[u32; MAX_SLICES]; 2],
    /// `[rank][slice]`: tile coordinates `(mn, k)`.
    pub coord: [[(u32, u32); MAX_SLICES]; 2],
    /// `[rank]`: `ctaMask`.
    pub mask: [u16; 2],
}

/// Most slices per stage a [`Slices`] table holds.
pub const MAX_SLICES: usize = 8;

impl Slices {
    /// The tables of `mc` (a compile error if it has more than [`MAX_SLICES`] slices or more
    /// than 2 sharers).
    pub const fn of(mc: &Multicast) -> Slices {
        assert!(mc.slices() as usize <= MAX_SLICES && mc.count() <= 2);
        let mut s = Slices {
            count: mc.count(),
            n: mc.slices(),
            off: [[0; MAX_SLICES]; 2],
            coord: [[(0, 0); MAX_SLICES]; 2],
            mask: [0; 2],
        };
        let mut r = 0;
        while r < 2 {
            // (a 1x1 cluster's rank-1 entries are never used)
            let rr = r;
            s.mask[r as usize] = mc.cta_mask(rr);
            let mut b = 0;
            while b < mc.slices() {
                s.off[r as usize][b as usize] = mc.slice_offset(rr, b);
                s.coord[r as usize][b as usize] = mc.slice_coord(rr, b);
                b += 1;
            }
            r += 1;
        }
        s
    }
}

/// What a kernel body needs of one cluster shape's declaration.
pub trait EpiDecl {
    /// Operand A's tile.
    type A: smemdesc::SmemTile;
    /// Operand B's tile.
    type B: smemdesc::SmemTile;
    /// The declared pipeline: loads A then B.
    type Pipe: Pipeline<Loads = (Load<0>, (Load<1>, ())), Group = Single, Launch = Independent>
        + TileLoad<0, Tile = Self::A>
        + TileLoad<1, Tile = Self::B>;
    /// A's slices per rank.
    const A_SLICES: Slices = Slices::of(&Self::A_MC);
    /// B's slices per rank.
    const B_SLICES: Slices = Slices::of(&Self::B_MC);
    /// CTAs along M.
    const X: u32;
    /// CTAs along N.
    const Y: u32;
    /// A's multicast plan.
    const A_MC: Multicast;
    /// B's multicast plan.
    const B_MC: Multicast;
    /// Bytes every CTA's full barrier expects per stage.
    const EXPECT_TX: u32;
    /// Launch bytes of the storage.
    const LAUNCH_BYTES: u32;
    /// The storage base for a dynamic base address.
    fn aligned_base(dyn_base: u32) -> u32;
    /// A's placement (the storage's `TileAt<A>` member).
    fn a(base: u32) -> TileAt<Self::A>;
    /// B's placement.
    fn b(base: u32) -> TileAt<Self::B>;
    /// Consumer `im`'s C tile.
    fn c(base: u32, im: u32) -> u32;
    /// `full[s]`.
    fn full(base: u32, s: u32) -> u32;
    /// `empty[s]`.
    fn empty(base: u32, s: u32) -> u32;
}

macro_rules! impl_decl {
    ($t:ident, $m:ident, $s:ident, $p:ident) => {
        /// Marker of the cluster shape of module
        #[doc = stringify!($m)]
        pub struct $t;
        impl EpiDecl for $t {
            type A = $m::A;
            type B = $m::B;
            type Pipe = $p;
            const X: u32 = $m::CLUSTER.x();
            const Y: u32 = $m::CLUSTER.y();
            const A_MC: Multicast = $m::A_MULTICAST;
            const B_MC: Multicast = $m::B_MULTICAST;
            const EXPECT_TX: u32 = $m::EXPECT_TX;
            const LAUNCH_BYTES: u32 = $s::LAUNCH_BYTES;
            #[inline(always)]
            fn aligned_base(dyn_base: u32) -> u32 {
                $s::aligned_base(dyn_base)
            }
            #[inline(always)]
            fn a(base: u32) -> TileAt<$m::A> {
                $s::a(base)
            }
            #[inline(always)]
            fn b(base: u32) -> TileAt<$m::B> {
                $s::b(base)
            }
            #[inline(always)]
            fn c(base: u32, im: u32) -> u32 {
                if im == 0 {
                    $s::c0(base)
                } else {
                    $s::c1(base)
                }
            }
            #[inline(always)]
            fn full(base: u32, s: u32) -> u32 {
                $s::full_at(base, s)
            }
            #[inline(always)]
            fn empty(base: u32, s: u32) -> u32 {
                $s::empty_at(base, s)
            }
        }
        // The kernel's constants agree with the declaration.
        const _: () = assert!(
            $m::A::TILE_MN == BM
                && $m::B::TILE_MN == BN
                && $m::A::TILE_K == BK
                && $m::A::STAGES == STAGES
                && $m::B::STAGES == STAGES
                && $m::A::MMAS_MN == CONSUMERS
                && $m::B::MMAS_MN == 1
                && $s::LAUNCH_BYTES <= smemdesc::smem::MAX_SMEM_PER_CTA
                // Two derivations of a stage's bytes: #[smem_mma]'s multicast plan and the
                // pipeline's sum of its loads.
                && $p::EXPECT_TX == $m::EXPECT_TX
                && $p::STAGES == STAGES
        );
    };
}
impl_decl!(Decl11, cl11, Storage11, Pipe11);
impl_decl!(Decl21, cl21, Storage21, Pipe21);
impl_decl!(Decl12, cl12, Storage12, Pipe12);

// The C tile: one stage per chunk in turn, so a chunk's buffer is `chunk % STAGES` (the chunks
// per tile are a multiple of the stages); the TMA store's swizzle is the tile's.
const _: () = assert!(
    CTile::CHUNKS.is_multiple_of(CTile::STAGES)
        && CTile::EPILOGUE.spec().m == 64
        && CTile::EPILOGUE.spec().n * CTile::CHUNKS == BN
        && matches!(CTile::SWIZZLE, smemdesc::SwizzleMode::B128)
);
