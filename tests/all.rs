//! `smemdesc`'s integration tests: each file of `tests/` is a module of this one test binary.
//! One compile and one link per package instead of one per file, and the files' tests run in
//! parallel in one process (on 2 cores: 33 CPU-seconds less to build; a warm `cargo test`
//! 78 s -> 63 s).
//! The files read as before; `cargo test -p smemdesc --test all FILE::` runs one file's tests.
//! `error_trait.rs` and `attention_kernel_maps.rs` stay their own targets (Cargo.toml says why).
//! The tests over the 776 generated `#[smem_tile]` declarations are a package of their own,
//! `generated/` (its Cargo.toml says why).
//!
//! Cargo.toml sets `autotests = false`, so a new file in `tests/` runs only once it is declared
//! here (or is a `[[test]]` of its own); `every_test_file_is_declared` fails until then.

/// The facade's directory (`tests/common` reads the golden copy below it).
const FACADE_DIR: &str = env!("CARGO_MANIFEST_DIR");

mod common;

mod accum;
mod accum_types;
mod checked_advice;
mod clc_model;
mod epilogue_cluster;
mod epilogue_consts;
mod errors;
mod golden;
mod golden_idesc;
mod golden_tmem;
mod grouped;
mod grouped_rewrite;
mod header_fixture;
mod idesc_robustness;
mod kernel_access;
mod mma_cluster_checks;
mod mma_pairing;
mod mma_pairing_sub_byte;
mod mma_scale_vec;
mod pdl;
mod pipeline_api;
mod plan_macro;
mod robustness;
mod scale_tiles;
mod shader_consts;
mod spec_examples;
mod storage;
mod storage_members;
mod tma_contiguity;
mod tma_data_type;
mod tmem_storage;

/// Every `tests/*.rs` is a module above or a `[[test]]` target of its own in Cargo.toml: a file
/// that is neither would silently not run.
#[test]
fn every_test_file_is_declared() {
    let root = include_str!("all.rs");
    let manifest_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(manifest_dir.join("Cargo.toml")).expect("Cargo.toml");
    for stem in common::rust_file_stems(&manifest_dir.join("tests")) {
        if stem == "all" {
            continue;
        }
        let module = format!("mod {stem};");
        let target = format!("path = \"tests/{stem}.rs\"");
        assert!(
            root.lines().any(|l| l == module) || manifest.contains(&target),
            "tests/{stem}.rs is neither `{module}` in tests/all.rs nor a `[[test]]` in Cargo.toml: \
             its tests would not run"
        );
    }
}
