//! Shared helpers for the integration tests: reading the golden vectors and naming configurations.
#![allow(dead_code)]

use smemdesc::core::{Arch, ElementType, Major, Order, SwizzleMode};
use std::collections::HashMap;
use std::path::PathBuf;

/// The repository's copy of the CuTe golden vectors, `tests/data/golden/`. The tests read only this
/// copy, so a clone with nothing beside it passes; `tests/golden.rs` checks it against
/// `../shared/golden/` whenever that directory exists. (`crate::FACADE_DIR`: the facade's
/// directory, which each test binary that includes this module names.)
pub fn golden_dir() -> PathBuf {
    PathBuf::from(crate::FACADE_DIR).join("tests/data/golden")
}

/// `../shared/golden/` beside the repository, the upstream of `tests/data/golden/`, if present.
pub fn shared_golden_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(crate::FACADE_DIR).join("../shared/golden");
    dir.is_dir().then_some(dir)
}

/// The stems of the `*.rs` files directly in `dir`, sorted (for the guards that every test file
/// is declared: a file that is not would silently not run).
pub fn rust_file_stems(dir: &std::path::Path) -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().and_then(|x| x.to_str()) == Some("rs"))
        .map(|p| {
            p.file_stem()
                .and_then(|x| x.to_str())
                .expect("a UTF-8 name")
                .to_owned()
        })
        .collect();
    stems.sort();
    assert!(!stems.is_empty(), "no .rs files in {}", dir.display());
    stems
}

/// One `.tsv` as header-keyed rows. Panics (test failure) when missing or empty.
pub fn read_tsv(name: &str) -> Vec<HashMap<String, String>> {
    let path = golden_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("golden file {} unreadable: {e}", path.display()));
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .unwrap_or_else(|| panic!("{} is empty", path.display()))
        .split('\t')
        .map(str::to_owned)
        .collect();
    let rows: Vec<_> = lines
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            assert_eq!(
                cells.len(),
                header.len(),
                "{}: ragged row {l:?}",
                path.display()
            );
            header
                .iter()
                .cloned()
                .zip(cells.into_iter().map(str::to_owned))
                .collect()
        })
        .collect();
    assert!(!rows.is_empty(), "{} has no rows", path.display());
    rows
}

pub fn num(row: &HashMap<String, String>, key: &str) -> u32 {
    let v = &row[key];
    v.parse()
        .unwrap_or_else(|_| panic!("column {key}: {v:?} is not a number"))
}

pub fn hex(row: &HashMap<String, String>, key: &str) -> u64 {
    let v = row[key].trim_start_matches("0x");
    u64::from_str_radix(v, 16).unwrap_or_else(|_| panic!("column {key}: {v:?} is not hex"))
}

pub fn arch(row: &HashMap<String, String>) -> Arch {
    Arch::from_name(&row["arch"]).expect("arch")
}
pub fn dtype(row: &HashMap<String, String>) -> ElementType {
    let d = ElementType::from_name(&row["dtype"]).expect("dtype");
    assert_eq!(
        d.smem_bits(),
        num(row, "bits"),
        "bits column disagrees with dtype"
    );
    d
}
pub fn major(row: &HashMap<String, String>) -> Major {
    Major::from_name(&row["major"]).expect("major")
}
pub fn swizzle(row: &HashMap<String, String>) -> SwizzleMode {
    SwizzleMode::from_name(&row["swizzle"]).expect("swizzle")
}
pub fn order(row: &HashMap<String, String>) -> Order {
    Order::from_name(&row["order"]).expect("order")
}
