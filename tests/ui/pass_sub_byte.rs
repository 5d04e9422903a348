//! Sub-byte SMEM forms through the macro: padded fp4/fp6 (kind::f8f6f4), packed fp4 (kind::mxf4,
//! K = 64 and K = 96).
use smemdesc::{smem_tile, SmemTile};

#[smem_tile(arch = sm100, operand = A, dtype = e2m1, tile = (128, 128), major = K)]
struct PaddedFp4;

#[smem_tile(arch = sm100, operand = B, dtype = e3m2, tile = (256, 128), major = K, stages = 2)]
struct PaddedFp6;

#[smem_tile(arch = sm100, operand = A, dtype = e2m1, tile = (128, 256), major = K, kind = mxf4,
            stages = 3)]
struct PackedK64;

// K = 96 is the CTA-pair shape 256xNx96 (PTX tcgen05 "Matrix Shape"): B holds N / 2 per CTA
#[smem_tile(arch = sm100, operand = B, dtype = e2m1, tile = (128, 192), major = K,
            kind = mxf4nvf4, cta_group = 2, mma = m256n256k96)]
struct PackedK96;

fn main() {
    // 16U4_ALIGN16B = 14, 16U6_ALIGN16B = 15, 16U4_ALIGN8B = 13 (cuda.h)
    assert_eq!(
        (PaddedFp4::TMA_DATA_TYPE, PaddedFp4::TMA_BOX_DIM),
        (14, [128, 128])
    );
    assert_eq!(PaddedFp6::TMA_DATA_TYPE, 15);
    assert_eq!((PackedK64::TMA_DATA_TYPE, PackedK64::MMA_K), (13, 64));
    assert_eq!(
        (PackedK96::MMA_K, PackedK96::MMAS_K, PackedK96::LAYOUT_TYPE),
        (96, 2, 0)
    );
    // 128 rows x 256 values / 2 per byte
    assert_eq!(PackedK64::STAGE_BYTES, 128 * 128);
    const V: smemdesc::ValueOffset = PaddedFp4::value_offset(0, 15);
    assert_eq!((V.byte, V.bit, V.bits), (7, 4, 4));
    assert_eq!(PackedK64::value_offset(0, 3).bit, 4);
}
