use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            mma = (128, 256))]
struct Tile;

fn main() {}
