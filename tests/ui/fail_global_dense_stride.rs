use smemdesc::smem_tile;

// No global_strides: the dense stride of 100 bf16 (200 B) is not a multiple of 16 B.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (64, 64), major = MN,
            global_dims = (100, 64))]
struct Tile;

fn main() {}
