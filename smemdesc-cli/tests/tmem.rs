//! `smemdesc tmem --json` against every configuration of the CuTe golden-tmem files (one command
//! line per configuration): the same (thread, reg, m, n, lane, col) rows, `regs_per_thread`,
//! `cols_used` and the allocation.

use crate::common::run;
use std::collections::HashMap;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/golden-tmem")
}

#[test]
fn tmem_json_matches_every_golden_row() {
    let cfgs = std::fs::read_to_string(dir().join("tmem_configs.tsv")).unwrap();
    let epi = std::fs::read_to_string(dir().join("tmem_epilogue.tsv")).unwrap();
    let mut gold: HashMap<u64, Vec<[u64; 6]>> = HashMap::new();
    for l in epi.lines().skip(1).filter(|l| !l.is_empty()) {
        let v: Vec<u64> = l.split('\t').map(|x| x.parse().unwrap()).collect();
        gold.entry(v[0])
            .or_default()
            .push([v[1], v[2], v[3], v[4], v[5], v[6]]);
    }
    let mut rows = 0;
    for l in cfgs.lines().skip(1).filter(|l| !l.is_empty()) {
        let f: Vec<&str> = l.split('\t').collect();
        let args = [
            "tmem",
            "--m",
            f[2],
            "--n",
            f[3],
            "--cta-group",
            f[1],
            "--accum",
            f[4],
            "--load",
            f[5],
            "--json",
        ];
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let j: serde_json::Value = serde_json::from_str(&out).unwrap();
        let cfg: u64 = f[0].parse().unwrap();
        assert_eq!(
            j["regs_per_thread"].as_u64().unwrap().to_string(),
            f[7],
            "cfg {cfg}"
        );
        assert_eq!(
            j["cols_used"].as_u64().unwrap().to_string(),
            f[8],
            "cfg {cfg}"
        );
        let cols: u64 = f[8].parse().unwrap();
        assert_eq!(
            j["alloc_columns"].as_u64().unwrap(),
            cols.next_power_of_two().max(32)
        );
        let mut ours: Vec<[u64; 6]> = j["map"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let r = r.as_array().unwrap();
                std::array::from_fn(|i| r[i].as_u64().unwrap())
            })
            .collect();
        let mut want = gold[&cfg].clone();
        ours.sort();
        want.sort();
        assert_eq!(ours, want, "cfg {cfg} ({})", f[5]);
        rows += want.len();
    }
    assert_eq!(rows, 249_856);
}

#[test]
fn tmem_refuses_what_the_hardware_cannot_do() {
    let (code, _, err) = run(&["tmem", "--m", "64", "--n", "64", "--load", "32x32b.x16"]);
    assert_eq!(code, 2);
    assert!(err.contains("lanes 0-15"), "{err}");
    let (code, _, err) = run(&[
        "tmem",
        "--m",
        "128",
        "--n",
        "256",
        "--load",
        "32x32b.x16",
        "--stages",
        "3",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("768 columns") && err.contains("accumulator 3 x 256 at column 0"),
        "{err}"
    );
    let (code, _, err) = run(&["tmem", "--m", "128", "--n", "64", "--load", "32x32b"]);
    assert_eq!(code, 2);
    assert!(err.contains("32x32b.x16"), "{err}");
}

#[test]
fn tmem_text_draws_warps_and_registers() {
    let (code, out, err) = run(&["tmem", "--m", "128", "--n", "64", "--load", "16x256b.x1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("tcgen05.ld.sync.aligned.16x256b.x1.b32 x 16 per warp"),
        "{out}"
    );
    // rows 96..104 of columns 0..8 are warp 3's first load
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("96") && l.contains("w3:r0")),
        "{out}"
    );
}
