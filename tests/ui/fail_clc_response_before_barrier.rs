// A cluster-launch-control response is read only after its barrier's phase completed: a
// request in flight (`ClcPending`) has no way to decode it (issue 46, item 5).
use smemdesc::clc::ClcScheduler;
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
        None
    }
}

fn main() {
    let pending = ClcScheduler::new(0x100, 0x110).unwrap().request::<Ops>();
    let _ = pending.next::<Ops>();
}
