use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            swizle = 128B)]
struct Tile;

fn main() {}
