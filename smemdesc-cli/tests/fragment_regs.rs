//! `smemdesc fragment` for the wgmma register operands: `--operand A --regs` (A from registers)
//! against the PTX figures' per-element formulas written here, the `--regs` table, `--chain`
//! (accumulator → A registers) against the composition of the two figures, and the refusals.

use crate::common::run;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "smemdesc {args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: bad JSON ({e}): {out}"))
}

fn rows(v: &serde_json::Value) -> Vec<Vec<u64>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|e| {
            e.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect()
        })
        .collect()
}

/// PTX "WGMMA .m64nNk8/k16/k32 register fragment layout for matrix A", per element `a_i` with
/// `p` elements per register: rows `+8` for the odd registers, K `+4p` for registers 2 and 3.
fn a_figure(p: u64, thread: u64, i: u64) -> (u64, u64) {
    let (w, g, t) = (thread / 32, (thread % 32) / 4, thread % 4);
    let reg = i / p;
    let row = 16 * w + g + if reg == 1 || reg == 3 { 8 } else { 0 };
    let col = p * t + i % p + if reg >= 2 { 4 * p } else { 0 };
    (row, col)
}

/// PTX "WGMMA .m64nNk16 register fragment layout for accumulator matrix D", element `d_i`.
fn d_figure(thread: u64, i: u64) -> (u64, u64) {
    let (w, g, t) = (thread / 32, (thread % 32) / 4, thread % 4);
    let row = 16 * w + g + if i % 4 >= 2 { 8 } else { 0 };
    (row, 8 * (i / 4) + 2 * t + i % 2)
}

#[test]
fn a_from_registers_is_the_figure_for_every_k() {
    for (mma, dtype, p) in [
        ("m64n128k16", None, 2),
        ("m64n128k16", Some("f16"), 2),
        ("m64n256k16", Some("bf16"), 2),
        ("m64n64k8", None, 1),
        ("m64n64k8", Some("tf32"), 1),
        ("m64n96k32", Some("e4m3"), 4),
        ("m64n96k32", Some("e5m2"), 4),
        ("m64n96k32", Some("s8"), 4),
        ("m64n96k32", Some("u8"), 4),
        ("m64n32k32", None, 4),
    ] {
        let mut args = vec!["fragment", "--arch", "sm90", "--mma", mma];
        if let Some(t) = dtype {
            args.extend(["--dtype", t]);
        }
        args.extend(["--operand", "A", "--regs", "--json"]);
        let v = json(&args);
        assert_eq!(v["per_reg"], p);
        assert_eq!(
            (v["rows"].as_u64(), v["cols"].as_u64()),
            (Some(64), Some(8 * p))
        );
        let m = rows(&v["map"]);
        assert_eq!(m.len() as u64, 128 * 4 * p, "{mma} {dtype:?}");
        let mut seen = std::collections::HashSet::new();
        for e in m {
            let (thread, i) = (e[0], e[1]);
            assert_eq!((e[2], e[3]), a_figure(p, thread, i), "{mma} T{thread} a{i}");
            assert!(seen.insert((e[2], e[3])));
        }
    }
}

#[test]
fn regs_table_has_one_line_per_thread_and_register() {
    let (code, out, err) = run(&[
        "fragment",
        "--arch",
        "sm90",
        "--mma",
        "m64n128k16",
        "--operand",
        "A",
        "--regs",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1 + 128 * 4);
    assert!(lines[0].contains("A from registers"), "{}", lines[0]);
    // thread 37 = warp 1, groupID 1, threadID_in_group 1: register 2 holds a4, a5 at row 17,
    // columns 8 + 2 and 8 + 3.
    let (r, c) = a_figure(2, 37, 4);
    let want = format!("T37  r2:  a4 ({r}, {c})  a5 ({r}, {})", c + 1);
    assert_eq!(want, "T37  r2:  a4 (17, 10)  a5 (17, 11)");
    assert_eq!(lines[1 + 37 * 4 + 2], want);
    // --regs also lists mma.sync and wgmma D fragments per register
    let (code, out, _) = run(&[
        "fragment",
        "--arch",
        "sm80",
        "--mma",
        "m16n8k32",
        "--dtype",
        "s8",
        "--operand",
        "B",
        "--regs",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1 + 32 * 2);
    assert!(
        out.contains("T1   r1:  b4 (20, 0)  b5 (21, 0)  b6 (22, 0)  b7 (23, 0)"),
        "{out}"
    );
    let (code, out, _) = run(&[
        "fragment",
        "--arch",
        "sm90",
        "--mma",
        "m64n16k16",
        "--operand",
        "D",
        "--regs",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1 + 128 * 8);
}

#[test]
fn chain_map_composes_the_two_figures() {
    for (first, accum, a_t, cvt) in [
        ("m64n128k16", "f32", "bf16", Some("cvt.rn.bf16x2.f32")),
        ("m64n256k16", "f32", "f16", Some("cvt.rn.f16x2.f32")),
        ("m64n16k16", "f16", "f16", None),
        ("m64n64k16", "f16", "bf16", Some("cvt.rn.bf16x2.f32")),
    ] {
        let v = json(&[
            "fragment",
            "--arch",
            "sm90",
            "--mma",
            "m64n64k16",
            "--dtype",
            a_t,
            "--chain",
            first,
            "--chain-dtype",
            "f16",
            "--accum",
            accum,
            "--json",
        ]);
        let n: u64 = first[4..first.len() - 3].parse().unwrap();
        assert_eq!(v["ksteps"], n / 16);
        assert_eq!(v["conversion"].as_str(), cvt, "{first} {accum} {a_t}");
        let m = rows(&v["map"]);
        assert_eq!(m.len() as u64, 4 * n / 16);
        for e in &m {
            let (ks, reg, lo, hi) = (e[0], e[1], e[2], e[3]);
            // every thread: A element (reg, half) of k-step ks is S(m, 16 ks + k) = its own d
            for thread in 0..128 {
                for (half, src) in [(0, lo), (1, hi)] {
                    let (r, k) = a_figure(2, thread, 2 * reg + half);
                    assert_eq!(d_figure(thread, src), (r, 16 * ks + k), "{first} T{thread}");
                }
            }
        }
        // row ownership: the elements listed per row are those of rows g and g + 8, in column
        // order
        assert_eq!(v["rows"]["row_reduce_xor"], serde_json::json!([1, 2]));
        for h in 0..2 {
            let list: Vec<u64> = v["rows"]["row_elems"][h]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            assert_eq!(list.len() as u64, n / 4);
            let mut cols: Vec<u64> = list.iter().map(|&e| d_figure(5, e).1).collect();
            assert!(list.iter().all(|&e| d_figure(5, e).0 == 1 + 8 * h as u64));
            let sorted = {
                let mut c = cols.clone();
                c.sort();
                c
            };
            assert_eq!(cols, sorted);
            cols.dedup();
            assert_eq!(cols.len() as u64, n / 4);
        }
    }
}

#[test]
fn chain_text_names_the_packing() {
    let (code, out, err) = run(&[
        "fragment",
        "--arch",
        "sm90",
        "--mma",
        "m64n128k16",
        "--chain",
        "m64n128k16",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("8 k-steps of k16"), "{out}");
    assert!(
        out.contains("packing: cvt.rn.bf16x2.f32 a, d_high, d_low"),
        "{out}"
    );
    let row2: Vec<&str> = out
        .lines()
        .find(|l| l.trim_start().starts_with("2 "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(row2, ["2", "d16|d17", "d18|d19", "d20|d21", "d22|d23"]);
    assert!(out.contains("xor 1, then xor 2"));
    let (code, out, _) = run(&[
        "fragment",
        "--arch",
        "sm90",
        "--mma",
        "m64n64k16",
        "--dtype",
        "f16",
        "--chain",
        "m64n32k16",
        "--accum",
        "f16",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("packing: none"), "{out}");
}

#[test]
fn refusals_name_the_rule() {
    let base = ["fragment", "--arch", "sm90"];
    for (extra, needle) in [
        (
            vec![
                "--mma",
                "m64n64k32",
                "--dtype",
                "e4m3",
                "--chain",
                "m64n128k16",
                "--chain-dtype",
                "bf16",
            ],
            "k-columns sit in other lanes",
        ),
        (
            vec![
                "--mma",
                "m64n64k8",
                "--dtype",
                "tf32",
                "--chain",
                "m64n128k16",
                "--chain-dtype",
                "bf16",
            ],
            "k-columns sit in other lanes",
        ),
        (
            vec!["--mma", "m64n64k16", "--chain", "m64n24k16"],
            "legal: N a multiple of 16",
        ),
        (
            vec![
                "--mma",
                "m64n64k16",
                "--chain",
                "m64n64k32",
                "--chain-dtype",
                "s8",
                "--accum",
                "s32",
            ],
            "does not convert",
        ),
        (
            vec![
                "--mma",
                "m64n64k16",
                "--chain",
                "m64n64k16",
                "--accum",
                "f16",
            ],
            "does not accumulate in f16",
        ),
        (
            vec!["--mma", "m64n64k16", "--chain", "m64n64"],
            "malformed wgmma shape",
        ),
        (vec!["--mma", "m64n64k16", "--operand", "A"], "--regs"),
        (
            vec![
                "--mma",
                "m64n64k16",
                "--dtype",
                "e2m1",
                "--operand",
                "A",
                "--regs",
            ],
            "e2m1",
        ),
    ] {
        let (code, out, err) = run(&[&base[..], &extra[..]].concat());
        assert_eq!(code, 2, "{extra:?}: {out}");
        assert!(err.contains(needle), "{extra:?}: {err}");
    }
    let (code, _, err) = run(&[
        "fragment",
        "--arch",
        "sm80",
        "--mma",
        "m64n64k16",
        "--chain",
        "m64n64k16",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("sm90 only"), "{err}");
}
