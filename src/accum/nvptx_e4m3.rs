//! The nvptx64 side of an FP8 attention's `O += P·V` (issue 47): the RS `wgmma` with an e4m3 A
//! from registers, and the `cvt` that packs four f32 into one `.b32` of e4m3 bytes.
//!
//! PTX ISA, `wgmma.mma_async`: for `.e4m3`/`.e5m2` the RS form is `wgmma.mma_async.sync.aligned
//! .m64nNk32.f32.e4m3.e4m3 d, {a0, a1, a2, a3}, b-desc, scale-d, imm-scale-a, imm-scale-b;` (no
//! transpose immediates: B is K-major). The A registers hold four 8-bit elements each, the
//! fragment of [`WgmmaRegA`](crate::fragment::WgmmaRegA) (register `j`, byte `i`: row
//! `16·warp + lane / 4 + 8·(j & 1)`, k `4·(lane % 4) + i + 16·(j >> 1)`), which is not the
//! f32 accumulator's column order: a chained FP8 kernel permutes the keys of its B operand to
//! match (`gpu/rust-kernel/src/attn_fp8.rs`).
#![allow(unsafe_code)]

use super::WgmmaAcc;
use core::arch::asm;

/// `cvt.rn.satfinite.e4m3x2.f32` twice: `[a, b, c, d]` as e4m3 (round to nearest even,
/// saturated to ±448), `a` in bits 0..8, `b` 8..16, `c` 16..24, `d` 24..32 (`cvt` puts its
/// first source in the upper byte of the `.b16`).
///
/// ```ignore
/// let r = smemdesc::accum::cvt_e4m3x4([1.0, 2.0, 0.5, -1.0]); // nvptx64 only: 0xB8_30_40_38
/// ```
#[inline(always)]
pub fn cvt_e4m3x4(v: [f32; 4]) -> u32 {
    let r: u32;
    // SAFETY: register-only.
    unsafe {
        asm!("{{ .reg .b16 l, h; cvt.rn.satfinite.e4m3x2.f32 l, {2}, {1}; cvt.rn.satfinite.e4m3x2.f32 h, {4}, {3}; mov.b32 {0}, {{l, h}}; }}",
            out(reg32) r, in(reg32) v[0], in(reg32) v[1], in(reg32) v[2], in(reg32) v[3],
            options(pure, nomem, nostack));
    }
    r
}

macro_rules! rs8 {
    ($name:ident, $n:literal, [$f:literal $($i:literal)*]) => {
        #[doc = concat!("`wgmma.mma_async.sync.aligned.m64n", $n, "k32.f32.e4m3.e4m3` (RS): A from four")]
        /// `.b32` registers of four e4m3 each ([`cvt_e4m3x4`]), B (K-major) from its
        /// descriptor; `d = A·B + d` (`accumulate`) or `d = A·B`.
        ///
        /// ```ignore
        /// // nvptx64 only, after wgmma_fence():
        /// // wgmma_m64n128k32_e4m3_rs(&mut o, [a0, a1, a2, a3], desc_v, true);
        /// ```
        ///
        /// # Safety
        /// The whole warpgroup executes it (`.sync.aligned`) after `wgmma.fence` and before
        /// `wgmma.commit_group`, with a descriptor of an operand resident in shared memory.
        #[inline(always)]
        pub unsafe fn $name(d: &mut WgmmaAcc<$n>, a: [u32; 4], desc_b: u64, accumulate: bool) {
            // SAFETY: the caller's contract.
            unsafe {
                asm!(
                    "{{ .reg .pred p; setp.ne.b32 p, {sd}, 0;",
                    concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k32.f32.e4m3.e4m3"),
                    concat!("{{{", $f, "}", $(", {", $i, "}",)* "}},"),
                    "{{{a0}, {a1}, {a2}, {a3}}}, {db}, p, 1, 1; }}",
                    inout(reg32) d.regs[$f],
                    $(inout(reg32) d.regs[$i],)*
                    a0 = in(reg32) a[0],
                    a1 = in(reg32) a[1],
                    a2 = in(reg32) a[2],
                    a3 = in(reg32) a[3],
                    db = in(reg64) desc_b,
                    sd = in(reg32) accumulate as u32,
                    options(nostack),
                );
            }
        }
    };
}

#[rustfmt::skip]
rs8!(wgmma_m64n64k32_e4m3_rs, 64, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31]);
#[rustfmt::skip]
rs8!(wgmma_m64n128k32_e4m3_rs, 128, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63]);
