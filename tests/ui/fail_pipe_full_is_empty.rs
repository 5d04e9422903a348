// `full` names the empty barriers' member: one array of mbarriers initialised twice, with two
// counts, for two protocols.
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
pub struct TileA;
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1, full = empty)]
pub struct Pipe;

fn main() {}
