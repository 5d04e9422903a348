use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = MN)]
struct Tile;

fn main() {}
