// A live map may still be read by in-flight TMA: retire it (after the stores' read wait) before rewriting.
use smemdesc::grouped::*;
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

fn main() {
    let mut mem = TensorMapMem::zeroed();
    let live = MapSlot::<MapB, Released>::new(&mut mem).acquire::<Ops>();
    let _ = live.rewrite::<Ops>(&GroupValues::new(0x7f00_0000_0000).dim(1, 256));
}
