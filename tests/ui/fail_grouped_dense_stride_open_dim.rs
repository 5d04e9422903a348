// [K, M, batch] bf16 with M rewritten per group and K left open for the host's encode: the batch
// stride K x M x 2 B changes with M, so the rewrite must write it, but the kernel does not know K
// (the device would keep the host's stride of another group's M).
use smemdesc::grouped::GroupedMap;
use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapSwizzle};

const MAP_A: GroupedMap = GroupedMap::declare(
    TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 3)
        .dim(2, 8)
        .box_dim(0, 64)
        .box_dim(1, 128)
        .swizzle(TensorMapSwizzle::B128),
    &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
);

fn main() {
    let _ = MAP_A.template();
}
