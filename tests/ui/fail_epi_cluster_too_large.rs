// 16 CTAs exceed the portable limit of 8 (non_portable would allow it).
#[smemdesc::smem_mma(accum = f32, cluster = (4, 4))]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B, mma = m64n256k16)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, swizzle = 128B, mma = m64n256k16)]
    pub struct TileB;
}

fn main() {}
