// A declared for m64n256k16 next to a B tile of N = 128.
#[smemdesc::smem_mma(accum = f32)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
                mma = m64n256k16)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileB;
}

fn main() {}
