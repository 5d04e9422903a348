use smemdesc::smem_tile;

// kind::mxf4 takes packed e2m1 only: the kind is at fault, not the dtype (issue 11).
#[smem_tile(arch = sm100, operand = A, dtype = e3m2, tile = (128, 128), major = K,
            kind = mxf4)]
struct Tile;

fn main() {}
