// K = 96 packed fp4 exists only as the CTA-pair shape 256xNx96 (PTX tcgen05 "Matrix Shape"):
// no cta_group::1 instruction reads this tile.
use smemdesc::smem_tile;

#[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4, tile = (128, 192), major = K,
            mma = m128n256k96)]
struct PackedK96;

fn main() {}
