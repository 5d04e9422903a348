//! sm90 declarations: both majors, every swizzle, both stackings, every value spelling; constants
//! used in `const` items, `asm!` const operands and generic code.
use smemdesc::{smem_tile, SmemTile};

/// A of a 128x256x64 bf16 GEMM, 4 stages.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            swizzle = 128B, mma = m64n256k16, stages = 4)]
pub struct TileA;

/// B of the same GEMM (swizzle and mma defaulted).
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4)]
pub struct TileB;

#[smem_tile(arch = "sm90", operand = "A", dtype = "f16", tile = (64, 32), major = "K",
            swizzle = "64B", order = "mn_first", mma = "m64n128k16", stages = 2u32)]
struct Strings;

#[smem_tile(arch = sm_90a, operand = a, dtype = f16, tile = (64, 16), major = k, swizzle = 32B)]
struct Sw32;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 16), major = K, swizzle = none)]
struct NoSwizzle;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 128), major = K, swizzle = 128B,
            order = k_first, mma = (64, 256), stages = 2)]
struct KFirst;

#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = MN, swizzle = 128B,
            mma = (64, 128, 16), stages = 3)]
struct MnMajor128;

#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = MN, swizzle = 64B,
            order = mn_first, mma = (64, 128))]
struct MnMajor64MnFirst;

#[smem_tile(arch = sm90, operand = A, dtype = f16, tile = (64, 64), major = MN, swizzle = 32B)]
struct MnMajor32;

#[smem_tile(arch = sm90, operand = A, dtype = f16, tile = (64, 32), major = MN, swizzle = none,
            order = k_first)]
struct MnMajorNone;

#[smem_tile(arch = sm90, operand = A, dtype = tf32, tile = (64, 32), major = K, swizzle = auto)]
struct Tf32;

#[smem_tile(arch = sm90, operand = B, dtype = e4m3, tile = (128, 128), major = K, swizzle = 128B,
            tma_box = (64, 128), cta_group = 1)]
struct Fp8Box;

#[smem_tile(arch = sm90, operand = A, dtype = s8, tile = (64, 64), major = K, mma = (64, 256, 32),
            kind = i8)]
struct Int8;

// Every constant is usable in `const` items.
const DESCS: [u64; 4] = [
    TileA::desc(0, 0, 0, 0),
    TileA::desc(0, 1, 3, 2),
    TileA::desc(1024, 0, 1, 3),
    <TileB as SmemTile>::DESC,
];
const _: () = assert!(TileA::SBO == 1024 && TileA::LBO == 16 && TileA::LAYOUT_TYPE == 1);
const _: () = assert!(TileA::BYTES == 4 * 128 * 64 * 2 && TileA::ALIGN == 1024);
const _: () =
    assert!(TileA::TMA_BOX_DIM[0] == 64 && TileA::TMA_BOX_DIM[1] == 128 && TileA::TMA_BOXES == 1);
const _: () = assert!(TileA::ADVANCE_K[3] == 6 && TileA::ADVANCE_MN[1] == 512);
const _: () = assert!(TileA::TMA_SWIZZLE == 3 && TileA::TMA_DATA_TYPE == 9);
const _: () = assert!(matches!(KFirst::ORDER, smemdesc::Order::KFirst));
const _: () = assert!(Tf32::SWIZZLE.is(smemdesc::SwizzleMode::B128));
const _: () = assert!(Fp8Box::TMA_BOXES == 2 && Fp8Box::TMA_BOX_OFFSETS[1] == 64 * 128);
const OFF: u32 = TileA::offset(1, 8);
static SMEM_A: TileA = TileA::ZERO;
static SMEM_B: TileB = TileB::new();

/// `asm!` const operands take the constants directly.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn asm_consts() {
    // SAFETY: the template is a comment; it emits no instruction.
    unsafe {
        core::arch::asm!(
            "/* desc {0} sbo {1} adv {2} */",
            const TileA::DESC,
            const <TileA as SmemTile>::SBO,
            const TileA::ADVANCE_K[1],
        );
    }
}

fn sum_descs<T: SmemTile>(base: u32) -> u64 {
    let mut s = 0u64;
    for st in 0..T::STAGES {
        for i in 0..T::MMAS_MN {
            for k in 0..T::MMAS_K {
                s = s.wrapping_add(T::desc(base, i, k, st));
            }
        }
    }
    s
}

fn main() {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    asm_consts();
    assert_eq!(DESCS[1], DESCS[0] + 512 + 6 + 2 * 1024);
    assert_eq!(OFF, TileA::PLAN.tile.byte_offset(1, 8));
    assert_eq!(core::mem::size_of::<TileA>(), TileA::BYTES as usize);
    assert_eq!(core::mem::align_of::<MnMajor128>(), 1024);
    assert_eq!(core::mem::align_of::<NoSwizzle>(), 128);
    assert_eq!(SMEM_B.as_ptr() as usize % 1024, 0);
    assert_eq!(SMEM_A.as_bytes().len(), 65536);
    assert_ne!(sum_descs::<MnMajor64MnFirst>(0), sum_descs::<MnMajor128>(0));
    let all = [
        Strings::DESC,
        Sw32::DESC,
        NoSwizzle::DESC,
        KFirst::DESC,
        MnMajor128::DESC,
        MnMajor64MnFirst::DESC,
        MnMajor32::DESC,
        MnMajorNone::DESC,
        Tf32::DESC,
        Fp8Box::DESC,
        Int8::DESC,
    ];
    assert!(all.iter().all(|d| d >> 62 <= 3));
    let _ = Strings::default();
}
