// A `where` clause is reported on the clause, not on the whole attribute.
use smemdesc::{smem_tile, SmemTile};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
pub struct TileA
where
    u8: Copy;

fn main() {
    let _ = TileA::DESC;
}
