use smemdesc::smem_tile;

// cuTensorMapEncodeTiled: "globalStrides array ... must be a multiple of 16 and less than 2^40".
// A row of 4100 bf16 is 8200 B: the stride 8200 is not a multiple of 16.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            global_dims = (4100, 4096), global_strides = (8200))]
struct Tile;

fn main() {}
