//! Fences, CTA and cluster barriers, `setmaxnreg`.

use core::arch::asm;

use crate::grouped::TensorMapMem;

/// `fence.proxy.async.shared::cta`: this thread's generic-proxy writes to shared memory become
/// visible to the async proxy (a TMA store or `wgmma` reading what `st.shared`/`stmatrix`
/// wrote).
///
/// ```ignore
/// // after the epilogue's stmatrix, before the TMA store:
/// smemdesc::ptx::fence_proxy_async_shared_cta();
/// ```
#[inline(always)]
pub fn fence_proxy_async_shared_cta() {
    // SAFETY: a fence.
    unsafe { asm!("fence.proxy.async.shared::cta;", options(nostack)) }
}

/// `fence.mbarrier_init.release.cluster`: the mbarrier initialisations before it are visible
/// to the cluster and the async proxy ([`PipelineOps::fence_init`](crate::pipeline::PipelineOps::fence_init)).
///
/// ```ignore
/// smemdesc::ptx::fence_mbarrier_init();
/// ```
#[inline(always)]
pub fn fence_mbarrier_init() {
    // SAFETY: a fence.
    unsafe { asm!("fence.mbarrier_init.release.cluster;", options(nostack)) }
}

/// `fence.proxy.tensormap::generic.release.gpu`: this thread's `tensormap.replace` writes
/// become visible to the tensormap proxy ([`TensorMapOps::release`](crate::grouped::TensorMapOps::release)).
///
/// ```ignore
/// smemdesc::ptx::fence_tensormap_release();
/// ```
#[inline(always)]
pub fn fence_tensormap_release() {
    // SAFETY: a fence.
    unsafe {
        asm!(
            "fence.proxy.tensormap::generic.release.gpu;",
            options(nostack)
        )
    }
}

/// `fence.proxy.tensormap::generic.acquire.gpu [map], 128`: the tensor map `map` as written
/// (by the host before the launch, or released in the kernel) is what the next TMA operation of
/// this thread reads (PTX 8.3; CUDA Programming Guide, "tensor map in global memory").
///
/// ```ignore
/// // SAFETY: `maps` is the device address of the host's uploaded maps.
/// unsafe { smemdesc::ptx::fence_tensormap_acquire(maps) };
/// ```
///
/// # Safety
/// `map` is the generic address of a 128-B aligned tensor map in global memory.
#[inline(always)]
pub unsafe fn fence_tensormap_acquire(map: u64) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "fence.proxy.tensormap::generic.acquire.gpu [{0}], 128;",
            in(reg64) map,
            options(nostack)
        );
    }
}

/// [`fence_tensormap_acquire`] at system scope, `fence.proxy.tensormap::generic.acquire.sys
/// [map], 128`: the scope the CUDA Programming Guide's example of a tensor map the host wrote to
/// global memory acquires at (GPU scope is enough for a map written before the launch; this
/// form is for kernels measured with it).
///
/// ```ignore
/// // SAFETY: `map_q` is the device address of the host's uploaded map.
/// unsafe { smemdesc::ptx::fence_tensormap_acquire_sys(map_q) };
/// ```
///
/// # Safety
/// As [`fence_tensormap_acquire`].
#[inline(always)]
pub unsafe fn fence_tensormap_acquire_sys(map: u64) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "fence.proxy.tensormap::generic.acquire.sys [{0}], 128;",
            in(reg64) map,
            options(nostack)
        );
    }
}

/// [`fence_tensormap_acquire`] on a map the kernel holds by reference: the reference proves
/// what the raw form's caller promises.
///
/// ```ignore
/// // maps: &TensorMapMem, from the kernel's `*const TensorMapMem` parameter
/// smemdesc::ptx::fence_tensormap_acquire_mem(maps);
/// ```
#[inline(always)]
pub fn fence_tensormap_acquire_mem(map: &TensorMapMem) {
    // SAFETY: a `TensorMapMem` is 128 bytes, 128-B aligned (its type).
    unsafe { fence_tensormap_acquire(map as *const TensorMapMem as u64) }
}

/// `prefetch.tensormap [map]`: brings the map into the TMA unit's cache ahead of its first use.
///
/// ```ignore
/// unsafe { smemdesc::ptx::prefetch_tensormap(map_a) };
/// ```
///
/// # Safety
/// `map` is the generic address of a tensor map in global memory.
#[inline(always)]
pub unsafe fn prefetch_tensormap(map: u64) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!("prefetch.tensormap [{0}];", in(reg64) map, options(nostack));
    }
}

/// `barrier.sync 0` (`__syncthreads()`; [`PipelineOps::sync_cta`](crate::pipeline::PipelineOps::sync_cta)).
///
/// ```ignore
/// // SAFETY: every thread of the CTA reaches this barrier.
/// unsafe { smemdesc::ptx::sync_cta() };
/// ```
///
/// # Safety
/// Every thread of the CTA executes it (a thread that never arrives hangs the others).
#[inline(always)]
pub unsafe fn sync_cta() {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!("barrier.sync 0;", options(nostack));
    }
}

/// `bar.sync id, threads`: named barrier `id` (0..16) over `threads` threads (a multiple of
/// 32): the warps of a subset of the CTA (a consumer warpgroup's epilogue, warpgroups taking
/// turns) wait for each other.
///
/// ```ignore
/// // SAFETY: the 128 threads of this warpgroup reach barrier 1.
/// unsafe { smemdesc::ptx::named_barrier_sync(1, 128) };
/// ```
///
/// # Safety
/// Exactly `threads` threads, whole warps, use barrier `id` in this phase (a different count
/// or a missing warp hangs the others).
#[inline(always)]
pub unsafe fn named_barrier_sync(id: u32, threads: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!("bar.sync {0}, {1};", in(reg32) id, in(reg32) threads, options(nostack));
    }
}

/// `bar.arrive id, threads`: arrives on named barrier `id` without waiting (the producer side
/// of [`named_barrier_sync`]: the arriving warps count towards `threads`).
///
/// ```ignore
/// // SAFETY: 128 threads arrive here, 128 others wait on barrier 3 (256 in all).
/// unsafe { smemdesc::ptx::named_barrier_arrive(3, 256) };
/// ```
///
/// # Safety
/// As [`named_barrier_sync`]: `threads` counts the arriving and the waiting threads of the phase.
#[inline(always)]
pub unsafe fn named_barrier_arrive(id: u32, threads: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!("bar.arrive {0}, {1};", in(reg32) id, in(reg32) threads, options(nostack));
    }
}

/// `barrier.cluster.arrive.release` then `barrier.cluster.wait.acquire`: every thread of every
/// CTA of the cluster ([`PipelineOps::sync_cluster`](crate::pipeline::PipelineOps::sync_cluster)).
///
/// Not the `.aligned` forms: those need each warp at the same instruction, which Rust cannot
/// promise (its `asm!` is not `convergent` to LLVM). After `if tid == 0 { init }` LLVM merged
/// the two `tid == 0` tests around this barrier and copied it into both arms, lane 0 reaching
/// one copy and lanes 1..31 the other (`scripts/check_convergence.py` refused
/// `whole_clc_broadcast` for it). Without `.aligned` the PTX ISA allows that, as it does for
/// [`sync_cta`]'s `barrier.sync 0`.
///
/// ```ignore
/// // SAFETY: every thread of the cluster reaches it.
/// unsafe { smemdesc::ptx::cluster_sync() };
/// ```
///
/// # Safety
/// Every thread of the cluster executes it (a thread that never arrives hangs the others).
#[inline(always)]
pub unsafe fn cluster_sync() {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "barrier.cluster.arrive.release;",
            "barrier.cluster.wait.acquire;",
            options(nostack)
        );
    }
}

/// The count `setmaxnreg` may take: 24 to 256, a multiple of 8 (PTX ISA, `setmaxnreg`).
const fn check_nreg(n: u32) {
    assert!(
        n >= 24 && n <= 256 && n % 8 == 0,
        "setmaxnreg takes 24..=256 registers, a multiple of 8 (PTX ISA, setmaxnreg)"
    );
}

/// `setmaxnreg.inc.sync.aligned.u32 N`: the warpgroup's threads may use up to `N` registers
/// (a consumer warpgroup of a warp-specialised kernel). `N` out of 24..=256 or not a multiple
/// of 8 is a compile error naming the rule, in `cargo build` (the check is evaluated where the
/// function is instantiated, which `cargo check` does not do; checked with nightly 1.97).
/// ptxas honours it only in a kernel with `.maxntid` (C7508 otherwise).
///
/// ```ignore
/// // SAFETY: the whole consumer warpgroup executes it together.
/// unsafe { smemdesc::ptx::setmaxnreg_inc::<232>() };
/// ```
///
/// # Safety
/// Every thread of the warpgroup executes it, converged (`.sync.aligned`).
#[inline(always)]
pub unsafe fn setmaxnreg_inc<const N: u32>() {
    const { check_nreg(N) };
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!("setmaxnreg.inc.sync.aligned.u32 {0};", const N, options(nostack));
    }
}

/// `setmaxnreg.dec.sync.aligned.u32 N`: gives registers back (a producer warpgroup); `N` as
/// for [`setmaxnreg_inc`].
///
/// ```ignore
/// // SAFETY: the whole producer warpgroup executes it together.
/// unsafe { smemdesc::ptx::setmaxnreg_dec::<40>() };
/// ```
///
/// # Safety
/// As [`setmaxnreg_inc`].
#[inline(always)]
pub unsafe fn setmaxnreg_dec<const N: u32>() {
    const { check_nreg(N) };
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!("setmaxnreg.dec.sync.aligned.u32 {0};", const N, options(nostack));
    }
}

/// `griddepcontrol.wait`: every prerequisite grid of a programmatic dependent launch completed
/// and its memory is visible ([`GridDepOps::wait`](crate::pdl::GridDepOps::wait); returns at
/// once in a kernel launched without the attribute).
///
/// ```ignore
/// let done = smemdesc::pdl::Prologue::start().wait::<smemdesc::ptx::Spin>();
/// ```
#[inline(always)]
pub fn griddepcontrol_wait() {
    // SAFETY: waits for the prerequisite grids.
    unsafe { asm!("griddepcontrol.wait;", options(nostack)) }
}

/// `griddepcontrol.launch_dependents`: the dependent grid may be scheduled once every CTA of
/// this grid issued it or exited ([`GridDepOps::launch_dependents`](crate::pdl::GridDepOps::launch_dependents)).
///
/// ```ignore
/// smemdesc::pdl::launch_dependents::<smemdesc::ptx::Spin>();
/// ```
#[inline(always)]
pub fn griddepcontrol_launch_dependents() {
    // SAFETY: a scheduling hint.
    unsafe { asm!("griddepcontrol.launch_dependents;", options(nostack)) }
}
