use smemdesc::smem_tile;

// Sizes past u32 arithmetic: the core cannot evaluate them; the macro still answers with an error.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (65536, 65536), major = K)]
struct Huge;

fn main() {}
