// MN-major e4m3 needs ldmatrix .trans, which on sm80-sm90 exists for .b16 only.
#[smemdesc::smem_fragment_tile(arch = sm90, mma = m16n8k32, dtype = e4m3, operand = B,
    major = MN, tile = (32, 64))]
struct B;

fn main() {}
