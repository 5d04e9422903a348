//! Nothing here: the package holds `tests/macro_ui.rs`, which runs `smemdesc`'s declaration
//! macros through the compiler on the repository's `tests/ui/fail_*.rs` cases, and the pass
//! cases `tests/ui/pass_*.rs` as tests of their own (`cargo test -p smemdesc-ui-tests`, part of
//! the workspace's `cargo test`).
