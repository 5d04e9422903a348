//! Every declaration macro through the compiler: every error class is a compile error on the
//! argument at fault (`tests/ui/fail_*.rs` with their `.stderr`), and legal declarations compile
//! and run (`tests/ui/pass_*.rs`). Regenerate the `.stderr` files with `TRYBUILD=overwrite`.
//!
//! The cases live in the repository's `tests/ui/` (this package's `tests/ui` is a link to it): a
//! package of their own, so that trybuild and serde are not dev-dependencies of `smemdesc` and
//! building its examples does not build them. Paths into the library's sources print as
//! `$WORKSPACE/…`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass_*.rs");
    t.compile_fail("tests/ui/fail_*.rs");
}
