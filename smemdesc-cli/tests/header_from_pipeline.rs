//! `smemdesc header --from` on `tests/ui/pass_pipeline.rs` (three `#[smem_pipeline]`s: no
//! cluster, 2x1 multicasting B, 2x2 multicasting both): the barrier protocol's numbers a CUDA C++
//! kernel initialises and waits with, held to values worked by hand from the rules (C++
//! `static_assert`s), and a mis-stated `expect_tx` refused at its token.

use crate::common::*;

fn repo(rel: &str) -> String {
    format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))
}

const CHECKS: &str = r#"
namespace p = pp::Pipe;
namespace q = pp::Pipe21;
namespace r = pp::Pipe22;
// A 128 x 64 and B 256 x 64 bf16 per stage: 16384 + 32768 B land in every CTA's stage.
static_assert(p::STAGES == 4 && p::STAGE_BYTES == 49152 && p::EXPECT_TX == 49152, "bytes");
// One producer thread arrives with expect_tx; 2 consumer warpgroups, one elected thread each.
static_assert(p::FULL_ARRIVALS == 1 && p::EMPTY_ARRIVALS == 2 && p::CTAS == 1, "1x1 counts");
static_assert(p::RELEASE_MASK_BY_RANK[0] == 1 && p::CLUSTER_SYNC == 0, "1x1 release");
// 2x1, B multicast: each CTA issues A (16384) and half of B (16384); its stage is written by
// both CTAs, so both CTAs' consumers release it.
static_assert(q::CTAS == 2 && q::EXPECT_TX_BY_RANK[0] == 49152 && q::EXPECT_TX_BY_RANK[1] == 49152, "2x1 tx");
static_assert(q::ISSUED_BYTES_BY_RANK[0] == 16384 + 16384, "2x1 issued");
static_assert(q::EMPTY_ARRIVALS == 4 && q::RELEASE_MASK_BY_RANK[0] == 3 && q::RELEASE_MASK_BY_RANK[1] == 3, "2x1 release");
static_assert(q::CLUSTER_SYNC == 1, "2x1 cluster barrier");
// 2x2, both multicast: rank i + 2j issues half of A (8192) and half of B (16384); its stage is
// written by itself, rank (i, 1 - j) through A and (1 - i, j) through B.
static_assert(r::ISSUED_BYTES_BY_RANK[3] == 8192 + 16384 && r::EMPTY_ARRIVALS == 6, "2x2");
static_assert(r::RELEASE_MASK_BY_RANK[0] == 0b0111 && r::RELEASE_MASK_BY_RANK[1] == 0b1011, "2x2 masks 0, 1");
static_assert(r::RELEASE_MASK_BY_RANK[2] == 0b1101 && r::RELEASE_MASK_BY_RANK[3] == 0b1110, "2x2 masks 2, 3");
// The parity formula the summary gives, for iteration 9 of 4 stages: stage 1, fill 2.
constexpr unsigned i = 9;
static_assert(i % p::STAGES == 1 && ((i / p::STAGES) & 1) == 0, "parity");
"#;

#[test]
fn pipeline_header_holds_the_hand_worked_values() {
    let dir = tmp_dir("from-pipe");
    let (code, out, err) = run(&[
        "header",
        "--from",
        &repo("tests/ui/pass_pipeline.rs"),
        "--name",
        "pp",
    ]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(dir.join("pp.h"), &out).unwrap();
    let cpp = format!("#include \"pp.h\"\n{CHECKS}int main() {{ return 0; }}\n");
    compile(
        "g++",
        &["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror"],
        &dir,
        "t.cpp",
        &cpp,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_mis_stated_expect_tx_is_refused_at_its_token() {
    let src = std::fs::read_to_string(repo("tests/ui/pass_pipeline.rs"))
        .unwrap()
        .replace("expect_tx = 49152", "expect_tx = 24576");
    let dir = tmp_dir("from-pipe-bad");
    let path = dir.join("k.rs");
    std::fs::write(&path, &src).unwrap();
    let (code, _, err) = run(&["header", "--from", path.to_str().unwrap(), "--name", "k"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_ne!(code, 0);
    let line = src
        .lines()
        .position(|l| l.contains("expect_tx = 24576"))
        .unwrap()
        + 1;
    let col = src.lines().nth(line - 1).unwrap().find("24576").unwrap() + 1;
    assert!(err.contains(&format!("k.rs:{line}:{col}:")), "{err}");
    assert!(err.contains("24576 B is what this CTA issues"), "{err}");
}

/// `header --from` on `src` (written to a file): status and stderr, and the `line:col` of the
/// first occurrence of `token` in `src`.
fn header_of(tag: &str, src: &str, token: &str) -> (i32, String, String) {
    let dir = tmp_dir(tag);
    let path = dir.join("k.rs");
    std::fs::write(&path, src).unwrap();
    let (code, _, err) = run(&["header", "--from", path.to_str().unwrap(), "--name", "k"]);
    let _ = std::fs::remove_dir_all(&dir);
    let line = src.lines().position(|l| l.contains(token)).unwrap();
    let col = src.lines().nth(line).unwrap().find(token).unwrap() + 1;
    (code, err, format!("k.rs:{}:{col}:", line + 1))
}

const SM100_TILE: &str = "#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4, cta_group = 2)]\npub struct TileA;\n";

#[test]
fn a_tile_of_another_cta_group_is_refused_at_its_type() {
    // The tile is a cta_group::2 pair's half; the pipeline is left at cta_group::1.
    let src = format!("{SM100_TILE}#[smem_pipeline(storage = S, loads = (a: TileA), consumers = 1)]\npub struct Pipe;\n");
    let (code, err, at) = header_of("from-pipe-cg", &src, "TileA)");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&at), "{err}");
    assert!(
        err.contains("tile declared for cta_group::2 but the pipeline is cta_group = 1"),
        "{err}"
    );
}

#[test]
fn counts_past_the_cta_or_mbarrier_init_are_refused_not_wrapped() {
    // 2^31 groups x 2 arrivals wrapped to an init count of 0 (a panic in a debug build); a CTA
    // has at most 1024 threads (9 x 128 = 1152; 2048 in one group); mbarrier.init's count is at
    // most 2^20 - 1.
    let tile = SM100_TILE.replace(", cta_group = 2", "");
    for (keys, token, says) in [
        (
            "consumers = 2147483648, consumer_arrivals = 2",
            "2147483648",
            "mbarrier.init: 1 ..= 2^20 - 1",
        ),
        (
            "consumers = 1048576, consumer_threads = 1",
            "1048576",
            "mbarrier.init: 1 ..= 2^20 - 1",
        ),
        ("consumers = 9", "9)", "more than the 1024 threads of a CTA"),
        (
            "consumers = 1, consumer_threads = 2048",
            "2048",
            "legal: consumer_threads <= 1024",
        ),
    ] {
        let src = format!(
            "{tile}#[smem_pipeline(storage = S, loads = (a: TileA), {keys})]\npub struct Pipe;\n"
        );
        let (code, err, at) = header_of("from-pipe-counts", &src, token);
        assert_eq!(code, 2, "{keys}: {err}");
        assert!(err.contains(&at) && err.contains(says), "{keys}: {err}");
    }
}

#[test]
fn a_multicast_the_tile_cannot_split_is_refused_at_its_name() {
    // An MN-major B stacked mn_first: each TMA box is one 8-row atom deep along K, so two CTAs
    // cannot share it in whole atoms; the same tile stacked k_first can (the macro agrees:
    // tests/ui/fail_pipe_multicast_mn_major.rs).
    let decl = |order: &str| {
        format!(
            "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]\npub struct TileA;\n\
             #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = MN, order = {order}, stages = 4)]\npub struct TileB;\n\
             #[smem_pipeline(storage = S, loads = (a: TileA, b: TileB), multicast = (b), cluster = (2, 1), consumers = 2)]\npub struct Pipe;\n"
        )
    };
    let (code, err, at) = header_of("from-pipe-mc", &decl("mn_first"), "b), cluster");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&at), "{err}");
    assert!(err.contains("B is multicast to 2 CTAs"), "{err}");
    let (code, err, _) = header_of("from-pipe-mc-ok", &decl("k_first"), "b), cluster");
    assert_eq!(code, 0, "{err}");
}
