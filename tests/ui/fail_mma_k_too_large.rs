// An explicit K far too large: the message shows K's bytes as written (4294967295 x 2 B), not a
// value saturated at u32::MAX.
use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = (64, 256, 4294967295))]
pub struct TileA;

fn main() {}
