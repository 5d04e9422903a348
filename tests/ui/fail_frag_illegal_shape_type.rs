#[smemdesc::smem_fragment_tile(arch = sm80, mma = m16n8k4, dtype = bf16, operand = A, tile = (16, 16))]
struct A;

#[smemdesc::smem_fragment_tile(arch = sm80, mma = m16n8k12, dtype = bf16, operand = A, tile = (16, 16))]
struct B;

fn main() {}
