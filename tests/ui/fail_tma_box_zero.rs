// A TMA box of zero extent: zero is not allowed (it used to be called "too wide").
use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, tma_box = (0, 0))]
pub struct TileA;

fn main() {}
