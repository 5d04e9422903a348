//! Every row of every `.tsv` in `tests/data/golden/` (computed by CuTe, copied from `../shared/golden/`)
//! must reproduce bit for bit.

use crate::common::*;
use smemdesc::core::{Arch, TileSpec};
use std::collections::HashMap;

#[test]
fn descriptors_match_cute_bit_for_bit() {
    let rows = read_tsv("descriptors.tsv");
    let mut checked = 0;
    let mut failures = Vec::new();
    for row in &rows {
        let spec = TileSpec::new(
            arch(row),
            dtype(row),
            major(row),
            num(row, "tile_mn"),
            num(row, "tile_k"),
        )
        .swizzle(swizzle(row))
        .order(order(row))
        .mma_mn(num(row, "block_mn"));
        let want = hex(row, "desc");
        let got = spec
            .build()
            .and_then(|t| t.try_desc(num(row, "base"), num(row, "i"), num(row, "j"), 0))
            .map(|d| d.raw());
        match got {
            Ok(g) if g == want => checked += 1,
            other => failures.push(format!(
                "id {} ({},{}) want {want:#018x} got {other:x?}",
                row["id"], row["i"], row["j"]
            )),
        }
    }
    println!("descriptors.tsv: {checked} of {} rows match", rows.len());
    assert!(
        failures.is_empty(),
        "{} mismatches, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}

#[test]
fn offsets_match_cute_bit_for_bit() {
    // offsets.tsv has no arch column: take it from descriptors.tsv by id (same tile ids).
    let arch_of: HashMap<String, Arch> = read_tsv("descriptors.tsv")
        .iter()
        .map(|r| (r["id"].clone(), arch(r)))
        .collect();
    let rows = read_tsv("offsets.tsv");
    let mut checked = 0;
    let mut failures = Vec::new();
    for row in &rows {
        let a = *arch_of.get(&row["id"]).unwrap_or(&Arch::Sm100);
        let tile = TileSpec::new(
            a,
            dtype(row),
            major(row),
            num(row, "tile_mn"),
            num(row, "tile_k"),
        )
        .swizzle(swizzle(row))
        .order(order(row))
        .build();
        let want = num(row, "byte_offset");
        match tile.map(|t| t.byte_offset(num(row, "mn"), num(row, "k"))) {
            Ok(g) if g == want => checked += 1,
            other => failures.push(format!(
                "id {} ({},{}) want {want} got {other:?}",
                row["id"], row["mn"], row["k"]
            )),
        }
    }
    println!("offsets.tsv: {checked} of {} rows match", rows.len());
    assert!(
        failures.is_empty(),
        "{} mismatches, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}

#[test]
fn every_golden_file_is_covered() {
    // A new golden file must get a test: fail loudly rather than skip it.
    let mut names: Vec<String> = std::fs::read_dir(golden_dir())
        .expect("tests/data/golden must exist")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tsv"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "descriptors.tsv",
            "idesc.tsv",
            "idesc_block_scaled.tsv",
            "offsets.tsv"
        ],
        "golden files without a test"
    );
}

#[test]
fn golden_copy_matches_shared() {
    // The repository carries its own copy so that a clone with nothing beside it can test. When the
    // upstream `../shared/golden/` is present, the copy must hold every file it holds, byte for byte
    // (a file added upstream fails here until it is copied and covered).
    let Some(shared) = shared_golden_dir() else {
        println!(
            "../shared/golden absent: the repository's copy is the only one, nothing to compare"
        );
        return;
    };
    let list = |dir: &std::path::Path| {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let upstream = list(&shared);
    let copy = list(&golden_dir());
    assert_eq!(
        copy, upstream,
        "tests/data/golden/ and ../shared/golden/ hold different files: copy the new ones"
    );
    for name in &upstream {
        let a = std::fs::read(shared.join(name)).unwrap();
        let b = std::fs::read(golden_dir().join(name)).unwrap();
        assert!(
            a == b,
            "tests/data/golden/{name} differs from ../shared/golden/{name}"
        );
    }
    println!(
        "{} golden files identical to ../shared/golden",
        upstream.len()
    );
}
