// e4m3 A (kind::f8f6f4) with an s8 B (kind::i8): both K = 32, different kinds.
#[smemdesc::smem_mma(accum = f32)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e4m3, tile = (128, 128), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = s8, tile = (128, 128), major = K)]
    pub struct TileB;
}

fn main() {}
