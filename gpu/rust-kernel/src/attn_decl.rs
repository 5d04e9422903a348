//! The declarations of the attention forward kernel (issue 31, `attn.rs`), shared by the kernel
//! and the host (`gpu/src/bin/rust_kernels/attn.rs` includes this file, so its tensor maps and
//! launch bytes come from the same declarations). Target-independent: no `asm!`.
//!
//! One CTA computes `BM = 128` query rows of one (batch, head): two consumer warpgroups of 64
//! rows each, one producer warp. Per key/value block of `BN = 128` rows:
//!
//! * `S = Q·Kᵀ`: `wgmma m64n128k16`, A = Q (K-major, `head_dim` contiguous), B = K (K-major: a
//!   K row is `head_dim` contiguous elements), both from shared memory (`#[smem_mma]`);
//! * `O += P·V`: `wgmma m64n{head_dim}k16` with A = P **from registers** (the softmax of S,
//!   packed to bf16 by the declared chain `ChainedMma`) and B = V, an **MN-major** B operand (a V
//!   row is `head_dim` contiguous elements, and `head_dim` is the instruction's N);
//! * O leaves through the declared epilogue tile (`stmatrix` into a swizzled tile, TMA store).
//!
//! Each head dimension is one module (`d64`, `d128`) implementing [`AttnDecl`].

use smemdesc::fragment::{ChainedMma, WgmmaAccum};
use smemdesc::pipeline::{Independent, Load, Pipeline, Single, TileLoad};
use smemdesc::smem::TileAt;
use smemdesc::{
    smem_epilogue_tile, smem_mma, smem_pipeline, smem_storage, smem_tile, Mbarrier, SmemTile,
};
use smemdesc::{AccumType, ElementType, MmaShape};

/// Query rows per CTA.
pub const BM: u32 = 128;
/// Key/value rows per block.
pub const BN: u32 = 128;
/// Consumer warpgroups (64 query rows each); one producer warp more (a whole warpgroup, so the
/// consumers' `setmaxnreg` budget is the producer's leftover).
pub const CONSUMERS: u32 = 2;
/// Threads per CTA.
pub const THREADS: u32 = 128 * (CONSUMERS + 1);

/// What the kernel body needs of one head dimension's declaration.
pub trait AttnDecl {
    /// Head dimension.
    const HD: u32;
    /// Q: `BM x HD`, one stage, A of `S = Q·Kᵀ`.
    type Q: SmemTile;
    /// K: `BN x HD` per stage, B of `S = Q·Kᵀ` (K-major).
    type K: SmemTile;
    /// V: `HD x BN` per stage (N x K), B of `O = P·V`, MN-major.
    type V: SmemTile;
    /// The chained pair `S = Q·Kᵀ` → `O = P·V`.
    const CHAIN: ChainedMma;
    /// Q's pipeline: one stage, no empty barrier.
    type QPipe: Pipeline<Loads = (Load<0>, ()), Group = Single, Launch = Independent>
        + TileLoad<0, Tile = Self::Q>;
    /// K and V: `STAGES` stages.
    type KvPipe: Pipeline<Loads = (Load<0>, (Load<1>, ())), Group = Single, Launch = Independent>
        + TileLoad<0, Tile = Self::K>
        + TileLoad<1, Tile = Self::V>;
    /// K alone (the overlapped kernel: K of block `j` is released once `S_j` is computed, V of
    /// block `j − 1` once `P·V` is).
    type KPipe: Pipeline<Loads = (Load<0>, ()), Group = Single, Launch = Independent>
        + TileLoad<0, Tile = Self::K>;
    /// V alone.
    type VPipe: Pipeline<Loads = (Load<0>, ()), Group = Single, Launch = Independent>
        + TileLoad<0, Tile = Self::V>;
    /// [`Self::KPipe`] in a cluster of 2 CTAs along M (two query tiles of one head): each CTA
    /// loads half of a K block and multicasts it to both; a stage is free once the consumers
    /// of both CTAs released it.
    type KPipe2: Pipeline<Loads = (Load<0>, ()), Group = Single, Launch = Independent>
        + TileLoad<0, Tile = Self::K>;
    /// [`Self::VPipe`] in the same cluster.
    type VPipe2: Pipeline<Loads = (Load<0>, ()), Group = Single, Launch = Independent>
        + TileLoad<0, Tile = Self::V>;
    /// The O epilogue tile's geometry (one per consumer warpgroup).
    const O_EPI: smemdesc::epilogue::EpilogueTile;
    /// O's epilogue constants, evaluated at compile time (the kernel indexes them with
    /// constants only).
    const O: OConsts = OConsts::of(&Self::O_EPI);
    /// Launch bytes of the storage.
    const LAUNCH_BYTES: u32;
    /// The storage base for a dynamic base address.
    fn aligned_base(dyn_base: u32) -> u32;
    /// Q's placement.
    fn q(base: u32) -> TileAt<Self::Q>;
    /// K's placement.
    fn k(base: u32) -> TileAt<Self::K>;
    /// V's placement.
    fn v(base: u32) -> TileAt<Self::V>;
    /// Consumer `im`'s O tile.
    fn o(base: u32, im: u32) -> u32;
    /// The shared-memory word naming the tile whose Q the Q stage holds.
    fn qtile(base: u32) -> u32;
}

/// Most O chunks / writer instructions / TMA boxes per stage [`OConsts`] holds.
pub const MAX_O: usize = 4;

/// The epilogue tile's numbers as constant tables: chunks, instructions per chunk, register
/// pairs `pair[chunk][instr][q]`, stages, stage bytes, TMA boxes `(offset, (inner0, row0))`.
#[derive(Clone, Copy, Debug)]
pub struct OConsts {
    /// 64-column chunks of the accumulator.
    pub chunks: u32,
    /// stmatrix.x4 per chunk.
    pub instrs: u32,
    /// Accumulator pair of register `q` of instruction `instr` of chunk `chunk`.
    pub pair: [[[u32; 4]; MAX_O]; MAX_O],
    /// Stages of the tile.
    pub stages: u32,
    /// Bytes per stage.
    pub stage_bytes: u32,
    /// Columns per chunk.
    pub n: u32,
    /// TMA store boxes per stage.
    pub boxes: u32,
    /// Each box's SMEM offset and tile coordinates.
    pub box_at: [(u32, (u32, u32)); MAX_O],
}

impl OConsts {
    /// The tables of `e` (a compile error past [`MAX_O`]). `#[inline]`: evaluated in constants
    /// only, so no function of it lands in the PTX (a `.func` before the first entry, which
    /// `attn_ptx.sh` keeps as the module's header, with its panic path unresolved).
    #[inline]
    pub const fn of(e: &smemdesc::epilogue::EpilogueTile) -> OConsts {
        assert!(e.chunks() as usize <= MAX_O && e.instructions() as usize <= MAX_O);
        assert!(e.tma_boxes() as usize <= MAX_O);
        let mut o = OConsts {
            chunks: e.chunks(),
            instrs: e.instructions(),
            pair: [[[0; 4]; MAX_O]; MAX_O],
            stages: e.spec().stages,
            stage_bytes: e.stage_bytes(),
            n: e.spec().n,
            boxes: e.tma_boxes(),
            box_at: [(0, (0, 0)); MAX_O],
        };
        let mut c = 0;
        while c < o.chunks {
            let mut i = 0;
            while i < o.instrs {
                let mut q = 0;
                while q < 4 {
                    o.pair[c as usize][i as usize][q as usize] = e.pair(c, i, q);
                    q += 1;
                }
                i += 1;
            }
            c += 1;
        }
        let mut b = 0;
        while b < o.boxes {
            o.box_at[b as usize] = e.tma_box(b);
            b += 1;
        }
        o
    }
}

/// `pub struct Decl` and its [`AttnDecl`] impl, in a declaration module that names its tiles
/// `Q`, `K`, `V`, its chain `CHAIN`, its pipelines `QPipe`, `KvPipe`, `KPipe`, `VPipe`, `KPipe2`,
/// `VPipe2`, its epilogue tile `OTile` and its storage `Storage` (with `o0`, `o1` and `qtile`).
macro_rules! impl_attn_decl {
    ($hd:literal, $doc:literal) => {
        #[doc = $doc]
        pub struct Decl;
        impl AttnDecl for Decl {
            const HD: u32 = $hd;
            type Q = Q;
            type K = K;
            type V = V;
            const CHAIN: ChainedMma = CHAIN;
            type QPipe = QPipe;
            type KvPipe = KvPipe;
            type KPipe = KPipe;
            type VPipe = VPipe;
            type KPipe2 = KPipe2;
            type VPipe2 = VPipe2;
            const O_EPI: smemdesc::epilogue::EpilogueTile = OTile::EPILOGUE;
            const LAUNCH_BYTES: u32 = Storage::LAUNCH_BYTES;
            #[inline(always)]
            fn aligned_base(dyn_base: u32) -> u32 {
                Storage::aligned_base(dyn_base)
            }
            #[inline(always)]
            fn q(base: u32) -> TileAt<Q> {
                Storage::q(base)
            }
            #[inline(always)]
            fn k(base: u32) -> TileAt<K> {
                Storage::k(base)
            }
            #[inline(always)]
            fn v(base: u32) -> TileAt<V> {
                Storage::v(base)
            }
            #[inline(always)]
            fn qtile(base: u32) -> u32 {
                Storage::qtile_at(base, 0)
            }
            #[inline(always)]
            fn o(base: u32, im: u32) -> u32 {
                if im == 0 {
                    Storage::o0(base)
                } else {
                    Storage::o1(base)
                }
            }
        }
    };
}
// Used by attn_fp8_decl.rs; tests/attention_kernel_maps.rs includes this file without it.
#[allow(unused_imports)]
pub(crate) use impl_attn_decl;

/// Declares one head dimension `$hd` in module `$m`.
macro_rules! attn_decl {
    ($m:ident, $hd:literal, $stages:literal, $vmma:ident, $ostages:literal, $doc:literal) => {
        #[doc = $doc]
        pub mod $m {
            use super::*;

            /// `S = Q·Kᵀ`: both operands in shared memory, paired by `#[smem_mma]`.
            #[smem_mma(accum = f32)]
            pub mod qk {
                use smemdesc::smem_tile;
                /// Q: 128 query rows x head_dim, K-major, one stage (loaded once per CTA), one
                /// 64-row wgmma subtile per consumer warpgroup.
                #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, $hd), major = K,
                            swizzle = 128B, mma = m64n128k16, stages = 1)]
                pub struct Q;
                /// K: 128 key rows (S's N) x head_dim (S's K), K-major.
                #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, $hd), major = K,
                            swizzle = 128B, mma = m64n128k16, stages = $stages)]
                pub struct K;
            }
            pub use qk::{K, Q};

            /// V: head_dim (O's N) x 128 key rows (O's K); `head_dim` is contiguous in memory,
            /// so V is an MN-major B operand (the descriptor's transpose immediate is 1).
            #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = ($hd, 128), major = MN,
                        swizzle = 128B, mma = $vmma, stages = $stages)]
            pub struct V;

            /// One consumer warpgroup's O: 64 rows x head_dim of bf16 from its m64n{head_dim}
            /// accumulator, written with stmatrix.x4, stored by TMA.
            #[smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = $hd, stages = $ostages,
                                 writer = stmatrix_x4, reader = tma_store, tma_swizzle = 128B)]
            pub struct OTile;

            /// One CTA's shared memory.
            #[smem_storage(arch = sm90)]
            pub struct Storage {
                q: Q,
                k: K,
                v: V,
                #[smem(epilogue)]
                o0: OTile,
                #[smem(epilogue)]
                o1: OTile,
                qfull: [Mbarrier; 1],
                qempty: [Mbarrier; 1],
                full: [Mbarrier; $stages],
                empty: [Mbarrier; $stages],
                kfull: [Mbarrier; $stages],
                kempty: [Mbarrier; $stages],
                vfull: [Mbarrier; $stages],
                vempty: [Mbarrier; $stages],
                /// The tile whose Q the Q stage holds (the dynamically scheduled kernel).
                qtile: [u32; 1],
            }

            /// Q: one stage, loaded once per query tile, released by both consumers once their
            /// last `Q·Kᵀ` of the tile completed (the persistent kernel refills it).
            #[smem_pipeline(storage = Storage, loads = (q: Q), consumers = 2, full = qfull,
                            empty = qempty)]
            pub struct QPipe;

            /// K and V of one key block per stage; both consumers release each stage.
            #[smem_pipeline(storage = Storage, loads = (k: K, v: V), consumers = 2)]
            pub struct KvPipe;

            #[smem_pipeline(storage = Storage, loads = (k: K), consumers = 2, full = kfull,
                            empty = kempty)]
            pub struct KPipe;

            #[smem_pipeline(storage = Storage, loads = (v: V), consumers = 2, full = vfull,
                            empty = vempty)]
            pub struct VPipe;

            /// K multicast in a 2x1 cluster (the same barriers as `KPipe`: a kernel uses one).
            #[smem_pipeline(storage = Storage, loads = (k: K), consumers = 2, full = kfull,
                            empty = kempty, multicast = (k), cluster = (2, 1))]
            pub struct KPipe2;

            /// V multicast in a 2x1 cluster.
            #[smem_pipeline(storage = Storage, loads = (v: V), consumers = 2, full = vfull,
                            empty = vempty, multicast = (v), cluster = (2, 1))]
            pub struct VPipe2;

            /// The chain: S (m64n128k16, f32) → P as bf16 A registers → O (m64n{hd}k16).
            pub const CHAIN: ChainedMma = ChainedMma::declare(
                (MmaShape::new(64, BN, 16), ElementType::BF16, AccumType::F32),
                (MmaShape::new(64, $hd, 16), ElementType::BF16, AccumType::F32),
            );

            impl_attn_decl!($hd, "Marker of this head dimension.");

            // The kernel's constants agree with the declarations: the chain's first instruction
            // is the Q/K pair's, its second the V tile's, and the blocks tile the CTA.
            const _: () = {
                let (s, o) = (CHAIN.first().shape, CHAIN.second().shape);
                assert!(
                    s.m == Q::MMA_M
                        && s.n == K::MMA_N
                        && s.k == Q::MMA_K
                        && o.n == V::MMA_N
                        && o.k == V::MMA_K
                        && Q::TILE_MN == BM
                        && Q::MMAS_MN == CONSUMERS
                        && K::TILE_MN == BN
                        && K::MMAS_MN == 1
                        && V::TILE_MN == $hd
                        && V::MMAS_MN == 1
                        && V::TILE_K == BN
                        && V::MMAS_K == CHAIN.ksteps()
                        && Q::TILE_K == $hd
                        && OTile::EPILOGUE.spec().m == 64
                        && OTile::EPILOGUE.spec().n * OTile::CHUNKS == $hd
                        && (OTile::CHUNKS / OTile::STAGES) * OTile::STAGES == OTile::CHUNKS
                        && Storage::LAUNCH_BYTES <= smemdesc::smem::MAX_SMEM_PER_CTA
                );
                // S's accumulator: a row is 4 lanes of one quad (the softmax reductions).
                assert!(CHAIN.first().accum_fragment().n() == BN);
            };
        }
    };
}

attn_decl!(
    d64,
    64,
    2,
    m64n64k16,
    1,
    "Head dimension 64: S m64n128k16 (4 k-steps), O m64n64k16 (8 k-steps of P)."
);
attn_decl!(
    d128,
    128,
    2,
    m64n128k16,
    2,
    "Head dimension 128: S m64n128k16 (8 k-steps), O m64n128k16 (8 k-steps of P)."
);

/// S's accumulator fragment (m64n128, f32): the rows each thread owns and the quads.
pub const S_ACC: WgmmaAccum = d128::CHAIN.first().accum_fragment();
