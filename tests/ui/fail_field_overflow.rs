use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 4096), major = MN,
            swizzle = 64B, order = k_first)]
struct Tile;

fn main() {}
