// The B scale tile covers K = 128 values, but the B tile holds K = 256.
#[smemdesc::smem_mma(accum = f32)]
mod mxf4 {
    use smemdesc::{smem_scale_tile, smem_tile};
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4, tile = (128, 256),
                major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4, tile = (128, 256),
                major = K)]
    pub struct TileB;
    #[smem_scale_tile(kind = mxf4, operand = B, tile = (128, 128))]
    pub struct SfB;
}

fn main() {}
