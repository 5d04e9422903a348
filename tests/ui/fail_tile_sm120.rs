// Consumer Blackwell (sm120) has no wgmma and no tcgen05: no SMEM matrix descriptor, so a
// descriptor tile for it is refused on `arch`, pointing to the mma.sync fragments.
use smemdesc::smem_tile;

#[smem_tile(arch = sm120, operand = A, dtype = bf16, tile = (128, 64), major = K)]
pub struct TileA;

fn main() {}
