//! The tests over the generated `#[smem_tile]` declarations, one binary (its package's
//! Cargo.toml says why the package is its own).
//!
//! * `cases/macro_cases.rs`: the 776 declarations, written by `tests/gen_macro_cases.rs`
//!   (`scripts/gen_macro_cases.sh`), each with the same declaration written against the core;
//! * `cases/macro_consts.rs`: every constant and function each declaration emits equals the
//!   core's, and the golden tiles reproduce CuTe's descriptors and offsets;
//! * `cases/tile_at.rs`: the type-level handle against the value-based form, for each.

/// The facade's directory (`tests/common` reads the golden copy below it).
const FACADE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

#[path = "../../tests/common/mod.rs"]
mod common;

/// The declarations, expanded and compiled once for the two files that check them: each calls
/// `generated_cases!` with its own `case!`. Declared before its users, so that `#[macro_use]`
/// puts `generated_cases!` in their scope. (Not formatted: its lines are the generator's, which
/// `gen_macro_cases` compares.)
#[macro_use]
#[rustfmt::skip]
#[path = "cases/macro_cases.rs"]
mod macro_cases;

#[path = "cases/macro_consts.rs"]
mod macro_consts;
#[path = "cases/tile_at.rs"]
mod tile_at;

/// Every file of `tests/cases/` is a module above: one that is not would silently not run.
#[test]
fn every_case_file_is_declared() {
    let root = include_str!("all.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let stems = common::rust_file_stems(&dir);
    for stem in &stems {
        let path = format!("#[path = \"cases/{stem}.rs\"]");
        assert!(
            root.contains(&path),
            "tests/cases/{stem}.rs is not a module of tests/all.rs"
        );
    }
    assert_eq!(
        stems,
        ["macro_cases", "macro_consts", "tile_at"],
        "tests/cases/ holds the declarations and the two files that check them"
    );
}
