// Unswizzled 128-B rows: stmatrix's 8 row addresses of a matrix all hit banks 0..3 (8-way).
#[smemdesc::smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 256, writer = stmatrix_x4,
    swizzle = none)]
struct C;

fn main() {}
