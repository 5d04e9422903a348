// A grouped rewrite that moves C's map to each group's rows (`globalAddress`) but leaves the
// rows (`globalDim[1]`, open in the template: the host encodes it for the largest group) at the
// template's extent keeps the template's out-of-bounds fetch window: a group of fewer rows is
// read and written past its end. The declaration must rewrite the rows or declare the window
// kept (`declare_keep_oob_fetch_window`) (issue 46, item 3).
use smemdesc::grouped::GroupedMap;
use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapSwizzle};

const MAP_C: GroupedMap = GroupedMap::declare(
    TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
        .dim(0, 4096)
        .box_dim(0, 64)
        .box_dim(1, 128)
        .swizzle(TensorMapSwizzle::B128),
    &[TensorMapArg::GlobalAddress],
);

fn main() {
    let _ = MAP_C.template();
}
