// The pair reads ue4m3 factors (.scale_vec::4X, one per 16 values); the A scale tile holds ue8m0.
#[smemdesc::smem_mma(accum = f32, sf = ue4m3)]
mod nvf4 {
    use smemdesc::{smem_scale_tile, smem_tile};
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K)]
    pub struct TileB;
    #[smem_scale_tile(kind = mxf4nvf4, operand = A, tile = (128, 256), sf = ue8m0)]
    pub struct SfA;
}

fn main() {}
