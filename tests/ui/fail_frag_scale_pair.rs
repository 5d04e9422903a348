// scale_vec::4X with ue8m0: listed by the PTX table, refused by ptxas for sm_120a (CUDA 13.0).
#[smemdesc::smem_fragment_tile(arch = sm120, mma = m16n8k64, dtype = e2m1, kind = mxf4nvf4,
                               scale_vec = 4X, stype = ue8m0, operand = A, tile = (64, 128))]
struct Nvf4;

fn main() {}
