//! `core::error::Error` for every public error type of the core, so each one travels through `?`
//! into `Box<dyn std::error::Error>` (or `anyhow`, `eyre`, ...) with its `Display` message. The trait
//! is in `core` since Rust 1.81, so the crate stays `no_std`.
//!
//! ```
//! use smemdesc_core::*;
//! fn plan() -> Result<TileLayout, Box<dyn std::error::Error>> {
//!     Ok(TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 100, 64).build()?)
//! }
//! let e = plan().unwrap_err();
//! assert!(e.to_string().contains("not a whole number of"));
//! ```

use crate::{Error, IdescError, StorageProblem, TensorMapError};

impl core::error::Error for Error {}

impl core::error::Error for IdescError {}

impl core::error::Error for TensorMapError {}

impl core::error::Error for crate::tma::Im2colError {}

impl core::error::Error for StorageProblem {}

impl core::error::Error for crate::pipeline::PipelineError {}

impl core::error::Error for crate::tma::GroupedMapError {}
impl core::error::Error for crate::tma::OobWindowError {}

impl core::error::Error for crate::fragment::ChainError {}
