//! Nothing here: the package holds `tests/macro_ui.rs`, which runs `smemdesc`'s declaration
//! macros through the compiler on the repository's `tests/ui/` cases
//! (`cargo test -p smemdesc-ui-tests`, part of the workspace's `cargo test`).
