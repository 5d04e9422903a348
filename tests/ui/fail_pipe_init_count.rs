// 2^20 consumer groups of one thread: the empty barriers' init count is past mbarrier.init's range.
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
pub struct TileA;
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1048576, consumer_threads = 1)]
pub struct Pipe;

fn main() {
    let _ = Pipe::EXPECT_TX;
}
