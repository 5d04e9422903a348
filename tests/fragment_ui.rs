//! `#[smem_fragment_tile]` through the compiler (only its cases; `macro_ui` runs every case):
//! illegal arch, shape/type, a `conflict_free` violation and an 8-bit `.trans` are compile errors
//! naming what is legal (or the conflicting lanes and bank); a legal tile compiles and runs.

#[test]
fn fragment_ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass_frag_*.rs");
    t.compile_fail("tests/ui/fail_frag_*.rs");
}
