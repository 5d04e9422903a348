use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            swizzle = 128B, tma_box = (64, 128))]
struct Tile;

fn main() {}
