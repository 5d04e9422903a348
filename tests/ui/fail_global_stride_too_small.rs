use smemdesc::smem_tile;

// cuTensorMapEncodeTiled: "globalStrides[0] = globalDim[0] * elementSizeInBytes(tensorDataType)
// + padding[0]": a 4096 B stride cannot hold a row of 4096 bf16 (8192 B).
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            global_dims = (4096, _), global_strides = (4096))]
struct Tile;

fn main() {}
