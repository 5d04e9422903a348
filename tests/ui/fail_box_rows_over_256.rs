use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (512, 64), major = K,
            tma_box = (512, 64))]
struct Tile;

fn main() {}
