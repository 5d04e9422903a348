//! The macro path equals the core path: for every declaration of `cases/macro_cases.rs`
//! (every distinct golden tile configuration plus a grid of legal declarations), every constant
//! and function `#[smem_tile]` emitted is compared with the core's `TileDecl::build()` run here at
//! test time, and the golden tiles' descriptors and offsets (tests/data/golden, computed by CuTe)
//! reproduce through the macro-emitted `desc()` and `offset()`.

use crate::common::*;
use crate::macro_cases::*;
use smemdesc::core::*;
use smemdesc::SmemTile;
use std::collections::HashMap;

/// What one `#[smem_tile]` struct gives: its constants (its `SmemTile` impl), inherent arrays and
/// `const fn`s.
struct Emitted {
    plan: TilePlan,
    size: usize,
    align: usize,
    desc: u64,
    lbo: u32,
    sbo: u32,
    layout_type: u8,
    swizzle: SwizzleMode,
    order: Order,
    kind: MmaKind,
    mma: [u32; 3],
    mmas: [u32; 2],
    advance_mn: Vec<u16>,
    advance_k: Vec<u16>,
    advance_stage: u32,
    stages: u32,
    stage_bytes: u32,
    bytes: u32,
    align_const: u32,
    tma_box: [u32; 2],
    tma_boxes: u32,
    tma_box_bytes: u32,
    tma_swizzle: u32,
    tma_data_type: u32,
    tma_box_offsets: Vec<u32>,
    tma_box_coords: Vec<[u32; 2]>,
    desc_fn: fn(u32, u32, u32, u32) -> u64,
    offset_fn: fn(u32, u32) -> u32,
    /// The generic view agrees with the concrete one.
    trait_agrees: bool,
}

/// The generic view agrees with the concrete one where they are different items: the trait's
/// slices are the inherent arrays, its (non-`const`) functions give what the inherent `const fn`s
/// give. (Every other constant is one item, the trait's, read through `$t::` and `T::` alike.)
fn trait_agrees<T: SmemTile>(e: &Emitted) -> bool {
    T::ADVANCE_MN == e.advance_mn.as_slice()
        && T::ADVANCE_K == e.advance_k.as_slice()
        && T::TMA_BOX_OFFSETS == e.tma_box_offsets.as_slice()
        && T::TMA_BOX_COORDS == e.tma_box_coords.as_slice()
        && trait_fns_agree(
            e,
            T::desc,
            crate::tile_at::trait_offset::<T>(),
            [T::MMAS_MN - 1, T::MMAS_K - 1, T::STAGES - 1],
        )
}

/// The trait's `desc` and `offset` (`desc` at the first and the last subtile of the last stage)
/// against the inherent ones. Passed as pointers, so that each tile has one copy of each: every
/// direct call of an `#[inline(always)]` function is a copy of its body in a debug build.
fn trait_fns_agree(
    e: &Emitted,
    desc: fn(u32, u32, u32, u32) -> u64,
    offset: fn(u32, u32) -> u32,
    [mn, k, s]: [u32; 3],
) -> bool {
    desc(0, 0, 0, 0) == (e.desc_fn)(0, 0, 0, 0)
        && desc(0, mn, k, s) == (e.desc_fn)(0, mn, k, s)
        && offset(1, 1) == (e.offset_fn)(1, 1)
}

struct Case {
    name: &'static str,
    core: TileDecl,
    golden: Option<(&'static str, u32, u32)>,
    emitted: Emitted,
}

macro_rules! case {
    // Each case is its own function: one huge `cases()` body costs LLVM minutes at opt-level 2.
    ($t:ident, $core:expr, $golden:expr) => {{
        #[inline(never)]
        fn make() -> Case {
            let mut emitted = Emitted {
                plan: $t::PLAN,
                size: core::mem::size_of::<$t>(),
                align: core::mem::align_of::<$t>(),
                desc: $t::DESC,
                lbo: $t::LBO,
                sbo: $t::SBO,
                layout_type: $t::LAYOUT_TYPE,
                swizzle: $t::SWIZZLE,
                order: $t::ORDER,
                kind: $t::KIND,
                mma: [$t::MMA_M, $t::MMA_N, $t::MMA_K],
                mmas: [$t::MMAS_MN, $t::MMAS_K],
                advance_mn: $t::ADVANCE_MN.to_vec(),
                advance_k: $t::ADVANCE_K.to_vec(),
                advance_stage: $t::ADVANCE_STAGE,
                stages: $t::STAGES,
                stage_bytes: $t::STAGE_BYTES,
                bytes: $t::BYTES,
                align_const: $t::ALIGN,
                tma_box: $t::TMA_BOX_DIM,
                tma_boxes: $t::TMA_BOXES,
                tma_box_bytes: $t::TMA_BOX_BYTES,
                tma_swizzle: $t::TMA_SWIZZLE,
                tma_data_type: $t::TMA_DATA_TYPE,
                tma_box_offsets: $t::TMA_BOX_OFFSETS.to_vec(),
                tma_box_coords: $t::TMA_BOX_COORDS.to_vec(),
                desc_fn: $t::desc,
                offset_fn: $t::offset,
                trait_agrees: false,
            };
            emitted.trait_agrees = trait_agrees::<$t>(&emitted);
            Case {
                name: stringify!($t),
                core: $core,
                golden: $golden,
                emitted,
            }
        }
        make()
    }};
}

/// Whether every generated tile is built (`smemdesc_full_grid`: SMEMDESC_FULL_GRID, as `.ci/run`
/// sets it), or the sample a plain `cargo test` builds (tests/cases/macro_cases.rs says which).
const FULL: bool = cfg!(smemdesc_full_grid);

fn cases() -> Vec<Case> {
    generated_cases!(case)
}

/// Every emitted value against the core's, computed now. Returns the mismatches.
fn compare(c: &Case) -> Vec<String> {
    let mut bad = Vec::new();
    let p = match c.core.build() {
        Ok(p) => p,
        Err(e) => return vec![format!("{}: core rejects the declaration: {e}", c.name)],
    };
    let e = &c.emitted;
    let t = &p.tile;
    let mut check = |what: &str, ok: bool| {
        if !ok {
            bad.push(format!("{}: {what}", c.name));
        }
    };
    check("PLAN", e.plan == p);
    check("size_of", e.size == t.bytes() as usize);
    check("align_of", e.align == t.align() as usize);
    check("DESC", e.desc == t.base_descriptor().raw());
    check("LBO", e.lbo == t.lbo());
    check("SBO", e.sbo == t.sbo());
    check("LAYOUT_TYPE", e.layout_type == t.layout_type());
    check("SWIZZLE", e.swizzle == t.swizzle_mode());
    check("ORDER", e.order == t.spec().order);
    check("KIND", e.kind == p.kind);
    check("MMA", e.mma == [p.mma.m, p.mma.n, p.mma.k]);
    check("MMAS", e.mmas == [t.mmas_mn(), t.mmas_k()]);
    check(
        "ADVANCE_MN",
        e.advance_mn.iter().map(|&v| v as u32).collect::<Vec<_>>()
            == (0..t.mmas_mn())
                .map(|i| t.advance_mn(i))
                .collect::<Vec<_>>(),
    );
    check(
        "ADVANCE_K",
        e.advance_k.iter().map(|&v| v as u32).collect::<Vec<_>>()
            == (0..t.mmas_k()).map(|j| t.advance_k(j)).collect::<Vec<_>>(),
    );
    check("ADVANCE_STAGE", e.advance_stage == t.advance_stage());
    check("STAGES", e.stages == t.spec().stages);
    check("STAGE_BYTES", e.stage_bytes == t.stage_bytes());
    check("BYTES", e.bytes == t.bytes());
    check("ALIGN", e.align_const == t.align());
    check("TMA_BOX_DIM", e.tma_box == p.tma.box_dim());
    check("TMA_BOXES", e.tma_boxes == p.tma.boxes);
    check("TMA_BOX_BYTES", e.tma_box_bytes == p.tma.box_bytes);
    check("TMA_SWIZZLE", e.tma_swizzle == p.tma.swizzle.value());
    check("TMA_DATA_TYPE", e.tma_data_type == p.tma.data_type.value());
    check(
        "TMA_BOX_OFFSETS",
        e.tma_box_offsets
            == (0..p.tma.boxes)
                .map(|b| p.box_offset(b))
                .collect::<Vec<_>>(),
    );
    check(
        "TMA_BOX_COORDS",
        e.tma_box_coords
            == (0..p.tma.boxes)
                .map(|b| {
                    let (mn, k) = p.box_coord(b);
                    [mn, k]
                })
                .collect::<Vec<_>>(),
    );
    check("SmemTile impl", e.trait_agrees);
    // desc(): every subtile of every stage at two bases; one add from DESC and the tables.
    let mut desc_ok = true;
    let mut add_ok = true;
    for base in [0u32, 0x400 * 8] {
        for s in 0..t.spec().stages {
            for i in 0..t.mmas_mn() {
                for j in 0..t.mmas_k() {
                    let d = (e.desc_fn)(base, i, j, s);
                    desc_ok &= Ok(d) == t.try_desc(base, i, j, s).map(|d| d.raw());
                    let adv = e.advance_mn[i as usize] as u64
                        + e.advance_k[j as usize] as u64
                        + (s * e.advance_stage) as u64
                        + (base / 16) as u64;
                    add_ok &= d == e.desc + adv;
                }
            }
        }
    }
    check("desc()", desc_ok);
    check("desc() = DESC + advances", add_ok);
    // offset(): a strided sample of elements.
    let spec = t.spec();
    let mut off_ok = true;
    for mn in (0..spec.tile_mn).step_by(7) {
        for k in (0..spec.tile_k).step_by(5) {
            off_ok &= (e.offset_fn)(mn, k) == t.byte_offset(mn, k);
        }
    }
    check("offset()", off_ok);
    bad
}

#[test]
fn macro_constants_equal_core() {
    let cases = cases();
    let failures: Vec<String> = cases.iter().flat_map(compare).collect();
    let grid = cases.iter().filter(|c| c.golden.is_none()).count();
    println!(
        "{} declarations ({} golden tiles, {grid} grid) compared field by field",
        cases.len(),
        cases.len() - grid
    );
    assert!(cases.len() >= 100 && grid >= 100);
    assert!(
        failures.is_empty(),
        "{} mismatches: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}

#[test]
fn grid_covers_the_space() {
    let cases = cases();
    let plans: Vec<TilePlan> = cases.iter().map(|c| c.emitted.plan).collect();
    for arch in Arch::ALL {
        for major in [Major::K, Major::Mn] {
            for order in [Order::MnFirst, Order::KFirst] {
                assert!(
                    plans.iter().any(|p| p.decl.arch == arch
                        && p.decl.major == major
                        && p.tile.spec().order == order),
                    "no {arch:?} {major:?} {order:?} case"
                );
            }
        }
    }
    for sw in [
        SwizzleMode::None,
        SwizzleMode::B32,
        SwizzleMode::B64,
        SwizzleMode::B128,
        SwizzleMode::B128Base32B,
    ] {
        assert!(plans.iter().any(|p| p.tile.swizzle_mode() == sw), "{sw:?}");
    }
    for s in 1..=4 {
        assert!(
            plans.iter().any(|p| p.tile.spec().stages == s),
            "stages {s}"
        );
    }
    assert!(plans.iter().any(|p| p.decl.cta_group == 2));
    assert!(plans.iter().any(|p| p.decl.tma_box.is_some()));
}

#[test]
fn golden_vectors_reproduce_through_the_macro() {
    let cases = cases();
    let by_cfg: HashMap<(&str, u32), &Case> = cases
        .iter()
        .filter_map(|c| c.golden.map(|(id, _, block)| ((id, block), c)))
        .collect();
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for row in read_tsv("descriptors.tsv") {
        let key = (row["id"].as_str(), num(&row, "block_mn"));
        let Some(c) = by_cfg.get(&key) else {
            // A plain `cargo test` builds every eighth golden tile (macro_cases.rs); CI all.
            if FULL {
                failures.push(format!("golden tile {key:?} has no generated declaration"));
            }
            continue;
        };
        seen.insert(c.name);
        let (_, base, _) = c.golden.unwrap();
        assert_eq!(base, num(&row, "base"));
        let got = (c.emitted.desc_fn)(base, num(&row, "i"), num(&row, "j"), 0);
        if got == hex(&row, "desc") {
            checked += 1;
        } else {
            failures.push(format!(
                "{} {key:?} ({},{}) want {} got {got:#018x}",
                c.name, row["i"], row["j"], row["desc"]
            ));
        }
    }
    // offsets.tsv: the swizzled byte offset of sampled elements, through the macro's offset().
    let mut offsets = 0;
    let first_by_id: HashMap<&str, &Case> = cases
        .iter()
        .filter_map(|c| c.golden.map(|(id, _, _)| (id, c)))
        .collect();
    for row in read_tsv("offsets.tsv") {
        let Some(c) = first_by_id.get(row["id"].as_str()) else {
            if FULL {
                failures.push(format!("offsets.tsv id {} has no declaration", row["id"]));
            }
            continue;
        };
        let got = (c.emitted.offset_fn)(num(&row, "mn"), num(&row, "k"));
        if got == num(&row, "byte_offset") {
            offsets += 1;
        } else {
            failures.push(format!(
                "{} offset({}, {}) want {} got {got}",
                c.name, row["mn"], row["k"], row["byte_offset"]
            ));
        }
    }
    println!(
        "golden through #[smem_tile]: {checked} descriptor rows of {} configurations, {offsets} offsets",
        seen.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
    assert!(checked > 0 && offsets > 0);
    // Every golden declaration built (all, or the sample) met its descriptor rows.
    assert_eq!(
        seen.len(),
        by_cfg.len(),
        "golden declarations without a row"
    );
}
