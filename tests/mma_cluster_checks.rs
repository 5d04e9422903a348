//! `#[smem_mma(cluster = ..)]` with a block-scaled pairing (issue 28, item 7): every CTA's full
//! barrier receives, per stage, the whole A and B tiles (multicast slices from all sharers) and
//! its own scale-factor tiles. Expected bytes by hand: A is 128 rows of 256 e2m1 values (128 B),
//! B 256 such rows; kind::mxf4 reads one ue8m0 factor per 32 values, so a 256-value row has 8
//! factors, stored in 128-row x 4-factor blocks of 512 B (PTX "Matrix fragments for
//! tcgen05.mma ... block scaling" scale-factor layout): SfA 1 x 2 blocks, SfB 2 x 2 blocks.

#[smemdesc::smem_mma(accum = f32, cluster = (2, 1))]
mod mxf4 {
    use smemdesc::{smem_scale_tile, smem_tile};
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4, tile = (128, 256),
                major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4, tile = (256, 256),
                major = K)]
    pub struct TileB;
    #[smem_scale_tile(kind = mxf4, operand = A, tile = (128, 256))]
    pub struct SfA;
    #[smem_scale_tile(kind = mxf4, operand = B, tile = (256, 256))]
    pub struct SfB;
}

#[test]
fn expect_tx_counts_the_scale_factor_tiles() {
    let (a, b) = (128 * 128, 256 * 128);
    let (sfa, sfb) = (2 * 512, 2 * 2 * 512);
    assert_eq!(
        (mxf4::SfA::STAGE_BYTES, mxf4::SfB::STAGE_BYTES),
        (1024, 2048)
    );
    assert_eq!(mxf4::EXPECT_TX, a + b + sfa + sfb);
    assert_eq!(mxf4::EXPECT_TX, 52_224);
}
