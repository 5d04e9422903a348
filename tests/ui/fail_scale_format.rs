use smemdesc::smem_scale_tile;

// kind::mxf4 scales with ue8m0 only (ue4m3 is the nvf4 format of kind::mxf4nvf4).
#[smem_scale_tile(kind = mxf4, operand = A, tile = (128, 256), sf = ue4m3)]
struct Sf;

fn main() {}
