// The PTX ISA's table gives .and/.or/.xor the .b64 type, but through an INT64 tensor map they
// stop the kernel with an illegal instruction on an H200 (gpu/device-logs/2026-11-27-reduce):
// refused by that measured fact, and the message says so rather than citing the ISA.
#[smemdesc::smem_epilogue_tile(dtype = s64, tile = (64, 64), wgmma_n = 64, writer = st_shared_8,
    reader = tma_reduce_xor)]
struct C;

// legal: .xor on u64, .max on s64
#[smemdesc::smem_epilogue_tile(dtype = u64, tile = (64, 64), wgmma_n = 64, writer = st_shared_16,
    reader = tma_reduce_xor)]
struct D;
#[smemdesc::smem_epilogue_tile(dtype = s64, tile = (64, 64), wgmma_n = 64, writer = st_shared_16,
    reader = tma_reduce_max)]
struct E;

fn main() {}
