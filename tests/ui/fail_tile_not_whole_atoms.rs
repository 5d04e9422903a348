use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 96), major = K,
            swizzle = 128B)]
struct Tile;

fn main() {}
