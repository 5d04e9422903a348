// bf16 inputs accumulate in f32 only (PTX kind::f16: D f16 needs f16 inputs).
#[smemdesc::smem_mma(accum = f16)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileB;
}

fn main() {}
