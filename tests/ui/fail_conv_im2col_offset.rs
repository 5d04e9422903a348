// PTX ISA, "Tensors", im2col mode, "Bounding Box": a rank-4 cp.async.bulk.tensor takes im2col
// offsets in [0, 2^8 - 1]. Pad 128 with dilation 128 and a 3-tap filter keeps both pixel-box
// corners at -128 (legal), but the last tap's offset is 128 * (3 - 1) = 256.
use smemdesc::tma::{Conv2d, ImplicitGemmA, TensorMapDataType};

const A: ImplicitGemmA = ImplicitGemmA::expect_new(
    Conv2d::new(1, 64, 64, 64, 64, 3, 3).pad(128, 128).dilation(128, 1),
    TensorMapDataType::Bfloat16,
    128,
    64,
);

// legal: the largest offset, 51 * (6 - 1) = 255
const B: ImplicitGemmA = ImplicitGemmA::expect_new(
    Conv2d::new(1, 64, 64, 64, 64, 6, 1).pad(128, 0).dilation(51, 1),
    TensorMapDataType::Bfloat16,
    128,
    64,
);

fn main() {
    let _ = (A, B);
}
