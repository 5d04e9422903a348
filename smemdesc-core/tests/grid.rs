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
//!
//! Unaligned placements (spec §7, measured on an H100) are walked for both placement models: bytes
//! written on absolute addresses (TMA) read with base_offset 0, bytes written relative to the tile
//! start read with `(P >> 7) & 7`, and the cross-combinations mismatch where §7 says they do.

use smemdesc_core::*;

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
                                            (Operand::A, _) => &[64, 128],
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

/// One element of one MMA subtile: `(stage, subtile (i, j), element (mn, k) in the subtile,
/// element (gm, gk) in the tile)`.
struct SubtileElement {
    stage: u32,
    i: u32,
    j: u32,
    mn: u32,
    k: u32,
    gm: u32,
    gk: u32,
}

/// Calls `f` on every element of every MMA subtile of every stage, stage by stage, subtile by
/// subtile, while it returns `true`; returns whether it always did.
fn walk_subtiles(t: &TileLayout, mut f: impl FnMut(SubtileElement) -> bool) -> bool {
    let spec = t.spec();
    let (bm, bk) = (spec.mma_mn, t.mma_k());
    for stage in 0..spec.stages {
        for i in 0..t.mmas_mn() {
            for j in 0..t.mmas_k() {
                for mn in 0..bm {
                    for k in 0..bk {
                        let (gm, gk) = (i * bm + mn, j * bk + k);
                        if !f(SubtileElement {
                            stage,
                            i,
                            j,
                            mn,
                            k,
                            gm,
                            gk,
                        }) {
                            return false;
                        }
                    }
                }
            }
        }
    }
    true
}

/// One element a TMA box writes: `(stage, box, linear byte offset in the box, tile element)`.
struct BoxElement {
    stage: u32,
    b: u32,
    lin: u32,
    mn: u32,
    k: u32,
}

/// Calls `f` on every element of every TMA box of every stage, row by row (spec §9). (Loops, not
/// an iterator: four nested `flat_map`s were a fifth of the grid walk's time.)
fn walk_boxes(p: &TilePlan, mut f: impl FnMut(BoxElement)) {
    let spec = p.tile.spec();
    let eb = spec.dtype.smem_bytes();
    let tma = p.tma;
    for stage in 0..spec.stages {
        for b in 0..tma.boxes {
            let (mn0, k0) = p.box_coord(b);
            for r in 0..tma.box_rows {
                for e in 0..tma.box_inner {
                    let (mn, k) = match spec.major {
                        Major::K => (mn0 + r, k0 + e),
                        Major::Mn => (mn0 + e, k0 + r),
                    };
                    f(BoxElement {
                        stage,
                        b,
                        lin: (r * tma.box_inner + e) * eb,
                        mn,
                        k,
                    });
                }
            }
        }
    }
}

/// Walks every element of every subtile of every stage through the emulator; returns elements checked.
fn check_with_emulator(p: &TilePlan, base: u32, offsets: &[u32]) -> u64 {
    let t = &p.tile;
    let spec = t.spec();
    let eb = spec.dtype.smem_bytes();
    let per_stage = (spec.tile_mn * spec.tile_k) as usize;
    let mut seen = vec![false; per_stage * spec.stages as usize];
    let mut checked = 0;
    let stage_bytes = t.stage_bytes();
    let mut d = t
        .try_desc(base, 0, 0, 0)
        .expect("legal tile gives descriptors");
    walk_subtiles(t, |e| {
        let stage_base = base + e.stage * stage_bytes;
        if e.mn == 0 && e.k == 0 {
            // Elements come subtile by subtile: one descriptor per subtile.
            d = t
                .try_desc(base, e.i, e.j, e.stage)
                .expect("legal tile gives descriptors");
            assert_eq!(
                d.raw(),
                t.desc(base, e.i, e.j, e.stage),
                "desc() and try_desc() disagree"
            );
            assert!(
                matches!(d.row_phase(), None | Some(0)),
                "a subtile must start on an atom's row 0: {d}"
            );
        }
        let hw = emulate_address(d, spec.major, eb, e.mn, e.k).unwrap();
        let want = stage_base + offsets[(e.gm * spec.tile_k + e.gk) as usize];
        assert_eq!(
            hw, want,
            "{p:?}\nstage {} subtile ({},{}) element ({},{}) base {base:#x}",
            e.stage, e.i, e.j, e.mn, e.k
        );
        let rel = (hw - stage_base) as usize;
        assert!(
            rel % eb as usize == 0 && rel / (eb as usize) < per_stage,
            "address outside stage"
        );
        let slot = e.stage as usize * per_stage + rel / eb as usize;
        assert!(!seen[slot], "two elements share byte address {hw:#x}");
        seen[slot] = true;
        checked += 1;
        true
    });
    assert!(
        seen.iter().all(|&s| s),
        "the subtiles do not cover the stage"
    );
    checked
}

/// TMA model: each box is written row by row, densely, then swizzled on the absolute address.
fn check_tma(p: &TilePlan, base: u32, offsets: &[u32]) -> u64 {
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
    let stage_bytes = t.stage_bytes();
    // The box's destination, computed once per box (the elements come box by box).
    let mut cur = (u32::MAX, u32::MAX, 0u32, 0u32);
    walk_boxes(p, |e| {
        let BoxElement {
            stage,
            b,
            lin,
            mn,
            k,
        } = e;
        if (stage, b) != (cur.0, cur.1) {
            let dst_stage = base + stage * stage_bytes;
            let dst = dst_stage + p.box_offset(b);
            assert_eq!(
                dst % tma.smem_align.min(128),
                0,
                "box destination must be 128 B aligned"
            );
            cur = (stage, b, dst_stage, dst);
        }
        let (dst_stage, dst) = (cur.2, cur.3);
        let written = sw.apply(dst + lin);
        assert_eq!(
            written,
            dst_stage + offsets[(mn * spec.tile_k + k) as usize],
            "{p:?} box {b} byte {lin}"
        );
        if stage == 0 {
            hits[(mn * spec.tile_k + k) as usize] += 1;
        }
        checked += 1;
    });
    assert!(
        hits.iter().all(|&h| h == 1),
        "boxes must cover each element exactly once"
    );
    checked
}

/// Walks the accepted declarations whose grid index is `shard` modulo [`SHARDS`] (the test harness
/// runs the shards on all cores); returns how many it accepted.
fn check_shard(shard: usize) -> u64 {
    let decls = grid();
    let (mut accepted, mut rejected, mut elements, mut tma_elements) = (0u64, 0u64, 0u64, 0u64);
    for (n, d) in decls.iter().enumerate() {
        match d.build() {
            // Counted over the whole grid, so every shard picks the same bases as one walk would.
            Ok(p) => {
                accepted += 1;
                if n % SHARDS != shard {
                    continue;
                }
                // A base at 0x400 plus a few extra repeats (unaligned placements: see
                // `unaligned_placements_follow_the_measured_base_offset_rules::shard_*`).
                let base = 0x400 + p.tile.align() * (accepted as u32 % 3);
                // The layout algebra's byte offset of every element of a stage, evaluated once:
                // both walks compare with it. (`byte_offset(mn, k)` is `access().offset(mn, k)`:
                // the access numbers, which it recomputed for every element, taken once.)
                let spec = p.tile.spec();
                let access = p.tile.access();
                let offsets: Vec<u32> = (0..spec.tile_mn)
                    .flat_map(|mn| (0..spec.tile_k).map(move |k| (mn, k)))
                    .map(|(mn, k)| access.offset(mn, k))
                    .collect();
                elements += check_with_emulator(&p, base, &offsets);
                tma_elements += check_tma(&p, base, &offsets);
            }
            Err(_) => rejected += 1,
        }
    }
    println!(
        "grid shard {shard}/{SHARDS}: {} declarations, {accepted} accepted, {rejected} rejected; {elements} subtile elements emulated, {tma_elements} TMA elements written",
        decls.len()
    );
    assert!(
        accepted >= 5000,
        "grid too small: {accepted} legal configurations"
    );
    assert!(
        elements > 0 && tma_elements > 0,
        "shard {shard} walked nothing"
    );
    accepted
}

/// The element walk is split into shards so that `cargo test` runs it on every core.
const SHARDS: usize = 8;

/// How many shards of each walk (the grid's, the unaligned placements') a plain `cargo test`
/// walks: shards 0 and 1 of 8, a quarter of the configurations spread over every class (a shard
/// takes every eighth). With `SMEMDESC_FULL_GRID` set, as `.ci/run` does, every shard is walked.
const PLAIN_SHARDS: usize = 2;

/// Whether shard `shard` of `walk` is walked in this run (see [`PLAIN_SHARDS`]).
fn walks(walk: &str, shard: usize, shards: usize) -> bool {
    if shard < PLAIN_SHARDS || std::env::var_os("SMEMDESC_FULL_GRID").is_some() {
        return true;
    }
    println!(
        "{walk} shard {shard}/{shards}: walked by CI only (set SMEMDESC_FULL_GRID=1 to walk it)"
    );
    false
}

/// A module `$walk` of one `#[test]` per shard of a walk of `$shards` (8) shards, `shard_0` to
/// `shard_7`, each calling `$check(shard)` when [`walks`] says so.
macro_rules! shard_tests {
    ($walk:ident, $check:ident, $label:literal, $shards:ident) => {
        mod $walk {
            use super::*;
            shard_tests!(@tests $check, $label, $shards, shard_0 = 0, shard_1 = 1, shard_2 = 2,
                         shard_3 = 3, shard_4 = 4, shard_5 = 5, shard_6 = 6, shard_7 = 7);
        }
    };
    (@tests $check:ident, $label:literal, $shards:ident, $($name:ident = $shard:literal),*) => {
        const _: () = assert!([$($shard),*].len() == $shards, "one test per shard");
        $(
            #[test]
            fn $name() {
                if walks($label, $shard, $shards) {
                    $check($shard);
                }
            }
        )*
    };
}

shard_tests!(
    every_legal_configuration_reads_and_writes_the_tile_layout,
    check_shard,
    "grid",
    SHARDS
);

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

/// The base_offsets (0..8) with which §7's table says the tensor core reads a `swizzle` tile at
/// `base + p` correctly, for data written on absolute addresses and for data written relative to
/// the tile start. Written from the table, not from smemdesc.
fn measured_base_offsets(swizzle: SwizzleMode, p: u32, placement: Placement) -> Vec<u8> {
    let row = (p >> 7) as u8;
    (0u8..8)
        .filter(|&bo| match (swizzle, placement) {
            // 128B: absolute only with 0; relative only with (P>>7)&7
            (SwizzleMode::B128, Placement::Absolute) => bo == 0,
            (SwizzleMode::B128, Placement::Relative) => bo == row & 7,
            // 64B: 0 or 4 (bit 2 ignored); relative (P>>7)&3 or that + 4
            (SwizzleMode::B64, Placement::Absolute) => bo == 0 || bo == 4,
            (SwizzleMode::B64, Placement::Relative) => bo == row & 3 || bo == (row & 3) + 4,
            // 32B: 0, 2, 4 or 6; relative (P>>7)&1 plus any even number
            (SwizzleMode::B32, Placement::Absolute) => bo % 2 == 0,
            (SwizzleMode::B32, Placement::Relative) => bo % 2 == row & 1,
            _ => unreachable!("§7 measured 32B/64B/128B on sm90"),
        })
        .collect()
}

/// The layout algebra's byte offset of every element of a stage (`t.layout().eval(mn, k)` times
/// the element size), at `mn * tile_k + k`: evaluated once per configuration for its 7 placements,
/// 2 models and 2 (or 18) reads.
fn element_offsets(t: &TileLayout) -> Vec<u32> {
    let spec = t.spec();
    let (eb, layout) = (spec.dtype.smem_bytes(), t.layout());
    (0..spec.tile_mn)
        .flat_map(|mn| (0..spec.tile_k).map(move |k| layout.eval(mn, k) * eb))
        .collect()
}

/// For a tile written under `written` at `at`, whether reading every element of every subtile of
/// every stage with base_offset `bo` through the emulator lands on the written bytes. `offsets`:
/// [`element_offsets`].
fn reads_correctly(t: &TileLayout, offsets: &[u32], at: u32, written: Placement, bo: u8) -> bool {
    let spec = t.spec();
    let eb = spec.dtype.smem_bytes();
    let stage_bytes = t.stage_bytes();
    let mut d = t.try_desc(at, 0, 0, 0).unwrap();
    walk_subtiles(t, |e| {
        if e.mn == 0 && e.k == 0 {
            d = t
                .try_desc(at, e.i, e.j, e.stage)
                .unwrap()
                .with_base_offset(bo);
        }
        let off = offsets[(e.gm * spec.tile_k + e.gk) as usize];
        let start = at + e.stage * stage_bytes;
        let want = emulate_store(written, t.swizzle_mode(), start, off);
        emulate_address(d, spec.major, eb, e.mn, e.k).unwrap() == want
    })
}

/// Checks one model's placed tile: every descriptor and element address. `offsets`:
/// [`element_offsets`].
fn check_placed<M: PlacementModel>(p: &TilePlan, offsets: &[u32], at: u32) -> u64 {
    let t = &p.tile;
    let spec = t.spec();
    let eb = spec.dtype.smem_bytes();
    let stage_bytes = t.stage_bytes();
    let placed = t
        .place::<M>(at)
        .expect("128-B aligned placement is legal on sm90");
    let mut checked = 0;
    let mut d = placed.try_desc(0, 0, 0).unwrap();
    walk_subtiles(t, |e| {
        if e.mn == 0 && e.k == 0 {
            d = placed.try_desc(e.i, e.j, e.stage).unwrap();
            assert_eq!(d.raw(), placed.desc(e.i, e.j, e.stage));
        }
        let off = offsets[(e.gm * spec.tile_k + e.gk) as usize];
        let start = at + e.stage * stage_bytes;
        let stored = emulate_store(M::PLACEMENT, t.swizzle_mode(), start, off);
        assert_eq!(
            placed.address(e.gm, e.gk, e.stage),
            stored,
            "{p:?} at {at:#x}"
        );
        let hw = emulate_address(d, spec.major, eb, e.mn, e.k).unwrap();
        assert_eq!(
            hw, stored,
            "{p:?} at {at:#x} stage {} ({},{})",
            e.stage, e.gm, e.gk
        );
        checked += 1;
        true
    });
    checked
}

/// TMA at an unaligned (128-B aligned) destination writes `swizzle(absolute address)` (§7 fact 1):
/// the boxes of an `Absolute` placed tile land on its element addresses.
fn check_tma_absolute(p: &TilePlan, at: u32) {
    let t = &p.tile;
    let placed = t.place::<Absolute>(at).unwrap();
    walk_boxes(p, |e| {
        let BoxElement {
            stage,
            b,
            lin,
            mn,
            k,
        } = e;
        let dst = placed.tma_dst(&p.tma, b, stage);
        assert_eq!(dst % 128, 0, "TMA destination must be 128 B aligned");
        let written = emulate_store(Placement::Absolute, t.swizzle_mode(), dst, lin);
        assert_eq!(written, placed.address(mn, k, stage), "{p:?} box {b}");
    });
}

/// The sm90 swizzled configurations the unaligned walks visit (every 13th declaration of the
/// grid), with their grid index.
fn unaligned_configs() -> Vec<(usize, TilePlan)> {
    grid()
        .iter()
        .enumerate()
        .filter_map(|(n, d)| {
            let p = d.build().ok()?;
            let visited =
                d.arch == Arch::Sm90 && p.tile.swizzle_mode().is_swizzled() && n % 13 == 0;
            visited.then_some((n, p))
        })
        .collect()
}

/// The unaligned walk is split into shards (configuration `i` of [`unaligned_configs`] in shard
/// `i % UNALIGNED_SHARDS`) so that `cargo test` runs it on every core, beside the grid's shards;
/// a plain `cargo test` walks [`PLAIN_SHARDS`] of them, CI all.
const UNALIGNED_SHARDS: usize = 8;

/// Walks the unaligned placements of shard `shard`'s configurations.
fn check_unaligned_shard(shard: usize) {
    let base = 0x8000; // 1024-aligned
    let configs = unaligned_configs();
    let (mut walked, mut elements, mut sweeps) = (0u32, 0u64, 0u32);
    for (i, (n, p)) in configs.iter().enumerate() {
        if i % UNALIGNED_SHARDS != shard {
            continue;
        }
        walked += 1;
        let t = &p.tile;
        let sw = t.swizzle_mode();
        let offsets = element_offsets(t);
        for pp in (0x80..=0x380).step_by(0x80) {
            let at = base + pp;
            elements += check_placed::<Absolute>(p, &offsets, at);
            elements += check_placed::<Relative>(p, &offsets, at);
            check_tma_absolute(p, at);
            // The other model's base_offset reads garbage unless P is a multiple of the repeat.
            let off_repeat = pp % sw.atom_bytes() != 0;
            let rel_bo = t.place::<Relative>(at).unwrap().base_offset();
            assert_eq!(
                reads_correctly(t, &offsets, at, Placement::Absolute, rel_bo),
                !off_repeat
            );
            assert_eq!(
                reads_correctly(t, &offsets, at, Placement::Relative, 0),
                !off_repeat
            );
            // The full §7 table: which base_offsets read each writer's bytes.
            if n % 4 == 0 {
                sweeps += 1;
                for written in [Placement::Absolute, Placement::Relative] {
                    let ok: Vec<u8> = (0u8..8)
                        .filter(|&bo| reads_correctly(t, &offsets, at, written, bo))
                        .collect();
                    assert_eq!(
                        ok,
                        measured_base_offsets(sw, pp, written),
                        "{p:?} P={pp:#x} {written:?}"
                    );
                }
            }
        }
        // sm90 placement rule: 128 B; a 64-B aligned destination is refused (§7: misaligned).
        assert!(matches!(
            t.place::<Absolute>(base + 0x40),
            Err(Error::UnalignedBase { align: 128, .. })
        ));
    }
    println!(
        "unaligned shard {shard}/{UNALIGNED_SHARDS}: {walked} of {} sm90 configurations x 7 placements x 2 models, {elements} elements, {sweeps} base_offset sweeps",
        configs.len()
    );
    assert!(
        configs.len() >= 150,
        "too few configurations: {}",
        configs.len()
    );
    assert!(walked > 0, "unaligned shard {shard} walked nothing");
}

shard_tests!(
    unaligned_placements_follow_the_measured_base_offset_rules,
    check_unaligned_shard,
    "unaligned",
    UNALIGNED_SHARDS
);

/// sm100 was not measured: both models stay on the pattern's repeat.
#[test]
fn unaligned_placements_are_refused_on_sm100() {
    let base = 0x8000; // 1024-aligned
    for d in grid().iter().filter(|d| d.arch == Arch::Sm100) {
        let Ok(p) = d.build() else { continue };
        let t = &p.tile;
        if t.swizzle_mode().is_swizzled() {
            assert!(t.place::<Absolute>(base + 0x80).is_err());
            assert!(t.place::<Relative>(base + 0x80).is_err());
            assert!(t.try_desc(base + 0x80, 0, 0, 0).is_err());
            assert!(t.place::<Absolute>(base + t.align()).is_ok());
        }
    }
}
