// `stages = 0`: no stage to load into (it used to mean "the loads' stages").
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

#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2, stages = 0)]
pub struct Pipe;

fn main() {}
