// An sm100 pair (`cta_group = 2`) is split by rank: the peer CTA gets only a `PeerProducer`,
// whose loads complete on the leader's barriers, and no consumer (its own full barriers never
// complete). `split` (one CTA's handles) does not exist for a pair pipeline (issue 42, item 1).
use smemdesc::pipeline::{PairRole, PipeAt, PipelineOps};
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2, cta_group = 2)]
pub struct TileA;
#[smem_storage(arch = sm100)]
pub struct Storage {
    a: TileA,
    full: [Mbarrier; 2],
    empty: [Mbarrier; 2],
}
#[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1, cta_group = 2)]
pub struct Pair;

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
    let _ = PipeAt::<Pair>::new(0, 1).split();
    if let PairRole::Peer(peer) = PipeAt::<Pair>::new(0, 1).split_pair() {
        let _ = peer.thread(0);
    }
}
