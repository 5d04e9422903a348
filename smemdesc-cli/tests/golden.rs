//! Every row of `tests/data/golden/descriptors.tsv` (computed by CuTe) reproduces through
//! `smemdesc tile --json`, and `smemdesc decode` of every golden descriptor prints the fields the
//! row implies.

use crate::common::*;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

type Row = HashMap<String, String>;

/// `tile --json` arguments for one golden tile id.
fn tile_args(row: &Row) -> Vec<String> {
    let tile_mn: u32 = row["tile_mn"].parse().unwrap();
    let block_mn: u32 = row["block_mn"].parse().unwrap();
    // A block spanning the whole tile is a B operand of N = tile_mn; otherwise an A operand of M =
    // block_mn (spec: block_mn is one wgmma M, a tcgen05 M = 128 A, or the whole tile as B).
    let operand = if block_mn == tile_mn { "B" } else { "A" };
    vec![
        "tile",
        "--json",
        "--arch",
        &row["arch"],
        "--operand",
        operand,
        "--dtype",
        &row["dtype"],
        "--tile",
        &format!("{}x{}", row["tile_mn"], row["tile_k"]),
        "--major",
        &row["major"],
        "--swizzle",
        &row["swizzle"],
        "--order",
        &row["order"],
        "--mma-mn",
        &row["block_mn"],
        "--base",
        &row["base"],
    ]
    .into_iter()
    .map(str::to_string)
    .collect()
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap()
}

/// The group key of a row: tile id and MMA block (one id may be cut into blocks of several sizes).
fn key(row: &Row) -> String {
    format!("{}/{}", row["id"], row["block_mn"])
}

/// Runs `tile --json` once per (tile id, block) (in parallel) and returns key -> JSON.
fn tile_json(groups: &BTreeMap<String, Vec<&Row>>) -> HashMap<String, Result<Value, String>> {
    let ids: Vec<(&String, &Vec<&Row>)> = groups.iter().collect();
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(4)
        .min(16);
    let chunk = ids.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = ids
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(id, rows)| {
                            let args = tile_args(rows[0]);
                            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
                            let (code, out, err) = run(&argv);
                            let v = if code == 0 {
                                serde_json::from_str::<Value>(&out).map_err(|e| e.to_string())
                            } else {
                                Err(format!("exit {code}: {err}"))
                            };
                            ((*id).clone(), v)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

fn stage0_desc(v: &Value, i: u64, j: u64) -> Option<(u64, u64)> {
    v["descriptors"].as_array()?.iter().find_map(|d| {
        (d["mn"] == i && d["k"] == j && d["stage"] == 0).then(|| {
            (
                hex(d["desc"].as_str().unwrap()),
                d["start_address"].as_u64().unwrap(),
            )
        })
    })
}

#[test]
fn golden_descriptors_reproduce_through_tile_json_and_decode() {
    let rows = read_tsv("descriptors.tsv");
    assert!(!rows.is_empty(), "descriptors.tsv has no rows");
    let mut groups: BTreeMap<String, Vec<&Row>> = BTreeMap::new();
    for r in &rows {
        groups.entry(key(r)).or_default().push(r);
    }
    let json = tile_json(&groups);

    // 1. tile --json reproduces every (i, j) descriptor of stage 0.
    let mut failures = Vec::new();
    let mut checked = 0;
    for r in &rows {
        let want = hex(&r["desc"]);
        let (i, j): (u64, u64) = (r["i"].parse().unwrap(), r["j"].parse().unwrap());
        match &json[&key(r)] {
            Ok(v) => match stage0_desc(v, i, j) {
                Some((got, _)) if got == want => {
                    // LBO/SBO of the tile are the descriptor's.
                    let lbo = ((want >> 16) & 0x3fff) << 4;
                    let sbo = ((want >> 32) & 0x3fff) << 4;
                    if v["lbo"] == lbo && v["sbo"] == sbo {
                        checked += 1;
                    } else {
                        failures.push(format!("id {} lbo/sbo {} {}", r["id"], v["lbo"], v["sbo"]));
                    }
                }
                other => failures.push(format!(
                    "id {} ({i},{j}) want {want:#018x} got {other:x?}",
                    r["id"]
                )),
            },
            Err(e) => failures.push(format!("id {}: {e}", r["id"])),
        }
    }
    println!(
        "tile --json: {checked} of {} golden rows ({} tile/block invocations) match",
        rows.len(),
        groups.len()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );

    // 2. decode (one call per arch with every golden descriptor of that arch).
    let mut decoded = 0;
    for arch in ["sm90", "sm100"] {
        let mine: Vec<&Row> = rows.iter().filter(|r| r["arch"] == arch).collect();
        if mine.is_empty() {
            continue;
        }
        let mut argv: Vec<&str> = vec!["decode", "--json", "--arch", arch];
        argv.extend(mine.iter().map(|r| r["desc"].as_str()));
        let (code, out, err) = run(&argv);
        assert_eq!(code, 0, "decode failed: {err}");
        let reports: Vec<Value> = match serde_json::from_str::<Value>(&out).unwrap() {
            Value::Array(a) => a,
            one => vec![one],
        };
        assert_eq!(reports.len(), mine.len());
        for (r, d) in mine.iter().zip(&reports) {
            let tile = json[&key(r)].as_ref().unwrap();
            let (i, j) = (r["i"].parse().unwrap(), r["j"].parse().unwrap());
            let (_, start) = stage0_desc(tile, i, j).unwrap();
            let ctx = format!("id {} ({i},{j}) {}", r["id"], r["desc"]);
            assert_eq!(d["layout"], r["swizzle"].as_str(), "{ctx}");
            assert_eq!(d["start_address"], start, "{ctx}");
            assert_eq!(d["lbo"], tile["lbo"], "{ctx}");
            assert_eq!(d["sbo"], tile["sbo"], "{ctx}");
            assert_eq!(d["base_offset"], 0, "{ctx}");
            let base: u64 = r["base"].parse().unwrap();
            assert!(start >= base, "{ctx}: start below the tile base");
            assert_eq!(
                d["warnings"].as_array().map(Vec::len),
                Some(0),
                "{ctx}: a CuTe descriptor must decode without warnings: {}",
                d["warnings"]
            );
            decoded += 1;
        }
    }
    println!("decode: {decoded} golden descriptors decode to the row's fields");
    assert_eq!(decoded, rows.len());
}
