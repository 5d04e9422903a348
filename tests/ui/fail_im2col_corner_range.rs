// cuTensorMapEncodeIm2col: for a rank-4 map the pixel-box corners are in [-2^7, 2^7 - 1];
// a 3x3 filter with padding 129 would need -129.
use smemdesc::tma::{Im2colMap, TensorMapDataType};
use smemdesc::Arch;

const M: Im2colMap = Im2colMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 4)
    .dim(0, 64).dim(1, 56).dim(2, 56).dim(3, 8)
    .lower(0, -129).lower(1, -1).upper(0, -1).upper(1, -1)
    .channels_per_pixel(64).pixels_per_column(128)
    .expect_valid();

fn main() {
    let _ = M;
}
