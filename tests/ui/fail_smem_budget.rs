use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            mma = m64n256k16, stages = 15)]
struct Tile;

fn main() {}
