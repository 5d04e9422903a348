// A constant global address 8 B past a 16-B boundary.
use smemdesc::grouped::GroupedMap;
use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapSwizzle};

const MAP_B: GroupedMap = GroupedMap::declare(
    TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
        .address(0x7f00_0000_0008)
        .dim(0, 4096)
        .stride(0, 8192)
        .box_dim(0, 64)
        .box_dim(1, 256)
        .swizzle(TensorMapSwizzle::B128),
    &[TensorMapArg::GlobalDim(1)],
);

fn main() {
    let _ = MAP_B.template();
}
