//! `TmemSlot` as a `#[smem_storage]` member: the 4-byte word `tcgen05.alloc` writes the Tensor
//! Memory address to gets its own 4-aligned offset, apart from every tile.

use smemdesc::{smem_storage, smem_tile, Mbarrier, SmemTile, TmemSlot};

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
pub struct TileA;

#[smem_storage(arch = sm100)]
pub struct Blackwell {
    flag: u8,
    tmem_addr: TmemSlot,
    a: TileA,
    full: [Mbarrier; 2],
}

#[test]
fn the_tmem_slot_is_a_4_byte_member_of_its_own() {
    // flag: 1 B at 0; tmem_addr: 4 B at 4 (the next multiple of 4); a: 2 x 16384 B at 1024 (its
    // 1024-B alignment); full: 16 B at 1024 + 32768 = 33792.
    assert_eq!(
        [
            Blackwell::FLAG_OFFSET,
            Blackwell::TMEM_ADDR_OFFSET,
            Blackwell::A_OFFSET,
            Blackwell::FULL_OFFSET
        ],
        [0, 4, 1024, 33792]
    );
    assert_eq!(<TileA as SmemTile>::PLAN.tile.stage_bytes(), 16384);
    let slot = Blackwell::TMEM_ADDR_OFFSET..Blackwell::TMEM_ADDR_OFFSET + 4;
    assert!(
        slot.end <= Blackwell::A_OFFSET,
        "the slot is not under the TMA tile"
    );
}
