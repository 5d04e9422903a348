//! Every declaration macro through the compiler: every error class is a compile error on the
//! argument at fault (`tests/ui/fail_*.rs` with their `.stderr`), and legal declarations compile
//! and run (`tests/ui/pass_*.rs`). Regenerate the `.stderr` files with `TRYBUILD=overwrite`.
//!
//! The cases live in the repository's `tests/ui/` (this package's `tests/ui` is a link to it): a
//! package of their own, so that trybuild and serde are not dev-dependencies of `smemdesc` and
//! building its examples does not build them. Paths into the library's sources print as
//! `$WORKSPACE/…`.
//!
//! Two trybuild runs (two tests; trybuild runs one at a time), each case's output compared with
//! its whole `.stderr` in both:
//!
//! * the compile-fail cases whose `.stderr` has no note of the compiler's monomorphization pass:
//!   a run without pass cases, which trybuild checks in one `cargo check --keep-going` over all
//!   of them (the rustc processes run side by side);
//! * the pass cases and the compile-fail cases whose `.stderr` has such a note (a constant's
//!   evaluation failing where a function uses it: `cargo check` never gets there and prints
//!   less): trybuild builds each alone, one `cargo build` after another, as it did every case
//!   when all were one run.
//!
//! On 2 cores: 11 s -> 4.5 s warm, 24 s -> 17 s with trybuild's dependencies to build. A new
//! case without a `.stderr` yet is written by the first run (`TRYBUILD=overwrite`); if its error
//! only shows in a build, the first run finds that it compiles and fails, and its `.stderr`
//! then wants that note.

use std::path::PathBuf;

/// What only a build prints: notes of the monomorphization pass.
const BUILD_ONLY_NOTES: [&str; 2] = [
    "note: erroneous constant encountered",
    "encountered while instantiating",
];

/// `tests/ui/fail_*.rs`, sorted.
fn fail_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir("tests/ui")
        .expect("tests/ui")
        .map(|e| e.expect("tests/ui entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("fail_") && name.ends_with(".rs")
        })
        .map(|p| PathBuf::from("tests/ui").join(p.file_name().unwrap()))
        .collect();
    cases.sort();
    cases
}

/// The compile-fail cases: (checked together, built one by one).
fn fail_runs() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut checked, mut built) = (Vec::new(), Vec::new());
    for case in fail_cases() {
        // No `.stderr` yet: the first run writes it (TRYBUILD=overwrite) or fails.
        let stderr = std::fs::read_to_string(case.with_extension("stderr")).unwrap_or_default();
        if BUILD_ONLY_NOTES.iter().any(|n| stderr.contains(n)) {
            built.push(case);
        } else {
            checked.push(case);
        }
    }
    assert!(
        checked.len() > 90 && !built.is_empty(),
        "{} checked, {} built: tests/ui moved?",
        checked.len(),
        built.len()
    );
    (checked, built)
}

/// trybuild's runs, their builds without debug info: it builds the cases and their dependencies
/// (the library, `syn`, the macros) in a target directory of its own under the `dev` profile,
/// whose full debug info nothing here reads (a cold run: 15.3 s -> 14.0 s on 2 cores). The
/// compiler's messages, which the `.stderr` files hold, do not depend on it.
fn test_cases() -> trybuild::TestCases {
    // trybuild's cargo inherits this process's environment. Both tests set the same value.
    std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
    trybuild::TestCases::new()
}

#[test]
fn ui_checked_together() {
    let t = test_cases();
    for case in &fail_runs().0 {
        t.compile_fail(case);
    }
}

#[test]
fn ui_built_one_by_one() {
    let t = test_cases();
    t.pass("tests/ui/pass_*.rs");
    for case in &fail_runs().1 {
        t.compile_fail(case);
    }
}
