//! The grid: thousands of declarations (arch × dtype × major × swizzle × stacking × extents × MMA ×
//! stages). Every accepted one is checked element by element against two independent walks:
//!
//! * the **emulator** reads each MMA subtile's descriptor the way the tensor core does, and every
//!   element must come from the address the tile layout gives it, with no two elements of a stage
//!   sharing an address;
//! * the **TMA model** writes each box row by row (swizzled on the absolute address), and the boxes
//!   must cover every element of the tile exactly once, at the address the tile layout gives it.
//!
//! Every illegal class of spec §11 is generated too and must be rejected with its own variant.

use smemdesc::core::*;

const ARCHES: [Arch; 2] = [Arch::Sm90, Arch::Sm100];
const DTYPES: [ElementType; 5] = [
    ElementType::BF16,
    ElementType::F16,
    ElementType::TF32,
    ElementType::E4M3,
    ElementType::S8,
];
const SWIZZLES: [SwizzleMode; 5] = [
    SwizzleMode::None,
    SwizzleMode::B32,
    SwizzleMode::B64,
    SwizzleMode::B128,
    SwizzleMode::B128Base32B,
];

/// Every declaration of the grid (legal or not).
fn grid() -> Vec<TileDecl> {
    let mut out = Vec::new();
    for arch in ARCHES {
        for dtype in DTYPES {
            let eb = dtype.smem_bytes();
            for major in [Major::K, Major::Mn] {
                for swizzle in SWIZZLES {
                    for order in [Order::MnFirst, Order::KFirst] {
                        for operand in [Operand::A, Operand::B] {
                            for tile_mn in [64, 128, 192, 256] {
                                for k_bytes in [32, 64, 128, 256] {
                                    for stages in [1, 2, 3] {
                                        let tile_k = k_bytes / eb;
                                        let mmas: &[u32] = match (operand, arch) {
                                            (Operand::A, Arch::Sm90) => &[64],
                                            (Operand::A, Arch::Sm100) => &[64, 128],
                                            (Operand::B, _) => &[64, 128, 256],
                                        };
                                        for &mn in mmas {
                                            let k = dtype.mma_k();
                                            let shape = match operand {
                                                Operand::A => MmaShape::new(mn, 128, k),
                                                Operand::B => MmaShape::new(
                                                    if arch == Arch::Sm90 { 64 } else { 128 },
                                                    mn,
                                                    k,
                                                ),
                                            };
                                            out.push(
                                                TileDecl::new(
                                                    arch, operand, dtype, major, tile_mn, tile_k,
                                                )
                                                .swizzle(swizzle)
                                                .order(order)
                                                .mma(shape)
                                                .stages(stages),
                                            );
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Walks every element of every subtile of every stage through the emulator; returns elements checked.
fn check_with_emulator(p: &TilePlan, base: u32) -> u64 {
    let t = &p.tile;
    let spec = t.spec();
    let eb = spec.dtype.smem_bytes();
    let (bm, bk) = (spec.mma_mn, t.mma_k());
    let per_stage = (spec.tile_mn * spec.tile_k) as usize;
    let mut checked = 0;
    for stage in 0..spec.stages {
        let stage_base = base + stage * t.stage_bytes();
        let mut seen = vec![false; per_stage];
        for i in 0..t.mmas_mn() {
            for j in 0..t.mmas_k() {
                let d = t
                    .try_desc(base, i, j, stage)
                    .expect("legal tile gives descriptors");
                assert_eq!(
                    d.raw(),
                    t.desc(base, i, j, stage),
                    "desc() and try_desc() disagree"
                );
                assert!(
                    matches!(d.row_phase(), None | Some(0)),
                    "a subtile must start on an atom's row 0: {d}"
                );
                for mn in 0..bm {
                    for k in 0..bk {
                        let (gm, gk) = (i * bm + mn, j * bk + k);
                        let hw = emulate_address(d, spec.major, eb, mn, k).unwrap();
                        let want = stage_base + t.byte_offset(gm, gk);
                        assert_eq!(hw, want, "{p:?}\nstage {stage} subtile ({i},{j}) element ({mn},{k}) base {base:#x}");
                        let rel = (hw - stage_base) as usize;
                        assert!(
                            rel % eb as usize == 0 && rel / (eb as usize) < per_stage,
                            "address outside stage"
                        );
                        assert!(
                            !seen[rel / eb as usize],
                            "two elements share byte address {hw:#x}"
                        );
                        seen[rel / eb as usize] = true;
                        checked += 1;
                    }
                }
            }
        }
        assert!(
            seen.iter().all(|&s| s),
            "the subtiles do not cover the stage"
        );
    }
    checked
}

/// TMA model: each box is written row by row, densely, then swizzled on the absolute address.
fn check_tma(p: &TilePlan, base: u32) -> u64 {
    let t = &p.tile;
    let spec = t.spec();
    let eb = spec.dtype.smem_bytes();
    let tma = &p.tma;
    assert!(
        tma.box_inner * eb == t.swizzle_mode().atom_width(),
        "box must be one atom wide"
    );
    assert!(tma.box_rows <= 256 && tma.box_inner <= 256);
    let sw = t.swizzle_mode().functor();
    let mut hits = vec![0u8; (spec.tile_mn * spec.tile_k) as usize];
    let mut checked = 0;
    for stage in 0..spec.stages {
        let dst_stage = base + stage * t.stage_bytes();
        for b in 0..tma.boxes {
            let (mn0, k0) = p.box_coord(b);
            let dst = dst_stage + p.box_offset(b);
            assert_eq!(
                dst % tma.smem_align.min(128),
                0,
                "box destination must be 128 B aligned"
            );
            for r in 0..tma.box_rows {
                for e in 0..tma.box_inner {
                    let (mn, k) = match spec.major {
                        Major::K => (mn0 + r, k0 + e),
                        Major::Mn => (mn0 + e, k0 + r),
                    };
                    let written = sw.apply(dst + (r * tma.box_inner + e) * eb);
                    assert_eq!(
                        written,
                        dst_stage + t.byte_offset(mn, k),
                        "{p:?} box {b} row {r} elem {e}"
                    );
                    if stage == 0 {
                        hits[(mn * spec.tile_k + k) as usize] += 1;
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(
        hits.iter().all(|&h| h == 1),
        "boxes must cover each element exactly once"
    );
    checked
}

#[test]
fn every_legal_configuration_reads_and_writes_the_tile_layout() {
    let decls = grid();
    let (mut accepted, mut rejected, mut elements, mut tma_elements) = (0u64, 0u64, 0u64, 0u64);
    for d in &decls {
        match d.build() {
            Ok(p) => {
                accepted += 1;
                // A base at 0x400 plus a few extra repeats; and one off the pattern boundary
                // (base_offset path) for swizzled tiles.
                let base = 0x400 + p.tile.align() * (accepted as u32 % 3);
                elements += check_with_emulator(&p, base);
                if p.tile.swizzle_mode().is_swizzled() && accepted % 7 == 0 {
                    elements += check_with_emulator(&p, base + 128);
                }
                tma_elements += check_tma(&p, base);
            }
            Err(_) => rejected += 1,
        }
    }
    println!(
        "grid: {} declarations, {accepted} accepted, {rejected} rejected; {elements} subtile elements emulated, {tma_elements} TMA elements written",
        decls.len()
    );
    assert!(
        accepted >= 5000,
        "grid too small: {accepted} legal configurations"
    );
}

#[test]
fn every_rejection_in_the_grid_has_a_legality_reason() {
    // A rejection must come from a rule, never from the algebra failing on a legal-looking input.
    for d in grid() {
        if let Err(e) = d.build() {
            assert!(
                !matches!(
                    e,
                    Error::NotCanonical { .. } | Error::NotDivisible { .. } | Error::LayoutCapacity
                ),
                "{d:?} rejected by an internal error: {e}"
            );
        }
    }
}

fn a_bf16() -> TileDecl {
    TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64)
        .mma(MmaShape::new(64, 256, 16))
}

/// One generator per illegal class of spec §11, each with variations, and the variant it must give.
#[test]
fn every_illegal_class_is_rejected_with_its_variant() {
    type Check = fn(&Error) -> bool;
    let mut cases: Vec<(&str, TileDecl, Check)> = Vec::new();
    for rows in [64, 128] {
        for inner in [128, 256] {
            cases.push(("box wider than atom", a_bf16().tma_box(rows, inner), |e| {
                matches!(e, Error::TmaBoxWidth { .. })
            }));
        }
    }
    for k in [40, 72, 96] {
        cases.push((
            "not whole atoms",
            TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, k)
                .swizzle(SwizzleMode::B128),
            |e| matches!(e, Error::TileNotWholeAtoms { .. }),
        ));
    }
    for k in [4, 12, 20] {
        cases.push((
            "contiguous not 16 B",
            TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, k),
            |e| matches!(e, Error::ContiguousNotMultipleOf16B { .. }),
        ));
    }
    for k in [8, 32, 64] {
        cases.push(
            ("K not 32 B", a_bf16().mma(MmaShape::new(64, 256, k)), |e| {
                matches!(e, Error::MmaKNot32Bytes { .. })
            }),
        );
    }
    for m in [32, 128, 256] {
        cases.push(("illegal M", a_bf16().mma(MmaShape::new(m, 256, 16)), |e| {
            matches!(e, Error::IllegalMmaM { .. })
        }));
    }
    for n in [0, 12, 264, 512] {
        cases.push(("illegal N", a_bf16().mma(MmaShape::new(64, n, 16)), |e| {
            matches!(e, Error::IllegalMmaN { .. })
        }));
    }
    for mn in [96, 160] {
        cases.push((
            "not whole MMAs",
            TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, mn, 64)
                .mma(MmaShape::new(64, 64, 16)),
            |e| matches!(e, Error::TileNotWholeMmas { .. }),
        ));
    }
    for dtype in [ElementType::E4M3, ElementType::TF32, ElementType::S8] {
        cases.push((
            "MN-major forbidden",
            TileDecl::new(Arch::Sm90, Operand::A, dtype, Major::Mn, 128, 128),
            |e| matches!(e, Error::MnMajorForbidden { .. }),
        ));
    }
    cases.push((
        "MN-major fp6 forbidden on sm100",
        TileDecl::new(
            Arch::Sm100,
            Operand::A,
            ElementType::E2M3,
            Major::Mn,
            128,
            128,
        ),
        |e| matches!(e, Error::MnMajorForbidden { .. }),
    ));
    cases.push((
        "128B_base32B on sm90",
        TileDecl::new(Arch::Sm90, Operand::A, ElementType::TF32, Major::K, 128, 32)
            .swizzle(SwizzleMode::B128Base32B),
        |e| matches!(e, Error::SwizzleNotOnArch { .. }),
    ));
    cases.push((
        "tf32 MN-major without base32B",
        TileDecl::new(
            Arch::Sm100,
            Operand::A,
            ElementType::TF32,
            Major::Mn,
            128,
            32,
        )
        .swizzle(SwizzleMode::B128),
        |e| matches!(e, Error::SwizzleNotForOperand { .. }),
    ));
    cases.push((
        "LBO overflow",
        // M = 64 spans two 64B atoms along MN; K-first puts 512 atoms between them: LBO = 256 KiB.
        TileDecl::new(
            Arch::Sm90,
            Operand::A,
            ElementType::BF16,
            Major::Mn,
            64,
            4096,
        )
        .swizzle(SwizzleMode::B64)
        .order(Order::KFirst),
        |e| {
            matches!(
                e,
                Error::FieldOverflow {
                    field: Field::Lbo,
                    ..
                }
            )
        },
    ));
    cases.push((
        "SBO overflow",
        // K-first: 256 atoms along K sit between consecutive 8-row groups: SBO = 256 KiB.
        TileDecl::new(
            Arch::Sm90,
            Operand::A,
            ElementType::BF16,
            Major::K,
            128,
            16384,
        )
        .swizzle(SwizzleMode::B128)
        .order(Order::KFirst),
        |e| {
            matches!(
                e,
                Error::FieldOverflow {
                    field: Field::Sbo,
                    ..
                }
            )
        },
    ));
    for stages in [15, 64] {
        cases.push(("SMEM budget", a_bf16().stages(stages), |e| {
            matches!(e, Error::SmemBudget { .. })
        }));
    }
    cases.push(("stages 0", a_bf16().stages(0), |e| {
        matches!(e, Error::ZeroStages)
    }));
    cases.push((
        "box rows > 256",
        TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 512, 64)
            .tma_box(512, 64),
        |e| matches!(e, Error::TmaBoxRowsOver256 { .. }),
    ));
    cases.push((
        "box rows over non-contiguous atoms",
        // Two atoms along K, stacked K first: a box of 64 rows would span atoms that are not
        // adjacent in SMEM. (One atom wide, k_first is the mn_first layout and takes the box.)
        TileDecl::new(
            Arch::Sm90,
            Operand::A,
            ElementType::BF16,
            Major::K,
            128,
            128,
        )
        .mma(MmaShape::new(64, 256, 16))
        .order(Order::KFirst)
        .tma_box(64, 64),
        |e| matches!(e, Error::TmaBoxRowsIllegal { .. }),
    ));
    cases.push((
        "dtype/kind mismatch",
        TileDecl::new(
            Arch::Sm100,
            Operand::A,
            ElementType::E4M3,
            Major::K,
            128,
            128,
        )
        .kind(MmaKind::F16),
        |e| matches!(e, Error::DtypeKindMismatch { .. }),
    ));
    cases.push(("cta_group 2 on sm90", a_bf16().cta_group(2), |e| {
        matches!(e, Error::CtaGroupInvalid { .. })
    }));
    cases.push((
        "fp4 on sm90",
        TileDecl::new(
            Arch::Sm90,
            Operand::A,
            ElementType::E2M1,
            Major::K,
            128,
            128,
        ),
        |e| matches!(e, Error::DtypeNotOnArch { .. }),
    ));
    cases.push((
        "8-bit MN-major B with N step 8 on sm100",
        TileDecl::new(
            Arch::Sm100,
            Operand::B,
            ElementType::E4M3,
            Major::Mn,
            128,
            128,
        )
        .mma(MmaShape::new(128, 136, 32)),
        |e| {
            matches!(
                e,
                Error::IllegalMmaN { .. } | Error::TileNotWholeMmas { .. }
            )
        },
    ));
    let mut rejected = 0;
    for (what, decl, ok) in &cases {
        match decl.build() {
            Ok(_) => panic!("{what}: {decl:?} was accepted"),
            Err(e) => assert!(ok(&e), "{what}: wrong variant {e:?}"),
        }
        rejected += 1;
    }
    println!("illegal classes: {rejected} declarations rejected with the expected variant");
}
