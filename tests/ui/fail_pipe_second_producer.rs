// One producer per pipeline instance: `PipeAt::split` consumes the handle, so a second,
// fresh producer (whose counter would start at 0 and whose waits would prove nothing about
// the first one's loads) cannot be had from it (issue 42, item 5).
use smemdesc::pipeline::{PipeAt, PipelineOps};
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
pub struct TileA;
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4)]
pub struct TileB;
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    b: TileB,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2)]
pub struct Pipe;

struct Ops;
impl PipelineOps for Ops {
    fn init(_: u32, _: u32) {}
    fn fence_init() {}
    fn sync_cta() {}
    fn sync_cluster() {}
    fn arrive_expect_tx(_: u32, _: u32) {}
    fn arrive(_: u32) {}
    fn arrive_cluster(_: u32, _: u32) {}
    fn wait(_: u32, _: u32) -> bool {
        true
    }
    fn map_cta(a: u32, _: u32) -> u32 {
        a
    }
    fn tma_load(_: u32, _: u64, _: u32, _: u32, _: u32) {}
    fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
    fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
}

fn main() {
    let pipe = PipeAt::<Pipe>::new(0, 0);
    pipe.init::<Ops>();
    let (mut producer, _consumers) = pipe.split();
    let _ = producer.acquire::<Ops>();
    let (_again, _) = pipe.split();
}
