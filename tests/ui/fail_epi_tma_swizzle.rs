// The C tile is laid out with the 128B swizzle; a TMA store map with 64B would scramble it.
#[smemdesc::smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 256, reader = tma_store,
    tma_swizzle = 64B)]
struct C;

fn main() {}
