// A tile's constants are its `SmemTile` impl: without the trait in scope the compiler names the
// import (the inherent `const fn desc` needs none).
use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
pub struct TileA;

const D: u64 = TileA::desc(0, 0, 1, 1);

fn main() {
    let _ = (D, TileA::STAGE_BYTES);
}
