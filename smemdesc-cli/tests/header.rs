//! `smemdesc header`: the guide's GEMM tiles compile as C++17 (`g++ -std=c++17 -fsyntax-only`) and
//! as C (`gcc -x c`), with `static_assert`s on the values the guide documents and on CuTe's golden
//! descriptors and offsets (`tests/data/golden`), so a wrong number is a compile failure.
//! Skipped, with the reason printed, where g++/gcc is absent. (A failing compile keeps its
//! directory under the temp dir for inspection.)

use crate::common::*;

/// The flags of a bf16 K-major sm90 tile that `wgmma` m64n256k16 reads.
fn bf16_tile(
    operand: &'static str,
    tile: &'static str,
    swizzle: &'static str,
) -> Vec<&'static str> {
    vec![
        "--arch",
        "sm90",
        "--operand",
        operand,
        "--dtype",
        "bf16",
        "--tile",
        tile,
        "--major",
        "K",
        "--swizzle",
        swizzle,
        "--mma",
        "m64n256k16",
    ]
}

/// The flags of the guide's GEMM tiles (`examples/gemm_tiles.rs`, docs/guide/tiles.md).
fn tile_a() -> Vec<&'static str> {
    [bf16_tile("A", "128x64", "auto"), vec!["--stages", "4"]].concat()
}
fn tile_b() -> Vec<&'static str> {
    [bf16_tile("B", "256x64", "auto"), vec!["--stages", "4"]].concat()
}

fn header(flags: &[&str], extra: &[&str], name: &str) -> String {
    let mut argv = vec!["header"];
    argv.extend_from_slice(flags);
    argv.extend_from_slice(extra);
    argv.extend_from_slice(&["--name", name]);
    let (code, out, err) = run(&argv);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn readme_gemm_tiles_compile_as_cpp17_and_c() {
    let dir = tmp_dir("readme");
    std::fs::write(dir.join("gemm_a.h"), header(&tile_a(), &[], "gemm_a")).unwrap();
    std::fs::write(dir.join("gemm_b.h"), header(&tile_b(), &[], "gemm_b")).unwrap();
    // Expected values: the tiles chapter's table for TileA (base 0, CuTe's numbers); TileB: its sizes.
    let cpp = r#"
#include "gemm_a.h"
#include "gemm_b.h"
static_assert(gemm_a::DESC == 0x4000004000010000ull, "DESC");
static_assert(gemm_a::LBO == 16 && gemm_a::SBO == 1024 && gemm_a::LAYOUT_TYPE == 1, "LBO/SBO");
static_assert(gemm_a::MMAS_MN == 2 && gemm_a::MMAS_K == 4, "subtiles");
static_assert(gemm_a::ADVANCE_MN[1] == 512 && gemm_a::ADVANCE_K[3] == 6, "advances");
static_assert(gemm_a::ADVANCE_STAGE == 1024 && gemm_a::STAGE_BYTES == 16384, "stage");
static_assert(gemm_a::BYTES == 65536 && gemm_a::ALIGN == 1024, "storage");
static_assert(gemm_a::TMAP_BOX_DIM[0] == 64 && gemm_a::TMAP_BOX_DIM[1] == 128, "boxDim");
static_assert(gemm_a::TMA_BOXES == 1 && gemm_a::TMA_BOX_BYTES == 16384, "boxes");
static_assert(gemm_a::TMAP_SWIZZLE == 3 && gemm_a::TMAP_DATA_TYPE == 9, "tmap enums");
static_assert(gemm_a::TMAP_RANK == 2 && gemm_a::TMAP_INTERLEAVE == 0, "tmap");
// desc(subtile (1, 3), stage 2) = DESC + ADVANCE_MN[1] + ADVANCE_K[3] + 2 * ADVANCE_STAGE
static_assert(gemm_a::DESCS[2][1][3] == gemm_a::DESC + 512 + 6 + 2 * 1024, "desc table");
static_assert(gemm_b::OPERAND_B == 1 && gemm_b::TILE_MN == 256 && gemm_b::BYTES == 131072, "B");
static_assert(gemm_b::DESCS[3][0][3] == gemm_b::DESC + 6 + 3 * gemm_b::ADVANCE_STAGE, "B table");
int main() { return 0; }
"#;
    if compile(
        "g++",
        &["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror"],
        &dir,
        "t.cpp",
        cpp,
    )
    .is_none()
    {
        return;
    }
    let c = r#"
#include "gemm_a.h"
#include "gemm_b.h"
static const unsigned long long a_descs[GEMM_A_DESCS_DIM0][GEMM_A_DESCS_DIM1][GEMM_A_DESCS_DIM2] = GEMM_A_DESCS_INIT;
static const unsigned int b_box[GEMM_B_TMAP_BOX_DIM_DIM0] = GEMM_B_TMAP_BOX_DIM_INIT;
static const unsigned int a_chunks[GEMM_A_CHUNK_OFFSETS_DIM0][GEMM_A_CHUNK_OFFSETS_DIM1] = GEMM_A_CHUNK_OFFSETS_INIT;
_Static_assert(GEMM_A_DESC == 0x4000004000010000ull, "DESC");
_Static_assert(GEMM_A_SBO == 1024u && GEMM_A_TMAP_SWIZZLE == 3u, "SBO");
_Static_assert(GEMM_B_TMA_BOX_BYTES == 32768u, "B box");
int main(void) { return (int)(a_descs[0][0][0] & 1) + (int)b_box[0] + (int)a_chunks[0][0]; }
"#;
    compile(
        "gcc",
        &["-std=c11", "-fsyntax-only", "-Wall", "-Werror", "-x", "c"],
        &dir,
        "t.c",
        c,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether a golden row is of the guide's A tile shape: bf16 K-major 128B, 128 x 64, mn_first.
fn readme_a_tile(r: &std::collections::HashMap<String, String>) -> bool {
    r["dtype"] == "bf16"
        && r["major"] == "K"
        && r["swizzle"] == "128B"
        && r["tile_mn"] == "128"
        && r["tile_k"] == "64"
        && r["order"] == "mn_first"
}

/// CuTe's descriptors and element offsets for the guide's A tile shape (sm90 bf16 K-major 128B,
/// 128 x 64, mn_first), at the golden file's base address: every row as a `static_assert`.
#[test]
fn golden_rows_hold_in_the_header() {
    let rows: Vec<_> = read_tsv("descriptors.tsv")
        .into_iter()
        .filter(|r| r["arch"] == "sm90" && readme_a_tile(r) && r["block_mn"] == "64")
        .collect();
    assert_eq!(rows.len(), 8, "2 x 4 subtiles");
    let base = rows[0]["base"].clone();
    let offs: Vec<_> = read_tsv("offsets.tsv")
        .into_iter()
        .filter(readme_a_tile)
        .collect();
    assert!(offs.len() >= 10, "{}", offs.len());
    let flags = [bf16_tile("A", "128x64", "128B"), vec!["--base", &base]].concat();
    let dir = tmp_dir("golden");
    std::fs::write(dir.join("g.h"), header(&flags, &[], "g")).unwrap();
    let mut cpp = String::from("#include \"g.h\"\n");
    for r in &rows {
        cpp += &format!(
            "static_assert(g::DESCS[0][{}][{}] == {}ull, \"golden desc\");\n",
            r["i"], r["j"], r["desc"]
        );
    }
    for r in &offs {
        let (mn, k): (u32, u32) = (r["mn"].parse().unwrap(), r["k"].parse().unwrap());
        cpp += &format!(
            "static_assert(g::CHUNK_OFFSETS[{mn}][{}] + {} * g::ELEM_BYTES == {}, \"golden offset ({mn}, {k})\");\n",
            k / 8,
            k % 8,
            r["byte_offset"]
        );
    }
    compile("g++", &["-std=c++17", "-fsyntax-only"], &dir, "g.cpp", &cpp);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_name_is_an_error() {
    let mut argv = vec!["header"];
    argv.extend_from_slice(&tile_a());
    argv.extend_from_slice(&["--name", "9lives"]);
    let (code, _, err) = run(&argv);
    assert_eq!(code, 2);
    assert!(
        err.contains("--name") && err.contains("C identifier"),
        "{err}"
    );
    // an illegal tile is the core's error, as for `tile`
    let (code, _, err) = run(&[
        "header",
        "--arch",
        "sm90",
        "--dtype",
        "bf16",
        "--tile",
        "128x64",
        "--major",
        "K",
        "--tma-box",
        "64x128",
        "--name",
        "x",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--tma-box"), "{err}");
}

/// Every sm90 golden configuration with a 64-row MMA (180 tiles: bf16, e4m3, tf32; K- and
/// MN-major; every swizzle; both orders) in one C++ translation unit: each CuTe descriptor and
/// each sampled element offset is a `static_assert` on that tile's header.
#[test]
fn every_sm90_golden_tile_in_one_translation_unit() {
    use std::collections::BTreeMap;
    let mut configs: BTreeMap<String, Vec<_>> = BTreeMap::new();
    for r in read_tsv("descriptors.tsv") {
        if r["arch"] == "sm90" && r["block_mn"] == "64" {
            configs.entry(r["id"].clone()).or_default().push(r);
        }
    }
    assert_eq!(configs.len(), 180);
    let mut offsets: BTreeMap<String, Vec<_>> = BTreeMap::new();
    for r in read_tsv("offsets.tsv") {
        if configs.contains_key(&r["id"]) {
            offsets.entry(r["id"].clone()).or_default().push(r);
        }
    }
    let dir = tmp_dir("all");
    let mut cpp = String::new();
    let (mut n_desc, mut n_off) = (0, 0);
    for (id, rows) in &configs {
        let r0 = &rows[0];
        let tile = format!("{}x{}", r0["tile_mn"], r0["tile_k"]);
        let flags = [
            "--arch",
            "sm90",
            "--operand",
            "A",
            "--dtype",
            &r0["dtype"],
            "--tile",
            &tile,
            "--major",
            &r0["major"],
            "--swizzle",
            &r0["swizzle"],
            "--order",
            &r0["order"],
            "--mma-mn",
            "64",
            "--base",
            &r0["base"],
        ];
        let name = format!("g{id}");
        std::fs::write(dir.join(format!("{name}.h")), header(&flags, &[], &name)).unwrap();
        cpp += &format!("#include \"{name}.h\"\n");
        for r in rows {
            cpp += &format!(
                "static_assert({name}::DESCS[0][{}][{}] == {}ull, \"{name} desc\");\n",
                r["i"], r["j"], r["desc"]
            );
            n_desc += 1;
        }
        let per16: u32 = 128 / r0["bits"].parse::<u32>().unwrap();
        for o in offsets.get(id).into_iter().flatten() {
            let (mn, k): (u32, u32) = (o["mn"].parse().unwrap(), o["k"].parse().unwrap());
            let (row, along) = if r0["major"] == "K" { (mn, k) } else { (k, mn) };
            cpp += &format!(
                "static_assert({name}::CHUNK_OFFSETS[{row}][{}] + {} * {name}::ELEM_BYTES == {}, \"{name} offset ({mn}, {k})\");\n",
                along / per16,
                along % per16,
                o["byte_offset"]
            );
            n_off += 1;
        }
    }
    println!("{n_desc} golden descriptors and {n_off} golden offsets as static_asserts");
    assert!(n_desc >= 1000 && n_off >= 1000, "{n_desc} {n_off}");
    compile(
        "g++",
        &["-std=c++17", "-fsyntax-only"],
        &dir,
        "all.cpp",
        &cpp,
    );
    let _ = std::fs::remove_dir_all(&dir);
}
