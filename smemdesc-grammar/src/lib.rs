//! The grammar of [smemdesc](https://docs.rs/smemdesc)'s declaration attributes, read from their
//! tokens with the span of every value: one parser that `smemdesc-macros` expands from and that
//! `smemdesc header --from` (the `smemdesc-cli` crate) evaluates from, so the two read the same
//! keys, spellings and refusals.
//!
//! A plain library (not a proc-macro crate): it takes a [`proc_macro2::TokenStream`] and returns
//! the declaration's arguments or a [`syn::Error`] spanned on the key at fault.
//!
//! ```
//! use smemdesc_grammar::pipeline::parse_args;
//!
//! let attr = "storage = Smem, loads = (a: TileA, b: TileB), consumers = 2".parse().unwrap();
//! let args = parse_args(attr, proc_macro2::Span::call_site()).unwrap();
//! assert_eq!(args.loads.len(), 2);
//! assert_eq!(args.threads_v, 128); // the default: one warpgroup
//! ```
//!
//! - [`tile`]: `#[smem_tile(...)]`'s (and `smem_plan!`'s) arguments, [`global`] their
//!   `global_dims`/`global_strides`;
//! - [`scale`]: `#[smem_scale_tile(...)]`'s arguments;
//! - [`epilogue`]: `#[smem_epilogue_tile(...)]`'s arguments;
//! - [`fragment`]: `#[smem_fragment_tile(...)]`'s arguments;
//! - [`mma`], [`mma_check`]: `#[smem_mma(...)]`'s arguments and its module's pairing;
//! - [`pipeline`]: `#[smem_pipeline(...)]`'s arguments;
//! - [`storage`]: a `#[smem_storage]` member's `#[smem(...)]`;
//! - [`words`]: value spellings the fragment and epilogue tiles share.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod epilogue;
pub mod fragment;
pub mod global;
pub mod mma;
pub mod mma_check;
pub mod pipeline;
pub mod scale;
pub mod storage;
pub mod tile;
mod value;
pub mod words;
