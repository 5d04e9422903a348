// Two A tiles, one configured out: the pairing is computed before `#[cfg]` is evaluated, so a
// tile under `#[cfg]` is refused on the cfg (it used to be counted: "operand = A appears twice").
#[smemdesc::smem_mma(accum = f32)]
mod gemm {
    use smemdesc::smem_tile;

    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = m64n256k16)]
    pub struct TileA;

    #[cfg(any())]
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = m64n128k16)]
    pub struct TileA2;

    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, mma = m64n256k16)]
    pub struct TileB;
}

fn main() {}
