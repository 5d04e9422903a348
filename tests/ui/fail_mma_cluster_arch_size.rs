// Cluster sizes per arch (rules cluster.*): 16 non-portable CTAs on sm103 as on sm90 (accepted),
// 20 over that; sm110 has no public non-portable cluster size, so 16 CTAs there are refused.
#[smemdesc::smem_mma(accum = f32, cluster = (4, 4), non_portable = true)]
mod sm103_16 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm103, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm103, operand = B, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileB;
}

#[smemdesc::smem_mma(accum = f32, cluster = (4, 5), non_portable = true)]
mod sm103_20 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm103, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm103, operand = B, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileB;
}

#[smemdesc::smem_mma(accum = f32, cluster = (4, 4), non_portable = true)]
mod sm110_16 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm110, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm110, operand = B, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileB;
}

fn main() {}
