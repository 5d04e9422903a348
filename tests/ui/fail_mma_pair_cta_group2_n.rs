// kind::i8 with cta_group::2: N = 2 x 24 = 48, but PTX allows N = 32..256 in steps of 32 there.
#[smemdesc::smem_mma(accum = s32)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = s8, tile = (128, 128), major = K, cta_group = 2)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = s8, tile = (24, 128), major = K, cta_group = 2)]
    pub struct TileB;
}

fn main() {}
