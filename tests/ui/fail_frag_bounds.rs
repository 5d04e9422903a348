// Fragment tiles past what the hardware has: a 1,024-B unswizzled row for a TMA writer (boxDim[0]
// <= 256 elements), stmatrix before sm_90, a tile over sm86's 99 KiB of shared memory per block,
// and extents whose size overflows.
#[smemdesc::smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = f16, operand = A,
    tile = (16, 512), swizzle = none, writer = tma)]
struct WideRow;

#[smemdesc::smem_fragment_tile(arch = sm80, mma = m16n8k16, dtype = bf16, operand = D,
    tile = (64, 32), reader = stmatrix_x4)]
struct OldD;

#[smemdesc::smem_fragment_tile(arch = sm86, mma = m16n8k16, dtype = bf16, operand = A,
    tile = (16, 3200))]
struct Big;

#[smemdesc::smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = bf16, operand = A,
    tile = (4294967280, 4294967280))]
struct Huge;

fn main() {}
