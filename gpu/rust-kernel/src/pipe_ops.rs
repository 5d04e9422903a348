//! `smemdesc::pipeline::PipelineOps` for these kernels: each method is one instruction of
//! `ptx.rs`. [`Ptx`]'s `wait` is bounded (a watchdog), so a protocol that never completes ends
//! the launch instead of hanging it (the declared pipeline makes that a second line of defence);
//! [`PtxSpin`]'s never gives up, which keeps a `wgmma` pipeline after it whole (ptxas C7518, see
//! `gpu/device-logs/2026-11-27-grouped-c7518`).

use crate::ptx::*;
use smemdesc::pipeline::PipelineOps;

/// Cycles a wait may last before the watchdog gives up (about 1 s at the H100's clocks).
pub const WATCHDOG_CYCLES: u64 = 2_000_000_000;

/// The kernels' PTX; `WATCHDOG`: whether `wait` gives up after [`WATCHDOG_CYCLES`].
pub struct PtxOps<const WATCHDOG: bool>;

/// Waits bounded by the watchdog.
pub type Ptx = PtxOps<true>;

/// Waits that never give up: one exit from a wait, so the handles' `None` arms are dead code.
pub type PtxSpin = PtxOps<false>;

impl<const WATCHDOG: bool> PipelineOps for PtxOps<WATCHDOG> {
    #[inline(always)]
    fn init(bar: u32, count: u32) {
        // SAFETY: `bar` is an mbarrier of the kernel's storage (the pipeline's handles pass only
        // the declared barriers); one thread initialises.
        unsafe { mbar_init(bar, count) }
    }
    #[inline(always)]
    fn fence_init() {
        // SAFETY: a fence.
        unsafe { fence_barrier_init() }
    }
    #[inline(always)]
    fn sync_cta() {
        // SAFETY: every thread of the CTA calls `init_sync`.
        unsafe { sync_threads() }
    }
    #[inline(always)]
    fn sync_cluster() {
        // SAFETY: every thread of the cluster calls `init_sync`.
        unsafe { cluster_sync() }
    }
    #[inline(always)]
    fn arrive_expect_tx(bar: u32, bytes: u32) {
        // SAFETY: an initialised mbarrier of the storage.
        unsafe { mbar_expect_tx(bar, bytes) }
    }
    #[inline(always)]
    fn arrive(bar: u32) {
        // SAFETY: as above.
        unsafe { mbar_arrive(bar) }
    }
    #[inline(always)]
    fn arrive_cluster(bar: u32, cta: u32) {
        // SAFETY: the same mbarrier in a CTA of the cluster (the pipeline's release set).
        unsafe { mbar_arrive_remote(bar, cta) }
    }
    #[inline(always)]
    fn wait(bar: u32, parity: u32) -> bool {
        // SAFETY: try_wait probes of an initialised mbarrier.
        unsafe {
            if !WATCHDOG {
                while !mbar_try_wait(bar, parity) {}
                return true;
            }
            if mbar_try_wait(bar, parity) {
                return true;
            }
            let t0 = clock64();
            while !mbar_try_wait(bar, parity) {
                if clock64().wrapping_sub(t0) > WATCHDOG_CYCLES {
                    return false;
                }
            }
            true
        }
    }
    #[inline(always)]
    fn map_cta(addr: u32, cta: u32) -> u32 {
        // SAFETY: address arithmetic.
        unsafe { mapa(addr, cta) }
    }
    #[inline(always)]
    fn tma_load(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
        // SAFETY: `dst` is the declared stage of the declared tile, `bar` its full barrier.
        unsafe { tma_load_2d(dst, map, c0, c1, bar) }
    }
    #[inline(always)]
    fn tma_load_pair(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
        // SAFETY: as above, `bar` the pair leader's full barrier (sm100 pipelines only).
        unsafe { tma_load_2d_pair(dst, map, c0, c1, bar) }
    }
    #[inline(always)]
    fn tma_load_multicast(dst: u32, map: u64, c0: u32, c1: u32, bar: u32, mask: u16) {
        // SAFETY: as above, to the declared sharers.
        unsafe { tma_load_2d_multicast(dst, map, c0, c1, bar, mask) }
    }
}
