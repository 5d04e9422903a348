// Every declared load is issued before the stage counts as filled: B is missing.
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
    let mut p = PipeAt::<Pipe>::new(0, 0).split().0;
    let fill = p.acquire::<Ops>().unwrap();
    let _ = fill.load::<Ops>(0, 0, 0).issued();
}
