// A scale vector without its scale type (mxf4nvf4 takes 2X with ue8m0 or 4X with ue4m3).
#[smemdesc::smem_fragment_tile(arch = sm120, mma = m16n8k64, dtype = e2m1, kind = mxf4nvf4,
                               scale_vec = 4X, operand = A, tile = (64, 128))]
struct Nvf4;

fn main() {}
