// The sm103 block16 pair of pass_mma_sm103_block16.rs declared for sm90: kind::mxf4nvf4 (and
// its block16 scale factors) is a tcgen05 kind, refused on the tiles' `kind`.
#[smemdesc::smem_mma(accum = f32, sf = ue4m3, vec = 16)]
mod nvf4 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K, stages = 2)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = e2m1, kind = mxf4nvf4, tile = (256, 256),
                major = K, stages = 2)]
    pub struct TileB;
}

fn main() {}
