//! One thread's operations without a branch: each takes the predicate (`pred`, "this thread
//! issues") into the instruction (`@p`), so the kernel has no thread-divergent branch around
//! it.
//!
//! Why: Rust's `asm!` is not `convergent` to LLVM, so after `if t == 0 { bulk_wait_group_read }`
//! LLVM may copy the code that follows (tail duplication) into both arms. A warp-collective
//! `.aligned` instruction there (`bar.sync`, `stmatrix`, `wgmma`) is then executed by lane 0 at
//! one program counter and by lanes 1..31 at another, which the PTX ISA leaves undefined: the
//! overlapped convolution of issue 47 (`gpu/rust-kernel/src/conv_ov.rs`) hung on it, its named
//! barrier's warps counted at two instructions. With the predicate inside the instruction there
//! is no branch to duplicate across (`scripts/check_convergence.py` checks every kernel's PTX
//! for `.aligned` instructions under a lane-divergent branch).
//!
//! Each is the plain form's instruction under `@p`: a thread whose `pred` is false issues
//! nothing and waits for nothing.

use core::arch::asm;

/// [`tma_store_2d`](super::tma_store_2d) issued only where `pred`:
/// `@p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [map, {c0, c1}], [src]`.
///
/// ```ignore
/// let one = smemdesc::ptx::tid_x() % 128 == 0;
/// unsafe { smemdesc::ptx::tma_store_2d_if(one, map_c, c_tile, n0, m0) };
/// smemdesc::ptx::bulk_commit_group_if(one);
/// ```
///
/// # Safety
/// As [`tma_store_2d`](super::tma_store_2d), for the threads whose `pred` is true.
#[inline(always)]
pub unsafe fn tma_store_2d_if(pred: bool, map: u64, src: u32, c0: u32, c1: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {0}, 0; @p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [{1}, {{{2}, {3}}}], [{4}]; }}",
            in(reg32) pred as u32,
            in(reg64) map,
            in(reg32) c0,
            in(reg32) c1,
            in(reg32) src,
            options(nostack)
        );
    }
}

/// [`bulk_commit_group`](super::bulk_commit_group) where `pred`:
/// `@p cp.async.bulk.commit_group`.
///
/// ```ignore
/// smemdesc::ptx::bulk_commit_group_if(smemdesc::ptx::tid_x() == 0);
/// ```
#[inline(always)]
pub fn bulk_commit_group_if(pred: bool) {
    // SAFETY: groups this thread's issued bulk operations; accesses nothing.
    unsafe {
        asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {0}, 0; @p cp.async.bulk.commit_group; }}",
            in(reg32) pred as u32,
            options(nostack)
        )
    }
}

/// [`bulk_wait_group_read`](super::bulk_wait_group_read) where `pred`:
/// `@p cp.async.bulk.wait_group.read N`.
///
/// ```ignore
/// // Thread 0 issued the stores: it waits until the buffer is read, then the warpgroup syncs.
/// smemdesc::ptx::bulk_wait_group_read_if::<1>(t == 0);
/// ```
#[inline(always)]
pub fn bulk_wait_group_read_if<const N: u32>(pred: bool) {
    // SAFETY: a wait.
    unsafe {
        asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {0}, 0; @p cp.async.bulk.wait_group.read {1}; }}",
            in(reg32) pred as u32,
            const N,
            options(nostack)
        )
    }
}

/// [`bulk_wait_group`](super::bulk_wait_group) where `pred`:
/// `@p cp.async.bulk.wait_group N`.
///
/// ```ignore
/// smemdesc::ptx::bulk_wait_group_if::<0>(t == 0); // every store of thread 0 landed
/// ```
#[inline(always)]
pub fn bulk_wait_group_if<const N: u32>(pred: bool) {
    // SAFETY: a wait.
    unsafe {
        asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {0}, 0; @p cp.async.bulk.wait_group {1}; }}",
            in(reg32) pred as u32,
            const N,
            options(nostack)
        )
    }
}

/// [`mbarrier_arrive`](super::mbarrier_arrive) where `pred`:
/// `@p mbarrier.arrive.shared::cta.b64 _, [bar]`.
///
/// ```ignore
/// unsafe { smemdesc::ptx::mbarrier_arrive_if(t == 0, Storage::empty_at(base, s)) };
/// ```
///
/// # Safety
/// As [`mbarrier_arrive`](super::mbarrier_arrive), for the threads whose `pred` is true.
#[inline(always)]
pub unsafe fn mbarrier_arrive_if(pred: bool, bar: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {0}, 0; @p mbarrier.arrive.shared::cta.b64 _, [{1}]; }}",
            in(reg32) pred as u32,
            in(reg32) bar,
            options(nostack)
        );
    }
}
