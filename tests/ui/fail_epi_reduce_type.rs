// cp.reduce.async.bulk.tensor .max takes u32, s32, u64, s64, f16 and bf16 (PTX ISA), not f32; .inc
// takes u32 only.
#[smemdesc::smem_epilogue_tile(dtype = f32, tile = (64, 64), wgmma_n = 64, writer = st_shared_8,
    reader = tma_reduce_max)]
struct C;

#[smemdesc::smem_epilogue_tile(dtype = s32, tile = (64, 64), wgmma_n = 64, writer = st_shared_8,
    reader = tma_reduce_inc)]
struct D;

// legal: .xor on s32, .inc on u32, .min on bf16
#[smemdesc::smem_epilogue_tile(dtype = s32, tile = (64, 64), wgmma_n = 64, writer = st_shared_8,
    reader = tma_reduce_xor)]
struct E;
#[smemdesc::smem_epilogue_tile(dtype = u32, tile = (64, 64), wgmma_n = 64, writer = st_shared_8,
    reader = tma_reduce_inc)]
struct F;
#[smemdesc::smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 64, reader = tma_reduce_min)]
struct G;

fn main() {}
