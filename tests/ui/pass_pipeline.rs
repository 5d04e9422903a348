// A legal pipeline driven through its handles.
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
}

fn main() {
    let pipe = PipeAt::<Pipe>::new(1024, 0);
    pipe.init::<Ops>();
    pipe.init_sync::<Ops>();
    let mut p = pipe.producer();
    let mut c = pipe.consumer(0);
    for i in 0..8u32 {
        let fill = p.acquire::<Ops>().unwrap();
        assert_eq!(fill.load::<Ops>(0, 64 * i, 0).load::<Ops>(0, 64 * i, 0).issued(), i % 4);
        let full = c.wait::<Ops>().unwrap();
        assert_eq!(full.stage(), i % 4);
        full.release::<Ops>();
    }
    assert_eq!((Pipe::EXPECT_TX, Pipe::FULL_ARRIVALS, Pipe::EMPTY_ARRIVALS, Pipe::STAGES), (49152, 1, 2, 4));
}
