// TmemSlot on sm90 (Tensor Memory is sm100's), `epilogue` on plain data, a `placement` given
// twice.
use smemdesc::{smem_storage, smem_tile, Mbarrier, TmemSlot};

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K)]
pub struct TileA;

#[smem_storage(arch = sm90)]
pub struct Hopper {
    full: [Mbarrier; 2],
    tmem: TmemSlot,
}

#[smem_storage(arch = sm100)]
pub struct Blackwell {
    #[smem(placement = absolute, placement = relative)]
    a: TileA,
    #[smem(epilogue)]
    count: u32,
}

fn main() {}
