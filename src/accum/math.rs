//! The softmax's scalar instructions on nvptx64, each one PTX instruction (an `asm!`, so LLVM
//! neither fuses, reorders nor replaces them: the kernel's rounding is the instruction's), and
//! the accumulator's softmax steps built from them: the row maxima across the quad in `K`
//! chains ([`WgmmaAcc::row_max_chains`]) and the exponentiation with the scale folded into
//! log2 units and the rows' sums ([`WgmmaAcc::exp2_scaled_row_sums`]).
#![allow(unsafe_code)]

use super::nvptx::shfl_bfly;
use super::unroll::each;
use super::{AccCols, Cols, WgmmaAcc};
use core::arch::asm;

/// `ex2.approx.ftz.f32`: 2^x (the MUFU approximation; subnormal inputs and results flushed).
///
/// ```ignore
/// let one = smemdesc::accum::ex2_approx(0.0); // nvptx64 only
/// ```
#[inline(always)]
pub fn ex2_approx(x: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        asm!("ex2.approx.ftz.f32 {0}, {1};", out(reg32) r, in(reg32) x,
            options(pure, nomem, nostack));
    }
    r
}

/// `lg2.approx.ftz.f32`: log2(x).
///
/// ```ignore
/// let three = smemdesc::accum::lg2_approx(8.0); // nvptx64 only
/// ```
#[inline(always)]
pub fn lg2_approx(x: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        asm!("lg2.approx.ftz.f32 {0}, {1};", out(reg32) r, in(reg32) x,
            options(pure, nomem, nostack));
    }
    r
}

/// `rcp.approx.ftz.f32`: 1/x.
///
/// ```ignore
/// let inv = smemdesc::accum::rcp_approx(l); // nvptx64 only
/// ```
#[inline(always)]
pub fn rcp_approx(x: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        asm!("rcp.approx.ftz.f32 {0}, {1};", out(reg32) r, in(reg32) x,
            options(pure, nomem, nostack));
    }
    r
}

/// `fma.rn.f32`: `a·b + c`, rounded once.
///
/// ```ignore
/// let y = smemdesc::accum::fma_rn(x, scale, -m); // nvptx64 only
/// ```
#[inline(always)]
pub fn fma_rn(a: f32, b: f32, c: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        asm!("fma.rn.f32 {0}, {1}, {2}, {3};", out(reg32) r, in(reg32) a, in(reg32) b,
            in(reg32) c, options(pure, nomem, nostack));
    }
    r
}

/// `max.f32` (for inputs that are finite or `-inf`, as a masked score is).
///
/// ```ignore
/// let m = smemdesc::accum::max_f32(a, b); // nvptx64 only
/// ```
#[inline(always)]
pub fn max_f32(a: f32, b: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        asm!("max.f32 {0}, {1}, {2};", out(reg32) r, in(reg32) a, in(reg32) b,
            options(pure, nomem, nostack));
    }
    r
}

impl<const N: usize> WgmmaAcc<N>
where
    Cols<N>: AccCols,
{
    /// The maxima of the thread's two rows over the whole tile: the thread's elements in `K`
    /// chains ([`row_reduce_chains`](Self::row_reduce_chains) with `max.f32`), then the quad's
    /// `shfl.sync.bfly` xor 1 and 2. Every lane of the warp calls it. `K = N / 8` is a pairwise
    /// tree (fewest dependent steps, most registers live); a two-CTA kernel short of registers
    /// takes fewer chains.
    ///
    /// ```ignore
    /// let [mx_hi, mx_lo] = s.row_max_chains::<4>(); // nvptx64 only
    /// ```
    #[inline(always)]
    pub fn row_max_chains<const K: usize>(&self) -> [f32; 2] {
        let mut m = self.row_reduce_chains::<K>(max_f32);
        m[0] = max_f32(m[0], shfl_bfly(m[0], 1));
        m[1] = max_f32(m[1], shfl_bfly(m[1], 1));
        m[0] = max_f32(m[0], shfl_bfly(m[0], 2));
        m[1] = max_f32(m[1], shfl_bfly(m[1], 2));
        m
    }

    /// The online softmax's exponentiation: each element `x` of row half `h` becomes
    /// `ex2.approx(fma.rn(x, scale_log2, -max_log2[h]))` (the scale folded into log2 units, so
    /// one `fma` and one MUFU op per element), and the thread-local sums of the new rows are
    /// returned, in `K` chains ([`row_reduce_chains`](Self::row_reduce_chains): the other lanes
    /// of the quad hold the rest of each row, add theirs at the end of the tile).
    ///
    /// ```ignore
    /// let sums = s.exp2_scaled_row_sums::<16>(scale_log2, m_new); // nvptx64 only
    /// ```
    #[inline(always)]
    pub fn exp2_scaled_row_sums<const K: usize>(
        &mut self,
        scale_log2: f32,
        max_log2: [f32; 2],
    ) -> [f32; 2] {
        let r = self.regs.as_mut();
        each!(Self::ELEMS, |e| {
            r[e] = ex2_approx(fma_rn(r[e], scale_log2, -max_log2[(e >> 1) & 1]));
        });
        self.row_reduce_chains::<K>(|a, b| a + b)
    }
}
