// sm100 pair (cta_group::2): Tensor Memory allocated by cta_group::1 is not the group that
// relinquishes and deallocates it.
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4, cta_group = 2)]
pub struct TileA;
#[smem_storage(arch = sm100)]
pub struct Storage {
    a: TileA,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1, cta_group = 2, tmem = 1)]
pub struct Pipe;

fn main() {
    let _ = Pipe::EXPECT_TX;
}
