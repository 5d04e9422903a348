use smemdesc::smem_tile;

// cuTensorMapEncodeTiled: "globalDim array ... must be non-zero and less than or equal to 2^32".
#[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K,
            global_dims = (4096, 4294967297), global_strides = (_))]
struct Tile;

fn main() {}
