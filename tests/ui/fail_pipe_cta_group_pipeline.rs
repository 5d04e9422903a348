// sm100: a cta_group::2 pipeline over tiles declared for cta_group::1 (each CTA holds the MMA's
// whole A): the leader's barrier would expect twice what its tile's MMA reads.
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
pub struct TileA;
#[smem_storage(arch = sm100)]
pub struct Storage {
    a: TileA,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1, cta_group = 2)]
pub struct Pipe;

fn main() {
    let _ = Pipe::EXPECT_TX;
}
