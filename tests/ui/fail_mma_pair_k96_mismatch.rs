// Packed fp4 CTA pair: A declares K = 96, B keeps the default K = 64.
#[smemdesc::smem_mma(accum = f32)]
mod mxf4 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4, tile = (128, 192),
                major = K, cta_group = 2, mma = m256n256k96)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4, tile = (128, 192),
                major = K, cta_group = 2)]
    pub struct TileB;
}

fn main() {}
