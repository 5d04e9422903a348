// sm100: the tiles are declared for a cta_group::2 pair (each CTA holds half of the MMA's A), but
// the pipeline is left at cta_group::1: each CTA's full barrier would count only its own half
// while the pair's MMA reads both.
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4, cta_group = 2)]
pub struct TileA;
#[smem_storage(arch = sm100)]
pub struct Storage {
    a: TileA,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1)]
pub struct Pipe;

fn main() {
    let _ = Pipe::EXPECT_TX;
}
