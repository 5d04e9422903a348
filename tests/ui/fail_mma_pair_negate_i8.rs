// kind::i8 has no negate bit.
#[smemdesc::smem_mma(accum = s32, negate_a = true)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = s8, tile = (128, 128), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = u8, tile = (128, 128), major = K)]
    pub struct TileB;
}

fn main() {}
