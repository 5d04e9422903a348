// A slot lent to the producer for its loads cannot be rewritten: it comes back only through
// `Producer::reclaim`, after every load that read its map landed.
use smemdesc::grouped::*;
use smemdesc::pipeline::{PipeAt, PipelineOps};
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};
use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapSwizzle};

struct MapB;
impl GroupedMapDecl for MapB {
    const MAP: GroupedMap = GroupedMap::declare(
        TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
            .dim(0, 4096)
            .stride(0, 8192)
            .box_dim(0, 64)
            .box_dim(1, 256)
            .swizzle(TensorMapSwizzle::B128),
        &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
    );
}

struct Ops;
impl TensorMapOps for Ops {
    fn replace_address(_: u64, _: u64) {}
    fn replace_dim<const ORD: u32>(_: u64, _: u32) {}
    fn replace_stride<const ORD: u32>(_: u64, _: u64) {}
    fn release() {}
    fn acquire(_: u64) {}
    fn bulk_wait_read_all() {}
}

#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
pub struct TileB;
#[smem_storage(arch = sm90)]
pub struct Storage {
    b: TileB,
    full: [Mbarrier; 2],
    empty: [Mbarrier; 2],
}
#[smem_pipeline(storage = Storage, loads = (b: TileB), consumers = 1)]
pub struct Pipe;
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
    let mut mem = TensorMapMem::zeroed();
    let slot = MapSlot::<MapB, Released>::new(&mut mem).acquire_for_loads::<Ops>();
    let (producer, _consumers) = PipeAt::<Pipe>::new(0, 0).split();
    let mut producer = producer.lend(slot);
    let fill = producer.acquire::<Ops>().unwrap();
    let _ = fill.load_lent::<Ops>(0, 0).issued();
    let _ = slot.rewrite::<Ops>(&GroupValues::new(0x7f00_0000_0000).dim(1, 256));
}
