// bf16 A (K = 16 per instruction) with a tf32 B (K = 8).
#[smemdesc::smem_mma(accum = f32)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = tf32, tile = (64, 32), major = K)]
    pub struct TileB;
}

fn main() {}
