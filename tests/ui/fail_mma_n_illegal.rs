use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K,
            mma = m64n260k16)]
struct Tile;

fn main() {}
