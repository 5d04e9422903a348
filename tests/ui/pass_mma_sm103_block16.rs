//! sm103 (B300, `sm_103a`): `#[smem_mma]` over packed fp4 tiles with `kind::mxf4nvf4`, one ue4m3
//! factor per 16 values (`vec = 16`): the `.block_scale.block16` form (PTX ISA 8.8; CCCL's
//! `tcgen05_mma.h` lists it for SM_103a), and the same 32-bit instruction descriptor as sm100's.
#[smemdesc::smem_mma(accum = f32, sf = ue4m3, vec = 16)]
mod nvf4 {
    use smemdesc::{smem_scale_tile, smem_tile};
    #[smem_tile(arch = sm103, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K, stages = 2)]
    pub struct TileA;
    #[smem_tile(arch = sm103, operand = B, dtype = e2m1, kind = mxf4nvf4, tile = (256, 256),
                major = K, stages = 2)]
    pub struct TileB;
    #[smem_scale_tile(kind = mxf4nvf4, operand = A, tile = (128, 256), sf = ue4m3, stages = 2)]
    pub struct SfA;
    #[smem_scale_tile(kind = mxf4nvf4, operand = B, tile = (256, 256), sf = ue4m3, stages = 2)]
    pub struct SfB;
}

fn main() {
    use smemdesc::SmemTile;
    // PTX ISA, instruction descriptor of .kind::mxf4nvf4: E2M1 = 1 for A (bits 7-9) and B
    // (10-11), N>>3 = 32 at bit 17, UE4M3 = 0 (bit 23), M>>7 = 1 at bit 27.
    assert_eq!(nvf4::IDESC, (1 << 7) | (1 << 10) | (32 << 17) | (1 << 27));
    assert_eq!(
        nvf4::mnemonic!(),
        "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16"
    );
    // 64 values per instruction, one factor per 16: 4 factors per row.
    assert_eq!((nvf4::MMA_K, nvf4::SfA::FACTORS_PER_MMA), (64, 4));
    assert_eq!(nvf4::TileA::MMAS_K, 256 / 64);
}
