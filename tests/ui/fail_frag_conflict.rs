// Unswizzled 128-B rows: every ldmatrix row of a matrix hits banks 0..3 (8-way).
#[smemdesc::smem_fragment_tile(arch = sm80, mma = m16n8k16, dtype = bf16, operand = A,
    tile = (64, 64), swizzle = none, conflict_free = true)]
struct A;

fn main() {}
