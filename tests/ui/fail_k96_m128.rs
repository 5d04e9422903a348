// K = 96 with cta_group = 2: the instruction's M is 256 (256xNx96), not 128.
use smemdesc::smem_tile;

#[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (64, 192),
            major = K, cta_group = 2, mma = (128, 256, 96))]
struct PackedK96;

fn main() {}
