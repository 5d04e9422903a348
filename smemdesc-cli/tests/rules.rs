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

/// `--arch` for every arch smemdesc knows: a rule its sources say applies, and one they say does
/// not (CUTLASS 4.7.0 cute/arch/config.hpp: kind::i8 on SM100A/SM110A, not SM100F/SM103; CCCL
/// tcgen05_mma.h: `.scale_vec::NX` not on sm_100f, `.block16` on every tcgen05 target; CCCL
/// arch_traits.h: 99 KiB on sm_120/sm_121; PTX ISA: wgmma sm_90a only; sm107: no public limits).
#[test]
fn arch_filter_for_every_arch() {
    for (arch, yes, no) in [
        ("sm90", "smem.per-cta-227k", "mma.kind-i8-arch"),
        ("sm100", "mma.kind-i8-arch", "smem.per-cta-99k"),
        ("sm100f", "scale.block-n-spelling", "arch.no-public-limits"),
        ("sm103", "scale.scale-vec-spelling", "mma.accum-sm90"),
        (
            "sm_103a",
            "tmem.columns-512",
            "cluster.non-portable-16-sm90",
        ),
        ("sm107", "arch.no-public-limits", "smem.per-cta-227k"),
        (
            "sm110",
            "cluster.non-portable-unsourced",
            "cluster.non-portable-16-sm90",
        ),
        ("sm120", "smem.per-cta-99k", "tmem.columns-512"),
        ("sm121", "arch.no-smem-descriptor", "desc.canonical"),
    ] {
        let out = ok(&["rules", "--arch", arch]);
        assert!(ids(&out).contains(&yes), "{arch} lacks {yes}");
        assert!(!ids(&out).contains(&no), "{arch} lists {no}");
    }
}

/// The PTX ISA section numbers looked up (PTX ISA 9.2: 9.7.16.4.1 "Shared Memory Descriptor",
/// 9.7.16.4.2 "Instruction Descriptor", 9.7.16.2.3 "Data Movement Shape") are listed with their
/// rules' sources, in text and JSON; an error's suffix keeps the section's name only.
#[test]
fn ptx_section_numbers() {
    let text = ok(&["rules", "--topic", "mma"]);
    let at = text.find("idesc.saturate  [").expect("idesc.saturate");
    let entry: Vec<&str> = text[at..].lines().take(3).collect();
    assert_eq!(
        entry[2].trim(),
        "source: PTX ISA 8.6, \"tcgen05: Instruction descriptor\" (section 9.7.16.4.2 of PTX ISA 9.2)"
    );
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["rules", "--json", "--topic", "tmem"])).unwrap();
    let ld = v
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["source"]["section"] == "tcgen05.ld: Data movement shape")
        .expect("a tcgen05.ld shape rule");
    assert_eq!(ld["source"]["number"], "9.7.16.2.3");
    assert_eq!(ld["source"]["numbered_in"], "9.2");
    let desc = ok(&["rules", "--arch", "sm100", "--topic", "descriptor"]);
    assert!(desc.contains("Shared Memory Descriptor\" (section 9.7.16.4.1 of PTX ISA 9.2)"));
}

#[test]
fn topic_filter_and_bad_values() {
    let tma = ok(&["rules", "--topic", "tma"]);
    assert!(!ids(&tma).is_empty());
    assert!(ids(&tma).iter().all(|id| id.starts_with("tma.")), "{tma}");
    let both = ok(&["rules", "--topic", "TMEM", "--arch", "sm90"]);
    // sm90 has no Tensor Memory: only the rule that refuses a plan there applies.
    assert_eq!(ids(&both), vec!["tmem.sm100-only"]);
    assert!(both.ends_with("1 rules\n"));
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
    // Every arch with TMA and public limits (sm107 is refused).
    assert_eq!(
        rank["arches"],
        serde_json::json!(["sm90", "sm100", "sm100f", "sm103", "sm110", "sm120", "sm121"])
    );
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
