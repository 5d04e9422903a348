//! Sub-byte SMEM forms (issue 14): padded fp4/fp6 (`kind::f8f6f4`, `mxf8f6f4`) and packed fp4
//! (`kind::mxf4`, `mxf4nvf4`, K = 64 and K = 96).
//!
//! Every accepted declaration is walked value by value, three ways that share nothing but the
//! packing facts of the PTX ISA / CUDA driver documentation:
//!
//! * the **emulator** (`emulate_value`) reads each subtile's descriptor the way the tensor core
//!   does and must find every value where the layout algebra (`value_offset`) puts it;
//! * a **bit map** of each stage: no two values share a bit, a packed stage has no unused bit, a
//!   padded stage uses exactly the first 8 (fp4) or 12 (fp6) bytes of every 16-byte unit;
//! * a **TMA model** written here from the driver text (`16U4_ALIGN16B`: 16 values in 8 bytes then
//!   an 8-byte gap; `16U6_ALIGN16B`: 12 bytes then 4; `16U4_ALIGN8B`: no gaps; box dims count
//!   values; rows written densely, then the swizzle on the absolute address) must write every value
//!   exactly where the layout algebra puts it.

use smemdesc_core::*;

/// Swizzle on an absolute byte address (CUDA `CU_TENSOR_MAP_SWIZZLE_*`: 16-byte chunk bits 4.. XOR
/// row bits 7..), written here independently of the core.
fn swizzle(mode: SwizzleMode, addr: u32) -> u32 {
    let bits = match mode {
        SwizzleMode::None => return addr,
        SwizzleMode::B32 => 1,
        SwizzleMode::B64 => 2,
        SwizzleMode::B128 => 3,
        SwizzleMode::B128Base32B => unreachable!("not a sub-byte layout"),
    };
    addr ^ (((addr >> 7) & ((1 << bits) - 1)) << 4)
}

/// Value `x` of a box row as TMA lays it out in the row's bytes: (byte, bit).
fn tma_row_position(data_type: TmaDataType, x: u32) -> (u32, u32) {
    match data_type {
        TmaDataType::U4x16Align8B => (x / 2, (x % 2) * 4),
        TmaDataType::U4x16Align16B => ((x / 16) * 16 + (x % 16) / 2, (x % 2) * 4),
        TmaDataType::U6x16Align16B => {
            let bit = (x % 16) * 6;
            ((x / 16) * 16 + bit / 8, bit % 8)
        }
        other => panic!("not a sub-byte TMA type: {other:?}"),
    }
}

/// Checks one plan; returns the number of values checked.
fn walk(p: &TilePlan) -> u64 {
    let t = &p.tile;
    let s = t.spec();
    let (form, dtype) = (s.form, s.dtype);
    let base = 0x8000u32; // aligned for every swizzle
    let bits = dtype.bits();
    let stage_bits = (t.stage_bytes() * 8) as usize;
    let mut checked = 0u64;
    for stage in 0..s.stages {
        let stage_base = base + stage * t.stage_bytes();
        let mut used = vec![false; stage_bits];
        for i in 0..t.mmas_mn() {
            for j in 0..t.mmas_k() {
                let d = t.try_desc(base, i, j, stage).unwrap();
                assert_eq!(d.raw() >> 52 & 1, 0, "LBO mode bit 52 stays 0 on sm_100a");
                for mn in 0..s.mma_mn {
                    for k in 0..t.mma_k() {
                        let (gm, gk) = (i * s.mma_mn + mn, j * t.mma_k() + k);
                        let hw = emulate_value(d, s.major, dtype, form, mn, k).unwrap();
                        let mut want = t.value_offset(gm, gk);
                        want.byte += stage_base;
                        assert_eq!(hw, want, "{p:?}\nsubtile ({i},{j}) value ({mn},{k})");
                        let first = ((hw.byte - stage_base) * 8 + hw.bit) as usize;
                        for (b, u) in used.iter_mut().enumerate().skip(first).take(bits as usize) {
                            assert!(!*u, "two values share bit {b} of stage {stage}: {p:?}");
                            *u = true;
                        }
                        checked += 1;
                    }
                }
            }
        }
        for (b, &u) in used.iter().enumerate() {
            let want = match form {
                SmemForm::Packed => true,
                // bits [0, 16·bits) of each 16-byte unit hold values, the rest is padding
                SmemForm::Padded16 => (b % 128) < (16 * bits) as usize,
                SmemForm::Whole => unreachable!(),
            };
            assert_eq!(u, want, "stage bit {b} use is {u}: {p:?}");
        }
    }
    checked
}

/// The TMA model: every box, row by row, value by value.
fn walk_tma(p: &TilePlan) -> u64 {
    let t = &p.tile;
    let s = t.spec();
    let tma = &p.tma;
    assert_eq!(tma.data_type, s.form.tma_data_type(s.dtype));
    assert!(tma.box_rows <= 256 && tma.box_inner <= 256);
    if matches!(s.form, SmemForm::Padded16) {
        assert_eq!(
            tma.box_inner, 128,
            "16U4/16U6_ALIGN16B: boxDim[0] must be 128"
        );
    }
    // One box row fills one swizzle atom row (bytes).
    let row_bytes = t.swizzle_mode().atom_width();
    let base = 0x8000u32;
    let mut seen = std::collections::HashSet::new();
    for stage in 0..s.stages {
        let stage_base = base + stage * t.stage_bytes();
        for b in 0..tma.boxes {
            let dst = stage_base + p.box_offset(b);
            let (mn0, k0) = p.box_coord(b);
            for r in 0..tma.box_rows {
                for x in 0..tma.box_inner {
                    let (byte, bit) = tma_row_position(tma.data_type, x);
                    let addr = swizzle(t.swizzle_mode(), dst + r * row_bytes + byte);
                    let mut want = t.value_offset(mn0 + r, k0 + x);
                    want.byte += stage_base;
                    assert_eq!(
                        (addr, bit),
                        (want.byte, want.bit),
                        "{p:?}\nbox {b} row {r} value {x}"
                    );
                    assert!(seen.insert((stage, mn0 + r, k0 + x)), "value written twice");
                }
            }
        }
    }
    assert_eq!(
        seen.len() as u32,
        s.stages * s.tile_mn * s.tile_k,
        "boxes cover the tile"
    );
    seen.len() as u64
}

fn decl(dtype: ElementType, kind: MmaKind, operand: Operand, mn: u32, k: u32) -> TileDecl {
    TileDecl::new(Arch::Sm100, operand, dtype, Major::K, mn, k).kind(kind)
}

#[test]
fn padded_fp4_fp6_walks() {
    let (mut plans, mut values, mut tma) = (0, 0, 0);
    for dtype in [ElementType::E2M1, ElementType::E2M3, ElementType::E3M2] {
        for kind in [MmaKind::F8f6f4, MmaKind::Mxf8f6f4] {
            for operand in [Operand::A, Operand::B] {
                for (mn, k) in [(128, 128), (128, 256), (256, 128)] {
                    for order in [Order::MnFirst, Order::KFirst] {
                        for stages in [1, 2] {
                            let p = decl(dtype, kind, operand, mn, k)
                                .order(order)
                                .stages(stages)
                                .build()
                                .unwrap_or_else(|e| panic!("{dtype:?} {kind:?} {mn}x{k}: {e}"));
                            assert_eq!(p.tile.spec().form, SmemForm::Padded16);
                            assert_eq!(p.tile.swizzle_mode(), SwizzleMode::B128);
                            assert_eq!(p.mma.k, 32);
                            // descriptors are those of an 8-bit type: 16 values per 16 bytes
                            let e4m3 = TileDecl {
                                dtype: ElementType::E4M3,
                                kind: None,
                                ..p.decl
                            }
                            .build()
                            .unwrap();
                            assert_eq!(
                                p.tile.desc(0x8000, 0, 1, 0),
                                e4m3.tile.desc(0x8000, 0, 1, 0)
                            );
                            values += walk(&p);
                            tma += walk_tma(&p);
                            plans += 1;
                        }
                    }
                }
            }
        }
    }
    println!("padded: {plans} plans, {values} values (emulator), {tma} values (TMA)");
    assert_eq!(plans, 3 * 2 * 2 * 3 * 2 * 2);
}

#[test]
fn packed_fp4_walks_k64_and_k96() {
    let (mut plans, mut values, mut tma) = (0, 0, 0);
    for kind in [MmaKind::Mxf4, MmaKind::Mxf4nvf4] {
        for operand in [Operand::A, Operand::B] {
            for order in [Order::MnFirst, Order::KFirst] {
                for stages in [1, 2] {
                    // K = 64: every swizzle; tile K in values (2 per byte)
                    for (sw, k) in [
                        (SwizzleMode::None, 64),
                        (SwizzleMode::B32, 128),
                        (SwizzleMode::B64, 128),
                        (SwizzleMode::B128, 256),
                        (SwizzleMode::B128, 512),
                    ] {
                        let p = decl(ElementType::E2M1, kind, operand, 128, k)
                            .swizzle(sw)
                            .order(order)
                            .stages(stages)
                            .build()
                            .unwrap_or_else(|e| panic!("{kind:?} {sw:?} K {k}: {e}"));
                        assert_eq!((p.mma.k, p.tile.mma_k()), (64, 64));
                        assert_eq!(p.tile.stage_bytes(), 128 * k / 2);
                        values += walk(&p);
                        tma += walk_tma(&p);
                        plans += 1;
                    }
                    // K = 96: no swizzle, three 16-byte K core matrices per instruction; PTX
                    // has K = 96 only as 256xNx96 with cta_group::2 (each CTA: 128 rows of A,
                    // N/2 of B)
                    for k in [96, 192, 384] {
                        let m = match operand {
                            Operand::A => MmaShape::new(256, 256, 96),
                            Operand::B => MmaShape::new(256, 256, 96),
                        };
                        let p = decl(ElementType::E2M1, kind, operand, 128, k)
                            .mma(m)
                            .cta_group(2)
                            .order(order)
                            .stages(stages)
                            .build()
                            .unwrap_or_else(|e| panic!("{kind:?} K=96 tile K {k}: {e}"));
                        assert_eq!(p.tile.swizzle_mode(), SwizzleMode::None);
                        assert_eq!(p.tile.mmas_k(), k / 96);
                        values += walk(&p);
                        tma += walk_tma(&p);
                        plans += 1;
                    }
                }
            }
        }
    }
    println!("packed: {plans} plans, {values} values (emulator), {tma} values (TMA)");
    assert_eq!(plans, 2 * 2 * 2 * 2 * 8);
}

/// The example: e2m1 128x128 K-major is TMA'd as 16U4_ALIGN16B and `offset(0, 15)` is no
/// longer byte 15.
#[test]
fn padded_fp4_tma_type_and_value_offset() {
    let p = TileDecl::new(
        Arch::Sm100,
        Operand::A,
        ElementType::E2M1,
        Major::K,
        128,
        128,
    )
    .build()
    .unwrap();
    // cuda.h: ..., TFLOAT32_FTZ = 12, 16U4_ALIGN8B, 16U4_ALIGN16B, 16U6_ALIGN16B
    assert_eq!(p.tma.data_type, TmaDataType::U4x16Align16B);
    assert_eq!(p.tma.data_type.value(), 14);
    assert_eq!(TmaDataType::U4x16Align8B.value(), 13);
    assert_eq!(TmaDataType::U6x16Align16B.value(), 15);
    assert_eq!(p.tma.box_dim(), [128, 128]);
    // value 15 of the first 16-byte unit: bits 60..64 = byte 7, high nibble
    let v = p.tile.value_offset(0, 15);
    assert_eq!((v.byte, v.bit, v.bits), (7, 4, 4));
    // value 16 starts the next 16-byte unit (row 0: unswizzled)
    assert_eq!(p.tile.value_offset(0, 16).byte, 16);
    // fp6: value 5 is bits 30..36 of its unit, straddling bytes 3 and 4
    let p6 = TileDecl::new(
        Arch::Sm100,
        Operand::A,
        ElementType::E3M2,
        Major::K,
        128,
        128,
    )
    .build()
    .unwrap();
    assert_eq!(p6.tma.data_type, TmaDataType::U6x16Align16B);
    let v = p6.tile.value_offset(0, 5);
    assert_eq!((v.byte, v.bit, v.bits), (3, 6, 6));
}

#[test]
fn sub_byte_errors_blame_the_right_argument() {
    let a = |d, mn, k| TileDecl::new(Arch::Sm100, Operand::A, d, Major::K, mn, k);
    let cases: Vec<(TileDecl, Argument, &str)> = vec![
        // 16U4_ALIGN16B needs a 128-element box: 64 requested
        (
            a(ElementType::E2M1, 128, 128).tma_box(128, 64),
            Argument::TmaBox,
            "boxDim[0] = 128",
        ),
        // ... or implied by a 64B atom (K = 64 elements = 64 B of slots)
        (
            a(ElementType::E2M1, 128, 64),
            Argument::Swizzle,
            "must be 128 elements wide",
        ),
        (
            a(ElementType::E3M2, 128, 128).swizzle(SwizzleMode::B32),
            Argument::Swizzle,
            "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B",
        ),
        // K = 96 with a swizzle crosses an atom
        (
            a(ElementType::E2M1, 128, 768)
                .kind(MmaKind::Mxf4)
                .swizzle(SwizzleMode::B128)
                .cta_group(2)
                .mma(MmaShape::new(256, 256, 96)),
            Argument::Swizzle,
            "sm_103a",
        ),
        // K = 96 is a cta_group::2 shape (PTX "Matrix Shape": 256xNxK1, K1 = 96): no
        // instruction of cta_group 1 reads such a tile
        (
            a(ElementType::E2M1, 128, 192)
                .kind(MmaKind::Mxf4)
                .mma(MmaShape::new(128, 256, 96)),
            Argument::Mma,
            "K = 96 only with cta_group = 2 and M = 256",
        ),
        // ... and with cta_group 2 its M is 256, not 128
        (
            a(ElementType::E2M1, 64, 192)
                .kind(MmaKind::Mxf4nvf4)
                .cta_group(2)
                .mma(MmaShape::new(128, 256, 96)),
            Argument::Mma,
            "legal M: 256",
        ),
        // packed K is 64 or 96
        (
            a(ElementType::E2M1, 128, 256)
                .kind(MmaKind::Mxf4nvf4)
                .mma(MmaShape::new(128, 256, 32)),
            Argument::Mma,
            "legal K: 64 or 96",
        ),
        // packed fp4 never transposes
        (
            TileDecl::new(
                Arch::Sm100,
                Operand::B,
                ElementType::E2M1,
                Major::Mn,
                256,
                128,
            )
            .kind(MmaKind::Mxf4),
            Argument::Major,
            "MN-major",
        ),
        // spec §11 rules hold for packed tiles, with extents in values: 128 values of K are
        // 64 B, half a 128B atom (256 values)
        (
            a(ElementType::E2M1, 128, 128)
                .kind(MmaKind::Mxf4)
                .swizzle(SwizzleMode::B128),
            Argument::TileK,
            "256",
        ),
        // 16-byte contiguity: 16 values are 8 B
        (
            a(ElementType::E2M1, 128, 16).kind(MmaKind::Mxf4),
            Argument::TileK,
            "32",
        ),
        // whole instructions along K: 96 values are not a multiple of K = 64
        (
            a(ElementType::E2M1, 128, 96)
                .kind(MmaKind::Mxf4)
                .swizzle(SwizzleMode::None),
            Argument::TileK,
            "64",
        ),
        // a type mxf4 does not take: the kind is at fault
        (
            a(ElementType::E2M3, 128, 128).kind(MmaKind::Mxf4),
            Argument::Kind,
            "not an input type of kind::mxf4",
        ),
    ];
    for (d, arg, phrase) in cases {
        let e = d.build().expect_err("must be refused");
        assert_eq!(e.argument(), arg, "{e}");
        assert!(e.to_string().contains(phrase), "{e}");
    }
    // the core's own form check (TileSpec path)
    let e = TileSpec::new(Arch::Sm100, ElementType::E3M2, Major::K, 128, 128)
        .form(SmemForm::Packed)
        .build()
        .unwrap_err();
    assert_eq!(
        e,
        Error::FormNotForElement {
            form: SmemForm::Packed,
            dtype: ElementType::E3M2
        }
    );
}
