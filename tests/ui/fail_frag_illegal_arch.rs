#[smemdesc::smem_fragment_tile(arch = sm75, mma = m16n8k16, dtype = f16, operand = A, tile = (16, 16))]
struct A;

// e4m3 mma.sync needs sm89
#[smemdesc::smem_fragment_tile(arch = sm86, mma = m16n8k32, dtype = e4m3, operand = A, tile = (16, 32))]
struct B;

fn main() {}
