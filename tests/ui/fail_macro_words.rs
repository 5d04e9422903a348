// The fragment and epilogue macros speak their own keys and names: a missing key lists its own
// values, a key without a value likewise, a derive(Default) is not refused as #[smem_tile]'s,
// a field is refused in their words; s32 is not offered where it is refused.
#[smemdesc::smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = bf16, operand = A)]
struct NoTile;

#[smemdesc::smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = bf16, operand = A,
    tile = (16, 16), reader)]
struct NoValue;

#[smemdesc::smem_epilogue_tile(dtype = e4m3, tile = (64, 64), wgmma_n = 64)]
struct E4m3;

#[smemdesc::smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 64)]
struct Fields {
    x: u32,
}

fn main() {}
