//! Every row of every `.tsv` in `../shared/golden/` (computed by CuTe) must reproduce bit for bit.

mod common;
use common::*;
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
        .expect("../shared/golden must exist")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tsv"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["descriptors.tsv", "offsets.tsv"],
        "golden files without a test"
    );
}
