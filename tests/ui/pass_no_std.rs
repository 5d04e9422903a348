//! The generated code needs nothing from `std`: the tile lives in a `#![no_std]` crate root whose
//! prelude is `core`'s (`std` is linked only to run `main`).
#![no_std]
extern crate std;

use smemdesc::{smem_tile, SmemTile};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
pub struct TileA;

pub static SMEM: TileA = TileA::ZERO;
pub const D: u64 = TileA::desc(0, 1, 1, 1);

fn main() {
    assert_eq!(D, TileA::PLAN.tile.desc(0, 1, 1, 1));
}
