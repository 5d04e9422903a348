// A key given twice to #[smem_mma] is refused on the second one (it used to take the last).
#[smemdesc::smem_mma(accum = f32, accum = f16)]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = f16, tile = (64, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = f16, tile = (64, 64), major = K)]
    pub struct TileB;
}

fn main() {}
