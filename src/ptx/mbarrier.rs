//! mbarriers and `mapa`.
//!
//! Every `bar` is the shared-window address of an 8-B aligned mbarrier of this CTA's storage
//! (`Storage::full_at(base, s)`), unless named a `.shared::cluster` address.

use core::arch::asm;

/// `mbarrier.init.shared::cta.b64 [bar], count`.
///
/// ```ignore
/// // SAFETY: one thread initialises the storage's barrier before any use.
/// unsafe { smemdesc::ptx::mbarrier_init(Storage::full_at(base, 0), 1) };
/// ```
///
/// # Safety
/// `bar` is an mbarrier of this CTA's shared memory that no thread uses until the
/// initialisation is made visible ([`fence_mbarrier_init`](super::fence_mbarrier_init) and a
/// barrier); `count` is 1 to 2^20 - 1 (PTX ISA, `mbarrier.init`).
#[inline(always)]
pub unsafe fn mbarrier_init(bar: u32, count: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!("mbarrier.init.shared::cta.b64 [{0}], {1};", in(reg32) bar, in(reg32) count, options(nostack));
    }
}

/// `mbarrier.arrive.shared::cta.b64 _, [bar]`.
///
/// ```ignore
/// unsafe { smemdesc::ptx::mbarrier_arrive(Storage::empty_at(base, s)) };
/// ```
///
/// # Safety
/// `bar` is an initialised mbarrier of this CTA, whose pending count this arrival belongs to
/// (an extra arrival completes a phase early).
#[inline(always)]
pub unsafe fn mbarrier_arrive(bar: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!("mbarrier.arrive.shared::cta.b64 _, [{0}];", in(reg32) bar, options(nostack));
    }
}

/// `mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], bytes`: arrives and adds `bytes` to
/// the transactions the phase waits for.
///
/// ```ignore
/// unsafe { smemdesc::ptx::mbarrier_arrive_expect_tx(Storage::full_at(base, s), Pipe::EXPECT_TX) };
/// ```
///
/// # Safety
/// As [`mbarrier_arrive`]; `bytes` is what the loads completing on `bar` in this phase deliver
/// (more never completes the phase, less completes it before the data landed).
#[inline(always)]
pub unsafe fn mbarrier_arrive_expect_tx(bar: u32, bytes: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [{0}], {1};",
            in(reg32) bar,
            in(reg32) bytes,
            options(nostack)
        );
    }
}

/// One `mbarrier.try_wait.parity.shared::cta.b64` probe: whether the phase of parity `parity`
/// of `bar` completed.
///
/// ```ignore
/// while !unsafe { smemdesc::ptx::mbarrier_try_wait(bar, parity) } {}
/// ```
///
/// # Safety
/// `bar` is an initialised mbarrier of this CTA.
#[inline(always)]
pub unsafe fn mbarrier_try_wait(bar: u32, parity: u32) -> bool {
    let done: u32;
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [{1}], {2}; selp.u32 {0}, 1, 0, p; }}",
            out(reg32) done,
            in(reg32) bar,
            in(reg32) parity,
            options(nostack)
        );
    }
    done != 0
}

/// Spins on [`mbarrier_try_wait`] until the phase of parity `parity` completed.
///
/// ```ignore
/// unsafe { smemdesc::ptx::mbarrier_wait(Storage::full_at(base, s), phase) };
/// ```
///
/// # Safety
/// As [`mbarrier_try_wait`].
#[inline(always)]
pub unsafe fn mbarrier_wait(bar: u32, parity: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    while !unsafe { mbarrier_try_wait(bar, parity) } {}
}

/// Arrives on the mbarrier at `bar`'s offset in cluster CTA `cta`: `mapa.shared::cluster.u32`
/// then `mbarrier.arrive.shared::cluster.b64 _, [addr]` (the `.release` default at CTA scope,
/// as CUTLASS's `ClusterBarrier::arrive(cta)`; the `.release.cluster` form cost two memory
/// barriers per call, gpu/RESULTS.md issue 22).
///
/// ```ignore
/// unsafe { smemdesc::ptx::mbarrier_arrive_remote(Storage::empty_at(base, s), 1) };
/// ```
///
/// # Safety
/// `bar` is an initialised mbarrier of CTA `cta`'s storage (the same offset as in this CTA),
/// `cta` a rank of the cluster, and that CTA has not exited.
#[inline(always)]
pub unsafe fn mbarrier_arrive_remote(bar: u32, cta: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "{{ .reg .b32 r; mapa.shared::cluster.u32 r, {0}, {1}; mbarrier.arrive.shared::cluster.b64 _, [r]; }}",
            in(reg32) bar,
            in(reg32) cta,
            options(nostack)
        );
    }
}

/// `mapa.shared::cluster.u32`: the `.shared::cluster` address of `addr` in cluster CTA `cta`
/// (address arithmetic: nothing is accessed).
///
/// ```ignore
/// let leader_full = smemdesc::ptx::mapa(Storage::full_at(base, s), rank & !1);
/// ```
#[inline(always)]
pub fn mapa(addr: u32, cta: u32) -> u32 {
    let r: u32;
    // SAFETY: computes an address; no memory is read or written.
    unsafe {
        asm!("mapa.shared::cluster.u32 {0}, {1}, {2};", out(reg32) r, in(reg32) addr, in(reg32) cta, options(nostack))
    };
    r
}
