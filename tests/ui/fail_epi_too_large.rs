// C tiles past sm90's 232,448 B of shared memory per CTA: too many stages, a tile whose size
// overflows, and 16,448 rows (whose TMA boxes used to leave 64 rows out).
#[smemdesc::smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 64, stages = 1000000)]
struct Stages;

#[smemdesc::smem_epilogue_tile(dtype = bf16, tile = (4294967232, 64), wgmma_n = 64)]
struct Huge;

#[smemdesc::smem_epilogue_tile(dtype = bf16, tile = (16448, 8), wgmma_n = 8)]
struct Tall;

fn main() {}
