use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, cta_group = 2)]
struct Tile;

fn main() {}
