// kind::mxf4nvf4 takes ue4m3 (nvf4) or ue8m0 factors and PTX makes its scale vector explicit:
// the pairing does not guess one.
#[smemdesc::smem_mma(accum = f32)]
mod nvf4 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K)]
    pub struct TileB;
}

fn main() {}
