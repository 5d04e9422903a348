//! Generator of `tests/cases/macro_cases.rs`, the declarations `tests/cases/macro_consts.rs` pushes
//! through `#[smem_tile]`: every distinct tile configuration of the facade's
//! `tests/data/golden/descriptors.tsv`
//! plus a deterministic sample of legal declarations over arch × dtype × major × swizzle × order ×
//! operand × mma × stages (legality decided by the core's `TileDecl::build`).
//!
//! Regenerate with `scripts/gen_macro_cases.sh` (runs the ignored test below). The non-ignored test
//! fails when the committed file is stale.

/// The facade's directory (`tests/common` reads the golden copy below it).
const FACADE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

#[path = "../../tests/common/mod.rs"]
mod common;
use common::*;
use smemdesc::core::*;
use std::collections::BTreeMap;
use std::fmt::Write;

const OUT: &str = "tests/cases/macro_cases.rs";

/// One declaration: the core value, how to spell its arguments, and the golden tile it reproduces.
struct Gen {
    decl: TileDecl,
    /// Spell the swizzle as a string (`"128B"`) rather than a token (`128B`).
    swizzle_str: bool,
    /// Spell `mma` as `m64n256k16` rather than `(64, 256)`.
    mma_ident: bool,
    /// Golden tile id, base address and MMA block rows (`block_mn`).
    golden: Option<(String, u32, u32)>,
}

fn macro_args(g: &Gen) -> String {
    let d = &g.decl;
    let mut s = format!(
        "arch = {}, operand = {}, dtype = {}, tile = ({}, {}), major = {}",
        d.arch.name(),
        d.operand.name(),
        d.dtype.name(),
        d.tile_mn,
        d.tile_k,
        d.major.name()
    );
    if let Some(sw) = d.swizzle {
        if g.swizzle_str {
            write!(s, ", swizzle = \"{}\"", sw.name()).unwrap();
        } else {
            write!(s, ", swizzle = {}", sw.name()).unwrap();
        }
    }
    if let Some(o) = d.order {
        write!(s, ", order = {}", o.name()).unwrap();
    }
    if let Some(m) = d.mma {
        if g.mma_ident {
            write!(s, ", mma = m{}n{}k{}", m.m, m.n, m.k).unwrap();
        } else {
            write!(s, ", mma = ({}, {})", m.m, m.n).unwrap();
        }
    }
    if let Some(k) = d.kind {
        write!(s, ", kind = {}", k.name()).unwrap();
    }
    if d.stages != 1 {
        write!(s, ", stages = {}", d.stages).unwrap();
    }
    if let Some((r, i)) = d.tma_box {
        write!(s, ", tma_box = ({r}, {i})").unwrap();
    }
    if d.cta_group != 1 {
        write!(s, ", cta_group = {}", d.cta_group).unwrap();
    }
    s
}

fn core_expr(d: &TileDecl) -> String {
    let mut s = format!(
        "TileDecl::new(Arch::{:?}, Operand::{:?}, ElementType::{:?}, Major::{:?}, {}, {})",
        d.arch, d.operand, d.dtype, d.major, d.tile_mn, d.tile_k
    );
    if let Some(sw) = d.swizzle {
        write!(s, ".swizzle(SwizzleMode::{sw:?})").unwrap();
    }
    if let Some(o) = d.order {
        write!(s, ".order(Order::{o:?})").unwrap();
    }
    if let Some(m) = d.mma {
        write!(s, ".mma(MmaShape::new({}, {}, {}))", m.m, m.n, m.k).unwrap();
    }
    if let Some(k) = d.kind {
        write!(s, ".kind(MmaKind::{k:?})").unwrap();
    }
    if d.stages != 1 {
        write!(s, ".stages({})", d.stages).unwrap();
    }
    if let Some((r, i)) = d.tma_box {
        write!(s, ".tma_box({r}, {i})").unwrap();
    }
    if d.cta_group != 1 {
        write!(s, ".cta_group({})", d.cta_group).unwrap();
    }
    s
}

/// A declaration whose MMA subtile is `block_mn` rows of the golden tile: A with M = block (64,
/// or 128 on sm100), else B with N = block.
fn golden_decl(row: &std::collections::HashMap<String, String>) -> TileDecl {
    let (a, dt, block) = (arch(row), dtype(row), num(row, "block_mn"));
    let k = dt.mma_k();
    let (operand, mma) = match (a.generation(), block) {
        (_, 64) => (Operand::A, MmaShape::new(64, 256, k)),
        (Arch::Sm100, 128) => (Operand::A, MmaShape::new(128, 256, k)),
        (Arch::Sm90, n) => (Operand::B, MmaShape::new(64, n, k)),
        (_, n) => (Operand::B, MmaShape::new(128, n, k)),
    };
    TileDecl::new(
        a,
        operand,
        dt,
        major(row),
        num(row, "tile_mn"),
        num(row, "tile_k"),
    )
    .swizzle(swizzle(row))
    .order(order(row))
    .mma(mma)
}

/// Deterministic pseudo-random sequence (64-bit LCG, Knuth's constants).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

fn grid(count: usize) -> Vec<Gen> {
    let dtypes = ElementType::ALL;
    let swizzles = [
        None,
        Some(SwizzleMode::None),
        Some(SwizzleMode::B32),
        Some(SwizzleMode::B64),
        Some(SwizzleMode::B128),
        Some(SwizzleMode::B128Base32B),
    ];
    let orders = [None, Some(Order::MnFirst), Some(Order::KFirst)];
    let mn = [64, 128, 192, 256];
    let kb = [16, 32, 64, 128, 256]; // K extent in bytes
    let mut rng = Lcg(0x5eed_5eed);
    let mut out: Vec<Gen> = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < 200_000 {
        tries += 1;
        let arch = Arch::ALL[rng.next(2)];
        let dtype = dtypes[rng.next(dtypes.len())];
        let major = [Major::K, Major::Mn][rng.next(2)];
        let operand = [Operand::A, Operand::B][rng.next(2)];
        let tile_mn = mn[rng.next(mn.len())];
        let tile_k = kb[rng.next(kb.len())] / dtype.smem_bytes();
        let mut d = TileDecl::new(arch, operand, dtype, major, tile_mn, tile_k);
        if let Some(s) = swizzles[rng.next(swizzles.len())] {
            d = d.swizzle(s);
        }
        if let Some(o) = orders[rng.next(orders.len())] {
            d = d.order(o);
        }
        let cta = if arch == Arch::Sm100 && rng.next(4) == 0 {
            2
        } else {
            1
        };
        if cta == 2 {
            d = d.cta_group(2);
        }
        if rng.next(2) == 0 {
            // An explicit instruction: the operand's extent is a divisor of the tile.
            let k = dtype.mma_k();
            let ext = [64, 128, 256][rng.next(3)];
            d = d.mma(match (operand, arch.generation()) {
                (Operand::A, Arch::Sm90) => MmaShape::new(64, [64, 128, 256][rng.next(3)], k),
                (Operand::A, _) => MmaShape::new(ext.min(128) * cta, 256, k),
                (Operand::B, Arch::Sm90) => MmaShape::new(64, ext, k),
                (Operand::B, _) => MmaShape::new(128 * cta, ext, k),
            });
        }
        if arch == Arch::Sm100 && MmaKind::of(dtype) == MmaKind::F8f6f4 && rng.next(3) == 0 {
            d = d.kind(MmaKind::Mxf8f6f4);
        }
        d = d.stages(1 + rng.next(6) as u32);
        if d.build().is_err() || out.iter().any(|g| g.decl == d) {
            continue;
        }
        // Now and then an explicit TMA box: the plan's own, or half its rows when legal.
        if rng.next(4) == 0 {
            if let Ok(p) = d.build() {
                let half = p.tma.box_rows / 2;
                let rows = if half % 8 == 0 && half > 0 && rng.next(2) == 0 {
                    half
                } else {
                    p.tma.box_rows
                };
                let boxed = d.tma_box(rows, p.tma.box_inner);
                if boxed.build().is_ok() {
                    d = boxed;
                }
            }
        }
        out.push(Gen {
            decl: d,
            swizzle_str: rng.next(5) == 0,
            mma_ident: rng.next(2) == 0,
            golden: None,
        });
    }
    out
}

fn generate() -> String {
    let rows = read_tsv("descriptors.tsv");
    // Distinct golden configurations: (tile id — one tile at one base address, MMA block rows).
    let mut tiles: BTreeMap<(u32, u32), Gen> = BTreeMap::new();
    for row in &rows {
        let (id, block) = (num(row, "id"), num(row, "block_mn"));
        tiles.entry((id, block)).or_insert_with(|| Gen {
            decl: golden_decl(row),
            swizzle_str: id % 7 == 0,
            mma_ident: id % 2 == 0,
            golden: Some((row["id"].clone(), num(row, "base"), block)),
        });
    }
    let mut gens: Vec<Gen> = tiles.into_values().collect();
    for g in &gens {
        if let Err(e) = g.decl.build() {
            panic!("golden tile {:?} is not a legal declaration: {e}", g.golden);
        }
    }
    gens.extend(grid(160));

    let mut s = String::new();
    s.push_str(
        "// @generated by generated/tests/gen_macro_cases.rs (scripts/gen_macro_cases.sh); do not edit.\n\
         // Each tile is declared through #[smem_tile] and paired with the same declaration written\n\
         // against the core, plus (for golden tiles) its id and base in the facade's tests/data/golden.\n\
         // generated/tests/all.rs declares this file once, as `#[macro_use] mod macro_cases`: the\n\
         // tiles are expanded and compiled once, and `generated_cases!(case)` hands them to each\n\
         // test file's own `case!` (tests/cases/macro_consts.rs, tests/cases/tile_at.rs).\n\
         // A plain `cargo test` builds the sampled tiles only (every grid tile and every eighth golden\n\
         // one); the others are `#[cfg(smemdesc_full_grid)]`, which generated/build.rs sets when\n\
         // SMEMDESC_FULL_GRID is (as `.ci/run` does).\n\n\
         use smemdesc::smem_tile;\n\n",
    );
    for (i, g) in gens.iter().enumerate() {
        let cfg = if sampled(i, g) {
            ""
        } else {
            "#[cfg(smemdesc_full_grid)]\n"
        };
        writeln!(
            s,
            "{cfg}#[smem_tile({})]\npub(crate) struct T{i};",
            macro_args(g)
        )
        .unwrap();
    }
    s.push_str(
        "\n/// `vec![$case!(T, core declaration, golden), ...]` over every tile above: the sampled ones in\n\
         /// order, then (with `smemdesc_full_grid`) the others in order. `$case` is the caller's macro\n\
         /// (in scope where `generated_cases!` is called, with the tiles and `smemdesc::core::*`).\n\
         macro_rules! generated_cases {\n    ($case:ident) => {{\n        \
         #[allow(unused_mut)]\n        let mut cases = vec![\n",
    );
    let line = |s: &mut String, i: usize, g: &Gen| {
        let golden = match &g.golden {
            Some((id, base, block)) => format!("Some(({id:?}, {base}, {block}))"),
            None => "None".to_owned(),
        };
        writeln!(
            s,
            "            $case!(T{i}, {}, {golden}),",
            core_expr(&g.decl)
        )
        .unwrap();
    };
    for (i, g) in gens.iter().enumerate().filter(|(i, g)| sampled(*i, g)) {
        line(&mut s, i, g);
    }
    s.push_str("        ];\n        #[cfg(smemdesc_full_grid)]\n        cases.extend(vec![\n");
    for (i, g) in gens.iter().enumerate().filter(|(i, g)| !sampled(*i, g)) {
        line(&mut s, i, g);
    }
    s.push_str("        ]);\n        cases\n    }};\n}\n");
    s
}

/// Whether the tile `T{i}` is one a plain `cargo test` builds: every grid tile (they cover the
/// space: `grid_covers_the_space`) and every eighth golden one. The others need
/// `smemdesc_full_grid` (SMEMDESC_FULL_GRID, set by `.ci/run`): 776 tiles there, 237 here.
fn sampled(i: usize, g: &Gen) -> bool {
    g.golden.is_none() || i % 8 == 0
}

fn out_path() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(OUT)
}

#[test]
#[ignore = "writes tests/cases/macro_cases.rs; run scripts/gen_macro_cases.sh"]
fn regenerate() {
    let text = generate();
    std::fs::create_dir_all(out_path().parent().unwrap()).unwrap();
    std::fs::write(out_path(), text).unwrap();
}

#[test]
fn generated_cases_are_up_to_date() {
    let committed = std::fs::read_to_string(out_path()).expect("tests/cases/macro_cases.rs");
    assert!(
        committed == generate(),
        "generated/tests/cases/macro_cases.rs is stale: run scripts/gen_macro_cases.sh"
    );
}
