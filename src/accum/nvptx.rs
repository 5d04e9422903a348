//! The nvptx64 side of the accumulator: the quad shuffles of the row reductions, the `cvt`
//! packing, and the `wgmma.mma_async` issue of every `m64nNk*` f32 form the guide's kernels use,
//! taking the typed accumulator and the descriptors (PTX ISA, "Asynchronous Warpgroup Level
//! Matrix Multiply-Accumulate": `wgmma.mma_async.sync.aligned.shape.dtype.atype.btype d, a-desc,
//! b-desc, scale-d, imm-scale-a, imm-scale-b{, imm-trans-a, imm-trans-b}` and the RS form
//! `d, {a0, a1, a2, a3}, b-desc, scale-d, imm-scale-a, imm-scale-b{, imm-trans-b}`).
//! Every accumulator register is one `asm!` operand of the issue, so the accumulator stays in
//! registers. Built only for nvptx64 (the host build keeps `forbid(unsafe_code)`).
#![allow(unsafe_code)]

use super::{AccCols, Cols, WgmmaAcc};
use core::arch::asm;

/// `shfl.sync.bfly.b32` over the full warp: `v` of lane `lane ^ xor`.
///
/// ```ignore
/// let other = smemdesc::accum::shfl_bfly(x, 1); // nvptx64 only
/// ```
#[inline(always)]
pub fn shfl_bfly(v: f32, xor: u32) -> f32 {
    let r: f32;
    // SAFETY: a warp shuffle; every lane of the warp executes it (`.sync` with a full mask).
    unsafe {
        asm!("shfl.sync.bfly.b32 {0}, {1}, {2}, 0x1f, 0xffffffff;",
            out(reg32) r, in(reg32) v, in(reg32) xor, options(nomem, nostack));
    }
    r
}

/// `shfl.sync.bfly.b32` of a 32-bit integer over the full warp.
#[inline(always)]
pub(super) fn shfl_bfly_b32(v: u32, xor: u32) -> u32 {
    let r: u32;
    // SAFETY: a warp shuffle; every lane of the warp executes it (`.sync` with a full mask).
    unsafe {
        asm!("shfl.sync.bfly.b32 {0}, {1}, {2}, 0x1f, 0xffffffff;",
            out(reg32) r, in(reg32) v, in(reg32) xor, options(nomem, nostack));
    }
    r
}

/// `cvt.f32.f16` of both halves of `r`: `(low, high)`.
#[inline(always)]
pub(super) fn cvt_f32_f16x2(r: u32) -> (f32, f32) {
    let (lo, hi): (f32, f32);
    // SAFETY: register-only.
    unsafe {
        asm!("{{ .reg .b16 l, h; mov.b32 {{l, h}}, {2}; cvt.f32.f16 {0}, l; cvt.f32.f16 {1}, h; }}",
            out(reg32) lo, out(reg32) hi, in(reg32) r, options(pure, nomem, nostack));
    }
    (lo, hi)
}

/// `wgmma.fence.sync.aligned`: the accumulator registers and the shared memory the next
/// `wgmma.mma_async` reads are ordered before it (PTX ISA, `wgmma.fence`: needed before the
/// first `wgmma` of a group and whenever the registers were touched in between). Every thread
/// of the warpgroup executes it.
///
/// ```ignore
/// smemdesc::accum::wgmma_fence(); // nvptx64 only
/// ```
///
/// # Safety
///
/// Executed by all threads of the warpgroup together (`.sync.aligned`).
#[inline(always)]
pub unsafe fn wgmma_fence() {
    // SAFETY: the caller's promise (every thread of the warpgroup).
    unsafe { asm!("wgmma.fence.sync.aligned;", options(nostack)) };
}

/// `wgmma.commit_group.sync.aligned`: the `wgmma`s issued since the last commit form a group.
///
/// ```ignore
/// smemdesc::accum::wgmma_commit_group(); // nvptx64 only
/// ```
///
/// # Safety
///
/// As [`wgmma_fence`].
#[inline(always)]
pub unsafe fn wgmma_commit_group() {
    // SAFETY: the caller's promise (every thread of the warpgroup).
    unsafe { asm!("wgmma.commit_group.sync.aligned;", options(nostack)) };
}

/// `wgmma.wait_group.sync.aligned N`: at most `N` groups are still pending; then read the
/// accumulator after [`WgmmaAcc::fence_operands`].
///
/// ```ignore
/// unsafe { smemdesc::accum::wgmma_wait_group::<0>() }; // nvptx64 only
/// acc.fence_operands();
/// ```
///
/// # Safety
///
/// As [`wgmma_fence`].
#[inline(always)]
pub unsafe fn wgmma_wait_group<const N: u32>() {
    // SAFETY: the caller's promise (every thread of the warpgroup).
    unsafe { asm!("wgmma.wait_group.sync.aligned {0};", const N, options(nostack)) };
}

/// [`wgmma_wait_group`] that stays below the instructions before it: ptxas schedules a
/// `wgmma.wait_group` like any instruction of its basic block and may hoist it above work that
/// does not need it (measured in the overlapped attention kernel: the wait for `P·V` went above
/// the softmax it was to overlap). Issued on both arms of a branch on `uniform` (any
/// warpgroup-uniform value; both arms wait), it is the first instruction of its block and stays.
///
/// ```ignore
/// unsafe { smemdesc::accum::wgmma_wait_group_after::<0>(j) }; // nvptx64 only
/// ```
///
/// # Safety
///
/// As [`wgmma_fence`]; `uniform` is the same in every thread of the warpgroup.
#[inline(always)]
pub unsafe fn wgmma_wait_group_after<const N: u32>(uniform: u32) {
    // SAFETY: the caller's promise (every thread of the warpgroup, on the same arm).
    unsafe {
        if uniform & 1 == 0 {
            asm!("wgmma.wait_group.sync.aligned {0}; // even arm", const N, options(nostack));
        } else {
            asm!("wgmma.wait_group.sync.aligned {0}; // odd arm", const N, options(nostack));
        }
    }
}

/// `cvt.rn.bf16x2.f32`: `lo` in the low half, `hi` in the high half.
#[inline(always)]
pub(super) fn cvt_bf16x2(lo: f32, hi: f32) -> u32 {
    let r: u32;
    // SAFETY: register-only (sm_80+).
    unsafe {
        asm!("cvt.rn.bf16x2.f32 {0}, {1}, {2};", out(reg32) r, in(reg32) hi, in(reg32) lo,
            options(pure, nomem, nostack));
    }
    r
}

/// `cvt.rn.f16x2.f32`: `lo` in the low half, `hi` in the high half.
#[inline(always)]
pub(super) fn cvt_f16x2(lo: f32, hi: f32) -> u32 {
    let r: u32;
    // SAFETY: register-only (sm_80+).
    unsafe {
        asm!("cvt.rn.f16x2.f32 {0}, {1}, {2};", out(reg32) r, in(reg32) hi, in(reg32) lo,
            options(pure, nomem, nostack));
    }
    r
}

impl<const N: usize> WgmmaAcc<N>
where
    Cols<N>: AccCols,
{
    /// The maxima of the thread's two rows over the whole 64 × N tile: the thread-local
    /// [`row_max_local`](Self::row_max_local), then `shfl.sync.bfly` with lane xor 1 and 2 (the
    /// quad that holds the rows,
    /// [`ROW_REDUCE_XOR`](crate::fragment::WgmmaAccum::ROW_REDUCE_XOR)). Every lane of the warp
    /// calls it.
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

    /// The sums of the thread's two rows over the whole tile (local sums, then the quad's
    /// `shfl.sync.bfly` xor 1 and 2). Every lane of the warp calls it.
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

/// Writes the issue functions of one `m64nN` width: `$list` the accumulator's element indices.
macro_rules! issue {
    (@ss $name:ident, $n:literal, $instr:expr, [$f:literal $($i:literal)*]) => {
        #[doc = concat!("`", $instr, "` (SS): `d = A·B + d` (`accumulate`) or `d = A·B`, A and B")]
        /// from shared-memory descriptors; `TA`/`TB` are `imm-trans-a`/`imm-trans-b` (1 for an
        /// MN-major operand).
        ///
        /// # Safety
        /// The whole warpgroup executes it (`.sync.aligned`) after `wgmma.fence` and before
        /// `wgmma.commit_group`, with descriptors of operands resident in shared memory.
        #[inline(always)]
        pub unsafe fn $name<const TA: u32, const TB: u32>(
            d: &mut WgmmaAcc<$n>,
            desc_a: u64,
            desc_b: u64,
            accumulate: bool,
        ) {
            // SAFETY: the caller's contract.
            unsafe {
                asm!(
                    "{{ .reg .pred p; setp.ne.b32 p, {sd}, 0;",
                    $instr,
                    concat!("{{{", $f, "}", $(", {", $i, "}",)* "}},"),
                    "{da}, {db}, p, 1, 1, {ta}, {tb}; }}",
                    inout(reg32) d.regs[$f],
                    $(inout(reg32) d.regs[$i],)*
                    da = in(reg64) desc_a,
                    db = in(reg64) desc_b,
                    sd = in(reg32) accumulate as u32,
                    ta = const TA,
                    tb = const TB,
                    options(nostack),
                );
            }
        }
    };
    (@ss8 $name:ident, $n:literal, $instr:expr, [$f:literal $($i:literal)*]) => {
        #[doc = concat!("`", $instr, "` (SS): `d = A·B + d` (`accumulate`) or `d = A·B`, A and B")]
        /// from shared-memory descriptors (tf32 and the 8-bit types: both K-major, no transpose
        /// immediates).
        ///
        /// # Safety
        /// The whole warpgroup executes it (`.sync.aligned`) after `wgmma.fence` and before
        /// `wgmma.commit_group`, with descriptors of operands resident in shared memory.
        #[inline(always)]
        pub unsafe fn $name(d: &mut WgmmaAcc<$n>, desc_a: u64, desc_b: u64, accumulate: bool) {
            // SAFETY: the caller's contract.
            unsafe {
                asm!(
                    "{{ .reg .pred p; setp.ne.b32 p, {sd}, 0;",
                    $instr,
                    concat!("{{{", $f, "}", $(", {", $i, "}",)* "}},"),
                    "{da}, {db}, p, 1, 1; }}",
                    inout(reg32) d.regs[$f],
                    $(inout(reg32) d.regs[$i],)*
                    da = in(reg64) desc_a,
                    db = in(reg64) desc_b,
                    sd = in(reg32) accumulate as u32,
                    options(nostack),
                );
            }
        }
    };
    (@rs $name:ident, $n:literal, $instr:expr, [$f:literal $($i:literal)*]) => {
        #[doc = concat!("`", $instr, "` (RS): A from four `.b32` registers (a k-step of a chained")]
        /// accumulator, [`PackedAcc::for_each_kstep`](super::PackedAcc::for_each_kstep)), B from its descriptor; `TB` is
        /// `imm-trans-b` (1 for an MN-major B, attention's V).
        ///
        /// # Safety
        /// As for the SS form.
        #[inline(always)]
        pub unsafe fn $name<const TB: u32>(
            d: &mut WgmmaAcc<$n>,
            a: [u32; 4],
            desc_b: u64,
            accumulate: bool,
        ) {
            // SAFETY: the caller's contract.
            unsafe {
                asm!(
                    "{{ .reg .pred p; setp.ne.b32 p, {sd}, 0;",
                    $instr,
                    concat!("{{{", $f, "}", $(", {", $i, "}",)* "}},"),
                    "{{{a0}, {a1}, {a2}, {a3}}}, {db}, p, 1, 1, {tb}; }}",
                    inout(reg32) d.regs[$f],
                    $(inout(reg32) d.regs[$i],)*
                    a0 = in(reg32) a[0],
                    a1 = in(reg32) a[1],
                    a2 = in(reg32) a[2],
                    a3 = in(reg32) a[3],
                    db = in(reg64) desc_b,
                    sd = in(reg32) accumulate as u32,
                    tb = const TB,
                    options(nostack),
                );
            }
        }
    };
    (@fence $n:literal, [$f:literal $($i:literal)*]) => {
        impl WgmmaAcc<$n> {
            /// Holds every later read or write of the accumulator below the preceding
            /// `wgmma.wait_group` (CUTLASS's `warpgroup_fence_operand`): an empty `asm!` that
            /// takes each register `inout` and may touch memory, so the compiler keeps it after
            /// the wait and every use of the registers after it. The issue takes the registers
            /// `inout` when it is issued; without this, a read may be scheduled above the wait
            /// and see the value before the `wgmma` wrote it. Emits no instruction.
            #[inline(always)]
            pub fn fence_operands(&mut self) {
                // SAFETY: an empty template (a PTX comment naming the registers).
                unsafe {
                    asm!(
                        concat!("// fence_operands {", $f, "}", $(" {", $i, "}",)*),
                        inout(reg32) self.regs[$f],
                        $(inout(reg32) self.regs[$i],)*
                        options(nostack),
                    );
                }
            }
        }
    };
    ($n:literal, $list:tt, $bf:ident, $bfrs:ident, $f16:ident, $f16rs:ident, $e4:ident, $e5:ident, $tf:ident) => {
        issue!(@ss8 $tf, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k8.f32.tf32.tf32"), $list);
        issue!(@ss $bf, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k16.f32.bf16.bf16"), $list);
        issue!(@rs $bfrs, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k16.f32.bf16.bf16"), $list);
        issue!(@ss $f16, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k16.f32.f16.f16"), $list);
        issue!(@rs $f16rs, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k16.f32.f16.f16"), $list);
        issue!(@ss8 $e4, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k32.f32.e4m3.e4m3"), $list);
        issue!(@fence $n, $list);
        issue!(@ss8 $e5, $n, concat!("wgmma.mma_async.sync.aligned.m64n", $n, "k32.f32.e5m2.e5m2"), $list);
    };
}

// Every m64nN of sm90 (N a multiple of 8 in 8..=256 for f16, bf16, tf32, e4m3, e5m2: PTX ISA,
// wgmma.mma_async, Matrix Shape; the core's check_mma_shape).
#[rustfmt::skip]
issue!(8, [0 1 2 3],
    wgmma_m64n8k16_bf16, wgmma_m64n8k16_bf16_rs, wgmma_m64n8k16_f16, wgmma_m64n8k16_f16_rs, wgmma_m64n8k32_e4m3, wgmma_m64n8k32_e5m2, wgmma_m64n8k8_tf32);
#[rustfmt::skip]
issue!(16, [0 1 2 3 4 5 6 7],
    wgmma_m64n16k16_bf16, wgmma_m64n16k16_bf16_rs, wgmma_m64n16k16_f16, wgmma_m64n16k16_f16_rs, wgmma_m64n16k32_e4m3, wgmma_m64n16k32_e5m2, wgmma_m64n16k8_tf32);
#[rustfmt::skip]
issue!(24, [0 1 2 3 4 5 6 7 8 9 10 11],
    wgmma_m64n24k16_bf16, wgmma_m64n24k16_bf16_rs, wgmma_m64n24k16_f16, wgmma_m64n24k16_f16_rs, wgmma_m64n24k32_e4m3, wgmma_m64n24k32_e5m2, wgmma_m64n24k8_tf32);
#[rustfmt::skip]
issue!(32, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15],
    wgmma_m64n32k16_bf16, wgmma_m64n32k16_bf16_rs, wgmma_m64n32k16_f16, wgmma_m64n32k16_f16_rs, wgmma_m64n32k32_e4m3, wgmma_m64n32k32_e5m2, wgmma_m64n32k8_tf32);
#[rustfmt::skip]
issue!(40, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19],
    wgmma_m64n40k16_bf16, wgmma_m64n40k16_bf16_rs, wgmma_m64n40k16_f16, wgmma_m64n40k16_f16_rs, wgmma_m64n40k32_e4m3, wgmma_m64n40k32_e5m2, wgmma_m64n40k8_tf32);
#[rustfmt::skip]
issue!(48, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23],
    wgmma_m64n48k16_bf16, wgmma_m64n48k16_bf16_rs, wgmma_m64n48k16_f16, wgmma_m64n48k16_f16_rs, wgmma_m64n48k32_e4m3, wgmma_m64n48k32_e5m2, wgmma_m64n48k8_tf32);
#[rustfmt::skip]
issue!(56, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27],
    wgmma_m64n56k16_bf16, wgmma_m64n56k16_bf16_rs, wgmma_m64n56k16_f16, wgmma_m64n56k16_f16_rs, wgmma_m64n56k32_e4m3, wgmma_m64n56k32_e5m2, wgmma_m64n56k8_tf32);
#[rustfmt::skip]
issue!(64, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31],
    wgmma_m64n64k16_bf16, wgmma_m64n64k16_bf16_rs, wgmma_m64n64k16_f16, wgmma_m64n64k16_f16_rs, wgmma_m64n64k32_e4m3, wgmma_m64n64k32_e5m2, wgmma_m64n64k8_tf32);
#[rustfmt::skip]
issue!(72, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35],
    wgmma_m64n72k16_bf16, wgmma_m64n72k16_bf16_rs, wgmma_m64n72k16_f16, wgmma_m64n72k16_f16_rs, wgmma_m64n72k32_e4m3, wgmma_m64n72k32_e5m2, wgmma_m64n72k8_tf32);
#[rustfmt::skip]
issue!(80, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39],
    wgmma_m64n80k16_bf16, wgmma_m64n80k16_bf16_rs, wgmma_m64n80k16_f16, wgmma_m64n80k16_f16_rs, wgmma_m64n80k32_e4m3, wgmma_m64n80k32_e5m2, wgmma_m64n80k8_tf32);
#[rustfmt::skip]
issue!(88, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43],
    wgmma_m64n88k16_bf16, wgmma_m64n88k16_bf16_rs, wgmma_m64n88k16_f16, wgmma_m64n88k16_f16_rs, wgmma_m64n88k32_e4m3, wgmma_m64n88k32_e5m2, wgmma_m64n88k8_tf32);
#[rustfmt::skip]
issue!(96, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47],
    wgmma_m64n96k16_bf16, wgmma_m64n96k16_bf16_rs, wgmma_m64n96k16_f16, wgmma_m64n96k16_f16_rs, wgmma_m64n96k32_e4m3, wgmma_m64n96k32_e5m2, wgmma_m64n96k8_tf32);
#[rustfmt::skip]
issue!(104, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51],
    wgmma_m64n104k16_bf16, wgmma_m64n104k16_bf16_rs, wgmma_m64n104k16_f16, wgmma_m64n104k16_f16_rs, wgmma_m64n104k32_e4m3, wgmma_m64n104k32_e5m2, wgmma_m64n104k8_tf32);
#[rustfmt::skip]
issue!(112, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55],
    wgmma_m64n112k16_bf16, wgmma_m64n112k16_bf16_rs, wgmma_m64n112k16_f16, wgmma_m64n112k16_f16_rs, wgmma_m64n112k32_e4m3, wgmma_m64n112k32_e5m2, wgmma_m64n112k8_tf32);
#[rustfmt::skip]
issue!(120, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59],
    wgmma_m64n120k16_bf16, wgmma_m64n120k16_bf16_rs, wgmma_m64n120k16_f16, wgmma_m64n120k16_f16_rs, wgmma_m64n120k32_e4m3, wgmma_m64n120k32_e5m2, wgmma_m64n120k8_tf32);
#[rustfmt::skip]
issue!(128, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63],
    wgmma_m64n128k16_bf16, wgmma_m64n128k16_bf16_rs, wgmma_m64n128k16_f16, wgmma_m64n128k16_f16_rs, wgmma_m64n128k32_e4m3, wgmma_m64n128k32_e5m2, wgmma_m64n128k8_tf32);
#[rustfmt::skip]
issue!(136, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67],
    wgmma_m64n136k16_bf16, wgmma_m64n136k16_bf16_rs, wgmma_m64n136k16_f16, wgmma_m64n136k16_f16_rs, wgmma_m64n136k32_e4m3, wgmma_m64n136k32_e5m2, wgmma_m64n136k8_tf32);
#[rustfmt::skip]
issue!(144, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71],
    wgmma_m64n144k16_bf16, wgmma_m64n144k16_bf16_rs, wgmma_m64n144k16_f16, wgmma_m64n144k16_f16_rs, wgmma_m64n144k32_e4m3, wgmma_m64n144k32_e5m2, wgmma_m64n144k8_tf32);
#[rustfmt::skip]
issue!(152, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75],
    wgmma_m64n152k16_bf16, wgmma_m64n152k16_bf16_rs, wgmma_m64n152k16_f16, wgmma_m64n152k16_f16_rs, wgmma_m64n152k32_e4m3, wgmma_m64n152k32_e5m2, wgmma_m64n152k8_tf32);
#[rustfmt::skip]
issue!(160, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79],
    wgmma_m64n160k16_bf16, wgmma_m64n160k16_bf16_rs, wgmma_m64n160k16_f16, wgmma_m64n160k16_f16_rs, wgmma_m64n160k32_e4m3, wgmma_m64n160k32_e5m2, wgmma_m64n160k8_tf32);
#[rustfmt::skip]
issue!(168, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83],
    wgmma_m64n168k16_bf16, wgmma_m64n168k16_bf16_rs, wgmma_m64n168k16_f16, wgmma_m64n168k16_f16_rs, wgmma_m64n168k32_e4m3, wgmma_m64n168k32_e5m2, wgmma_m64n168k8_tf32);
#[rustfmt::skip]
issue!(176, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87],
    wgmma_m64n176k16_bf16, wgmma_m64n176k16_bf16_rs, wgmma_m64n176k16_f16, wgmma_m64n176k16_f16_rs, wgmma_m64n176k32_e4m3, wgmma_m64n176k32_e5m2, wgmma_m64n176k8_tf32);
#[rustfmt::skip]
issue!(184, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91],
    wgmma_m64n184k16_bf16, wgmma_m64n184k16_bf16_rs, wgmma_m64n184k16_f16, wgmma_m64n184k16_f16_rs, wgmma_m64n184k32_e4m3, wgmma_m64n184k32_e5m2, wgmma_m64n184k8_tf32);
#[rustfmt::skip]
issue!(192, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95],
    wgmma_m64n192k16_bf16, wgmma_m64n192k16_bf16_rs, wgmma_m64n192k16_f16, wgmma_m64n192k16_f16_rs, wgmma_m64n192k32_e4m3, wgmma_m64n192k32_e5m2, wgmma_m64n192k8_tf32);
#[rustfmt::skip]
issue!(200, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99],
    wgmma_m64n200k16_bf16, wgmma_m64n200k16_bf16_rs, wgmma_m64n200k16_f16, wgmma_m64n200k16_f16_rs, wgmma_m64n200k32_e4m3, wgmma_m64n200k32_e5m2, wgmma_m64n200k8_tf32);
#[rustfmt::skip]
issue!(208, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103],
    wgmma_m64n208k16_bf16, wgmma_m64n208k16_bf16_rs, wgmma_m64n208k16_f16, wgmma_m64n208k16_f16_rs, wgmma_m64n208k32_e4m3, wgmma_m64n208k32_e5m2, wgmma_m64n208k8_tf32);
#[rustfmt::skip]
issue!(216, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107],
    wgmma_m64n216k16_bf16, wgmma_m64n216k16_bf16_rs, wgmma_m64n216k16_f16, wgmma_m64n216k16_f16_rs, wgmma_m64n216k32_e4m3, wgmma_m64n216k32_e5m2, wgmma_m64n216k8_tf32);
#[rustfmt::skip]
issue!(224, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111],
    wgmma_m64n224k16_bf16, wgmma_m64n224k16_bf16_rs, wgmma_m64n224k16_f16, wgmma_m64n224k16_f16_rs, wgmma_m64n224k32_e4m3, wgmma_m64n224k32_e5m2, wgmma_m64n224k8_tf32);
#[rustfmt::skip]
issue!(232, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115],
    wgmma_m64n232k16_bf16, wgmma_m64n232k16_bf16_rs, wgmma_m64n232k16_f16, wgmma_m64n232k16_f16_rs, wgmma_m64n232k32_e4m3, wgmma_m64n232k32_e5m2, wgmma_m64n232k8_tf32);
#[rustfmt::skip]
issue!(240, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119],
    wgmma_m64n240k16_bf16, wgmma_m64n240k16_bf16_rs, wgmma_m64n240k16_f16, wgmma_m64n240k16_f16_rs, wgmma_m64n240k32_e4m3, wgmma_m64n240k32_e5m2, wgmma_m64n240k8_tf32);
#[rustfmt::skip]
issue!(248, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123],
    wgmma_m64n248k16_bf16, wgmma_m64n248k16_bf16_rs, wgmma_m64n248k16_f16, wgmma_m64n248k16_f16_rs, wgmma_m64n248k32_e4m3, wgmma_m64n248k32_e5m2, wgmma_m64n248k8_tf32);
#[rustfmt::skip]
issue!(256, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127],
    wgmma_m64n256k16_bf16, wgmma_m64n256k16_bf16_rs, wgmma_m64n256k16_f16, wgmma_m64n256k16_f16_rs, wgmma_m64n256k32_e4m3, wgmma_m64n256k32_e5m2, wgmma_m64n256k8_tf32);
