use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
pub struct TileA;

// Element row 128 of a 128-row tile does not exist: a compile error in `const`.
const O: u32 = TileA::offset(128, 0);

fn main() {
    let _ = O;
}
