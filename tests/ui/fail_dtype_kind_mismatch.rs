use smemdesc::smem_tile;

#[smem_tile(arch = sm100, operand = A, dtype = e4m3, tile = (128, 128), major = K,
            kind = f16)]
struct Tile;

fn main() {}
