//! `smemdesc header --from` on the files the macros' own tests compile: `tests/epilogue_cluster.rs`
//! (an `#[smem_mma(cluster = (2, 1))]` pairing, an `#[smem_epilogue_tile]`, and an
//! `#[smem_storage]` holding two `#[smem(epilogue)]` members) and `tests/ui/pass_frag_tile.rs`
//! (three `#[smem_fragment_tile]`s). Those files assert the macros' constants against values worked
//! by hand from the rules; the headers are held here to the same hand-worked values (C++
//! `static_assert`s), so the header and the macros are checked against one independent model.

use crate::common::*;

fn repo(rel: &str) -> String {
    format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn header_from(path: &str, name: &str) -> String {
    let (code, out, err) = run(&["header", "--from", path, "--name", name]);
    assert_eq!(code, 0, "{err}");
    out
}

/// The checks below, by hand (the same values `tests/epilogue_cluster.rs` holds the macros to).
const EPILOGUE_CHECKS: &str = r#"
namespace g = ec::gemm;
// A 2x1 cluster shares B (256 rows) between the 2 CTAs along M: each issues 128 rows; A is not
// shared; each barrier expects the whole A (128 x 64 bf16) and B (256 x 64 bf16) stage.
static_assert(g::CLUSTER_X == 2 && g::CLUSTER_Y == 1 && g::CLUSTER_SIZE == 2, "cluster");
static_assert(g::A_MULTICAST_COUNT == 1 && g::B_MULTICAST_COUNT == 2, "sharers");
static_assert(g::A_CTA_MASK[0] == 0b01 && g::A_CTA_MASK[1] == 0b10, "A masks");
static_assert(g::B_CTA_MASK[0] == 0b11 && g::B_CTA_MASK[1] == 0b11, "B masks");
static_assert(g::B_SLICE_BOX_DIM[0] == 64 && g::B_SLICE_BOX_DIM[1] == 128, "B slice box");
static_assert(g::EXPECT_TX == 128 * 64 * 2 + 256 * 64 * 2, "expect_tx");
namespace c = ec::CTile;
// 64 x 64 bf16: 128-B rows, so the 128B swizzle fits; 2 stages of 8 KiB, aligned to the 1024-B
// swizzle repeat; 256 / 64 = 4 chunks; one 64 x 64 TMA box.
static_assert(eq(c::SWIZZLE, "128B") && eq(c::WRITER, "stmatrix_x4") && eq(c::READER, "tma_store"), "names");
static_assert(c::STAGE_BYTES == 8192 && c::BYTES == 16384 && c::ALIGN == 1024, "sizes");
static_assert(c::CHUNKS == 4 && c::INSTRUCTIONS == 4, "chunks");
static_assert(c::TMA_BOX_DIM[0] == 64 && c::TMA_BOX_DIM[1] == 64 && c::TMA_BOXES == 1, "box");
static_assert(c::TMA_BOX_OFFSETS[0] == 0 && c::TMA_BOX_COORDS[0][0] == 0 && c::TMA_BOX_COORDS[0][1] == 0, "box 0");
// CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9, CU_TENSOR_MAP_SWIZZLE_128B = 3 (cuda.h).
static_assert(c::TMAP_DATA_TYPE == 9 && c::TMAP_SWIZZLE == 3, "map codes");
// stmatrix.x4: lane 8q + r of warp w in instruction i stores row 16w + 8(g mod 2) + r of matrix
// g = 4i + q, column 8(g / 2): its 16-B chunk g / 2 XOR (row mod 8) under the 128B swizzle.
constexpr bool writer_offsets() {
  for (unsigned w = 0; w < 4; ++w) for (unsigned i = 0; i < 4; ++i) for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned g = i * 4 + lane / 8, row = 16 * w + 8 * (g % 2) + lane % 8, chunk = (g / 2) ^ (row % 8);
    if (c::WRITER_OFFSETS[0][w][i][lane] != row * 128 + chunk * 16) return false;
  }
  return true;
}
static_assert(writer_offsets(), "writer offsets");
namespace s = ec::Gemm;
// a: 65536 at 0; b: 131072 at 65536; c0, c1: 16384 each at 196608, 212992 (1024-aligned);
// the 8 barriers (8 B each) from 229376.
static_assert(s::C0_OFFSET == 196608 && s::C1_OFFSET == 212992, "C offsets");
static_assert(s::C0_BYTES == 16384 && s::C0_ALIGN == 1024 && s::C0_STAGE_BYTES == 8192, "C sizes");
static_assert(s::FULL_OFFSET == 229376 && s::BYTES == 229376 + 64, "budget");
"#;

/// The checks of `tests/ui/pass_frag_tile.rs`, by hand.
const FRAGMENT_CHECKS: &str = r#"
namespace a = pf::As;
namespace b = pf::Bs;
namespace d = pf::Ds;
// A: 64 x 64 bf16 K-major = 64 rows of 128 B, 128B swizzle; 4 k-steps x 4 ldmatrix.x4 (16 rows each).
static_assert(eq(a::SWIZZLE, "128B") && a::ROWS == 64 && a::ROW_BYTES == 128 && a::INSTRUCTIONS == 16, "A");
static_assert(a::BYTES == 64 * 64 * 2 && a::READER_CONFLICT_FREE == 1 && a::WRITER_ISSUES == 16, "A sizes");
// lane 9: row 1 of matrix 1 (a2/a3: rows 8..15) = tile row 9; 128B swizzle: chunk 0 -> 9 % 8.
static_assert(a::LDMATRIX_OFFSETS[0][9] == 9 * 128 + 16, "A lane 9");
static_assert(eq(b::LDMATRIX, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16") && b::WRITER_ISSUES == 0, "B");
// D: 64 x 32 bf16 results, 64-B rows, 64B swizzle, 8 stmatrix.x4.
static_assert(eq(d::LDMATRIX, "stmatrix.sync.aligned.m8n8.x4.shared.b16"), "D mnemonic");
static_assert(d::ROWS == 64 && d::ROW_BYTES == 64 && d::INSTRUCTIONS == 8 && eq(d::SWIZZLE, "64B"), "D");
static_assert(d::READER_CONFLICT_FREE == 1, "D conflict-free");
"#;

const EQ: &str = "constexpr bool eq(const char* x, const char* y) { return *x == *y && (*x == 0 || eq(x + 1, y + 1)); }\n";

#[test]
fn epilogue_fragment_and_cluster_headers_hold_the_hand_worked_values() {
    let dir = tmp_dir("from-epi");
    let ec = header_from(&repo("tests/epilogue_cluster.rs"), "ec");
    std::fs::write(dir.join("ec.h"), &ec).unwrap();
    let pf = header_from(&repo("tests/ui/pass_frag_tile.rs"), "pf");
    std::fs::write(dir.join("pf.h"), &pf).unwrap();
    let cpp = format!("#include \"ec.h\"\n#include \"pf.h\"\n{EQ}{EPILOGUE_CHECKS}{FRAGMENT_CHECKS}int main() {{ return 0; }}\n");
    let warn = ["-fsyntax-only", "-Wall", "-Wextra", "-Werror"];
    compile(
        "g++",
        &[&["-std=c++17"], &warn[..]].concat(),
        &dir,
        "t.cpp",
        &cpp,
    );
    // The C macros compile too.
    let c = "#include \"ec.h\"\n#include \"pf.h\"\nint main(void) { return EC_C_TILE_BYTES == 16384u && PF_AS_INSTRUCTIONS == 16u ? 0 : 1; }\n";
    compile(
        "gcc",
        &[&["-std=c11", "-x", "c"], &warn[..]].concat(),
        &dir,
        "t.c",
        c,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `src` to a file and runs `header --from` on it.
fn header(tag: &str, src: &str) -> (i32, String, String) {
    let dir = tmp_dir(tag);
    let path = dir.join("k.rs");
    std::fs::write(&path, src).unwrap();
    let r = run(&["header", "--from", path.to_str().unwrap(), "--name", "k"]);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

const EPI: &str =
    "#[smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 256)]\npub struct C;\n";

#[test]
fn epilogue_members_need_the_marker_and_an_epilogue_tile() {
    let cases: &[(&str, String, &[&str])] = &[
        (
            "unmarked",
            format!("{EPI}#[smem_storage(arch = sm90)]\npub struct S {{ c: C }}\n"),
            &["k.rs:4:", "#[smem_epilogue_tile] struct", "#[smem(epilogue)]"],
        ),
        (
            "not-epi",
            "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]\npub struct T;\n#[smem_storage(arch = sm90)]\npub struct S { #[smem(epilogue)] t: T }\n".into(),
            &["k.rs:4:", "needs an #[smem_epilogue_tile] struct"],
        ),
        (
            "placement",
            format!("{EPI}#[smem_storage(arch = sm90)]\npub struct S {{ #[smem(epilogue, placement = absolute)] c: C }}\n"),
            &["k.rs:4:", "`placement` applies to #[smem_tile] members only"],
        ),
        (
            "bad-epi",
            "#[smem_epilogue_tile(dtype = bf16, tile = (64, 48), wgmma_n = 256)]\npub struct C;\n".into(),
            &["k.rs:1:43:", "C tile 64x48 of an m64n256 accumulator: m must be a multiple of 64"],
        ),
        (
            "bad-frag",
            "#[smem_fragment_tile(arch = sm80, mma = m16n8k16, dtype = e4m3, operand = A, tile = (64, 64))]\npub struct F;\n".into(),
            &["k.rs:1:29:", "this mma.sync form is not available on sm80"],
        ),
        (
            "np-alone",
            "#[smem_mma(accum = f32, non_portable)]\nmod m {\n#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]\npub struct A;\n#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (64, 64), major = K)]\npub struct B;\n}\n".into(),
            &["k.rs:1:", "`non_portable` applies to a `cluster = (x, y)`"],
        ),
        (
            "cluster-big",
            "#[smem_mma(accum = f32, cluster = (4, 4))]\nmod m {\n#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]\npub struct A;\n#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (64, 64), major = K)]\npub struct B;\n}\n".into(),
            &["k.rs:1:", "cluster (4, 4)"],
        ),
    ];
    for (tag, src, want) in cases {
        let (code, out, err) = header(tag, src);
        assert_ne!(code, 0, "{tag}: accepted\n{out}");
        for w in *want {
            assert!(err.contains(w), "{tag}: `{w}` not in: {err}");
        }
    }
    // A marked epilogue member is the tile's stages (2 x 64 x 64 bf16) at its 1024-B alignment.
    let ok = format!(
        "{EPI}#[smem_storage(arch = sm90)]\npub struct S {{ x: u32, #[smem(epilogue)] c: C }}\n"
    );
    let (code, out, err) = header("marked", &ok);
    assert_eq!(code, 0, "{err}");
    for w in [
        "C_OFFSET = 1024u;",
        "C_BYTES = 8192u;",
        "C_ALIGN = 1024u;",
        "C_STAGE_BYTES = 8192u;",
    ] {
        assert!(out.contains(w), "{w} not in:\n{out}");
    }
}

#[test]
fn reduce_readers_take_the_macro_keys_and_refuse_what_the_ptx_isa_refuses() {
    // .max on .f32 is not in the PTX ISA's cp.reduce.async.bulk.tensor table
    let (code, out, err) = header(
        "reduce-bad",
        "#[smem_epilogue_tile(dtype = f32, tile = (64, 64), wgmma_n = 64, writer = st_shared_8,\n    reader = tma_reduce_max)]\npub struct C;\n",
    );
    assert_ne!(code, 0, "accepted\n{out}");
    for w in [
        "k.rs:2:",
        ".max does not take .f32",
        "dtype = f16 | dtype = bf16",
    ] {
        assert!(err.contains(w), "`{w}` not in: {err}");
    }
    // .xor on .s32 (a .b32): the header names the reader, and the map's data type is INT32 = 3
    // (cuda.h)
    let (code, out, err) = header(
        "reduce-ok",
        "#[smem_epilogue_tile(dtype = s32, tile = (64, 64), wgmma_n = 64, writer = st_shared_8,\n    reader = tma_reduce_xor)]\npub struct C;\n",
    );
    assert_eq!(code, 0, "{err}");
    for w in [
        "READER[] = \"tma_reduce_xor\"",
        "TMAP_DATA_TYPE = 3u;",
        "ELEM_BYTES = 4u;",
    ] {
        assert!(out.contains(w), "`{w}` not in:\n{out}");
    }
    // the old spelling still reads
    let (code, out, err) = header(
        "reduce-add",
        "#[smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 256, reader = tma_reduce_add)]\npub struct C;\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("READER[] = \"tma_reduce_add\""), "{out}");
}
