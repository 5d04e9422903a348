// A pipeline declared `dependent = true` (a programmatic dependent launch) hands out its
// producer only with the proof that `griddepcontrol.wait` returned: `split` does not exist for
// it, so no TMA load can read the primary's output before the wait (issue 46, item 4).
use smemdesc::pipeline::PipeAt;
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, stages = 2)]
pub struct TileA;
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    full: [Mbarrier; 2],
    empty: [Mbarrier; 2],
}
#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1, dependent = true)]
pub struct Pipe;

fn main() {
    let (_producer, _consumers) = PipeAt::<Pipe>::new(0, 0).split();
}
