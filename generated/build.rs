//! `smemdesc_full_grid` when SMEMDESC_FULL_GRID is set (`.ci/run` sets it): the generated tiles
//! a plain `cargo test` does not build (tests/cases/macro_cases.rs says which) are then built
//! and checked too.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(smemdesc_full_grid)");
    println!("cargo::rerun-if-env-changed=SMEMDESC_FULL_GRID");
    if std::env::var_os("SMEMDESC_FULL_GRID").is_some() {
        println!("cargo::rustc-cfg=smemdesc_full_grid");
    }
}
