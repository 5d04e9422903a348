// saturate exists only for kind::i8.
#[smemdesc::smem_mma(accum = f32, saturate = true)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = f16, tile = (128, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = f16, tile = (128, 64), major = K)]
    pub struct TileB;
}

fn main() {}
