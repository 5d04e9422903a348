//! `smemdesc idesc --json` against every row of the CuTe idesc golden files (one command line per
//! row, with exactly the documented flags, the rows spread over the cores), and
//! `smemdesc decode --idesc`.

use crate::common::{for_each_parallel, read_tsv, run};
use std::collections::HashMap;
use std::time::Instant;

fn idesc_json(args: &[String]) -> serde_json::Value {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run(&argv);
    assert_eq!(code, 0, "smemdesc {argv:?} failed: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{argv:?}: bad JSON ({e}): {out}"))
}

fn base_args(r: &HashMap<String, String>, c: &str) -> Vec<String> {
    let mut v: Vec<String> = ["idesc", "--json"].iter().map(|s| s.to_string()).collect();
    for (flag, col) in [
        ("--kind", "kind"),
        ("--a", "a_dtype"),
        ("--b", "b_dtype"),
        ("--m", "M"),
        ("--n", "N"),
        ("--a-major", "a_major"),
        ("--b-major", "b_major"),
    ] {
        v.push(flag.to_string());
        v.push(r[col].clone());
    }
    v.push("--c".to_string());
    v.push(c.to_string());
    // M = 256 exists only for the CTA pair; say so explicitly (the default would agree).
    v.push("--cta-group".to_string());
    v.push(if r["M"] == "256" { "2" } else { "1" }.to_string());
    v
}

fn check(r: &HashMap<String, String>, j: &serde_json::Value) {
    let want = r["idesc"].to_lowercase();
    assert_eq!(j["idesc"], want.as_str(), "row {}", r["id"]);
    let raw = u64::from_str_radix(want.trim_start_matches("0x"), 16).unwrap();
    assert_eq!(j["idesc64"], format!("0x{:016x}", raw << 32).as_str());
    assert_eq!(j["m"].as_u64().unwrap().to_string(), r["M"]);
    assert_eq!(j["n"].as_u64().unwrap().to_string(), r["N"]);
    assert_eq!(j["kind"], r["kind"].as_str());
}

#[test]
fn every_dense_golden_row_through_the_cli() {
    let rows = read_tsv("idesc.tsv");
    assert_eq!(rows.len(), 1979);
    let t = Instant::now();
    for_each_parallel(&rows, |r| {
        let mut args = base_args(r, &r["c_dtype"]);
        for (flag, col) in [
            ("--negate-a", "a_neg"),
            ("--negate-b", "b_neg"),
            ("--saturate", "saturate"),
        ] {
            if r[col] == "1" {
                args.push(flag.to_string());
            }
        }
        let j = idesc_json(&args);
        check(r, &j);
        assert_eq!(j["c"], r["c_dtype"].as_str());
        assert_eq!(j["negate_a"], r["a_neg"] == "1");
        assert_eq!(j["saturate"], r["saturate"] == "1");
    });
    println!("{} command lines in {:?}", rows.len(), t.elapsed());
}

#[test]
fn every_block_scaled_golden_row_through_the_cli() {
    let rows = read_tsv("idesc_block_scaled.tsv");
    assert_eq!(rows.len(), 581);
    let t = Instant::now();
    for_each_parallel(&rows, |r| {
        let mut args = base_args(r, "f32");
        args.push("--sf".to_string());
        args.push(r["sf_dtype"].clone());
        let j = idesc_json(&args);
        check(r, &j);
        assert_eq!(j["sf"], r["sf_dtype"].as_str());
    });
    println!("{} command lines in {:?}", rows.len(), t.elapsed());
}

#[test]
fn decode_idesc_explains_one() {
    // idesc.tsv row 1 (tf32, M 64, N 8): only the tf32 table reads it legally.
    let (code, out, err) = run(&["decode", "--idesc", "0x04020910", "--json"]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (j["kind"].as_str(), j["m"].as_u64(), j["n"].as_u64()),
        (Some("tf32"), Some(64), Some(8))
    );
    let n = j["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "n")
        .unwrap();
    assert_eq!(
        (n["bits"].as_str(), n["raw"].as_u64()),
        (Some("17-22"), Some(1))
    );
    // A block-scaled row read with --kind.
    let (code, out, _) = run(&["decode", "--idesc", "0x08820000", "--kind", "mxf8f6f4"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("kind::mxf8f6f4 D f32 A e4m3 (K-major) B e4m3 (K-major) M 128 N 8 K 32"),
        "{out}"
    );
    assert!(out.contains("scale factors ue8m0"), "{out}");
    // Read as a dense kind, bit 23 is reserved.
    let (code, _, err) = run(&["decode", "--idesc", "0x08820000", "--kind", "f16"]);
    assert_eq!(code, 2);
    assert!(err.contains("reserved bits 0x00800000"), "{err}");
    // PTX: the sparsity selector must be 0 for kind::i8 (0x081004a7: selector 3, sparse, s32 =
    // s8 x s8, M 128, N 64); with selector 0 the same descriptor is legal.
    let (code, out, err) = run(&["decode", "--idesc", "0x081004a7", "--kind", "i8"]);
    // Printed, and exit status 1: not legal under the kind asked for.
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("problems:") && out.contains("sparsity selector = 3"),
        "{out}"
    );
    assert!(!out.contains("legal: yes"), "{out}");
    let (code, out, err) = run(&["decode", "--idesc", "0x081004a4", "--kind", "i8"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("legal: yes"), "{out}");
}

/// `smemdesc idesc --kind KIND --a A --b B --c C --m M --n N --a-major A_MAJOR --b-major K`, then
/// `more`, must be refused (exit status 2): its stderr.
fn refused(
    kind: &str,
    [a, b, c]: [&str; 3],
    m: &str,
    n: &str,
    a_major: &str,
    more: &[&str],
) -> String {
    let mut args = vec![
        "idesc",
        "--kind",
        kind,
        "--a",
        a,
        "--b",
        b,
        "--c",
        c,
        "--m",
        m,
        "--n",
        n,
        "--a-major",
        a_major,
        "--b-major",
        "K",
    ];
    args.extend_from_slice(more);
    let (code, _, err) = run(&args);
    assert_eq!(code, 2, "smemdesc {args:?}: {err}");
    err
}

#[test]
fn illegal_descriptors_name_the_flag() {
    let err = refused("i8", ["s8", "u8", "s32"], "128", "64", "K", &["--negate-b"]);
    assert!(
        err.contains("invalid --negate-a/--negate-b") && err.contains("kind::i8 has no negate"),
        "{err}"
    );
    let err = refused(
        "f16",
        ["f16", "f16", "f32"],
        "128",
        "64",
        "K",
        &["--saturate"],
    );
    assert!(err.contains("invalid --saturate"), "{err}");
    let err = refused("f8f6f4", ["e3m2", "e4m3", "f32"], "128", "64", "MN", &[]);
    assert!(err.contains("invalid --a-major"), "{err}");
    let err = refused(
        "f16",
        ["bf16", "bf16", "f32"],
        "256",
        "24",
        "K",
        &["--cta-group", "2"],
    );
    assert!(
        err.contains("invalid --n") && err.contains("16..=256 in steps of 16"),
        "{err}"
    );
    let err = refused(
        "mxf4",
        ["e2m1", "e2m1", "f32"],
        "128",
        "64",
        "K",
        &["--sf", "ue4m3"],
    );
    assert!(
        err.contains("invalid --sf") && err.contains("legal: ue8m0"),
        "{err}"
    );
}

#[test]
fn decode_idesc_reads_golden_rows_back() {
    // Every 5th row of both files, read with its kind: the fields CuTe encoded come back.
    let checked = std::sync::atomic::AtomicUsize::new(0);
    for (file, block_scaled) in [("idesc.tsv", false), ("idesc_block_scaled.tsv", true)] {
        let rows: Vec<_> = read_tsv(file).into_iter().step_by(5).collect();
        for_each_parallel(&rows, |r| {
            let (code, out, err) = run(&[
                "decode",
                "--idesc",
                &r["idesc"],
                "--kind",
                &r["kind"],
                "--json",
            ]);
            assert_eq!(code, 0, "row {}: {err}", r["id"]);
            let j: serde_json::Value = serde_json::from_str(&out).unwrap();
            for (key, col) in [
                ("a", "a_dtype"),
                ("b", "b_dtype"),
                ("a_major", "a_major"),
                ("b_major", "b_major"),
            ] {
                assert_eq!(j[key], r[col].as_str(), "row {} {key}", r["id"]);
            }
            assert_eq!(
                j["m"].as_u64().unwrap().to_string(),
                r["M"],
                "row {}",
                r["id"]
            );
            assert_eq!(
                j["n"].as_u64().unwrap().to_string(),
                r["N"],
                "row {}",
                r["id"]
            );
            assert_eq!(
                j["problems"].as_array().map(Vec::len),
                Some(0),
                "row {}",
                r["id"]
            );
            if block_scaled {
                assert_eq!(j["sf"], r["sf_dtype"].as_str(), "row {}", r["id"]);
            } else {
                assert_eq!(j["c"], r["c_dtype"].as_str(), "row {}", r["id"]);
                assert_eq!(j["negate_b"], r["b_neg"] == "1", "row {}", r["id"]);
                assert_eq!(j["saturate"], r["saturate"] == "1", "row {}", r["id"]);
            }
            checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
    }
    assert_eq!(checked.into_inner(), 396 + 117);
}
