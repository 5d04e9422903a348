//! The spec's worked examples (§6, §9, §10), computed in `const` items, with expected values derived
//! by hand from the spec text (the derivation is in each comment), not from smemdesc's output.

use smemdesc::core::*;

// §6 seed: bf16 K-major SW128 (M=128, K=128), MN-first, wgmma M = 64.
const SEED: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 128)
    .swizzle(SwizzleMode::B128)
    .order(Order::MnFirst)
    .mma_mn(64)
    .stages(2)
    .expect_valid();
// Descriptors in const items: proof that the whole derivation runs at compile time.
const SEED_D00: u64 = SEED.desc(0, 0, 0, 0);
const SEED_D15: u64 = SEED.desc(0x4000, 1, 5, 1);
const SEED_BASE: SmemDescriptor = SEED.base_descriptor();

#[test]
fn seed_k_major_sw128_mn_first() {
    // Atom (m, k) at m*1024 + k*16384: 8 rows x 128 B = 1024 B per atom, 16 atoms along M (128/8),
    // so the next atom column along K is 16 atoms = 16384 B away.
    assert_eq!(SEED.layout().eval(8, 0) * 2, 1024);
    assert_eq!(SEED.layout().eval(0, 64) * 2, 16384);
    // Subtile (64, 16): K offsets 0,32,64,96,16384,16416,16448,16480 B.
    let k_offsets: Vec<u32> = (0..SEED.mmas_k()).map(|j| SEED.advance_k(j) * 16).collect();
    assert_eq!(k_offsets, [0, 32, 64, 96, 16384, 16416, 16448, 16480]);
    // M offset 8192 B (64 rows = 8 atoms of 1024 B).
    assert_eq!(SEED.advance_mn(1) * 16, 8192);
    // Descriptor-unit tensor (2,(4,2)):(512,(2,1024)): the grid in 16-byte units.
    for i in 0..2 {
        for j in 0..8 {
            assert_eq!(
                SEED.grid().eval(i, j),
                i * 512 + (j % 4) * 2 + (j / 4) * 1024
            );
        }
    }
    // K-major swizzled: SBO = 8 rows x 128 B = 1024 B; LBO unused, written as 1 (16 B); layout 128B = 1.
    assert_eq!((SEED.sbo(), SEED.lbo(), SEED.layout_type()), (1024, 16, 1));
    assert_eq!(SEED_BASE.raw(), (1u64 << 62) | (64 << 32) | (1 << 16));
    assert_eq!(SEED_D00, SEED_BASE.raw());
    // Subtile (1, 5) of stage 1 at 0x4000: 0x4000 + 8192 + (16384 + 32) + 32768 (one stage = 32 KiB).
    assert_eq!(
        SEED_D15 & 0x3fff,
        ((0x4000 + 8192 + 16416 + 32768) >> 4) as u64
    );
}

// §6 second example: bf16 MN-major SW64 (MN=128, K=128), K-first.
const MN64: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::Mn, 128, 128)
    .swizzle(SwizzleMode::B64)
    .order(Order::KFirst)
    .mma_mn(64)
    .expect_valid();
const MN64_D: u64 = MN64.desc(0, 1, 1, 0);

#[test]
fn mn_major_sw64_k_first() {
    // Atom: 64 B of M (32 bf16) x 8 K rows = 512 B; 4 atoms along M, 16 along K; K-first stacking:
    // atom (m, k) at (k + 16 m) * 512 B.
    assert_eq!(MN64.layout().eval(32, 0) * 2, 16 * 512);
    assert_eq!(MN64.layout().eval(0, 8) * 2, 512);
    // One subtile: 64 M (2 atoms along M) x 16 K (2 groups of 8 K rows).
    // MN-major swizzled: LBO = distance between atoms along M = 8192 B; SBO = between 8-row K groups = 512 B.
    assert_eq!((MN64.lbo(), MN64.sbo()), (8192, 512));
    // Advance: K subtile j at j * 2 atoms * 512 B = 1024 B; M subtile i at i * 2 atoms along M = 16384 B.
    assert_eq!(MN64.advance_k(1) * 16, 1024);
    assert_eq!(MN64.advance_mn(1) * 16, 16384);
    // sm90 layout type 64B = 2.
    assert_eq!(MN64_D >> 62, 2);
    assert_eq!(MN64_D & 0x3fff, ((16384 + 1024) >> 4) as u64);
    assert_eq!((MN64_D >> 16) & 0x3fff, 8192 >> 4);
    assert_eq!((MN64_D >> 32) & 0x3fff, 512 >> 4);
}

#[test]
fn tma_seed_examples() {
    // §9: a (64 x 256 B) K-major SW128 tile -> 2 boxes of 64 x 128 B.
    const P: TilePlan = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 64, 128)
        .swizzle(SwizzleMode::B128)
        .expect_valid();
    assert_eq!(
        (P.tma.boxes, P.tma.box_rows, P.tma.box_inner * 2),
        (2, 64, 128)
    );
    assert_eq!(P.tma.swizzle.value(), 3); // CU_TENSOR_MAP_SWIZZLE_128B
                                          // §9: a (64 x 64 B) K-major SW32 tile with K-first stacking -> 16 boxes of 8 x 32 B.
    const Q: TilePlan = TileDecl::new(Arch::Sm90, Operand::B, ElementType::E4M3, Major::K, 64, 64)
        .swizzle(SwizzleMode::B32)
        .order(Order::KFirst)
        .mma(MmaShape::new(64, 64, 32))
        .expect_valid();
    assert_eq!((Q.tma.boxes, Q.tma.box_rows, Q.tma.box_inner), (16, 8, 32));
    assert_eq!(Q.tma.swizzle.value(), 1);
}

#[test]
fn selector_follows_the_cutlass_rule() {
    // §10, one row per contiguous width from 16 B to 256 B: the widest atom (128/64/32/16 B) whose
    // width divides the extent in bytes.
    let table: [(u32, SwizzleMode); 16] = [
        (16, SwizzleMode::None),
        (32, SwizzleMode::B32),
        (48, SwizzleMode::None),
        (64, SwizzleMode::B64),
        (80, SwizzleMode::None),
        (96, SwizzleMode::B32),
        (112, SwizzleMode::None),
        (128, SwizzleMode::B128),
        (144, SwizzleMode::None),
        (160, SwizzleMode::B32),
        (176, SwizzleMode::None),
        (192, SwizzleMode::B64),
        (208, SwizzleMode::None),
        (224, SwizzleMode::B32),
        (240, SwizzleMode::None),
        (256, SwizzleMode::B128),
    ];
    for dtype in [ElementType::BF16, ElementType::E4M3, ElementType::TF32] {
        for (bytes, want) in table {
            let elems = bytes / dtype.smem_bytes();
            // K-major: the contiguous extent is K.
            let k = TileDecl::new(Arch::Sm90, Operand::A, dtype, Major::K, 64, elems)
                .build()
                .map(|p| p.tile.swizzle_mode());
            // K must also be a whole number of 32 B MMA steps for the tile to be legal.
            if bytes % 32 == 0 {
                assert_eq!(k, Ok(want), "K-major {} {bytes} B", dtype.name());
            }
            assert_eq!(
                select_swizzle(dtype, elems),
                Ok(want),
                "{} {bytes} B",
                dtype.name()
            );
        }
    }
    // MN-major: the contiguous extent is MN (sm90 transposes only 16-bit types).
    for (bytes, want) in table {
        let mn = bytes / 2;
        if mn % 64 == 0 {
            let p = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::Mn, mn, 64)
                .build()
                .unwrap();
            assert_eq!(p.tile.swizzle_mode(), want, "MN-major bf16 {bytes} B");
        }
    }
    // sm100, MN-major 32-bit: always 128B with 32-byte atomicity (CUTLASS sm100 selector).
    let p = TileDecl::new(
        Arch::Sm100,
        Operand::A,
        ElementType::TF32,
        Major::Mn,
        128,
        32,
    )
    .build()
    .unwrap();
    assert_eq!(p.tile.swizzle_mode(), SwizzleMode::B128Base32B);
}

#[test]
fn unaligned_base_carries_base_offset() {
    // §7 (H100): TMA-written (absolute) data 3 x 128 B past a 1024 B boundary is read with
    // base_offset 0; data whose pattern restarts at the tile start with (start >> 7) & 7 = 3.
    let at = 0x2000 + 384;
    let d = SEED.try_desc(at, 0, 0, 0).unwrap();
    assert_eq!(d.base_offset(), 0, "the default placement is absolute");
    let rel = SEED
        .place::<Relative>(at)
        .unwrap()
        .try_desc(0, 0, 0)
        .unwrap();
    assert_eq!(rel.base_offset(), 3);
    assert_eq!(d.start_address(), at);
    assert_eq!(rel.start_address(), at);
    // The emulator, which counts the swizzle's row phase from the pattern start base_offset names,
    // reads the absolute pattern with the first and the relative one with the second.
    let sw = Swizzle::new(3, 4, 3); // §3: 128B on byte addresses
    for mn in 0..64 {
        for k in 0..16 {
            let unswizzled = mn * 128 + k * 2; // K-major rows of 128 B, 8-row groups 1024 B apart
            let hw = emulate_address(d, Major::K, 2, mn, k).unwrap();
            assert_eq!(hw, sw.apply(at + unswizzled));
            let hw = emulate_address(rel, Major::K, 2, mn, k).unwrap();
            assert_eq!(hw, at + SEED.byte_offset(mn, k));
            assert_eq!(hw, at + sw.apply(unswizzled));
        }
    }
    // Not a multiple of 128 B: refused.
    assert!(matches!(
        SEED.try_desc(0x2000 + 64, 0, 0, 0),
        Err(Error::UnalignedBase { .. })
    ));
}
