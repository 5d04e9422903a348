//! `smemdesc fragment` and `smemdesc banks`: maps against the PTX figure formulas (written here
//! independently), the grid's cells, the legality errors, and the bank map's verdicts against
//! hand-counted cases.

use crate::common::run;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "smemdesc {args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: bad JSON ({e}): {out}"))
}

fn map(v: &serde_json::Value) -> Vec<[u64; 4]> {
    v["map"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let a = e.as_array().unwrap();
            [0, 1, 2, 3].map(|i| a[i].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn bf16_a_map_is_the_ptx_figure() {
    let v = json(&[
        "fragment",
        "--arch",
        "sm80",
        "--mma",
        "m16n8k16",
        "--dtype",
        "bf16",
        "--operand",
        "A",
        "--json",
    ]);
    let m = map(&v);
    assert_eq!(m.len(), 32 * 8);
    for [lane, i, row, col] in m {
        // PTX "Matrix Fragments for mma.m16n8k16 with floating point type", A
        let (g, t) = (lane >> 2, lane % 4);
        let want_row = if i < 2 || (4..6).contains(&i) {
            g
        } else {
            g + 8
        };
        let want_col = t * 2 + (i & 1) + if i >= 4 { 8 } else { 0 };
        assert_eq!((row, col), (want_row, want_col), "lane {lane} a{i}");
    }
}

#[test]
fn c_and_d_are_one_fragment_and_s8_b_follows_the_figure() {
    let c = json(&[
        "fragment",
        "--arch",
        "sm86",
        "--mma",
        "m16n8k32",
        "--dtype",
        "s8",
        "--operand",
        "C",
        "--json",
    ]);
    let d = json(&[
        "fragment",
        "--arch",
        "sm86",
        "--mma",
        "m16n8k32",
        "--dtype",
        "s8",
        "--operand",
        "D",
        "--json",
    ]);
    assert_eq!(c["map"], d["map"]);
    let b = json(&[
        "fragment",
        "--arch",
        "sm86",
        "--mma",
        "m16n8k32",
        "--dtype",
        "u8",
        "--operand",
        "B",
        "--json",
    ]);
    for [lane, i, row, col] in map(&b) {
        let (g, t) = (lane >> 2, lane % 4);
        let want_row = t * 4 + (i & 3) + if i >= 4 { 16 } else { 0 };
        assert_eq!((row, col), (want_row, g));
    }
}

#[test]
fn wgmma_accumulator_map_covers_64_by_256_with_threads() {
    let v = json(&[
        "fragment",
        "--arch",
        "sm90",
        "--mma",
        "m64n256k16",
        "--operand",
        "D",
        "--json",
    ]);
    let m = map(&v);
    assert_eq!(m.len(), 128 * 128);
    let mut seen = std::collections::HashSet::new();
    for [thr, i, row, col] in m {
        // PTX "wgmma .m64nNk16 register fragment layout for accumulator matrix D"
        let (w, g, t) = (thr / 32, (thr % 32) >> 2, thr % 4);
        assert_eq!(row, 16 * w + g + if i % 4 >= 2 { 8 } else { 0 });
        assert_eq!(col, (i / 4) * 8 + t * 2 + (i & 1));
        assert!(seen.insert((row, col)));
    }
}

#[test]
fn grid_cells_name_lane_and_element() {
    let (code, out, err) = run(&[
        "fragment",
        "--arch",
        "sm80",
        "--mma",
        "m16n8k16",
        "--dtype",
        "bf16",
        "--operand",
        "A",
    ]);
    assert_eq!(code, 0, "{err}");
    // row 9: lane 4·1 + t holds a2/a3 (cols 2t, 2t+1) and a6/a7 (cols 8+2t ...)
    let row9: Vec<&str> = out.lines().nth(11).unwrap().split_whitespace().collect();
    assert_eq!(row9[0], "9");
    assert_eq!(row9[1 + 10], "T5:a6");
    assert_eq!(row9[1], "T4:a2");
}

#[test]
fn illegal_forms_are_errors_naming_the_legal_ones() {
    for (args, needle) in [
        (
            vec![
                "--arch",
                "sm86",
                "--mma",
                "m16n8k32",
                "--dtype",
                "e4m3",
                "--operand",
                "A",
            ],
            "sm89",
        ),
        (
            vec![
                "--arch",
                "sm80",
                "--mma",
                "m16n8k4",
                "--dtype",
                "bf16",
                "--operand",
                "A",
            ],
            "legal: m16n8k4: tf32",
        ),
        (
            vec![
                "--arch",
                "sm90",
                "--mma",
                "m16n8k64",
                "--dtype",
                "e2m1",
                "--kind",
                "mxf4",
                "--operand",
                "A",
            ],
            "sm120",
        ),
        (
            vec!["--arch", "sm80", "--mma", "m64n128k16", "--operand", "D"],
            "sm90 only",
        ),
        (
            vec!["--arch", "sm90", "--mma", "m64n100k16", "--operand", "D"],
            "multiples of 8",
        ),
        (
            vec!["--arch", "sm90", "--mma", "m64n64k16", "--operand", "A"],
            "descriptors",
        ),
        (
            vec![
                "--arch",
                "sm75",
                "--mma",
                "m16n8k16",
                "--dtype",
                "f16",
                "--operand",
                "A",
            ],
            "legal: sm80",
        ),
    ] {
        let mut a = vec!["fragment"];
        a.extend(args);
        let (code, _, err) = run(&a);
        assert_ne!(code, 0, "{a:?}");
        assert!(err.contains(needle), "{a:?}: {err}");
    }
}

#[test]
fn banks_raw_and_tile_modes() {
    // 8 rows of a 128-B pitch, one ldmatrix matrix: every row in banks 0..3 -> 8 wavefronts.
    let addrs: Vec<String> = (0..32).map(|l| ((l % 8) * 128).to_string()).collect();
    let joined = addrs.join(",");
    let v = json(&[
        "banks",
        "--access",
        "ldmatrix.x1",
        "--addrs",
        &joined,
        "--json",
    ]);
    assert_eq!(
        (v["wavefronts"].as_u64(), v["conflicts"].as_u64()),
        (Some(8), Some(7))
    );
    assert_eq!(v["worst_lanes"].as_array().unwrap().len(), 8);
    // 64-bit loads, lane l at 8 l: two half-warps of 128 B each, no conflict.
    let addrs: Vec<String> = (0..32).map(|l| (l * 8).to_string()).collect();
    let v = json(&[
        "banks",
        "--access",
        "lds.64",
        "--addrs",
        &addrs.join(","),
        "--json",
    ]);
    assert_eq!(
        (v["wavefronts"].as_u64(), v["conflicts"].as_u64()),
        (Some(2), Some(0))
    );
    // the chosen layout of a 64x64 bf16 A tile, every instruction
    for i in 0..16 {
        let v = json(&[
            "banks",
            "--arch",
            "sm90",
            "--mma",
            "m16n8k16",
            "--dtype",
            "bf16",
            "--operand",
            "A",
            "--tile",
            "64x64",
            "--instr",
            &i.to_string(),
            "--json",
        ]);
        assert_eq!(v["conflicts"].as_u64(), Some(0), "instr {i}");
        assert!(v["layout"].as_str().unwrap().contains("swizzle 128B"));
    }
    // unswizzled control: 8-way
    let v = json(&[
        "banks",
        "--arch",
        "sm90",
        "--mma",
        "m16n8k16",
        "--dtype",
        "bf16",
        "--operand",
        "A",
        "--tile",
        "64x64",
        "--swizzle",
        "none",
        "--json",
    ]);
    assert_eq!(
        (v["wavefronts"].as_u64(), v["degree"].as_u64()),
        (Some(32), Some(8))
    );
    let (code, out, _) = run(&[
        "banks",
        "--arch",
        "sm90",
        "--mma",
        "m16n8k16",
        "--dtype",
        "bf16",
        "--operand",
        "A",
        "--tile",
        "64x64",
        "--swizzle",
        "none",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("32 wavefronts over 4 phases, 28 conflicts"),
        "{out}"
    );
    // 8-bit MN-major needs .trans of .b16: an error
    let (code, _, err) = run(&[
        "banks",
        "--arch",
        "sm90",
        "--mma",
        "m16n8k32",
        "--dtype",
        "e4m3",
        "--operand",
        "B",
        "--major",
        "MN",
        "--tile",
        "32x64",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains(".b16"), "{err}");
}

#[test]
fn banks_rejects_out_of_range_input_without_panicking() {
    for (args, needle) in [
        (vec!["--tile", "4294967280x16"], "shared memory"),
        (vec!["--tile", "64x4294967281"], "whole number of fragments"),
        (vec!["--tile", "64x4294967280"], "shared memory"),
        (vec!["--tile", "64x65536"], "shared memory"),
        (vec!["--tile", "64x64", "--pad", "5000"], "--pad"),
        (
            vec!["--tile", "64x64", "--instr", "4294967295"],
            "out of range",
        ),
        (vec!["--tile", "64x64", "--ldmatrix", "0"], ".x0"),
        (vec!["--tile", "0x64"], "whole number"),
    ] {
        let mut a = vec![
            "banks",
            "--arch",
            "sm80",
            "--mma",
            "m16n8k16",
            "--dtype",
            "f16",
            "--operand",
            "A",
        ];
        a.extend(args);
        let (code, _, err) = run(&a);
        assert_eq!(code, 2, "{a:?}: {err}");
        assert!(err.contains(needle), "{a:?}: {err}");
    }
    let (code, _, err) = run(&["banks", "--access", "lds.32", "--addrs", "1,2"]);
    assert_eq!(code, 2);
    assert!(err.contains("32 addresses"), "{err}");
}
