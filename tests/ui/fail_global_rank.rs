use smemdesc::smem_tile;

// cuTensorMapEncodeTiled: "tensorRank must be non-zero and less than or equal to ... 5"; a tile
// map needs 2 (its box is 2-D). And globalStrides holds tensorRank - 1 entries.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            global_dims = (64, 64, 2, 2, 2, 2))]
struct Tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            global_dims = (64, 64), global_strides = (128, 8192))]
struct Tile2;

fn main() {}
