// K is declared constant (4096) in the template and also listed as rewritten.
use smemdesc::grouped::GroupedMap;
use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapSwizzle};

const MAP_B: GroupedMap = GroupedMap::declare(
    TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
        .dim(0, 4096)
        .box_dim(0, 64)
        .box_dim(1, 256)
        .swizzle(TensorMapSwizzle::B128),
    &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(0)],
);

fn main() {
    let _ = MAP_B.template();
}
