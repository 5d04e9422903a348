//! Pairing an A and a B tile for one wgmma/tcgen05 instruction.

pub(crate) mod pair;
pub(crate) mod scale;

pub use pair::{MmaPair, Mnemonic, PairOptions};
