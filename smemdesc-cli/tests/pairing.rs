//! `smemdesc tile` and `smemdesc idesc` agree on the sub-byte and block-scaled pairings that
//! `#[smem_mma]` builds (`tests/mma_pairing_sub_byte.rs`): the instruction M, N and K that
//! `tile --json` reports for the A and B tiles, given to `idesc --json`, give the descriptor of
//! the CuTe golden row of that configuration (or-ed with the K bit 31 for K = 96, PTX tcgen05
//! "Instruction descriptor" Table 44, which CuTe never sets).

use crate::common::{read_tsv, run};

fn json(args: &[&str]) -> serde_json::Value {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 0, "smemdesc {args:?}: {stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// One pairing: the A and B `tile` flags, the `idesc` options, and the golden row to expect.
struct Case {
    /// `tile` flags of both A and B (given before each one's own).
    both: &'static [&'static str],
    a: &'static [&'static str],
    b: &'static [&'static str],
    opts: &'static [&'static str],
    /// (file, [(column, value)]) of the golden row besides the kind, types, M, N and majors,
    /// which come from the tiles.
    golden: (&'static str, &'static [(&'static str, &'static str)]),
    k_bit: bool,
}

fn golden(file: &str, want: &[(&str, String)]) -> String {
    let rows: Vec<_> = read_tsv(file)
        .into_iter()
        .filter(|r| want.iter().all(|(k, v)| r[*k] == *v))
        .collect();
    assert_eq!(rows.len(), 1, "{file}: rows matching {want:?}");
    rows[0]["idesc"].clone()
}

const DENSE: &str = "idesc.tsv";
const SCALED: &str = "idesc_block_scaled.tsv";

const CASES: &[Case] = &[
    // padded fp6 x fp6, f16 accumulator, B negated
    Case {
        both: &[],
        a: &["--dtype", "e2m3", "--tile", "128x128"],
        b: &["--dtype", "e3m2", "--tile", "256x128"],
        opts: &["--c", "f16", "--negate-b"],
        golden: (DENSE, &[("c_dtype", "f16"), ("b_neg", "1")]),
        k_bit: false,
    },
    // padded fp4 x fp4, N = 48
    Case {
        both: &[],
        a: &["--dtype", "e2m1", "--tile", "128x128"],
        b: &["--dtype", "e2m1", "--tile", "48x128"],
        opts: &["--c", "f32"],
        golden: (DENSE, &[("c_dtype", "f32"), ("b_neg", "0")]),
        k_bit: false,
    },
    // fp8 x padded fp4
    Case {
        both: &[],
        a: &["--dtype", "e4m3", "--tile", "128x128"],
        b: &["--dtype", "e2m1", "--tile", "128x128", "--kind", "f8f6f4"],
        opts: &["--c", "f32"],
        golden: (DENSE, &[("c_dtype", "f32"), ("b_neg", "0")]),
        k_bit: false,
    },
    // block-scaled fp4 x fp6, CTA pair
    Case {
        both: &["--kind", "mxf8f6f4", "--cta-group", "2"],
        a: &["--dtype", "e2m1", "--tile", "128x128"],
        b: &["--dtype", "e2m3", "--tile", "64x128"],
        opts: &["--c", "f32", "--sf", "ue8m0"],
        golden: (SCALED, &[("sf_dtype", "ue8m0")]),
        k_bit: false,
    },
    // packed fp4, K = 64
    Case {
        both: &["--dtype", "e2m1", "--kind", "mxf4"],
        a: &["--tile", "128x256"],
        b: &["--tile", "256x256"],
        opts: &["--c", "f32"],
        golden: (SCALED, &[("sf_dtype", "ue8m0")]),
        k_bit: false,
    },
    // nvf4 (ue4m3), CTA pair, K = 64
    Case {
        both: &["--dtype", "e2m1", "--kind", "mxf4nvf4", "--cta-group", "2"],
        a: &["--tile", "128x256"],
        b: &["--tile", "128x256"],
        opts: &["--c", "f32", "--sf", "ue4m3"],
        golden: (SCALED, &[("sf_dtype", "ue4m3")]),
        k_bit: false,
    },
    // K = 96: 256x256x96, CTA pair
    Case {
        both: &["--dtype", "e2m1", "--kind", "mxf4nvf4", "--cta-group", "2"],
        a: &["--tile", "128x192", "--mma", "m256n256k96"],
        b: &["--tile", "128x192", "--mma", "m256n256k96"],
        opts: &["--c", "f32", "--sf", "ue8m0"],
        golden: (SCALED, &[("sf_dtype", "ue8m0")]),
        k_bit: true,
    },
    // K = 96 mxf4, N = 64
    Case {
        both: &["--dtype", "e2m1", "--kind", "mxf4", "--cta-group", "2"],
        a: &["--tile", "128x192", "--mma", "m256n64k96"],
        b: &["--tile", "32x192", "--mma", "m256n64k96"],
        opts: &["--c", "f32"],
        golden: (SCALED, &[("sf_dtype", "ue8m0")]),
        k_bit: true,
    },
];

#[test]
fn tile_and_idesc_agree_on_sub_byte_pairs() {
    for c in CASES {
        let (flags_a, flags_b) = ([c.both, c.a].concat(), [c.both, c.b].concat());
        let tile = |operand: &str, args: &[&str]| {
            let mut all = vec!["tile", "--arch", "sm100", "--major", "K", "--json"];
            all.extend_from_slice(&["--operand", operand]);
            all.extend_from_slice(args);
            json(&all)
        };
        let (a, b) = (tile("A", &flags_a), tile("B", &flags_b));
        assert_eq!(a["kind"], b["kind"], "{flags_a:?}");
        assert_eq!(a["mma"][2], b["mma"][2], "K of {flags_a:?}");
        let (m, n, k) = (
            a["mma"][0].to_string(),
            b["mma"][1].to_string(),
            a["mma"][2].to_string(),
        );
        let kind = a["kind"].as_str().unwrap().to_string();
        let dtype = |v: &[&str]| v[v.iter().position(|x| *x == "--dtype").unwrap() + 1].to_string();
        let (ta, tb) = (dtype(&flags_a), dtype(&flags_b));
        let cg = a["cta_group"].to_string();
        let mut args = vec![
            "idesc",
            "--json",
            "--kind",
            &kind,
            "--a",
            &ta,
            "--b",
            &tb,
            "--m",
            &m,
            "--n",
            &n,
            "--k",
            &k,
            "--a-major",
            "K",
            "--b-major",
            "K",
            "--cta-group",
            &cg,
        ];
        args.extend_from_slice(c.opts);
        let v = json(&args);
        let (file, cols) = c.golden;
        let mut want: Vec<(&str, String)> = cols.iter().map(|(k, v)| (*k, v.to_string())).collect();
        want.extend([
            ("kind", kind.clone()),
            ("a_dtype", ta.clone()),
            ("b_dtype", tb.clone()),
            ("M", m.clone()),
            ("N", n.clone()),
            ("a_major", "K".into()),
            ("b_major", "K".into()),
        ]);
        if file == DENSE {
            want.extend([("a_neg", "0".into()), ("saturate", "0".into())]);
        }
        let row = golden(file, &want);
        let row = u32::from_str_radix(row.trim_start_matches("0x"), 16).unwrap();
        let expect = if c.k_bit { row | (1 << 31) } else { row };
        assert_eq!(
            v["idesc"],
            format!("0x{expect:08x}"),
            "{kind} {ta} x {tb} M {m} N {n}"
        );
        assert_eq!(v["k"].to_string(), k);
        assert_eq!(v["k96"], c.k_bit);
    }
}

#[test]
fn idesc_k_flag_is_checked() {
    let base = [
        "idesc",
        "--kind",
        "mxf4",
        "--a",
        "e2m1",
        "--b",
        "e2m1",
        "--c",
        "f32",
        "--n",
        "128",
        "--a-major",
        "K",
        "--b-major",
        "K",
    ];
    // K = 96 needs the CTA pair's M = 256 (PTX "Matrix Shape": 256xNxK1)
    let mut args = base.to_vec();
    args.extend(["--m", "128", "--k", "96"]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 2);
    assert!(
        err.contains("invalid --k") && err.contains("M = 256"),
        "{err}"
    );
    // any other K must be the kind's
    let mut args = base.to_vec();
    args.extend(["--m", "128", "--k", "32"]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 2);
    assert!(err.contains("legal K: 64, or 96"), "{err}");
    // the tile side says the same: no cta_group 1 instruction reads a K = 96 tile
    let (code, _, err) = run(&[
        "tile",
        "--arch",
        "sm100",
        "--dtype",
        "e2m1",
        "--kind",
        "mxf4",
        "--major",
        "K",
        "--tile",
        "128x192",
        "--mma",
        "m128n256k96",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--mma") && err.contains("K = 96 only with cta_group = 2 and M = 256"),
        "{err}"
    );
}
