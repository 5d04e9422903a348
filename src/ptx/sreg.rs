//! Special registers, `elect` and `trap`.

use core::arch::asm;

macro_rules! sreg32 {
    ($(#[$doc:meta])* $name:ident, $reg:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name() -> u32 {
            let r: u32;
            // SAFETY: reads a special register (no memory, no side effect).
            unsafe {
                asm!(concat!("mov.u32 {0}, ", $reg, ";"), out(reg32) r,
                     options(pure, nomem, nostack))
            };
            r
        }
    };
}

sreg32!(
    /// `%tid.x`: the thread's index in its CTA along x.
    ///
    /// ```ignore
    /// // nvptx64 kernel code.
    /// let wg = smemdesc::ptx::tid_x() / 128; // this thread's warpgroup
    /// ```
    tid_x,
    "%tid.x"
);
sreg32!(
    /// `%ctaid.x`: the CTA's index in the grid along x.
    ///
    /// ```ignore
    /// let m0 = smemdesc::ptx::ctaid_x() * BM; // this CTA's rows
    /// ```
    ctaid_x,
    "%ctaid.x"
);
sreg32!(
    /// `%ctaid.y`.
    ///
    /// ```ignore
    /// let n0 = smemdesc::ptx::ctaid_y() * BN; // this CTA's columns
    /// ```
    ctaid_y,
    "%ctaid.y"
);
sreg32!(
    /// `%nctaid.x`: CTAs in the grid along x (a persistent kernel's tile step).
    ///
    /// ```ignore
    /// let step = smemdesc::ptx::nctaid_x();
    /// ```
    nctaid_x,
    "%nctaid.x"
);
sreg32!(
    /// `%cluster_ctarank`: the CTA's rank in its cluster (what
    /// [`PipeAt::new`](crate::pipeline::PipeAt::new) takes as `rank`).
    ///
    /// ```ignore
    /// let pipe = smemdesc::pipeline::PipeAt::<Pipe>::new(base, smemdesc::ptx::cluster_ctarank());
    /// ```
    cluster_ctarank,
    "%cluster_ctarank"
);

/// `%clock64` (not `pure`: every read is a new sample; [`Watchdog`](super::Watchdog) counts
/// with it).
///
/// ```ignore
/// let t0 = smemdesc::ptx::clock64();
/// ```
#[inline(always)]
pub fn clock64() -> u64 {
    let r: u64;
    // SAFETY: reads a special register.
    unsafe { asm!("mov.u64 {0}, %clock64;", out(reg64) r, options(nomem, nostack)) };
    r
}

/// `trap`: ends the kernel with an error (what a kernel's `#[panic_handler]` and a failed
/// check end in).
///
/// ```ignore
/// #[panic_handler]
/// fn panic(_: &core::panic::PanicInfo) -> ! {
///     smemdesc::ptx::trap()
/// }
/// ```
#[inline(always)]
pub fn trap() -> ! {
    // SAFETY: aborts the kernel.
    unsafe { asm!("trap;", options(noreturn, nostack)) }
}

/// `elect.sync _|p, 0xffffffff`: true in exactly one lane of the warp (sm_90).
///
/// ```ignore
/// // SAFETY: every lane of the warp reaches this call together.
/// if unsafe { smemdesc::ptx::elect_one() } {
///     // one lane issues the stage's loads
/// }
/// ```
///
/// # Safety
/// Every lane of the warp executes it, converged (`.sync` with a full member mask: the PTX ISA
/// leaves a call with a lane missing undefined).
#[inline(always)]
pub unsafe fn elect_one() -> bool {
    let r: u32;
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "{{ .reg .pred p; elect.sync _|p, 0xffffffff; selp.u32 {0}, 1, 0, p; }}",
            out(reg32) r,
            options(nostack)
        );
    }
    r != 0
}
