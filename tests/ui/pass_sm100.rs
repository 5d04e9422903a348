//! sm100 declarations: tcgen05 kinds, CTA pairs, MN-major 8-bit and tf32 (128B_base32B), and the
//! function-like forms in `const` items.
use smemdesc::{smem_plan, smem_tile, SmemTile, TilePlan};

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
struct A16;

#[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K, cta_group = 2,
            mma = (256, 256), stages = 4)]
struct BPair;

#[smem_tile(arch = sm100, operand = A, dtype = e4m3, tile = (128, 128), major = MN, swizzle = 128B,
            mma = (128, 256))]
struct Fp8Mn;

#[smem_tile(arch = sm100, operand = A, dtype = tf32, tile = (128, 32), major = MN,
            swizzle = 128B_base32B)]
struct Tf32Mn;

#[smem_tile(arch = sm100, operand = B, dtype = tf32, tile = (128, 32), major = MN,
            swizzle = 128B_32B_atom, mma = (128, 128))]
struct Tf32MnAtom;

#[smem_tile(arch = sm100, operand = A, dtype = tf32, tile = (128, 32), major = MN,
            swizzle = "128B_base32B", order = mn_first)]
struct Tf32MnString;

#[smem_tile(arch = sm100, operand = A, dtype = e4m3, tile = (128, 128), major = K,
            kind = mxf8f6f4, stages = 3)]
struct Mx;

#[smem_tile(arch = sm100, operand = A, dtype = e2m3, tile = (128, 128), major = K, kind = f8f6f4)]
struct Fp6;

#[smem_tile(arch = sm100, operand = B, dtype = s8, tile = (128, 64), major = MN, swizzle = 64B,
            mma = (128, 128))]
struct Int8Mn;

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = none,
            order = k_first)]
struct NoneKFirst;

const P: TilePlan = smem_plan! {
    arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4
};
const Q: TilePlan = smemdesc::plan::smem_tile! {
    arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K, cta_group = 2,
    mma = (256, 256), stages = 4,
};
const _: () = assert!(P.tile.base_descriptor().raw() == A16::DESC);
const _: () = assert!(Q.tile.stage_bytes() == BPair::STAGE_BYTES);
const _: () = assert!(Tf32Mn::LAYOUT_TYPE == 1 && Tf32Mn::TMA_SWIZZLE == 4);
const _: () = assert!(BPair::MMA_N == 256 && BPair::CTA_GROUP == 2);

fn main() {
    assert_eq!(P, A16::PLAN);
    assert_eq!(Q, BPair::PLAN);
    assert_eq!(Tf32MnAtom::SWIZZLE, smemdesc::SwizzleMode::B128Base32B);
    assert_eq!(Tf32MnString::ORDER, smemdesc::Order::MnFirst);
    assert_eq!(<Mx as SmemTile>::PLAN.kind, smemdesc::MmaKind::Mxf8f6f4);
    for d in [
        Fp8Mn::DESC,
        Tf32Mn::DESC,
        Fp6::DESC,
        Int8Mn::DESC,
        NoneKFirst::DESC,
    ] {
        assert_eq!((d >> 46) & 0b111, 1, "sm100 descriptors carry version 1");
    }
}
