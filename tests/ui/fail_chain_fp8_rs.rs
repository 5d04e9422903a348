// An attention kernel's O = P·V with P in e4m3: a k32 e4m3 A fragment holds, in each thread,
// k-columns the thread's f32 accumulator of S = Q·Kᵀ does not: not a register reuse.
use smemdesc::fragment::ChainedMma;
use smemdesc::{AccumType, ElementType, MmaShape};

const ATTN: ChainedMma = ChainedMma::declare(
    (MmaShape::new(64, 128, 32), ElementType::E4M3, AccumType::F32),
    (MmaShape::new(64, 128, 32), ElementType::E4M3, AccumType::F32),
);

fn main() {
    let _ = ATTN.ksteps();
}
