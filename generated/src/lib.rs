//! Nothing here: the package holds `tests/`, which pushes 776 generated `#[smem_tile]`
//! declarations through the macro and compares everything they emit with the core
//! (`cargo test -p smemdesc-generated-tests`, part of the workspace's `cargo test`).
