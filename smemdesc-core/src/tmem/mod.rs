//! Blackwell Tensor Memory (TMEM) at compile time: where a `tcgen05.mma` accumulator sits
//! ([`TmemAccum`](crate::TmemAccum)), which thread and register of each `tcgen05.ld` shape receives which element
//! ([`TmemLoad`](crate::TmemLoad), [`TmemLoadMap`](crate::TmemLoadMap)), the allocation plan of accumulator stages and scale-factor
//! columns ([`TmemPlan`](crate::TmemPlan)), and the shared-memory slot `tcgen05.alloc` writes the address to
//! ([`TmemSlot`](crate::TmemSlot)).
//!
//! TMEM has 128 lanes × 512 columns of 32 bits per SM; a TMEM address holds the lane in bits
//! 16-31 and the column in bits 0-15; warp `w` of a warpgroup may access only lanes
//! `32·(w mod 4) .. +32`. Everything here rests on the PTX ISA documents and CuTe (the golden rows
//! of `tests/data/golden-tmem/`): no Blackwell GPU was available to run it.
//!
//! ```
//! use smemdesc_core::*;
//! const D: TmemAccum = TmemAccum::expect_new(128, 256, 1, AccumType::F32);
//! const M: TmemLoadMap = D.expect_load_map(TmemLoad::expect_new(LoadShape::S32x32b, 32));
//! // thread 40 (warp 1), register 33: the second load (columns 32..64), lane 40
//! assert_eq!(M.reg_element_wrapping(40, 33), (40, 33));
//! assert_eq!((M.loads(), M.regs_per_thread()), (8, 256));
//! ```

pub mod accum;
pub mod error;
pub mod load;
pub mod map;
pub mod plan;
pub mod scale;
pub mod slot;
