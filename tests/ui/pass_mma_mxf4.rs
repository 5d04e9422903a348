//! `#[smem_mma]` over packed fp4 tiles (`kind::mxf4nvf4`, ue4m3 factors) with their
//! `#[smem_scale_tile]`s in the same module, and a K = 96 CTA-pair variant.
#[smemdesc::smem_mma(accum = f32, sf = ue4m3)]
mod nvf4 {
    use smemdesc::{smem_scale_tile, smem_tile};
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K, stages = 3)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4nvf4, tile = (256, 256),
                major = K, stages = 3)]
    pub struct TileB;
    #[smem_scale_tile(kind = mxf4nvf4, operand = A, tile = (128, 256), sf = ue4m3, stages = 3)]
    pub struct SfA;
    #[smem_scale_tile(kind = mxf4nvf4, operand = B, tile = (256, 256), sf = ue4m3, stages = 3)]
    pub struct SfB;
}

#[smemdesc::smem_mma(accum = f32)]
mod mxf4_k96 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4, tile = (128, 384),
                major = K, cta_group = 2, mma = m256n256k96)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4, tile = (128, 384),
                major = K, cta_group = 2, mma = m256n256k96)]
    pub struct TileB;
}

fn main() {
    use smemdesc::SmemTile;
    // PTX Table 44: E2M1 = 1 (A, B), N>>3 = 32, UE4M3 = 0, M>>7 = 1
    assert_eq!(nvf4::IDESC, (1 << 7) | (1 << 10) | (32 << 17) | (1 << 27));
    assert_eq!(
        nvf4::mnemonic!(),
        "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X"
    );
    // 64 values per instruction, one ue4m3 factor per 16: 4 factors, one TMEM word
    assert_eq!((nvf4::MMA_K, nvf4::SfA::FACTORS_PER_MMA), (64, 4));
    assert_eq!(nvf4::TileA::MMAS_K, 256 / 64);
    // K = 96: bit 31, UE8M0 (bit 23), M>>7 = 2, four instructions along K = 384
    assert_eq!(mxf4_k96::IDESC >> 31, 1);
    assert_eq!(mxf4_k96::IDESC & (3 << 27), 2 << 27);
    assert_eq!(mxf4_k96::TileA::MMAS_K, 4);
    assert_eq!(
        mxf4_k96::MNEMONIC,
        "tcgen05.mma.cta_group::2.kind::mxf4.block_scale.block32"
    );
}
