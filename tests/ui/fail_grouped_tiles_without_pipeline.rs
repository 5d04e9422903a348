// The grouped schedule takes the cluster from the kernel's pipeline type: there is no schedule
// without one, so a B-multicast kernel cannot be scheduled as if it had no cluster (a cluster
// would then share one group's B with another group's rows: DeepGEMM #415/#429).
use smemdesc::grouped::{GroupShape, GroupedTiles};

fn main() {
    let g = [GroupShape { m: 300, n: 256, k: 64 }];
    let _ = GroupedTiles::new(&g, 128, 256, 64);
}
