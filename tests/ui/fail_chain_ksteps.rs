// S = Q·Kᵀ in 64 x 24 blocks cannot feed P·V in k16 steps: 24 is not a multiple of 16.
use smemdesc::fragment::ChainedMma;
use smemdesc::{AccumType, ElementType, MmaShape};

const ATTN: ChainedMma = ChainedMma::declare(
    (MmaShape::new(64, 24, 16), ElementType::BF16, AccumType::F32),
    (MmaShape::new(64, 128, 16), ElementType::BF16, AccumType::F32),
);

fn main() {
    let _ = ATTN.ksteps();
}
