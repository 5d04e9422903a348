// `#[smem_tile]` implements `Default` (zeroed storage) itself: a derived one is a macro error on
// the derive, not E0119 / E0277.
use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
#[derive(Clone, Default)]
pub struct TileA;

fn main() {
    let _ = TileA::default().clone();
}
