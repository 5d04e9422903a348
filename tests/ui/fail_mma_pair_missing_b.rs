// A pairing needs both operands.
#[smemdesc::smem_mma(accum = f32)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    pub struct TileA;
}

fn main() {}
