// A tile declared for sm100 in an sm90 storage: refused, naming the member.
use smemdesc::{smem_storage, smem_tile};

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K)]
pub struct TileA;

#[smem_storage(arch = sm90)]
pub struct Storage {
    flag: u32,
    a: TileA,
}

fn main() {}
