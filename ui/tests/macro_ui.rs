//! Every declaration macro through the compiler: every error class is a compile error on the
//! argument at fault (`tests/ui/fail_*.rs`, each compared with its whole `.stderr`). Regenerate
//! the `.stderr` files with `TRYBUILD=overwrite`, then read the diff.
//!
//! The cases live in the repository's `tests/ui/` (this package's `tests/ui` is a link to it): a
//! package of their own, so that trybuild and serde are not dev-dependencies of `smemdesc` and
//! building its examples does not build them. Paths into the library's sources print as
//! `$WORKSPACE/…`.
//!
//! One trybuild run checks every case in one `cargo check --keep-going` (the rustc processes run
//! side by side). A constant whose evaluation fails is reported there with the macro's message on
//! the argument at fault; what only a build adds is the compiler's note naming the expression that
//! uses the constant (`note: erroneous constant encountered`), which no `.stderr` holds.
//!
//! The legal declarations (`tests/ui/pass_*.rs`) are `harness = false` tests of this package
//! (its Cargo.toml): `cargo test` builds each as a crate of its own and runs its `main`. A build
//! mode in trybuild would build the library and its macros a second time in trybuild's target
//! directory, and each case in a `cargo build` of its own: its cold run 19.5 s -> 8.8 s on 2 cores.
//!
//! trybuild's cargo is `src/bin/trybuild_cargo.rs`, which gives trybuild's dependency build and
//! its check of the cases the same compiler flags, so the library is checked once, not twice
//! (a cold `ui_fail_cases` 13.5 s -> 10.4 s on 2 cores); the test fails when that stops holding.

use std::path::{Path, PathBuf};

/// `tests/ui/` files whose name starts with `prefix` and ends in `.rs`, sorted.
fn cases(prefix: &str) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir("tests/ui")
        .expect("tests/ui")
        .map(|e| e.expect("tests/ui entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with(prefix) && name.ends_with(".rs")
        })
        .map(|p| Path::new("tests/ui").join(p.file_name().unwrap()))
        .collect();
    cases.sort();
    cases
}

/// trybuild's run, its build without debug info: it checks the cases and builds their
/// dependencies' macros (the library, `syn`, the macros) in a target directory of its own under
/// the `dev` profile, whose full debug info nothing here reads. The compiler's messages, which
/// the `.stderr` files hold, do not depend on it.
#[test]
fn ui_fail_cases() {
    let mut fail = cases("fail_");
    assert!(fail.len() > 100, "{} cases: tests/ui moved?", fail.len());
    // `SMEMDESC_UI_FILTER=clc_,grouped_` checks (or, with `TRYBUILD=overwrite`, regenerates)
    // only the cases whose file name contains one of the comma-separated parts.
    if let Some(f) = std::env::var_os("SMEMDESC_UI_FILTER") {
        let f = f.to_string_lossy().into_owned();
        fail.retain(|p| f.split(',').any(|part| p.to_string_lossy().contains(part)));
    }
    // trybuild's cargo inherits this process's environment; trybuild runs `$CARGO`, here the
    // program that gives its two builds one set of flags (src/bin/trybuild_cargo.rs).
    std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    std::env::set_var("SMEMDESC_UI_CARGO", cargo);
    std::env::set_var("CARGO", env!("CARGO_BIN_EXE_trybuild_cargo"));
    let start = std::time::SystemTime::now();
    {
        let t = trybuild::TestCases::new();
        for case in &fail {
            t.compile_fail(case);
        }
        // The cases run when `t` drops.
    }
    let checks = core_checks_since(start);
    assert!(
        checks <= 1,
        "trybuild checked smemdesc-core {checks} times in this run: its two builds no longer \
         share their flags (src/bin/trybuild_cargo.rs)"
    );
}

/// How many `smemdesc-core` checks (`.rmeta` files) trybuild's target directory received since
/// `start`: one on a cold run, none on a warm one.
fn core_checks_since(start: std::time::SystemTime) -> usize {
    // This binary is `<target>/debug/deps/macro_ui-…`; trybuild builds in `<target>/tests/trybuild`.
    let exe = std::env::current_exe().expect("the test binary's path");
    let target = exe
        .ancestors()
        .nth(3)
        .expect("<target>/debug/deps/macro_ui");
    let Ok(triples) = std::fs::read_dir(target.join("tests/trybuild")) else {
        return 0;
    };
    let mut n = 0;
    for triple in triples.flatten() {
        let Ok(deps) = std::fs::read_dir(triple.path().join("debug/deps")) else {
            continue;
        };
        for f in deps.flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            let new = f
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t >= start);
            if name.starts_with("libsmemdesc_core-") && name.ends_with(".rmeta") && new {
                n += 1;
            }
        }
    }
    n
}

/// Every `tests/ui/` file is a compile-fail case or a pass case, and every pass case is a test
/// of this package (a `[[test]]` of its Cargo.toml): one that is not would silently not run.
#[test]
fn every_pass_case_is_a_test() {
    let manifest = include_str!("../Cargo.toml");
    let pass = cases("pass_");
    assert!(pass.len() >= 10, "{} pass cases", pass.len());
    for case in &pass {
        let stem = case.file_stem().and_then(|s| s.to_str()).unwrap();
        let entry = format!(
            "[[test]]\nname = \"{stem}\"\npath = \"tests/ui/{stem}.rs\"\nharness = false\n"
        );
        assert!(
            manifest.contains(&entry),
            "tests/ui/{stem}.rs is not a `harness = false` [[test]] of ui/Cargo.toml"
        );
    }
    assert_eq!(
        cases("").len(),
        pass.len() + cases("fail_").len(),
        "a tests/ui/*.rs file that is neither fail_ nor pass_"
    );
}
