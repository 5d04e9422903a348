//! `smemdesc header --from FILE`: the headers of `examples/host_launch.rs` and of
//! `tests/header_fixture.rs` (the guide's GEMM tiles paired by `#[smem_mma]` on sm90 and sm100,
//! the guide's storage, placed tiles, nested arrays, `const` lengths) compile together as C++17
//! and as C with `-Wall -Werror`, with `static_assert`s whose expected values come from outside
//! smemdesc: storage offsets worked by hand from the alignment rules, descriptors assembled from
//! the PTX ISA's matrix-descriptor fields, CuTe's golden descriptors and `make_instr_desc` rows,
//! the PTX `wgmma` mnemonic and immediates. And every unsupported or illegal input is an error
//! naming the file, line and column and what is supported.

use crate::common::*;

fn repo(rel: &str) -> String {
    format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn header_from(path: &str, name: &str) -> String {
    let (code, out, err) = run(&["header", "--from", path, "--name", name]);
    assert_eq!(code, 0, "{err}");
    out
}

/// An sm90 descriptor assembled from the PTX ISA "Matrix Descriptor Format" (wgmma): start
/// address >> 4 in bits 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, base offset in 49-51, swizzle
/// mode in 62-63 (128B = 1). K-major 128B bf16: LBO 16 B (as CuTe writes it), SBO 1024 B (8 rows of
/// 128 B).
const SM90_SW128: &str = "constexpr unsigned long long sm90_sw128(unsigned long long addr, unsigned long long base_offset) {\n  return (1ull << 62) | (base_offset << 49) | ((1024ull >> 4) << 32) | ((16ull >> 4) << 16) | ((addr >> 4) & 0x3fff);\n}\nconstexpr bool eq(const char* a, const char* b) { return *a == *b && (*a == 0 || eq(a + 1, b + 1)); }\n";

/// The golden CuTe `make_instr_desc` row for kind::f16, bf16 x bf16 -> f32, M 128, N 256, K-major.
fn golden_idesc() -> String {
    let rows: Vec<_> = read_tsv("idesc.tsv")
        .into_iter()
        .filter(|r| {
            r["kind"] == "f16"
                && r["a_dtype"] == "bf16"
                && r["b_dtype"] == "bf16"
                && r["c_dtype"] == "f32"
                && r["M"] == "128"
                && r["N"] == "256"
                && r["a_major"] == "K"
                && r["b_major"] == "K"
                && r["a_neg"] == "0"
                && r["b_neg"] == "0"
                && r["saturate"] == "0"
        })
        .collect();
    assert_eq!(rows.len(), 1);
    rows[0]["idesc"].clone()
}

#[test]
fn host_launch_and_fixture_compile_as_cpp17_and_c() {
    let dir = tmp_dir("from");
    let hl = header_from(&repo("examples/host_launch.rs"), "host_launch");
    std::fs::write(dir.join("host_launch.h"), &hl).unwrap();
    let fx = header_from(&repo("tests/header_fixture.rs"), "fx");
    std::fs::write(dir.join("fx.h"), &fx).unwrap();
    let mut cpp = format!("#include \"host_launch.h\"\n#include \"fx.h\"\n{SM90_SW128}");
    cpp += r#"
namespace s = host_launch::GemmStorage;
// Offsets by hand: a (64 KiB, 1024-aligned) at 0; b (128 KiB) at 65536; the barriers (8-aligned)
// right after; epi raised to 128: 196672 -> 196736. ALIGN: the largest (1024); SLACK = 1024 - 16.
static_assert(s::A_OFFSET == 0 && s::B_OFFSET == 65536 && s::FULL_OFFSET == 196608, "offsets");
static_assert(s::EMPTY_OFFSET == 196640 && s::EPI_OFFSET == 196736, "offsets");
static_assert(s::A_BYTES == 65536 && s::B_BYTES == 131072 && s::FULL_BYTES == 32 && s::EPI_BYTES == 16384, "sizes");
static_assert(s::A_ALIGN == 1024 && s::FULL_ALIGN == 8 && s::EPI_ALIGN == 128, "aligns");
static_assert(s::FULL_LEN == 4 && s::FULL_STRIDE == 8 && s::EPI_LEN == 16384 && s::EPI_STRIDE == 1, "arrays");
static_assert(s::BYTES == 213120 && s::ALIGN == 1024 && s::SLACK == 1008 && s::LAUNCH_BYTES == 214128, "total");
// Every descriptor of the members at their offsets: A: stage 16384 B, M subtile 64 rows x 128 B,
// K subtile 16 bf16 = 32 B; B: stage 32768 B, one N subtile.
constexpr bool a_descs() {
  for (unsigned st = 0; st < 4; ++st) for (unsigned i = 0; i < 2; ++i) for (unsigned k = 0; k < 4; ++k)
    if (s::A_DESCS[st][i][k] != sm90_sw128(st * 16384 + i * 8192 + k * 32, 0)) return false;
  return true;
}
constexpr bool b_descs() {
  for (unsigned st = 0; st < 4; ++st) for (unsigned k = 0; k < 4; ++k)
    if (s::B_DESCS[st][0][k] != sm90_sw128(65536 + st * 32768 + k * 32, 0)) return false;
  return true;
}
static_assert(a_descs() && b_descs() && s::B_DESC == sm90_sw128(65536, 0), "member descriptors");
static_assert(host_launch::TileA::DESCS[3][1][2] == sm90_sw128(3 * 16384 + 8192 + 64, 0), "TileA");

// The fixture's pairings: PTX wgmma syntax and immediates, tcgen05 instruction descriptor.
static_assert(eq(fx::gemm::MNEMONIC, "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16"), "mnemonic");
static_assert(eq(fx::gemm::WGMMA_IMMS, "1, 1, 0, 0") && fx::gemm::MMA_M == 64 && fx::gemm::MMA_N == 256, "gemm");
static_assert(eq(fx::hopper::MNEMONIC, "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"), "hopper");
static_assert(fx::hopper::IMM_SCALE_A == -1 && fx::hopper::IMM_SCALE_B == 1, "negate A");
static_assert(fx::hopper::IMM_TRANS_A == 0 && fx::hopper::IMM_TRANS_B == 1, "B MN-major");
static_assert(eq(fx::hopper::WGMMA_IMMS, "-1, 1, 0, 1"), "imms");
static_assert(eq(fx::blackwell::MNEMONIC, "tcgen05.mma.cta_group::1.kind::f16"), "tcgen05");
// PTX tcgen05 instruction descriptor (kind::f16): D format F32 = 1 at bits 4-5, A/B format BF16 = 1
// at bits 7-9 and 10-12, N >> 3 at bits 17-22, M >> 4 at bits 24-28.
static_assert(fx::blackwell::IDESC == ((1u << 4) | (1u << 7) | (1u << 10) | ((256u >> 3) << 17) | ((128u >> 4) << 24)), "idesc");
static_assert(fx::blackwell::IDESC64 == (static_cast<unsigned long long>(fx::blackwell::IDESC) << 32), "idesc64");
static_assert(fx::blackwell::MMA_M == 128 && fx::blackwell::MMA_N == 256 && fx::blackwell::MMA_K == 16, "shape");
static_assert(fx::blackwell::TileA::ARCH == 100 && fx::gemm::TileB::TILE_MN == 256, "tiles in the pairing");

// Storages of the fixture, by hand: flag (4 B) at 0; a absolute-placed on sm90 -> 128-B aligned;
// bars [[8 B; 2]; 2] 8-aligned at 128 + 32768; c: 512 f32 right after; ALIGN 128, SLACK 112.
namespace p = fx::Placed;
static_assert(p::FLAG_OFFSET == 0 && p::A_OFFSET == 128 && p::BARS_OFFSET == 32896 && p::C_OFFSET == 32928, "placed");
static_assert(p::BARS_LEN == 2 && p::BARS_STRIDE == 16 && p::C_LEN == 512 && p::C_BYTES == 2048, "arrays");
static_assert(p::BYTES == 34976 && p::ALIGN == 128 && p::SLACK == 112 && p::LAUNCH_BYTES == 35088, "placed total");
static_assert(p::A_DESC == sm90_sw128(128, 0) && p::A_BASE_OFFSET == 0, "absolute: base_offset 0 anywhere");
static_assert(p::A_DESCS[1][1][3] == sm90_sw128(128 + 16384 + 8192 + 96, 0), "absolute table");
// Relative: the storage aligns to the pattern's repeat (1024); base_offset = (128 >> 7) & 7 = 1.
namespace r = fx::Relative;
static_assert(r::A_OFFSET == 128 && r::ALIGN == 1024 && r::BYTES == 32896 && r::LAUNCH_BYTES == 33904, "relative");
static_assert(r::A_DESC == sm90_sw128(128, 1) && r::A_BASE_OFFSET == 1, "relative descriptor");
"#;
    // CuTe's golden descriptors of TileA's shape (at the golden base; the header's are at 0).
    for row in read_tsv("descriptors.tsv").into_iter().filter(|r| {
        r["arch"] == "sm90"
            && r["dtype"] == "bf16"
            && r["major"] == "K"
            && r["swizzle"] == "128B"
            && r["tile_mn"] == "128"
            && r["tile_k"] == "64"
            && r["order"] == "mn_first"
            && r["block_mn"] == "64"
    }) {
        cpp += &format!(
            "static_assert(host_launch::TileA::DESCS[0][{}][{}] + ({}ull >> 4) == {}ull, \"golden\");\n",
            row["i"], row["j"], row["base"], row["desc"]
        );
    }
    cpp += &format!(
        "static_assert(fx::blackwell::IDESC == {}u, \"golden idesc\");\nint main() {{ return 0; }}\n",
        golden_idesc()
    );
    let args = ["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror"];
    if compile("g++", &args, &dir, "t.cpp", &cpp).is_none() {
        return;
    }
    let c = r#"
#include "host_launch.h"
#include "fx.h"
static const unsigned long long b_descs[HOST_LAUNCH_GEMM_STORAGE_B_DESCS_DIM0][HOST_LAUNCH_GEMM_STORAGE_B_DESCS_DIM1][HOST_LAUNCH_GEMM_STORAGE_B_DESCS_DIM2] = HOST_LAUNCH_GEMM_STORAGE_B_DESCS_INIT;
static const char mnemonic[] = FX_HOPPER_MNEMONIC;
static const char imms[] = FX_HOPPER_WGMMA_IMMS;
_Static_assert(HOST_LAUNCH_GEMM_STORAGE_EPI_OFFSET == 196736u && HOST_LAUNCH_GEMM_STORAGE_LAUNCH_BYTES == 214128u, "storage");
_Static_assert(HOST_LAUNCH_GEMM_STORAGE_B_DESC == 0x4000004000011000ull, "B at 65536");
_Static_assert(FX_BLACKWELL_IDESC == 0x08400490u && FX_BLACKWELL_IDESC64 == 0x0840049000000000ull, "idesc");
_Static_assert(FX_HOPPER_IMM_SCALE_A == -1 && FX_HOPPER_IMM_TRANS_B == 1u, "imms");
_Static_assert(sizeof(FX_HOPPER_WGMMA_IMMS) == sizeof("-1, 1, 0, 1"), "imms string");
_Static_assert(FX_RELATIVE_A_BASE_OFFSET == 1u && FX_PLACED_C_LEN == 512u, "fixture storages");
int main(void) { return (int)(b_descs[0][0][0] & 1u) + mnemonic[0] + imms[0]; }
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

/// The guide's excerpt of `smemdesc header --from examples/host_launch.rs` (its C/C++ header
/// chapter) is real output.
#[test]
fn readme_excerpt_is_real_output() {
    let readme = std::fs::read_to_string(repo("docs/guide/header.md")).unwrap();
    let marker = "$ smemdesc header --from examples/host_launch.rs";
    let at = readme.find(marker).expect("the guide shows header --from");
    let block = readme[at + marker.len()..].split("```").next().unwrap();
    // Run from the repository root, as the guide's reader would.
    let run = smemdesc()
        .current_dir(repo(""))
        .args(["header", "--from", "examples/host_launch.rs"])
        .output()
        .unwrap();
    assert!(run.status.success());
    let out = String::from_utf8(run.stdout).unwrap();
    let mut n = 0;
    for line in block
        .lines()
        .filter(|l| !l.trim().is_empty() && *l != "...")
    {
        assert!(
            out.lines().any(|o| o == line),
            "guide line not in the output: {line}"
        );
        n += 1;
    }
    assert!(n >= 10, "{n}");
}

/// Writes `src` to a temporary `.rs` file and returns `header --from`'s exit code and stderr.
fn from_src(tag: &str, src: &str) -> (i32, String) {
    let dir = tmp_dir(tag);
    let path = dir.join("k.rs");
    std::fs::write(&path, src).unwrap();
    let (code, _, err) = run(&["header", "--from", path.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    (code, err)
}

const TILE: &str = "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]\npub struct T;\n";

#[test]
fn unsupported_and_illegal_input_is_a_located_error() {
    let cases: &[(&str, String, &[&str])] = &[
        ("bool", format!("{TILE}#[smem_storage(arch = sm90)]\nstruct S {{ t: T, x: [bool; 4] }}\n"), &["k.rs:4:22:", "`bool`", "not supported", "Mbarrier"]),
        ("unknown tile", "#[smem_storage(arch = sm90)]\nstruct S { t: Nope }\n".into(), &["k.rs:2:", "member `t`", "`Nope` is not an #[smem_tile] struct"]),
        ("paren tile", "#[smem_storage(arch = sm90)]\nstruct S { t: (Nope) }\n".into(), &["k.rs:2:", "`(Nope)` is not an #[smem_tile] struct"]),
        ("ref", "#[smem_storage(arch = sm90)]\nstruct S { t: &'static u8 }\n".into(), &["k.rs:2:", "not supported"]),
        ("key", "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizle = 128B)]\nstruct T;\n".into(), &["k.rs:1:", "unknown key `swizle`", "accepted keys"]),
        ("dtype", "#[smem_tile(arch = sm90, operand = A, dtype = bf17, tile = (128, 64), major = K)]\nstruct T;\n".into(), &["k.rs:1:47:", "unknown dtype `bf17`", "bf16"]),
        ("missing", "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64))]\nstruct T;\n".into(), &["k.rs:1:1:", "missing required argument(s): `major = K | MN`"]),
        ("core", "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 0)]\nstruct T;\n".into(), &["k.rs:1:91:", "stages = 0: a tile needs at least 1 pipeline stage"]),
        ("budget", format!("{TILE}#[smem_storage(arch = sm90)]\nstruct S {{ t: T, big: [u8; 240000] }}\n"), &["k.rs:4:", "does not fit", "t: 16384 B at 0 (align 1024); big: 240000 B at 16384"]),
        ("const", "#[smem_storage(arch = sm90)]\nstruct S { x: [u8; N] }\n".into(), &["k.rs:2:", "`N` is not a `const` item"]),
        ("overflow", "const N: usize = 1 << 62;\n#[smem_storage(arch = sm90)]\nstruct S { x: [u64; N * 8] }\n".into(), &["k.rs:3:", "overflows"]),
        ("call", "#[smem_storage(arch = sm90)]\nstruct S { x: [u8; f()] }\n".into(), &["k.rs:2:", "not supported in a length"]),
        ("placement", "#[smem_storage(arch = sm90)]\nstruct S { #[smem(placement = absolute)] x: u32 }\n".into(), &["`placement` applies to #[smem_tile] members only"]),
        ("align", "#[smem_storage(arch = sm90)]\nstruct S { #[smem(align = 24)] x: u32 }\n".into(), &["align = 24 is not a power of two"]),
        ("arch", "#[smem_storage(arch = sm89)]\nstruct S { x: u32 }\n".into(), &["k.rs:1:23:", "unknown arch `sm89`; legal: sm90, sm100"]),
        ("twice", format!("#[smem_mma(accum = f32)]\nmod m {{\n{TILE}#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]\npub struct U;\n}}\n"), &["k.rs:5:36:", "operand = A appears twice"]),
        ("n mismatch", "#[smem_mma(accum = f32)]\nmod m {\n#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = m64n256k16)]\npub struct A;\n#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = K)]\npub struct B;\n}\n".into(), &["k.rs:3:", "N = 256", "N = 128"]),
        ("accum", format!("#[smem_mma(accum = f64)]\nmod m {{\n{TILE}}}\n"), &["unknown accum `f64`"]),
        ("k mismatch", "#[smem_mma(accum = f32)]\nmod m {\n#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]\npub struct A;\n#[smem_tile(arch = sm90, operand = B, dtype = e4m3, tile = (128, 64), major = K)]\npub struct B;\n}\n".into(), &["k.rs:5:47:", "but the B tile's K = 32; one instruction has one K"]),
        ("nothing", "fn main() {}\n".into(), &["declares no #[smem_tile]"]),
        ("keyword", format!("mod new {{\n{TILE}}}\n"), &["k.rs:1:5:", "`new` is a C++ keyword"]),
        ("clash", "#[smem_mma(accum = f32)]\nmod m {\n#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]\npub struct MMA_M;\n#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K)]\npub struct B;\n}\n".into(), &["namespace `k::m::MMA_M` has the name of `k::m::MMA_M`"]),
        ("syntax", "struct {\n".into(), &["k.rs:1:", "not a Rust source file"]),
    ];
    for (what, src, wants) in cases {
        let (code, err) = from_src("err", src);
        assert_eq!(code, 2, "{what}: {err}");
        for w in *wants {
            assert!(err.contains(w), "{what}: `{w}` not in: {err}");
        }
    }
    // A missing file, and --from with tile flags.
    let (code, _, err) = run(&["header", "--from", "/nonexistent/k.rs"]);
    assert!(code == 2 && err.contains("cannot read --from"), "{err}");
    let (code, _, err) = run(&["header", "--from", "k.rs", "--arch", "sm90"]);
    assert!(
        code == 2 && err.contains("--from") && err.contains("--arch"),
        "{err}"
    );
    let tile = [
        "header", "--arch", "sm90", "--dtype", "bf16", "--tile", "64x64", "--major", "K",
    ];
    let (code, _, err) = run(&tile);
    assert!(code == 2 && err.contains("needs --name"), "{err}");
}

/// Names: a path through modules resolves; the same tile name in two modules must be qualified;
/// a non-identifier namespace is refused.
#[test]
fn paths_resolve_like_rust() {
    let two = format!("mod x {{\n{TILE}}}\nmod y {{\n{TILE}}}\n");
    let (code, err) = from_src(
        "amb",
        &format!("{two}#[smem_storage(arch = sm90)]\nstruct S {{ t: T }}\n"),
    );
    assert!(
        code == 2 && err.contains("ambiguous") && err.contains("x::T, y::T"),
        "{err}"
    );
    let dir = tmp_dir("paths");
    let path = dir.join("k.rs");
    let src = format!("{two}#[smem_storage(arch = sm90)]\nstruct S {{ t: crate::y::T, u: self::x::T }}\nmod z {{ #[smem_storage(arch = sm90)] struct Q {{ t: super::x::T }} }}\n");
    std::fs::write(&path, src).unwrap();
    let out = header_from(path.to_str().unwrap(), "k");
    assert!(out.contains("#define K_S_U_OFFSET 16384u"), "{out}");
    assert!(out.contains("#define K_Z_Q_T_OFFSET 0u"), "{out}");
    assert!(out.contains("namespace x {") && out.contains("namespace T {"));
    let (code, _, err) = run(&["header", "--from", path.to_str().unwrap(), "--name", "a-b"]);
    assert!(code == 2 && err.contains("--name"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every file of the repository that declares tiles, pairings or storages (the examples, the
/// macro tests of `#[smem_mma]` and `#[smem_storage]`, the fixture) gives a header; all of them
/// compile in one C++17 and one C translation unit.
#[test]
fn every_declaring_file_of_the_repository_compiles() {
    let files = [
        "examples/gemm_tiles.rs",
        "examples/host_launch.rs",
        "examples/sm100_pair_storage.rs",
        "examples/tensor_map.rs",
        "tests/mma_pairing.rs",
        "tests/storage.rs",
        "tests/header_fixture.rs",
    ];
    let dir = tmp_dir("repo");
    let mut src = String::new();
    for (i, f) in files.iter().enumerate() {
        let name = format!("f{i}");
        std::fs::write(dir.join(format!("{name}.h")), header_from(&repo(f), &name)).unwrap();
        src += &format!("#include \"{name}.h\"\n");
    }
    src += "int main(void) { return 0; }\n";
    let warn = ["-fsyntax-only", "-Wall", "-Wextra", "-Werror"];
    if compile(
        "g++",
        &[&["-std=c++17"], &warn[..]].concat(),
        &dir,
        "all.cpp",
        &src,
    )
    .is_none()
    {
        return;
    }
    compile(
        "gcc",
        &[&["-std=c11", "-x", "c"], &warn[..]].concat(),
        &dir,
        "all.c",
        &src,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A member's `#[smem(...)]` is read with the macro's grammar (`smemdesc_grammar::storage`): a
/// key given twice is refused on the second (`tests/ui/fail_storage_smem_attrs.rs` is the
/// macro's case), not taken silently as the last value, and an unknown placement names what
/// each legal one means. (Columns counted by hand: `align` of the second attribute starts at
/// column 39 of line 2, `absolut` at column 31.)
#[test]
fn member_attributes_are_read_as_the_macro_reads_them() {
    let (code, err) = from_src(
        "dup",
        &format!("{TILE}#[smem_storage(arch = sm90)]\nstruct S {{ #[smem(align = 16)] #[smem(align = 32)] x: u32 }}\n"),
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "k.rs:4:39: duplicate #[smem] key `align`: each key may be given once per member"
        ),
        "{err}"
    );
    let (code, err) = from_src(
        "placement",
        &format!("{TILE}#[smem_storage(arch = sm90)]\nstruct S {{ #[smem(placement = absolut)] t: T }}\n"),
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("k.rs:4:31: unknown placement `absolut`; legal: absolute (TMA-written data, 128-B aligned on sm90), relative (pattern restarts at the tile start)"),
        "{err}"
    );
}
