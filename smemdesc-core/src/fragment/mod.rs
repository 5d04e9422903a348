//! The register-fragment path: warp-level `mma.sync` (sm80, sm86, sm89, sm90, sm120) and the
//! Hopper `wgmma` accumulator.
//!
//! * [`MmaSync`]: the instruction catalogue per architecture (shapes, kinds, types, scale
//!   vectors), with the PTX ISA's legality rules;
//! * [`MmaSync::coord`] / [`MmaSync::locate`]: the fragment maps (lane, element) ↔ (row, col) of
//!   A, B and C/D; [`WgmmaAccum`]: the `wgmma` accumulator's (thread, element) ↔ (m, n);
//! * [`WgmmaRegA`]: the `wgmma` A operand read from registers (`(thread, element) ↔ (m, k)`);
//!   [`ChainedMma`]: a checked `wgmma` → `wgmma` chain (accumulator → A registers, with the
//!   f32 → f16/bf16 packing); [`WgmmaAccum::rows`] and friends: which threads share a row;
//! * [`MmaSync::scale_slot`]: where a block-scaled form's scale factors sit;
//! * [`bank_report`]: the bank-conflict model of one warp access;
//! * [`LdmatrixTile`]: an `ldmatrix`-read operand tile: layout, per-lane row addresses,
//!   registers, reader and writer conflict checks.
//!
//! ```
//! use smemdesc_core::ElementType;
//! use smemdesc_core::fragment::*;
//! const M: MmaSync = match MmaSync::new(SyncArch::Sm89, SyncShape::M16N8K32, ElementType::E4M3) {
//!     Ok(m) => m,
//!     Err(_) => panic!("illegal"),
//! };
//! const A5: Option<(u32, u32)> = M.coord(FragOperand::A, 0, 5); // a5 of lane 0
//! assert_eq!(A5, Some((8, 1)));
//! ```

mod banks;
mod catalogue;
mod chain;
mod ldmatrix;
mod map;
mod names;
mod rows;
mod scale;
mod tile_types;
mod wgmma_regs;

pub use banks::{bank_of, bank_report, BankReport, WarpAccess};
pub use catalogue::{FragError, MmaSync};
pub use chain::{ChainError, ChainSide, ChainedMma, Conversion, WgmmaInstr};
pub use ldmatrix::{LdmatrixTile, MAX_PAD_BYTES, MAX_TILE_BYTES};
pub use map::{FragOperand, WgmmaAccum};
pub use names::{ScaleType, ScaleVec, SyncArch, SyncKind, SyncShape};
pub use scale::ScaleSelector;
pub use tile_types::{RowLayout, TileError, Writer};
pub use wgmma_regs::{WgmmaRegA, WGMMA_A_REGS};
