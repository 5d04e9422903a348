use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
pub struct TileA;

// Stage 4 of a 4-stage tile is past the storage: a compile error when evaluated in `const`.
const D: u64 = TileA::desc(0, 0, 0, 4);

fn main() {
    let _ = D;
}
