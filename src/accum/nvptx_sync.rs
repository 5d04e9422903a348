//! The nvptx64 issue of the warp-level `mma.sync.aligned.m16n8kK.row.col` forms (PTX ISA,
//! "Warp Level Matrix Multiply-Accumulate Instructions", `mma`): one instruction updates one
//! 16 × 8 C/D fragment, the 8-column fragment of a warp's strip
//! ([`WgmmaAcc::for_each_frag_mut`] and its f16 / s32 forms), A its four `.b32` registers
//! ([`MmaA`](super::MmaA); a chained k-step of [`PackedAcc::for_each_kstep`](super::PackedAcc::for_each_kstep)
//! for the 16-bit k16 forms) and B its two ([`MmaB`](super::MmaB)). `d` is C and D (`inout`).
#![allow(unsafe_code)]

use super::{MmaA, MmaB, WgmmaAcc, WgmmaAccF16, WgmmaAccS32};
use core::arch::asm;

macro_rules! sync4 {
    ($name:ident, $t:ty, $instr:literal, $arch:literal) => {
        #[doc = concat!("`", $instr, "`: `d = A·B + d` on one 16 × 8 fragment (", $arch, ").")]
        ///
        /// ```ignore
        /// // nvptx64: one n-fragment of a warp's strip per instruction
        #[doc = concat!("s.for_each_frag_mut(|j, c| unsafe { smemdesc::accum::", stringify!($name), "(c, a, b[j]) });")]
        /// ```
        ///
        /// # Safety
        /// Every lane of the warp executes it together (`.sync.aligned`), with fragments laid out
        /// as the PTX ISA's figures for the shape.
        #[inline(always)]
        pub unsafe fn $name(d: &mut $t, a: MmaA, b: MmaB) {
            let r = &mut d.regs;
            // SAFETY: the caller's contract; registers only.
            unsafe {
                asm!(
                    concat!($instr, " {{{0}, {1}, {2}, {3}}}, {{{4}, {5}, {6}, {7}}}, {{{8}, {9}}}, {{{0}, {1}, {2}, {3}}};"),
                    inout(reg32) r[0], inout(reg32) r[1], inout(reg32) r[2], inout(reg32) r[3],
                    in(reg32) a[0], in(reg32) a[1], in(reg32) a[2], in(reg32) a[3],
                    in(reg32) b[0], in(reg32) b[1],
                    options(nomem, nostack),
                );
            }
        }
    };
}

sync4!(
    mma_sync_m16n8k16_bf16,
    WgmmaAcc<8>,
    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
    "sm80+"
);
sync4!(
    mma_sync_m16n8k16_f16,
    WgmmaAcc<8>,
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
    "sm80+"
);
sync4!(
    mma_sync_m16n8k8_tf32,
    WgmmaAcc<8>,
    "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
    "sm80+"
);
sync4!(
    mma_sync_m16n8k32_e4m3,
    WgmmaAcc<8>,
    "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
    "sm89+; PTX ISA 8.4, `-C target-feature=+ptx84`"
);
sync4!(
    mma_sync_m16n8k32_s8,
    WgmmaAccS32<8>,
    "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
    "sm80+"
);
sync4!(
    mma_sync_m16n8k32_u8,
    WgmmaAccS32<8>,
    "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32",
    "sm80+"
);

/// `mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16`: `d = A·B + d` with an f16 accumulator
/// (two f16x2 registers, `{c0, c1}` and `{c2, c3}`; sm80+).
///
/// ```ignore
/// h.for_each_frag_mut(|j, c| unsafe { smemdesc::accum::mma_sync_m16n8k16_f16_f16acc(c, a, b[j]) });
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`).
#[inline(always)]
pub unsafe fn mma_sync_m16n8k16_f16_f16acc(d: &mut WgmmaAccF16<8>, a: MmaA, b: MmaB) {
    let r = &mut d.regs;
    // SAFETY: the caller's contract; registers only.
    unsafe {
        asm!(
            "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {{{0}, {1}}}, {{{2}, {3}, {4}, {5}}}, {{{6}, {7}}}, {{{0}, {1}}};",
            inout(reg32) r[0], inout(reg32) r[1],
            in(reg32) a[0], in(reg32) a[1], in(reg32) a[2], in(reg32) a[3],
            in(reg32) b[0], in(reg32) b[1],
            options(nomem, nostack),
        );
    }
}
