// cta_group::2 tiles with a cluster: a pair is ranks 2p, 2p + 1 (neighbours along M), so an odd
// M extent cannot hold whole pairs; an even one is refused until the pair's multicast is modelled.
#[smemdesc::smem_mma(accum = f32, cluster = (1, 2))]
mod odd {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, cta_group = 2)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K, cta_group = 2)]
    pub struct TileB;
}

#[smemdesc::smem_mma(accum = f32, cluster = (2, 1))]
mod even {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, cta_group = 2)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K, cta_group = 2)]
    pub struct TileB;
}

fn main() {}
