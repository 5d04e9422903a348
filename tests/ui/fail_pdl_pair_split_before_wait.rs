// An sm100 pair declared `dependent = true` (a programmatic dependent launch) hands out its
// sides (the leader's producer and consumers, the peer's producer) only with the proof that
// `griddepcontrol.wait` returned: `split_pair` does not exist for it, so neither CTA's half
// loads the primary's output before its wait (issue 46, item 4).
use smemdesc::pipeline::PipeAt;
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2, cta_group = 2)]
pub struct TileA;
#[smem_storage(arch = sm100)]
pub struct Storage {
    a: TileA,
    full: [Mbarrier; 2],
    empty: [Mbarrier; 2],
}
#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1, cta_group = 2, dependent = true)]
pub struct Pipe;

fn main() {
    let _role = PipeAt::<Pipe>::new(0, 1).split_pair();
}
