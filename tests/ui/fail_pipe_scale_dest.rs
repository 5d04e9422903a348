// A scale-factor load into a 16-byte member: its TMA would write 4 stages of 2048 B over the
// barriers behind it.
use smemdesc::{smem_pipeline, smem_scale_tile, smem_storage, Mbarrier};

#[smem_scale_tile(kind = mxf4nvf4, operand = A, tile = (128, 256), stages = 4)]
pub struct SfA;
#[smem_storage(arch = sm100)]
pub struct Storage {
    sfa: [u8; 16],
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (sfa: scale SfA), consumers = 1)]
pub struct Pipe;

fn main() {
    let _ = Pipe::EXPECT_TX;
}
