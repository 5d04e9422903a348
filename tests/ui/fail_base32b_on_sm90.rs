use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = B, dtype = tf32, tile = (128, 32), major = K,
            swizzle = 128B_base32B)]
struct Tile;

fn main() {}
