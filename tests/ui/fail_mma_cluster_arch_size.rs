// Cluster sizes per arch (rules cluster.*): 16 non-portable CTAs on sm90 (the Programming
// Guide's H100 number: accepted), 20 over that; no public source gives sm103's or sm110's
// non-portable cluster size, so 16 CTAs there are refused.
#[smemdesc::smem_mma(accum = f32, cluster = (4, 4), non_portable = true)]
mod sm90_16 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileB;
}

#[smemdesc::smem_mma(accum = f32, cluster = (4, 5), non_portable = true)]
mod sm90_20 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileB;
}

#[smemdesc::smem_mma(accum = f32, cluster = (4, 4), non_portable = true)]
mod sm103_16 {
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
