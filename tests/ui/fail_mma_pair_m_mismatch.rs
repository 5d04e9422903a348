// The B tile is declared for an instruction of M = 128, but the A tile holds 64 rows (M = 64).
#[smemdesc::smem_mma(accum = f32)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K,
                mma = (128, 128))]
    pub struct TileB;
}

fn main() {}
