use smemdesc::smem_tile;

// e2m1 for kind::f8f6f4 is TMA'd as CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, whose box must be
// exactly 128 elements wide (cuTensorMapEncodeTiled).
#[smem_tile(arch = sm100, operand = A, dtype = e2m1, tile = (128, 128), major = K,
            tma_box = (128, 64))]
struct Tile;

fn main() {}
