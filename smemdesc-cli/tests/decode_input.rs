//! `decode` never misreads its input silently (issue 19): a bare 16-digit value is not taken as
//! decimal, a value read by inference says how it was read, a 32-bit instruction descriptor or the
//! other architecture's descriptor is named as such, and `--idesc 0` is not called legal.
//! Expected numbers are computed independently (Python's `int(s, 16)` / `hex(n)`) or come from
//! the golden vectors (CuTe's descriptors, the idesc table).

use crate::common::*;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The input: 16 decimal digits, which is also a hex descriptor. Before: read as decimal
/// 4000004000010000 = 0x000e35fb81854f10 and decoded with exit 0.
#[test]
fn bare_16_digits_are_refused_naming_both_readings() {
    let (code, out, err) = run(&["decode", "4000004000010000", "--arch", "sm90"]);
    assert_eq!(code, 2, "{out}");
    for text in [
        "ambiguous",
        "0x4000004000010000",
        "0x000e35fb81854f10",
        "--decimal",
    ] {
        assert!(err.contains(text), "{err} lacks {text}");
    }
    // Short bare digits as well: `10` is 16 or 10.
    let (code, _, err) = run(&["decode", "10", "--arch", "sm90"]);
    assert_eq!(code, 2);
    assert!(err.contains("0x0000000000000010") && err.contains("0x000000000000000a"));
    // With 0x the same digits decode as before.
    let v = json(&["decode", "0x4000004000010000", "--arch", "sm90", "--json"]);
    assert_eq!(v["raw"], "0x4000004000010000");
    assert!(!strings(&v["notes"]).iter().any(|n| n.contains("read `")));
}

/// Bare hex with a letter is hex, said in the notes; the report is the `0x` one otherwise.
#[test]
fn bare_hex_with_letters_is_read_as_hex_and_said() {
    let bare = json(&["decode", "4000004000010a40", "--arch", "sm90", "--json"]);
    let prefixed = json(&["decode", "0x4000004000010a40", "--arch", "sm90", "--json"]);
    assert_eq!(bare["raw"], "0x4000004000010a40");
    let notes = strings(&bare["notes"]);
    assert!(notes[0].contains("as hex 0x4000004000010a40"), "{notes:?}");
    assert_eq!(notes[1..], strings(&prefixed["notes"])[..]);
    assert_eq!(bare["fields"], prefixed["fields"]);
    assert_eq!(bare["warnings"], prefixed["warnings"]);
}

/// Decimal is read when hex cannot be meant (more than 16 digits) or with --decimal, and said
/// when inferred. 4611686293305360384 = 0x4000004000010000.
#[test]
fn decimal_when_unambiguous_or_asked() {
    let v = json(&["decode", "4611686293305360384", "--arch", "sm90", "--json"]);
    assert_eq!(v["raw"], "0x4000004000010000");
    assert!(strings(&v["notes"])[0].contains("as decimal"));
    let v = json(&[
        "decode",
        "4000004000010000",
        "--decimal",
        "--arch",
        "sm90",
        "--json",
    ]);
    assert_eq!(v["raw"], "0x000e35fb81854f10");
    // --decimal refuses hex letters rather than guessing.
    let (code, _, err) = run(&["decode", "10a40", "--decimal", "--arch", "sm90"]);
    assert_eq!(code, 2);
    assert!(err.contains("malformed number"), "{err}");
}

/// A 32-bit value given to the SMEM decoder: golden idesc row 1 (tf32, M 64, N 8) = 0x04020910.
#[test]
fn instruction_descriptor_given_as_smem_descriptor_is_named() {
    for arch in ["sm90", "sm100"] {
        let v = json(&["decode", "0x04020910", "--arch", arch, "--json"]);
        let w = strings(&v["warnings"]);
        assert!(
            w[0].contains("instruction descriptor")
                && w[0].contains("kind::tf32")
                && w[0].contains("decode --idesc 0x04020910"),
            "{arch}: {w:?}"
        );
    }
    // Its 64-bit run-time form (idesc << 32, as CUTLASS passes it) is pointed out as well.
    let v = json(&["decode", "0x0402091000000000", "--arch", "sm100", "--json"]);
    assert!(
        strings(&v["notes"])
            .iter()
            .any(|n| n.contains("run-time form") && n.contains("--idesc 0x04020910")),
        "{v}"
    );
    let (code, _, err) = run(&["decode", "--idesc", "0x0402091000000000"]);
    assert_eq!(code, 2);
    assert!(err.contains("--idesc 0x04020910"), "{err}");
}

/// Every golden descriptor of one architecture, decoded as the other, is named as its own
/// architecture's; decoded as its own, it is not.
#[test]
fn other_architecture_descriptors_are_named() {
    let rows = read_tsv("descriptors.tsv");
    for (arch, other) in [("sm90", "sm100"), ("sm100", "sm90")] {
        let descs: Vec<&str> = rows
            .iter()
            .filter(|r| r["arch"] == arch)
            .map(|r| r["desc"].as_str())
            .collect();
        assert!(descs.len() > 1000, "{arch}: {} rows", descs.len());
        for (as_arch, expect) in [(other, true), (arch, false)] {
            let mut argv = vec!["decode", "--json", "--arch", as_arch];
            argv.extend(&descs);
            let v = json(&argv);
            for (r, d) in v.as_array().unwrap().iter().zip(&descs) {
                let w = strings(&r["warnings"]);
                let named = w.iter().any(|x| {
                    x.contains(&format!("looks like an {arch} descriptor"))
                        && x.contains(&format!("--arch {arch}"))
                });
                assert_eq!(named, expect, "{arch} {d} read as {as_arch}: {w:?}");
            }
        }
    }
}

/// `decode --idesc 0`: every kind's reading has problems, so it is not "a legal descriptor of 4
/// kinds" (before: that sentence, above four readings that each listed a problem).
#[test]
fn idesc_with_no_legal_reading_is_not_called_legal() {
    let (code, out, err) = run(&["decode", "--idesc", "0"]);
    // Printed, and exit status 1: not a legal instruction descriptor.
    assert_eq!(code, 1, "{err}");
    assert!(!out.contains("reads as a legal descriptor"), "{out}");
    assert!(out.contains("not a legal descriptor of any kind"), "{out}");
    assert_eq!(
        out.matches("problems:").count(),
        out.matches("tcgen05 instruction descriptor 0x").count()
    );
    // Legal under two kinds: still said (golden idesc.tsv rows 227, kind f16, and 842, kind
    // f8f6f4, are both 0x040c0000).
    let (code, out, _) = run(&["decode", "--idesc", "0x040c0000"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("0x040c0000 reads as a legal descriptor of 2 kinds"),
        "{out}"
    );
    // A bare idesc is subject to the same rules: 8 digits are ambiguous, 9 are decimal.
    let (code, _, err) = run(&["decode", "--idesc", "04020910"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("ambiguous") && err.contains("0x04020910"),
        "{err}"
    );
    let (code, out, err) = run(&["decode", "--idesc", "067242256"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("input: read `067242256` as decimal"),
        "{out}"
    );
    assert!(out.contains("0x04020910"), "{out}");
}
