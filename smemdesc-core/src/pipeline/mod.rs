//! The TMA → tensor-core pipeline protocol: from a declaration of what one stage loads and who
//! consumes it, every number of its mbarrier protocol — the full and empty barriers' init
//! counts, each stage's `expect_tx` (per CTA under multicast, for the leader under
//! `cta_group::2`), the stage and wait parity of iteration `i`, which CTAs a consumer releases,
//! and the init order — or the declaration that would hang.
//!
//! The protocol, per stage `s = i % stages` of iteration `i`:
//!
//! * producer: wait `empty[s]` with parity [`empty_parity(i)`](PipelineLayout::empty_parity);
//!   `mbarrier.arrive.expect_tx` on `full[s]` with [`expect_tx`](PipelineLayout::expect_tx);
//!   issue the stage's loads (multicast slices to the sharing CTAs' `full[s]`);
//! * consumer: wait `full[s]` with parity [`full_parity(i)`](PipelineLayout::full_parity); read
//!   the stage; once its reads are done arrive on `empty[s]` of every CTA in
//!   [`release_mask`](PipelineLayout::release_mask).
//!
//! ```
//! use smemdesc_core::*;
//! use smemdesc_core::pipeline::*;
//! const P: PipelineLayout = match PipelineSpec::new(Arch::Sm90, 2)
//!     .load(PipelineLoad::bytes("ab", 49152, 4))
//!     .build()
//! {
//!     Ok(p) => p,
//!     Err(_) => panic!("illegal pipeline"),
//! };
//! assert_eq!((P.full_arrivals(), P.empty_arrivals(), P.expect_tx(0)), (1, 2, 49152));
//! ```

pub mod error;
pub mod key;
pub mod layout;
pub mod spec;

pub use error::PipelineError;
pub use key::PipelineKey;
pub use layout::{InitStep, PipelineLayout};
pub use spec::{
    MbarrierArray, PipelineLoad, PipelineSpec, MAX_CTA_THREADS, MAX_LOADS, MAX_MBARRIER_COUNT,
    TMA_DST_ALIGN,
};
