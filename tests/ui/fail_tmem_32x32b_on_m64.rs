// An M = 64 cta_group::1 accumulator holds elements only in lanes 0-15 of each subpartition: a
// 32-lane 32x32b load would hand threads 16-31 of every warp nothing.
use smemdesc::*;

const D: TmemAccum = TmemAccum::expect_new(64, 64, 1, AccumType::F32);
const MAP: TmemLoadMap = D.expect_load_map(TmemLoad::expect_new(LoadShape::S32x32b, 16));

fn main() {}
