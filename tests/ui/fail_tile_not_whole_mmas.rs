use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (96, 64), major = K,
            mma = (64, 64))]
struct Tile;

fn main() {}
