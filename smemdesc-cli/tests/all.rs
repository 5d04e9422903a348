//! The `smemdesc` command line's integration tests: each file of `tests/` is a module of this one
//! test binary.
//! One compile and one link per package instead of one per file, and the files' tests run in
//! parallel in one process (on 2 cores: 33 CPU-seconds less to build; a warm `cargo test`
//! 78 s -> 63 s).
//! The files read as before; `cargo test -p smemdesc-cli --test all FILE::` runs one file's tests.
//!
//! Cargo.toml sets `autotests = false`, so a new file in `tests/` runs only once it is declared
//! here (or is a `[[test]]` of its own); `every_test_file_is_declared` fails until then.

mod common;

mod binary;
mod check_ptx;
mod cli_fixes;
mod decode_input;
mod decode_placement;
mod draw;
mod errors;
mod fragment;
mod fragment_regs;
mod golden;
mod header;
mod header_from;
mod header_from_epilogue;
mod header_from_pipeline;
mod header_from_review;
mod header_from_ui;
mod hostile;
mod idesc;
mod messages;
mod pairing;
mod readme;
mod rules;
mod sub_byte;
mod tensormap;
mod tmem;

/// Every `tests/*.rs` is a module above or a `[[test]]` target of its own in Cargo.toml: a file
/// that is neither would silently not run.
#[test]
fn every_test_file_is_declared() {
    let root = include_str!("all.rs");
    let manifest_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(manifest_dir.join("Cargo.toml")).expect("Cargo.toml");
    let dir = manifest_dir.join("tests");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/") {
        let path = entry.expect("tests/ entry").path();
        let (Some(stem), Some("rs")) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|s| s.to_str()),
        ) else {
            continue;
        };
        if stem == "all" {
            continue;
        }
        files += 1;
        let module = format!("mod {stem};");
        let target = format!("path = \"tests/{stem}.rs\"");
        assert!(
            root.lines().any(|l| l == module) || manifest.contains(&target),
            "tests/{stem}.rs is neither `{module}` in tests/all.rs nor a `[[test]]` in Cargo.toml: \
             its tests would not run"
        );
    }
    assert!(files > 0, "no test files in {}", dir.display());
}
