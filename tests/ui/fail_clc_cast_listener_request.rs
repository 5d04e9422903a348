// The cluster-wide form of cluster launch control (`try_cancel.multicast::cluster::all`):
// rank 0 asks for the whole cluster, every other rank only expects the broadcast. A listener
// has no `request`, so no second CTA of a cluster overwrites the shared response slots with a
// request of its own (issue 46, item 5).
use smemdesc::clc::{ClcCluster, ClcRole};
use smemdesc::pipeline::PipelineOps;

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
impl smemdesc::clc::ClcOps for Ops {
    fn try_cancel(_: u32, _: u32) {}
    fn query(_: u32) -> Option<[u32; 3]> {
        Some([0, 0, 0])
    }
}
impl smemdesc::clc::ClcMulticastOps for Ops {
    fn try_cancel_multicast(_: u32, _: u32) {}
}

fn main() {
    if let ClcRole::Listener(listener) = ClcCluster::new(0x100, 0x110, 0x118, 2).unwrap().role(1) {
        let _ = listener.request::<Ops>();
    }
}
