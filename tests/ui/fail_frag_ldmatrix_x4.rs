// An m16n8k16 e4m3 A fragment is 16 x 16 bytes: 2 registers per thread per k-step (PTX ISA, mma
// m16n8k16 with .e4m3: a0, a1). ldmatrix .x4 moves 4 registers, so a 16-row tile is read with
// .x1 or .x2 only; the message must not list .x4 as legal.
#[smemdesc::smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = e4m3, operand = A,
    tile = (16, 64), reader = ldmatrix_x4)]
struct F8s;

fn main() {}
