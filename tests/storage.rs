//! `#[smem_storage]`: every member's offset and alignment, the totals and the launch size, with
//! expected values computed by hand from the rules (members in declaration order, each at the next
//! multiple of its alignment: a swizzled tile on its repeat — 1024 B for 128B — or 128 B on sm90
//! with a placement opt-in, mbarriers 8 B; launch size = bytes + (base alignment - 16) to align a
//! 16-B aligned dynamic base; limit 227 KiB = 232448 B per CTA).

use smemdesc::{smem_storage, smem_tile, Absolute, Mbarrier, Placement, Relative, SmemTile};

/// Hopper bf16 GEMM 128x256x64, 4 stages: A 128x64 (16 KiB/stage), B 256x64 (32 KiB/stage).
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            mma = m64n256k16, stages = 4)]
pub struct TileA;

#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K,
            mma = m64n256k16, stages = 4)]
pub struct TileB;

#[smem_storage(arch = sm90)]
pub struct Gemm {
    a: TileA,
    b: TileB,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
    #[smem(align = 128)]
    epi: [u8; 16384],
}

#[test]
fn hopper_gemm_offsets_by_hand() {
    // a: 4 x 16384 = 65536 B at 0; b: 4 x 32768 = 131072 B at 65536 (a multiple of 1024);
    // full: 32 B at 196608; empty: 32 B at 196640 (multiple of 8);
    // epi: 196672 is 1536.5 x 128 -> 1537 x 128 = 196736; ends at 196736 + 16384 = 213120.
    assert_eq!(
        [
            Gemm::A_OFFSET,
            Gemm::B_OFFSET,
            Gemm::FULL_OFFSET,
            Gemm::EMPTY_OFFSET,
            Gemm::EPI_OFFSET
        ],
        [0, 65536, 196608, 196640, 196736]
    );
    assert_eq!(
        [
            Gemm::A_BYTES,
            Gemm::B_BYTES,
            Gemm::FULL_BYTES,
            Gemm::EMPTY_BYTES,
            Gemm::EPI_BYTES
        ],
        [65536, 131072, 32, 32, 16384]
    );
    assert_eq!(
        [
            Gemm::A_ALIGN,
            Gemm::B_ALIGN,
            Gemm::FULL_ALIGN,
            Gemm::EMPTY_ALIGN,
            Gemm::EPI_ALIGN
        ],
        [1024, 1024, 8, 8, 128]
    );
    assert_eq!(
        (Gemm::BYTES, Gemm::ALIGN, Gemm::SLACK),
        (213120, 1024, 1008)
    );
    assert_eq!(Gemm::LAUNCH_BYTES, 213120 + 1008);
    const { assert!(Gemm::LAUNCH_BYTES <= 232448) };
    for (off, align) in [
        (Gemm::A_OFFSET, Gemm::A_ALIGN),
        (Gemm::B_OFFSET, Gemm::B_ALIGN),
        (Gemm::FULL_OFFSET, Gemm::FULL_ALIGN),
        (Gemm::EMPTY_OFFSET, Gemm::EMPTY_ALIGN),
        (Gemm::EPI_OFFSET, Gemm::EPI_ALIGN),
    ] {
        assert_eq!(off % align, 0);
    }
    // Element addresses of the barrier arrays: 8 B apart.
    assert_eq!(Gemm::full_at(0x400, 3), 0x400 + 196608 + 24);
    assert_eq!(Gemm::empty(0x400), 0x400 + 196640);
}

#[test]
fn views_from_the_dynamic_base() {
    // A 16-B aligned dynamic base is rounded up to the storage's 1024 B.
    assert_eq!(Gemm::aligned_base(0x410), 0x800);
    assert_eq!(Gemm::aligned_base(0x800), 0x800);
    let base = Gemm::aligned_base(0x410);
    let a = Gemm::a(base);
    let b = Gemm::b(base);
    assert_eq!((a.addr(), b.addr()), (0x800, 0x800 + 65536));
    // Descriptors at the member's offset: the tile's own descriptor at that address.
    assert_eq!(a.desc(1, 3, 2), TileA::desc(0x800, 1, 3, 2));
    assert_eq!(b.desc(0, 2, 3), TileB::desc(0x800 + 65536, 0, 2, 3));
    // NAME_DESC is subtile (0, 0) of stage 0 for a base at 0: start address field = offset >> 4.
    assert_eq!(Gemm::A_DESC, TileA::DESC);
    assert_eq!(Gemm::B_DESC, TileB::DESC | (65536 >> 4));
    // TMA destination of box 0 of stage 1 of B: offset + one stage.
    assert_eq!(b.tma_dst(0, 1), 0x800 + 65536 + 32768);
    // Typed pointers from a base pointer (no dereference).
    let mut buf = [0u8; 16];
    let p = buf.as_mut_ptr();
    assert_eq!(Gemm::b_ptr(p) as usize - p as usize, 65536);
    assert_eq!(Gemm::full_ptr(p) as usize - p as usize, 196608);
}

/// A one-stage 64x64 bf16 tile (8192 B, 128B swizzle) written by threads.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
pub struct TileR;

/// Barriers first, then tiles that opt into a placement model: 128-B aligned on sm90 (spec §7).
#[smem_storage(arch = sm90)]
pub struct Packed {
    full: [Mbarrier; 2],
    #[smem(placement = absolute)]
    a: TileA,
    tmem_slot: u32,
    #[smem(placement = relative)]
    r: TileR,
    b: TileB,
}

#[test]
fn placement_opt_in_packs_tiles_at_128_bytes() {
    // full: 16 B at 0; a: 128-B aligned -> 128, 65536 B; tmem_slot at 65664 (4 B);
    // r: 65668 -> next multiple of 128 = 65792, 8192 B; b (default: 1024 B) after 73984
    // -> 74752 (73 x 1024).
    assert_eq!(
        [
            Packed::FULL_OFFSET,
            Packed::A_OFFSET,
            Packed::TMEM_SLOT_OFFSET,
            Packed::R_OFFSET,
            Packed::B_OFFSET
        ],
        [0, 128, 65664, 65792, 74752]
    );
    assert_eq!(
        [Packed::A_ALIGN, Packed::R_ALIGN, Packed::B_ALIGN],
        [128, 128, 1024]
    );
    assert_eq!(Packed::BYTES, 74752 + 131072);
    assert_eq!(Packed::ALIGN, 1024);
    // Absolute: base_offset 0 wherever it sits; relative: (offset >> 7) & 7 from a 1024-aligned base.
    let a = Packed::a(0x400);
    let r = Packed::r(0x400);
    assert_eq!(a.placement(), Placement::Absolute);
    assert_eq!(r.placement(), Placement::Relative);
    assert_eq!(a.base_offset(), 0);
    assert_eq!(r.base_offset(), (((0x400 + 65792) >> 7) & 7) as u8);
    assert_eq!(Packed::A_DESC, TileA::DESC | (128 >> 4));
    assert_eq!(
        Packed::R_DESC,
        TileA::DESC | (65792 >> 4) | (((65792u64 >> 7) & 7) << 49)
    );
    // The types keep the models apart: an Absolute view has TMA destinations, a Relative one not.
    let _: smemdesc::smem::TileAt<TileA, Absolute> = a;
    let _: smemdesc::smem::TileAt<TileR, Relative> = r;
    assert_eq!(a.tma_dst(0, 0), 0x400 + 128);
}

/// sm100 GEMM with a CTA pair (cta_group = 2, MMA 256x256): each CTA holds half of A's M and half
/// of B's N, 4 stages; sm100 tiles stay on the repeat even with a placement opt-in.
#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, cta_group = 2,
            mma = (256, 256), stages = 4)]
pub struct PairA;

#[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K, cta_group = 2,
            mma = (256, 256), stages = 4)]
pub struct PairB;

#[smem_storage(arch = sm100)]
pub struct PairGemm {
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
    mma_done: Mbarrier,
    tmem_base: u32,
    #[smem(placement = absolute)]
    a: PairA,
    b: PairB,
}

#[test]
fn sm100_pair_gemm_offsets_by_hand() {
    // full 32 B at 0, empty 32 B at 32, mma_done 8 B at 64, tmem_base 4 B at 72; a: 1024 B
    // (sm100 keeps the repeat) -> 1024, 4 x 16384 = 65536 B; b at 66560, 65536 B; end 132096.
    assert_eq!(
        [
            PairGemm::FULL_OFFSET,
            PairGemm::EMPTY_OFFSET,
            PairGemm::MMA_DONE_OFFSET,
            PairGemm::TMEM_BASE_OFFSET,
            PairGemm::A_OFFSET,
            PairGemm::B_OFFSET
        ],
        [0, 32, 64, 72, 1024, 66560]
    );
    assert_eq!(PairGemm::A_ALIGN, 1024);
    assert_eq!(<PairA as SmemTile>::BYTES, 65536);
    assert_eq!(PairGemm::BYTES, 132096);
    assert_eq!(PairGemm::LAUNCH_BYTES, 132096 + 1008);
    assert_eq!(PairGemm::a(0).desc(0, 1, 2), PairA::desc(1024, 0, 1, 2));
}

#[test]
fn relative_tiles_keep_the_storage_base_on_their_repeat() {
    use smemdesc::core::*;
    // A relative tile's base_offset comes from its address modulo the 1024-B repeat: the storage
    // base must sit on that repeat for the offset to fix it, even when the member is only 128-B
    // aligned. An absolute tile needs only 128 B (spec §7).
    let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64)
        .build()
        .unwrap();
    let bar = StorageMember::new("bar", 8, 8);
    let rel = StorageLayout::plan(
        "R",
        Arch::Sm90,
        [bar, StorageMember::tile("t", t, Some(Placement::Relative))],
    );
    let abs = StorageLayout::plan(
        "A",
        Arch::Sm90,
        [bar, StorageMember::tile("t", t, Some(Placement::Absolute))],
    );
    assert_eq!((rel.offset(1), rel.align()), (128, 1024));
    assert_eq!((abs.offset(1), abs.align()), (128, 128));
    assert_eq!(abs.launch_bytes(), 128 + 8192 + 112);
    // A tile of another architecture is refused, naming the member.
    let t100 = TileSpec::new(Arch::Sm100, ElementType::BF16, Major::K, 64, 64)
        .build()
        .unwrap();
    let mixed = StorageLayout::plan("M", Arch::Sm90, [StorageMember::tile("b", t100, None)]);
    assert_eq!(
        mixed.check(),
        Err(StorageProblem::ArchMismatch { member: 0 })
    );
    assert!(mixed
        .message()
        .as_str()
        .contains("member `b` is a tile for another architecture"));
}

/// A size past `u32` is said to overflow, not printed as the saturated 4294967295 as if exact.
#[test]
fn overflowing_sizes_are_named_not_saturated() {
    use smemdesc::core::{Arch, StorageLayout, StorageMember, StorageProblem};
    let huge = StorageLayout::plan(
        "H",
        Arch::Sm90,
        [
            StorageMember::new("a", u32::MAX - 8, 8),
            StorageMember::new("b", 64, 8),
        ],
    );
    assert!(matches!(
        huge.check(),
        Err(StorageProblem::OverBudget { .. })
    ));
    let msg = huge.message();
    let msg = msg.as_str();
    assert!(
        msg.contains("more than 4294967295 B (overflows u32)"),
        "{msg}"
    );
    // The member that fits u32 keeps its exact size.
    assert!(msg.contains("a: 4294967287 B at 0"), "{msg}");
    // Every 4294967295 in it is the overflow's wording, none a saturated size.
    assert_eq!(
        msg.matches("4294967295").count(),
        msg.matches("more than 4294967295 B (overflows u32)")
            .count(),
        "{msg}"
    );
}
