use smemdesc::smem_tile;

#[smem_tile(arch = 90, operand = A, dtype = bf17, tile = 128, major = K,
            stages = four, swizzle = 256B, mma = m64n256)]
struct Tile;

fn main() {}
