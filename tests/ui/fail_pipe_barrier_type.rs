// A barrier member of plain bytes: 32 B for 4 stages, but at an odd offset (after `flag`) and
// not typed as mbarriers (8-byte objects, 8-byte aligned).
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
pub struct TileA;
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    flag: u8,
    full: [u8; 32],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1)]
pub struct Pipe;

fn main() {
    let _ = Pipe::EXPECT_TX;
}
