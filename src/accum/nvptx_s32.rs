//! The nvptx64 issue of the integer `wgmma.mma_async.m64nNk32.s32` forms on [`WgmmaAccS32`]
//! (PTX ISA, `wgmma.mma_async`, integer: `.atype`/`.btype` each `.s8` or `.u8`, both K-major,
//! no `imm-scale`/`imm-trans` operands; `N` in 8, 16, 24 and the multiples of 16 in `32..=256`,
//! the core's `check_mma_shape` for `MmaKind::I8`). Each of the `N / 2` registers is one `asm!`
//! operand. Also the row sums' quad shuffles and `fence_operands`.
#![allow(unsafe_code)]

use super::nvptx::shfl_bfly_b32;
use super::{AccCols, Cols, WgmmaAccS32};
use core::arch::asm;

impl<const N: usize> WgmmaAccS32<N>
where
    Cols<N>: AccCols,
{
    /// The sums of the thread's two rows over the whole tile (wrapping; local sums, then the
    /// quad's `shfl.sync.bfly` xor 1 and 2). Every lane of the warp calls it.
    ///
    /// ```ignore
    /// let [s_hi, s_lo] = d.row_sum(); // nvptx64 only
    /// ```
    #[inline(always)]
    pub fn row_sum(&self) -> [i32; 2] {
        let mut s = self.row_sum_local();
        let x = |v: i32, m: u32| shfl_bfly_b32(v as u32, m) as i32;
        s[0] = s[0].wrapping_add(x(s[0], 1));
        s[1] = s[1].wrapping_add(x(s[1], 1));
        s[0] = s[0].wrapping_add(x(s[0], 2));
        s[1] = s[1].wrapping_add(x(s[1], 2));
        s
    }

    /// The maxima of the thread's two rows over the whole tile (local, then the quad's
    /// shuffles). Every lane of the warp calls it.
    ///
    /// ```ignore
    /// let [m_hi, m_lo] = d.row_max(); // nvptx64 only
    /// ```
    #[inline(always)]
    pub fn row_max(&self) -> [i32; 2] {
        let mut m = self.row_max_local();
        let x = |v: i32, k: u32| shfl_bfly_b32(v as u32, k) as i32;
        m[0] = m[0].max(x(m[0], 1));
        m[1] = m[1].max(x(m[1], 1));
        m[0] = m[0].max(x(m[0], 2));
        m[1] = m[1].max(x(m[1], 2));
        m
    }
}

/// Writes the issue functions of one `m64nN` width: `$list` the accumulator's element indices.
macro_rules! issue32 {
    (@ss $name:ident, $n:literal, $instr:expr, $list:tt) => {
        wgmma_fn!(ss
            #[doc = concat!("`", $instr, "` (SS): `d = A·B + d` (`accumulate`) or `d = A·B`, s32")]
            /// accumulator, A and B (8-bit integers, K-major) from shared-memory descriptors. The
            /// mixed forms (`.s8.u8`, `.u8.s8`) need PTX ISA 8.4 (`-C target-feature=+ptx84`).
            ///
            /// # Safety
            /// The whole warpgroup executes it (`.sync.aligned`) after `wgmma.fence` and before
            /// `wgmma.commit_group`, with descriptors of operands resident in shared memory.
            $name [] WgmmaAccS32<$n>, $instr, "p", $list);
    };
    (@rs $name:ident, $n:literal, $instr:expr, $list:tt) => {
        wgmma_fn!(rs
            #[doc = concat!("`", $instr, "` (RS): s32 accumulator, A from four `.b32` registers")]
            /// (16 8-bit values: the wgmma A fragment of a k32 step), B from its descriptor.
            ///
            /// # Safety
            /// As for the SS form.
            $name [] WgmmaAccS32<$n>, $instr, "p", $list);
    };
    (@fence $n:literal, $list:tt) => {
        wgmma_fn!(fence
            /// Holds every later read or write of the accumulator below the preceding
            /// `wgmma.wait_group` (as [`WgmmaAcc::fence_operands`](super::WgmmaAcc::fence_operands)):
            /// an empty `asm!` taking each register `inout`. Emits no instruction.
            WgmmaAccS32<$n>, $list);
    };
    ($n:literal, $list:tt, $s8:ident, $u8:ident, $s8u8:ident, $u8s8:ident, $s8rs:ident) => {
        issue32!(@ss $s8, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k32.s32.s8.s8"), $list);
        issue32!(@ss $u8, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k32.s32.u8.u8"), $list);
        issue32!(@ss $s8u8, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k32.s32.s8.u8"), $list);
        issue32!(@ss $u8s8, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k32.s32.u8.s8"), $list);
        issue32!(@rs $s8rs, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k32.s32.s8.s8"), $list);
        issue32!(@fence $n, $list);
    };
}

// The integer m64nNk32 of sm90: N = 8, 16, 24, 32, 48, 64, …, 256.
#[rustfmt::skip]
issue32!(8, [0 1 2 3],
    wgmma_m64n8k32_s8, wgmma_m64n8k32_u8, wgmma_m64n8k32_s8u8, wgmma_m64n8k32_u8s8, wgmma_m64n8k32_s8_rs);
#[rustfmt::skip]
issue32!(16, [0 1 2 3 4 5 6 7],
    wgmma_m64n16k32_s8, wgmma_m64n16k32_u8, wgmma_m64n16k32_s8u8, wgmma_m64n16k32_u8s8, wgmma_m64n16k32_s8_rs);
#[rustfmt::skip]
issue32!(24, [0 1 2 3 4 5 6 7 8 9 10 11],
    wgmma_m64n24k32_s8, wgmma_m64n24k32_u8, wgmma_m64n24k32_s8u8, wgmma_m64n24k32_u8s8, wgmma_m64n24k32_s8_rs);
#[rustfmt::skip]
issue32!(32, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15],
    wgmma_m64n32k32_s8, wgmma_m64n32k32_u8, wgmma_m64n32k32_s8u8, wgmma_m64n32k32_u8s8, wgmma_m64n32k32_s8_rs);
#[rustfmt::skip]
issue32!(48, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23],
    wgmma_m64n48k32_s8, wgmma_m64n48k32_u8, wgmma_m64n48k32_s8u8, wgmma_m64n48k32_u8s8, wgmma_m64n48k32_s8_rs);
#[rustfmt::skip]
issue32!(64, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31],
    wgmma_m64n64k32_s8, wgmma_m64n64k32_u8, wgmma_m64n64k32_s8u8, wgmma_m64n64k32_u8s8, wgmma_m64n64k32_s8_rs);
#[rustfmt::skip]
issue32!(80, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39],
    wgmma_m64n80k32_s8, wgmma_m64n80k32_u8, wgmma_m64n80k32_s8u8, wgmma_m64n80k32_u8s8, wgmma_m64n80k32_s8_rs);
#[rustfmt::skip]
issue32!(96, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47],
    wgmma_m64n96k32_s8, wgmma_m64n96k32_u8, wgmma_m64n96k32_s8u8, wgmma_m64n96k32_u8s8, wgmma_m64n96k32_s8_rs);
#[rustfmt::skip]
issue32!(112, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55],
    wgmma_m64n112k32_s8, wgmma_m64n112k32_u8, wgmma_m64n112k32_s8u8, wgmma_m64n112k32_u8s8, wgmma_m64n112k32_s8_rs);
#[rustfmt::skip]
issue32!(128, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63],
    wgmma_m64n128k32_s8, wgmma_m64n128k32_u8, wgmma_m64n128k32_s8u8, wgmma_m64n128k32_u8s8, wgmma_m64n128k32_s8_rs);
#[rustfmt::skip]
issue32!(144, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71],
    wgmma_m64n144k32_s8, wgmma_m64n144k32_u8, wgmma_m64n144k32_s8u8, wgmma_m64n144k32_u8s8, wgmma_m64n144k32_s8_rs);
#[rustfmt::skip]
issue32!(160, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79],
    wgmma_m64n160k32_s8, wgmma_m64n160k32_u8, wgmma_m64n160k32_s8u8, wgmma_m64n160k32_u8s8, wgmma_m64n160k32_s8_rs);
#[rustfmt::skip]
issue32!(176, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87],
    wgmma_m64n176k32_s8, wgmma_m64n176k32_u8, wgmma_m64n176k32_s8u8, wgmma_m64n176k32_u8s8, wgmma_m64n176k32_s8_rs);
#[rustfmt::skip]
issue32!(192, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95],
    wgmma_m64n192k32_s8, wgmma_m64n192k32_u8, wgmma_m64n192k32_s8u8, wgmma_m64n192k32_u8s8, wgmma_m64n192k32_s8_rs);
#[rustfmt::skip]
issue32!(208, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103],
    wgmma_m64n208k32_s8, wgmma_m64n208k32_u8, wgmma_m64n208k32_s8u8, wgmma_m64n208k32_u8s8, wgmma_m64n208k32_s8_rs);
#[rustfmt::skip]
issue32!(224, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111],
    wgmma_m64n224k32_s8, wgmma_m64n224k32_u8, wgmma_m64n224k32_s8u8, wgmma_m64n224k32_u8s8, wgmma_m64n224k32_s8_rs);
#[rustfmt::skip]
issue32!(240, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119],
    wgmma_m64n240k32_s8, wgmma_m64n240k32_u8, wgmma_m64n240k32_s8u8, wgmma_m64n240k32_u8s8, wgmma_m64n240k32_s8_rs);
#[rustfmt::skip]
issue32!(256, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127],
    wgmma_m64n256k32_s8, wgmma_m64n256k32_u8, wgmma_m64n256k32_s8u8, wgmma_m64n256k32_u8s8, wgmma_m64n256k32_s8_rs);
