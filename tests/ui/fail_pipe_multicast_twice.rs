// `b` named twice in `multicast`.
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
pub struct TileA;
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4)]
pub struct TileB;
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    b: TileB,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), multicast = (b, b), cluster = (2, 1), consumers = 2)]
pub struct Pipe;

fn main() {}
