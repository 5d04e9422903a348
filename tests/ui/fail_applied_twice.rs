// `#[smem_tile]` applied twice is one error, on the second application.
use smemdesc::{smem_tile, SmemTile};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K)]
pub struct TileA;

fn main() {
    let _ = TileA::DESC;
}
