//! `smemdesc draw`: the SVG parses, has one outlined rectangle per MMA subtile and per TMA box, and
//! the committed worked-example picture is current and shown in the README.

use crate::common::*;
use serde_json::Value;
use std::path::PathBuf;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (MMA subtiles, TMA boxes) that `tile --json` reports for `args`.
fn expected_counts(args: &[&str]) -> (usize, usize) {
    let mut argv = vec!["tile", "--json"];
    argv.extend_from_slice(args);
    let (code, out, err) = run(&argv);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let mmas = v["mmas"][0].as_u64().unwrap() * v["mmas"][1].as_u64().unwrap();
    (mmas as usize, v["tma"]["boxes"].as_u64().unwrap() as usize)
}

/// (MMA outlines, TMA outlines, chunk cells) in an SVG document; panics if it does not parse.
fn count_rects(svg: &str) -> (usize, usize, usize) {
    let doc = roxmltree::Document::parse(svg).expect("SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let count = |class: &str| {
        doc.descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("class") == Some(class))
            .count()
    };
    (count("mma"), count("tma"), count("chunk"))
}

fn draw_svg(args: &[&str], name: &str) -> String {
    let path =
        std::env::temp_dir().join(format!("smemdesc-test-{}-{name}.svg", std::process::id()));
    let p = path.to_str().unwrap();
    let mut argv = vec!["draw"];
    argv.extend_from_slice(args);
    argv.extend_from_slice(&["--svg", p]);
    let (code, _, err) = run(&argv);
    assert_eq!(code, 0, "{argv:?}: {err}");
    let svg = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    svg
}

#[test]
fn svg_outlines_every_mma_subtile_and_tma_box() {
    let cases: &[(&str, &[&str])] = &[
        ("worked", WORKED_EXAMPLE),
        (
            "sw32_kfirst",
            &[
                "--arch",
                "sm90",
                "--dtype",
                "e4m3",
                "--tile",
                "64x64",
                "--major",
                "K",
                "--swizzle",
                "32B",
                "--order",
                "k_first",
            ],
        ),
        (
            "mn_major",
            &[
                "--arch",
                "sm100",
                "--operand",
                "B",
                "--dtype",
                "bf16",
                "--tile",
                "128x64",
                "--major",
                "MN",
                "--swizzle",
                "64B",
                "--mma-mn",
                "64",
            ],
        ),
        (
            "base32b",
            &[
                "--arch",
                "sm100",
                "--dtype",
                "tf32",
                "--tile",
                "128x32",
                "--major",
                "MN",
                "--swizzle",
                "128B_base32B",
            ],
        ),
        (
            "none_box",
            &[
                "--arch",
                "sm90",
                "--dtype",
                "bf16",
                "--tile",
                "128x64",
                "--major",
                "K",
                "--swizzle",
                "none",
                "--tma-box",
                "64x8",
                "--base",
                "0x10",
            ],
        ),
    ];
    for (name, args) in cases {
        let (mmas, boxes) = expected_counts(args);
        let svg = draw_svg(args, name);
        let (m, t, cells) = count_rects(&svg);
        assert_eq!(m, mmas, "{name}: MMA outlines");
        assert_eq!(t, boxes, "{name}: TMA outlines");
        assert!(cells > 0, "{name}: no chunk cells");
        println!("{name}: {m} MMA outlines, {t} TMA boxes, {cells} chunks");
    }
}

#[test]
fn worked_example_svg_is_committed_current_and_in_readme() {
    let path = repo_root().join("docs").join("worked_example.svg");
    let committed = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} must be committed: {e}", path.display()));
    let (m, t, cells) = count_rects(&committed);
    // Spec §6: 128x128 bf16, M = 64 -> 2 x 8 subtiles; TMA: 2 boxes of 128 rows x 64 elements.
    assert_eq!((m, t), (16, 2));
    assert_eq!(cells, 128 * 16, "one cell per 16-byte chunk");
    let fresh = draw_svg(WORKED_EXAMPLE, "fresh");
    assert_eq!(
        committed, fresh,
        "docs/worked_example.svg is stale: regenerate with `smemdesc draw <worked example> --svg docs/worked_example.svg`"
    );
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    assert!(
        readme.contains("](docs/worked_example.svg)"),
        "README shows the SVG"
    );
    let cli = std::fs::read_to_string(repo_root().join("docs/guide/cli.md")).unwrap();
    assert!(cli.contains("# Command line") && cli.contains("--svg docs/worked_example.svg"));
}

#[test]
fn ascii_rendering_shows_bank_groups_of_the_first_atoms() {
    let mut argv = vec!["draw"];
    argv.extend_from_slice(WORKED_EXAMPLE);
    let (code, out, err) = run(&argv);
    assert_eq!(code, 0, "{err}");
    // Row 1 of a 128B atom: chunk c sits in bank group c ^ 1.
    let row1 = out
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .expect("row 1");
    assert!(row1.contains("1a  0a  3a  2a  5a  4a  7a  6a"), "{row1}");
}
