use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, swizzle = 128B)]
struct Tile;

fn main() {}
