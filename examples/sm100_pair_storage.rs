//! The shared memory of one CTA of a Blackwell (sm100) bf16 GEMM on a CTA pair (`cta_group = 2`,
//! `tcgen05.mma` 256 x 256 x 16): each CTA holds half of A's M and half of B's N for 4 stages,
//! full/empty mbarriers per stage, an MMA-done barrier and the TMEM base address slot. Shows what
//! a kernel computes from its dynamic shared-memory base: the storage base, each tile's
//! descriptors and TMA destinations, and the barrier addresses.
//!
//! Run: `cargo run --example sm100_pair_storage`

use smemdesc::{smem_storage, smem_tile, Mbarrier, SmemTile};

/// A: 128 (this CTA's half of M = 256) x 64 (K) bf16 per stage.
#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, cta_group = 2,
            mma = (256, 256), stages = 4)]
pub struct PairA;

/// B: 128 (this CTA's half of N = 256) x 64 (K) bf16 per stage.
#[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K, cta_group = 2,
            mma = (256, 256), stages = 4)]
pub struct PairB;

/// One CTA's storage. sm100 tiles stay on their 1024-B repeat (tcgen05 has not been measured
/// off it), so the small members go first and the tiles start at the next 1024-B boundary.
#[smem_storage(arch = sm100)]
pub struct PairStorage {
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
    mma_done: Mbarrier,
    tmem_base: u32,
    a: PairA,
    b: PairB,
}

/// What a kernel does with its dynamic shared-memory base (a shared-window address, 16-B aligned):
/// the descriptor of MMA subtile (0, k) of `stage` for A and B, and the TMA destination of box 0.
fn kernel_view(dyn_base: u32, stage: u32, k: u32) -> (u64, u64, u32, u32) {
    let base = PairStorage::aligned_base(dyn_base);
    let (a, b) = (PairStorage::a(base), PairStorage::b(base));
    (
        a.desc(0, k, stage),
        b.desc(0, k, stage),
        a.tma_dst(0, stage),
        PairStorage::full_at(base, stage),
    )
}

fn main() {
    println!(
        "sm100 bf16 GEMM, CTA pair: MMA {}x{}x{}, per CTA A {}x{} and B {}x{} x {} stages",
        PairA::MMA_M,
        PairA::MMA_N,
        PairA::MMA_K,
        PairA::TILE_MN,
        PairA::TILE_K,
        PairB::TILE_MN,
        PairB::TILE_K,
        PairA::STAGES
    );
    for i in 0..PairStorage::LAYOUT.member_count() {
        let m = PairStorage::LAYOUT.member(i);
        println!(
            "  {:<9} {:>6} B at {:>6} (align {})",
            m.name,
            m.bytes,
            PairStorage::LAYOUT.offset(i),
            m.align
        );
    }
    println!(
        "sharedMemBytes = {} ({} B + {} B slack to align a 16-B aligned base to {} B)",
        PairStorage::LAUNCH_BYTES,
        PairStorage::BYTES,
        PairStorage::SLACK,
        PairStorage::ALIGN
    );
    println!(
        "A_DESC = {:#018x}, B_DESC = {:#018x}",
        PairStorage::A_DESC,
        PairStorage::B_DESC
    );
    let dyn_base = 0x410;
    for stage in 0..2 {
        let (da, db, dst, full) = kernel_view(dyn_base, stage, 1);
        println!(
            "dynamic base {dyn_base:#x}, stage {stage}, k-block 1: desc A {da:#018x}, desc B {db:#018x}, TMA A box 0 -> {dst:#x}, full barrier {full:#x}"
        );
    }
    println!(
        "tcgen05 expect_tx per stage and CTA: {} B",
        <PairA as SmemTile>::STAGE_BYTES + <PairB as SmemTile>::STAGE_BYTES
    );
}
