// The proof that every load landed borrows the producer: no new load may be issued while the
// proof is held (it would be in flight when the map is rewritten).
use smemdesc::pipeline::{PipeAt, PipelineOps};
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
pub struct TileA;
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    full: [Mbarrier; 2],
    empty: [Mbarrier; 2],
}
#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1)]
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
    let mut producer = PipeAt::<Pipe>::new(0, 0).producer();
    let landed = producer.wait_landed::<Ops>().unwrap();
    let _ = producer.acquire::<Ops>();
    drop(landed);
}
