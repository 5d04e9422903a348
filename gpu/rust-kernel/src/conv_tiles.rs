//! The declarations of the 256 x 128 convolution (`conv.rs`, for layers whose filters are not a
//! multiple of the GEMM's 256-wide N tile): A 256 x 64 bf16 (one im2col load of 256 pixels per
//! stage), B 128 x 64, wgmma m64n128k16 (each consumer warpgroup owns two 64-row subtiles),
//! the 64 x 64 C tile of an m64n128 accumulator, the storage and the pipeline. Target-independent
//! (no `asm!`): the host (`gpu/src/bin/rust_kernels/conv.rs`) includes this file for its launch
//! bytes and plans.

use smemdesc::{smem_epilogue_tile, smem_mma, smem_pipeline, smem_storage, Mbarrier, SmemTile};

/// The A/B pair of the 256 x 128 tile.
#[smem_mma(accum = f32)]
pub mod n128 {
    use smemdesc::smem_tile;
    /// A: 256 output pixels x 64 channels per stage (four 64-row wgmma subtiles, two per
    /// consumer).
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (256, 64), major = K,
                swizzle = 128B, order = mn_first, mma = m64n128k16, stages = 4)]
    pub struct A;
    /// B: 128 filters x 64 of K per stage.
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = K,
                swizzle = 128B, order = mn_first, mma = m64n128k16, stages = 4)]
    pub struct B;
}

/// One consumer's C sub-tile: 64 x 64 bf16 of an m64n128 accumulator, stmatrix.x4, TMA store,
/// 2 stages.
#[smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 128, stages = 2,
                     writer = stmatrix_x4, reader = tma_store, tma_swizzle = 128B)]
pub struct CTile128;

/// One CTA's dynamic shared memory.
#[smem_storage(arch = sm90)]
pub struct Storage128 {
    a: n128::A,
    b: n128::B,
    #[smem(epilogue)]
    c0: CTile128,
    #[smem(epilogue)]
    c1: CTile128,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

/// A stage loads A (im2col) and B; two consumer warpgroups release it.
#[smem_pipeline(storage = Storage128, loads = (a: n128::A, b: n128::B), consumers = 2,
                expect_tx = 49152, empty_arrivals = 2)]
pub struct Pipe128;

/// Rows of C per CTA.
pub const BM128: u32 = 256;
/// Columns of C per CTA.
pub const BN128: u32 = 128;

const _: () = assert!(
    n128::A::TILE_MN == BM128
        && n128::B::TILE_MN == BN128
        && n128::A::MMAS_MN == 4
        && n128::B::MMAS_MN == 1
        && CTile128::CHUNKS == 2
        && CTile128::STAGES == 2
        && Storage128::LAUNCH_BYTES <= smemdesc::smem::MAX_SMEM_PER_CTA
);
