//! The nvptx64 issue of the `.f16`-accumulator `wgmma.mma_async` forms on [`WgmmaAccF16`]
//! (PTX ISA, `wgmma.mma_async`: `.dtype = .f16` with `.atype = .btype = .f16` (k16, SS and RS,
//! transposes legal) and with `.e4m3`/`.e5m2` (k32, both K-major); every `m64nN` of sm90, `N` a
//! multiple of 8 in `8..=256`). Each of the `N / 4` f16x2 registers is one `asm!` operand. Also
//! the row reductions' quad shuffles and `fence_operands`.
#![allow(unsafe_code)]

use super::nvptx::shfl_bfly;
use super::{AccCols, Cols, WgmmaAccF16};
use core::arch::asm;

impl<const N: usize> WgmmaAccF16<N>
where
    Cols<N>: AccCols,
{
    /// The maxima of the thread's two rows over the whole tile (in f32: the thread-local
    /// maxima, then the quad's `shfl.sync.bfly` xor 1 and 2). Every lane of the warp calls it.
    ///
    /// ```ignore
    /// let [m_hi, m_lo] = s.row_max(); // nvptx64 only
    /// ```
    #[inline(always)]
    pub fn row_max(&self) -> [f32; 2] {
        let mut m = self.row_max_local();
        m[0] = m[0].max(shfl_bfly(m[0], 1));
        m[1] = m[1].max(shfl_bfly(m[1], 1));
        m[0] = m[0].max(shfl_bfly(m[0], 2));
        m[1] = m[1].max(shfl_bfly(m[1], 2));
        m
    }

    /// The sums of the thread's two rows over the whole tile (in f32; local sums, then the quad's
    /// shuffles). Every lane of the warp calls it.
    ///
    /// ```ignore
    /// let [l_hi, l_lo] = p.row_sum(); // nvptx64 only
    /// ```
    #[inline(always)]
    pub fn row_sum(&self) -> [f32; 2] {
        let mut s = self.row_sum_local();
        s[0] += shfl_bfly(s[0], 1);
        s[1] += shfl_bfly(s[1], 1);
        s[0] += shfl_bfly(s[0], 2);
        s[1] += shfl_bfly(s[1], 2);
        s
    }
}

/// Writes the issue functions of one `m64nN` width: `$list` the accumulator's register indices.
macro_rules! issue16 {
    (@ss $name:ident, $n:literal, $instr:expr, $list:tt) => {
        wgmma_fn!(ss
            #[doc = concat!("`", $instr, "` (SS): `d = A·B + d` (`accumulate`) or `d = A·B`, f16")]
            /// accumulator, A and B from shared-memory descriptors; `TA`/`TB` are
            /// `imm-trans-a`/`imm-trans-b` (1 for an MN-major operand).
            ///
            /// # Safety
            /// The whole warpgroup executes it (`.sync.aligned`) after `wgmma.fence` and before
            /// `wgmma.commit_group`, with descriptors of operands resident in shared memory.
            $name [ta: TA, tb: TB] WgmmaAccF16<$n>, $instr, "p, 1, 1, {ta}, {tb}", $list);
    };
    (@ss8 $name:ident, $n:literal, $instr:expr, $list:tt) => {
        wgmma_fn!(ss
            #[doc = concat!("`", $instr, "` (SS): f16 accumulator, A and B (8-bit, both K-major)")]
            /// from shared-memory descriptors.
            ///
            /// # Safety
            /// The whole warpgroup executes it (`.sync.aligned`) after `wgmma.fence` and before
            /// `wgmma.commit_group`, with descriptors of operands resident in shared memory.
            $name [] WgmmaAccF16<$n>, $instr, "p, 1, 1", $list);
    };
    (@rs $name:ident, $n:literal, $instr:expr, $list:tt) => {
        wgmma_fn!(rs
            #[doc = concat!("`", $instr, "` (RS): f16 accumulator, A from four `.b32` registers (a")]
            /// k-step of [`PackedAcc::for_each_kstep`](super::PackedAcc::for_each_kstep), e.g. of
            /// [`WgmmaAccF16::as_packed`]), B from its descriptor; `TB` is `imm-trans-b`.
            ///
            /// # Safety
            /// As for the SS form.
            $name [tb: TB] WgmmaAccF16<$n>, $instr, "p, 1, 1, {tb}", $list);
    };
    (@fence $n:literal, $list:tt) => {
        wgmma_fn!(fence
            /// Holds every later read or write of the accumulator below the preceding
            /// `wgmma.wait_group` (as [`WgmmaAcc::fence_operands`](super::WgmmaAcc::fence_operands)):
            /// an empty `asm!` taking each register `inout`. Emits no instruction.
            WgmmaAccF16<$n>, $list);
    };
    ($n:literal, $list:tt, $f16:ident, $f16rs:ident, $e4:ident, $e5:ident) => {
        issue16!(@ss $f16, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k16.f16.f16.f16"), $list);
        issue16!(@rs $f16rs, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k16.f16.f16.f16"), $list);
        issue16!(@ss8 $e4, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k32.f16.e4m3.e4m3"), $list);
        issue16!(@ss8 $e5, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k32.f16.e5m2.e5m2"), $list);
        issue16!(@fence $n, $list);
    };
}

// Every m64nN of sm90 for a .f16 D (N a multiple of 8 in 8..=256; the core's check_mma_shape).
#[rustfmt::skip]
issue16!(8, [0 1],
    wgmma_m64n8k16_f16_f16acc, wgmma_m64n8k16_f16_rs_f16acc, wgmma_m64n8k32_e4m3_f16acc, wgmma_m64n8k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(16, [0 1 2 3],
    wgmma_m64n16k16_f16_f16acc, wgmma_m64n16k16_f16_rs_f16acc, wgmma_m64n16k32_e4m3_f16acc, wgmma_m64n16k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(24, [0 1 2 3 4 5],
    wgmma_m64n24k16_f16_f16acc, wgmma_m64n24k16_f16_rs_f16acc, wgmma_m64n24k32_e4m3_f16acc, wgmma_m64n24k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(32, [0 1 2 3 4 5 6 7],
    wgmma_m64n32k16_f16_f16acc, wgmma_m64n32k16_f16_rs_f16acc, wgmma_m64n32k32_e4m3_f16acc, wgmma_m64n32k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(40, [0 1 2 3 4 5 6 7 8 9],
    wgmma_m64n40k16_f16_f16acc, wgmma_m64n40k16_f16_rs_f16acc, wgmma_m64n40k32_e4m3_f16acc, wgmma_m64n40k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(48, [0 1 2 3 4 5 6 7 8 9 10 11],
    wgmma_m64n48k16_f16_f16acc, wgmma_m64n48k16_f16_rs_f16acc, wgmma_m64n48k32_e4m3_f16acc, wgmma_m64n48k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(56, [0 1 2 3 4 5 6 7 8 9 10 11 12 13],
    wgmma_m64n56k16_f16_f16acc, wgmma_m64n56k16_f16_rs_f16acc, wgmma_m64n56k32_e4m3_f16acc, wgmma_m64n56k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(64, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15],
    wgmma_m64n64k16_f16_f16acc, wgmma_m64n64k16_f16_rs_f16acc, wgmma_m64n64k32_e4m3_f16acc, wgmma_m64n64k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(72, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17],
    wgmma_m64n72k16_f16_f16acc, wgmma_m64n72k16_f16_rs_f16acc, wgmma_m64n72k32_e4m3_f16acc, wgmma_m64n72k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(80, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19],
    wgmma_m64n80k16_f16_f16acc, wgmma_m64n80k16_f16_rs_f16acc, wgmma_m64n80k32_e4m3_f16acc, wgmma_m64n80k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(88, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21],
    wgmma_m64n88k16_f16_f16acc, wgmma_m64n88k16_f16_rs_f16acc, wgmma_m64n88k32_e4m3_f16acc, wgmma_m64n88k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(96, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23],
    wgmma_m64n96k16_f16_f16acc, wgmma_m64n96k16_f16_rs_f16acc, wgmma_m64n96k32_e4m3_f16acc, wgmma_m64n96k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(104, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25],
    wgmma_m64n104k16_f16_f16acc, wgmma_m64n104k16_f16_rs_f16acc, wgmma_m64n104k32_e4m3_f16acc, wgmma_m64n104k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(112, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27],
    wgmma_m64n112k16_f16_f16acc, wgmma_m64n112k16_f16_rs_f16acc, wgmma_m64n112k32_e4m3_f16acc, wgmma_m64n112k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(120, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29],
    wgmma_m64n120k16_f16_f16acc, wgmma_m64n120k16_f16_rs_f16acc, wgmma_m64n120k32_e4m3_f16acc, wgmma_m64n120k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(128, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31],
    wgmma_m64n128k16_f16_f16acc, wgmma_m64n128k16_f16_rs_f16acc, wgmma_m64n128k32_e4m3_f16acc, wgmma_m64n128k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(136, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33],
    wgmma_m64n136k16_f16_f16acc, wgmma_m64n136k16_f16_rs_f16acc, wgmma_m64n136k32_e4m3_f16acc, wgmma_m64n136k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(144, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35],
    wgmma_m64n144k16_f16_f16acc, wgmma_m64n144k16_f16_rs_f16acc, wgmma_m64n144k32_e4m3_f16acc, wgmma_m64n144k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(152, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37],
    wgmma_m64n152k16_f16_f16acc, wgmma_m64n152k16_f16_rs_f16acc, wgmma_m64n152k32_e4m3_f16acc, wgmma_m64n152k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(160, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39],
    wgmma_m64n160k16_f16_f16acc, wgmma_m64n160k16_f16_rs_f16acc, wgmma_m64n160k32_e4m3_f16acc, wgmma_m64n160k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(168, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41],
    wgmma_m64n168k16_f16_f16acc, wgmma_m64n168k16_f16_rs_f16acc, wgmma_m64n168k32_e4m3_f16acc, wgmma_m64n168k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(176, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43],
    wgmma_m64n176k16_f16_f16acc, wgmma_m64n176k16_f16_rs_f16acc, wgmma_m64n176k32_e4m3_f16acc, wgmma_m64n176k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(184, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45],
    wgmma_m64n184k16_f16_f16acc, wgmma_m64n184k16_f16_rs_f16acc, wgmma_m64n184k32_e4m3_f16acc, wgmma_m64n184k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(192, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47],
    wgmma_m64n192k16_f16_f16acc, wgmma_m64n192k16_f16_rs_f16acc, wgmma_m64n192k32_e4m3_f16acc, wgmma_m64n192k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(200, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49],
    wgmma_m64n200k16_f16_f16acc, wgmma_m64n200k16_f16_rs_f16acc, wgmma_m64n200k32_e4m3_f16acc, wgmma_m64n200k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(208, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51],
    wgmma_m64n208k16_f16_f16acc, wgmma_m64n208k16_f16_rs_f16acc, wgmma_m64n208k32_e4m3_f16acc, wgmma_m64n208k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(216, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53],
    wgmma_m64n216k16_f16_f16acc, wgmma_m64n216k16_f16_rs_f16acc, wgmma_m64n216k32_e4m3_f16acc, wgmma_m64n216k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(224, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55],
    wgmma_m64n224k16_f16_f16acc, wgmma_m64n224k16_f16_rs_f16acc, wgmma_m64n224k32_e4m3_f16acc, wgmma_m64n224k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(232, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57],
    wgmma_m64n232k16_f16_f16acc, wgmma_m64n232k16_f16_rs_f16acc, wgmma_m64n232k32_e4m3_f16acc, wgmma_m64n232k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(240, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59],
    wgmma_m64n240k16_f16_f16acc, wgmma_m64n240k16_f16_rs_f16acc, wgmma_m64n240k32_e4m3_f16acc, wgmma_m64n240k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(248, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61],
    wgmma_m64n248k16_f16_f16acc, wgmma_m64n248k16_f16_rs_f16acc, wgmma_m64n248k32_e4m3_f16acc, wgmma_m64n248k32_e5m2_f16acc);
#[rustfmt::skip]
issue16!(256, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63],
    wgmma_m64n256k16_f16_f16acc, wgmma_m64n256k16_f16_rs_f16acc, wgmma_m64n256k32_e4m3_f16acc, wgmma_m64n256k32_e5m2_f16acc);
