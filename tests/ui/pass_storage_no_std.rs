//! `#[smem_storage]` output needs nothing from `std` and is usable in `const` items, as a kernel
//! would use it: the storage base from the dynamic shared-memory address, then descriptors,
//! element addresses and barrier addresses, all `const`.
#![no_std]
extern crate std;

use smemdesc::{smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
pub struct TileA;

#[smem_storage(arch = sm90)]
pub struct Storage {
    bars: [Mbarrier; 2],
    #[smem(placement = absolute)]
    a: TileA,
}

const BASE: u32 = Storage::aligned_base(0x410);
pub const D: u64 = Storage::a(BASE).desc(1, 1, 1);
pub const X: u32 = Storage::a(BASE).address(3, 5, 0);
pub const BAR1: u32 = Storage::bars_at(BASE, 1);

fn main() {
    assert_eq!(BASE, 0x480); // only 128-B alignment is needed: the tile opts into `absolute`
    assert_eq!(Storage::A_OFFSET, 128);
    assert_eq!(D, TileA::desc(BASE + 128, 1, 1, 1));
    assert_eq!(BAR1, BASE + 8);
    let _ = X;
}
