//! `#[smem_epilogue_tile]` and `#[smem_mma(cluster = ..)]` through the compiler (only their
//! cases; `macro_ui` runs every case): a non-dividing multicast, an over-large cluster, a C tile
//! whose writer conflicts and a TMA-store swizzle that disagrees with the C tile are compile
//! errors on the argument at fault, naming the legal values.

#[test]
fn epilogue_ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail_epi_*.rs");
}
