//! `#[smem_tile]` through the compiler: every error class is a compile error on the argument at
//! fault (`tests/ui/fail_*.rs` with their `.stderr`), and legal declarations compile and run
//! (`tests/ui/pass_*.rs`). Regenerate the `.stderr` files with `TRYBUILD=overwrite`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass_*.rs");
    t.compile_fail("tests/ui/fail_*.rs");
}
