//! The `#[smem_tile]` attribute macro of smemdesc (placeholder: the macro lands with its own issue).
//!
//! This crate compiles today so the workspace layout is final; it exports nothing yet.
