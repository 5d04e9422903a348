// An fp6 operand may not be MN-major (CUTLASS; PTX lists no MN-major fp6 layout).
#[smemdesc::smem_mma(accum = f32)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e3m2, tile = (128, 128), major = MN)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e4m3, tile = (128, 128), major = K)]
    pub struct TileB;
}

fn main() {}
