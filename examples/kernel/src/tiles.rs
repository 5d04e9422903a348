//! The declarations both sides use: the kernel (`lib.rs`) and the host
//! (`examples/cudarc_host.rs`, which includes this file with `#[path]`), so the tensor maps, the
//! TMA boxes, the descriptors and the shared-memory size all come from one place. No `asm!` here:
//! this file compiles for nvptx64 and for the host.

use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier, SmemTile};

/// Operand A: 128 (M) x 64 (K) bf16 per stage, K contiguous, 128-byte swizzle, read by two
/// `wgmma m64n128k16` row subtiles (one per consumer warpgroup), 2 pipeline stages.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            swizzle = 128B, mma = m64n128k16, stages = 2)]
pub struct TileA;

/// Operand B: 128 (N) x 64 (K) bf16 per stage, K contiguous (B stored N x K), 2 stages.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = K,
            swizzle = 128B, mma = m64n128k16, stages = 2)]
pub struct TileB;

/// One CTA's dynamic shared memory: both tiles for every stage, and a "full" and an "empty"
/// mbarrier per stage.
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    b: TileB,
    full: [Mbarrier; 2],
    empty: [Mbarrier; 2],
}

/// The pipeline: a stage loads A and B; its two consumer warpgroups (one per 64-row subtile of
/// A) each release it once their wgmmas read it. smemdesc derives the full barriers' count (1),
/// the empty barriers' (2), `expect_tx` (A's and B's stage bytes) and the wait parities.
#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2)]
pub struct Pipe;

/// Rows of C per CTA (A's tile rows).
pub const BM: u32 = TileA::TILE_MN;
/// Columns of C per CTA (B's tile rows).
pub const BN: u32 = TileB::TILE_MN;
/// K per pipeline stage.
pub const BK: u32 = TileA::TILE_K;
/// Threads per CTA: one warpgroup per 64-row wgmma subtile of A (thread 0 also issues the TMA
/// loads). A literal, because `build.sh` reads it for the kernel's `.maxntid`; the assertion
/// below ties it to the declaration.
pub const THREADS: u32 = 256;
const _: () = assert!(
    THREADS == 128 * TileA::MMAS_MN,
    "THREADS: one warpgroup per A subtile"
);
