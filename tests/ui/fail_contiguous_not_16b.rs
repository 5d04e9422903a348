use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 20), major = K)]
struct Tile;

fn main() {}
