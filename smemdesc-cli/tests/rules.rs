//! `smemdesc rules`: every rule of the core's table, the `--arch`/`--topic` filters, `--json`,
//! `--markdown` (the guide's correctness chapter holds it), and errors that name their rule.

use crate::common::*;
use smemdesc_core::rules::RULES;

fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: stderr {err}");
    out
}

fn ids(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.starts_with(' ') && l.contains("  ["))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect()
}

#[test]
fn lists_every_rule_with_its_source() {
    let out = ok(&["rules"]);
    assert_eq!(ids(&out).len(), RULES.len());
    assert!(out.ends_with(&format!("{} rules\n", RULES.len())));
    // A rule from the PTX ISA, one from the driver's documentation, one measured, one of the model.
    for (id, source) in [
        (
            "desc.field-14bit",
            "source: PTX ISA 8.0, \"wgmma: Matrix Descriptor Format\"",
        ),
        (
            "tma.box-dim",
            "source: CUDA driver API, cuTensorMapEncodeTiled",
        ),
        (
            "tma.box-bytes",
            "source: measured 2026-11-23, shared/notes/tensor-maps.md",
        ),
        (
            "tile.stages",
            "source: smemdesc model, smemdesc-core/src/tile/decl.rs",
        ),
    ] {
        let at = out
            .find(&format!("{id}  ["))
            .unwrap_or_else(|| panic!("{id} missing"));
        let entry: Vec<&str> = out[at..].lines().take(3).collect();
        assert_eq!(entry[2].trim(), source, "{id}");
    }
}

#[test]
fn arch_filter_keeps_the_rules_of_that_arch() {
    let sm90 = ok(&["rules", "--arch", "sm90"]);
    let sm100 = ok(&["rules", "--arch", "sm_100a"]);
    // Tensor Memory exists on sm100 only (PTX ISA, tcgen05); wgmma's accumulator types on sm90.
    assert!(!ids(&sm90).contains(&"tmem.columns-512"));
    assert!(ids(&sm100).contains(&"tmem.columns-512"));
    assert!(ids(&sm90).contains(&"mma.accum-sm90"));
    assert!(!ids(&sm100).contains(&"mma.accum-sm90"));
    // boxDim[i] <= 256 holds everywhere.
    assert!(ids(&sm90).contains(&"tma.box-dim") && ids(&sm100).contains(&"tma.box-dim"));
    assert!(ids(&sm90).len() < RULES.len() && ids(&sm100).len() < RULES.len());
}

#[test]
fn topic_filter_and_bad_values() {
    let tma = ok(&["rules", "--topic", "tma"]);
    assert!(!ids(&tma).is_empty());
    assert!(ids(&tma).iter().all(|id| id.starts_with("tma.")), "{tma}");
    let both = ok(&["rules", "--topic", "TMEM", "--arch", "sm90"]);
    assert_eq!(ids(&both), Vec::<&str>::new());
    assert!(both.ends_with("0 rules\n"));
    let (code, _, err) = run(&["rules", "--topic", "gemm"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown topic `gemm`; legal: descriptor, mma"),
        "{err}"
    );
}

#[test]
fn json_has_every_field() {
    let out = ok(&["rules", "--json", "--topic", "conv"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let list = v.as_array().expect("an array");
    assert!(!list.is_empty());
    for r in list {
        assert_eq!(r["topic"], "conv");
        assert!(r["id"].as_str().unwrap().starts_with("conv."));
        assert!(!r["text"].as_str().unwrap().is_empty());
        assert!(!r["arches"].as_array().unwrap().is_empty());
        assert!(["ptx", "driver", "model"].contains(&r["source"]["kind"].as_str().unwrap()));
    }
    let rank = list
        .iter()
        .find(|r| r["id"] == "conv.rank")
        .expect("conv.rank");
    assert_eq!(rank["source"]["function"], "cuTensorMapEncodeIm2col");
    assert_eq!(rank["arches"], serde_json::json!(["sm90", "sm100"]));
}

#[test]
fn an_error_names_its_rule() {
    let (code, _, err) = run(&[
        "tile", "--arch", "sm90", "--dtype", "bf16", "--major", "K", "--tile", "128x64",
        "--stages", "0",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("[rule tile.stages; smemdesc model, smemdesc-core/src/tile/decl.rs]"),
        "{err}"
    );
}

/// The guide's rules section is `smemdesc rules --markdown`, between its markers. To update it,
/// run this test with `SMEMDESC_UPDATE_RULES=1` (it writes the section, then checks it).
#[test]
fn the_guide_holds_the_generated_table() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/guide/correctness.md");
    let guide = std::fs::read_to_string(&path).expect("docs/guide/correctness.md");
    let begin = guide
        .find(smemdesc_cli::rules::MARKDOWN_BEGIN)
        .expect("begin marker")
        + smemdesc_cli::rules::MARKDOWN_BEGIN.len()
        + 1;
    let end = guide
        .find(smemdesc_cli::rules::MARKDOWN_END)
        .expect("end marker");
    let want = ok(&["rules", "--markdown"]);
    if std::env::var_os("SMEMDESC_UPDATE_RULES").is_some() && guide[begin..end] != want {
        let updated = format!("{}{want}{}", &guide[..begin], &guide[end..]);
        std::fs::write(&path, updated).expect("write docs/guide/correctness.md");
        return the_guide_holds_the_generated_table();
    }
    assert!(
        guide[begin..end] == want,
        "docs/guide/correctness.md's rules section is not `smemdesc rules --markdown`: regenerate it"
    );
    assert_eq!(want.matches("\n| `").count(), RULES.len());
}
