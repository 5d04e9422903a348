//! Block-scale-factor tiles through `#[smem_scale_tile]`.
use smemdesc::smem_scale_tile;

#[smem_scale_tile(kind = mxf4nvf4, operand = A, tile = (128, 256), stages = 4)]
struct SfA;

#[smem_scale_tile(kind = mxf8f6f4, operand = B, tile = (64, 128), sf = ue8m0, vec = 32)]
struct SfB;

static SMEM_SFA: SfA = SfA::ZERO;

fn main() {
    // ue4m3, one factor per 16 values: 16 factors per row, 4 K atoms of 512 B
    assert_eq!(
        (SfA::VEC, SfA::SF_K, SfA::K_BLOCKS, SfA::STAGE_BYTES),
        (16, 16, 4, 2048)
    );
    assert_eq!((SfA::BYTES, SfA::FACTORS_PER_MMA), (4 * 2048, 4));
    assert_eq!(
        SfA::COPY_INSTRUCTION,
        "tcgen05.cp.cta_group::1.32x128b.warpx4"
    );
    assert_eq!(SfA::TMA_BOX_DIM, [256, 2, 1, 1]);
    assert_eq!(SfA::TMA_BOX_OFFSETS, [0, 512, 1024, 1536]);
    const D: u64 = SfA::copy_desc(0x400, 0, 1, 2);
    assert_eq!(D & 0x3fff, (0x400 + 2 * 2048 + 512) >> 4);
    assert_eq!(SfA::offset(33, 16 * 5), 512 + 16 + 4 + 1);
    // B's N = 64 is padded to one 128-row atom
    assert_eq!((SfB::MN_BLOCKS, SfB::STAGE_BYTES), (1, 512));
    assert_eq!(core::mem::align_of::<SfA>(), 128);
    assert_eq!(SMEM_SFA.as_bytes().len() as u32, 4 * 2048);
}
