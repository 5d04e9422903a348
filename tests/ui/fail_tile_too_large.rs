use smemdesc::smem_tile;

// One stage alone is far past shared memory (and past u32 arithmetic): the error is on `tile`.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (65536, 65536), major = K, stages = 2)]
struct Huge;

fn main() {}
