// cuTensorMapEncodeIm2col: pixelsPerColumn is at most 1024.
use smemdesc::tma::{Im2colMap, TensorMapDataType, TensorMapSwizzle};
use smemdesc::Arch;

const M: Im2colMap = Im2colMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 4)
    .dim(0, 64).dim(1, 56).dim(2, 56).dim(3, 8)
    .lower(0, -1).lower(1, -1).upper(0, -1).upper(1, -1)
    .channels_per_pixel(64).pixels_per_column(2048)
    .swizzle(TensorMapSwizzle::B128)
    .expect_valid();

fn main() {
    let _ = M;
}
