// A CTA's storage that does not fit: each tile fits alone, together they exceed 227 KiB.
use smemdesc::{smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 5)]
pub struct TileA;

#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 5)]
pub struct TileB;

#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    b: TileB,
    full: [Mbarrier; 5],
    empty: [Mbarrier; 5],
}

fn main() {
    let _ = Storage::BYTES;
}
