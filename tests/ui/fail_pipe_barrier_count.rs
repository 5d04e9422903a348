// The storage holds 2 full barriers for a 4-stage pipeline.
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
pub struct TileA;
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    full: [Mbarrier; 2],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1, full = full)]
pub struct Pipe;

fn main() {
    let _ = Pipe::EXPECT_TX;
}
