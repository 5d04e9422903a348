//! The FP8 grouped GEMM's declaration (issue 47, run 4): A 128 x 128 and B 256 x 128 e4m3 per
//! stage (128 B of K, 128B swizzle, K-major as FP8 wgmma requires), paired by `#[smem_mma]`
//! for wgmma m64n256k32, the bf16 epilogue tile of the bf16 grouped GEMM (`epi_tiles::CTile`),
//! one `#[smem_storage]` and its pipeline. A stage is 48 KiB, as the bf16 kernel's (twice the
//! K elements at half the bytes). Target-independent: the host (`--grouped-fp8`) includes this
//! file, so its maps, launch bytes and schedule come from the same declaration.

use crate::epi_tiles::{CTile, EpiDecl, BM, BN, CONSUMERS, STAGES};
use smemdesc::cluster::Multicast;
use smemdesc::smem::TileAt;
use smemdesc::{smem_mma, smem_pipeline, smem_storage, Mbarrier, SmemTile};

/// The A/B pair, no cluster.
#[smem_mma(accum = f32, cluster = (1, 1))]
pub mod fp8 {
    use smemdesc::smem_tile;
    /// A: 128 x 128 e4m3 per stage (two 64-row wgmma subtiles, one per consumer).
    #[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K,
                swizzle = 128B, order = mn_first, mma = (64, 256, 32), stages = 4)]
    pub struct A;
    /// B: 256 x 128 e4m3 per stage (N x K).
    #[smem_tile(arch = sm90, operand = B, dtype = e4m3, tile = (256, 128), major = K,
                swizzle = 128B, order = mn_first, mma = (64, 256, 32), stages = 4)]
    pub struct B;
}

/// One CTA's dynamic shared memory: A and B stages, one C tile per consumer warpgroup, the
/// `full` and `empty` mbarriers.
#[smem_storage(arch = sm90)]
pub struct StorageFp8 {
    a: fp8::A,
    b: fp8::B,
    #[smem(epilogue)]
    c0: CTile,
    #[smem(epilogue)]
    c1: CTile,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

/// The pipeline: a stage loads A (16 KiB) and B (32 KiB); two consumer warpgroups, one elected
/// thread each releasing the stage.
#[smem_pipeline(storage = StorageFp8, loads = (a: fp8::A, b: fp8::B), consumers = 2,
                expect_tx = 49152, empty_arrivals = 2)]
pub struct PipeFp8;

/// K (elements) per stage.
pub const BK_FP8: u32 = 128;

/// Marker of the FP8 declaration.
pub struct DeclFp8;
impl EpiDecl for DeclFp8 {
    type A = fp8::A;
    type B = fp8::B;
    type Pipe = PipeFp8;
    const X: u32 = fp8::CLUSTER.x();
    const Y: u32 = fp8::CLUSTER.y();
    const A_MC: Multicast = fp8::A_MULTICAST;
    const B_MC: Multicast = fp8::B_MULTICAST;
    const EXPECT_TX: u32 = fp8::EXPECT_TX;
    const LAUNCH_BYTES: u32 = StorageFp8::LAUNCH_BYTES;
    #[inline(always)]
    fn aligned_base(dyn_base: u32) -> u32 {
        StorageFp8::aligned_base(dyn_base)
    }
    #[inline(always)]
    fn a(base: u32) -> TileAt<fp8::A> {
        StorageFp8::a(base)
    }
    #[inline(always)]
    fn b(base: u32) -> TileAt<fp8::B> {
        StorageFp8::b(base)
    }
    #[inline(always)]
    fn c(base: u32, im: u32) -> u32 {
        if im == 0 {
            StorageFp8::c0(base)
        } else {
            StorageFp8::c1(base)
        }
    }
    #[inline(always)]
    fn full(base: u32, s: u32) -> u32 {
        StorageFp8::full_at(base, s)
    }
    #[inline(always)]
    fn empty(base: u32, s: u32) -> u32 {
        StorageFp8::empty_at(base, s)
    }
}

// The kernel's constants agree with the declaration (the bf16 kernel's tile, twice its K).
const _: () = assert!(
    fp8::A::TILE_MN == BM
        && fp8::B::TILE_MN == BN
        && fp8::A::TILE_K == BK_FP8
        && fp8::B::TILE_K == BK_FP8
        && fp8::A::STAGES == STAGES
        && fp8::B::STAGES == STAGES
        && fp8::A::MMAS_MN == CONSUMERS
        && fp8::B::MMAS_MN == 1
        && fp8::A::MMAS_K == 4
        && StorageFp8::LAUNCH_BYTES <= smemdesc::smem::MAX_SMEM_PER_CTA
        && PipeFp8::EXPECT_TX == fp8::EXPECT_TX
        && PipeFp8::STAGES == STAGES
);
