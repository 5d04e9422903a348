//! [`PipelineOps`] and [`TensorMapOps`] for nvptx64: [`Spin`] (waits that never give up) and
//! [`Watchdog`] (waits that give up after a bound, for debugging builds).

use super::{fence, mbarrier, sreg, tma};
use crate::grouped::TensorMapOps;
use crate::pipeline::PipelineOps;

/// The declared pipeline's and the grouped map's instructions, with a [`wait`](PipelineOps::wait)
/// that spins until the phase completes: it never returns `false`, so the handles' `None`
/// arms are dead code and the compiler drops them. The form for a `wgmma` kernel: a wait that
/// can give up makes ptxas serialise the `wgmma`s after it (C7518,
/// `gpu/device-logs/2026-11-27-grouped-c7518`).
///
/// ```ignore
/// // nvptx64 kernel code.
/// use smemdesc::ptx::Spin;
/// let pipe = smemdesc::pipeline::PipeAt::<Pipe>::new(base, 0);
/// if tid == 0 { pipe.init::<Spin>(); }
/// pipe.init_sync::<Spin>();
/// let (mut producer, consumers) = pipe.split();
/// let fill = producer.acquire::<Spin>().unwrap(); // never None
/// ```
pub struct Spin;

/// Cycles a [`Watchdog`] wait lasts by default before it gives up: 2·10^9, about a second at
/// an H100's clocks.
pub const WATCHDOG_CYCLES: u64 = 2_000_000_000;

/// [`Spin`] with a bounded wait: after `CYCLES` cycles of `%clock64` a wait gives up (returns
/// `false`) and the handles return `None`, so a protocol that never completes ends the launch
/// (the kernel traps or reports) instead of hanging it.
///
/// ```ignore
/// // nvptx64 kernel code.
/// type Ops = smemdesc::ptx::Watchdog; // WATCHDOG_CYCLES
/// let Some(full) = consumer.wait::<Ops>() else { smemdesc::ptx::trap() };
/// ```
pub struct Watchdog<const CYCLES: u64 = WATCHDOG_CYCLES>;

macro_rules! pipeline_ops {
    ($([$($gen:tt)*] $ty:ty, $wait:path;)*) => {$(
        impl<$($gen)*> PipelineOps for $ty {
            #[inline(always)]
            fn init(bar: u32, count: u32) {
                // SAFETY: the handles pass a declared barrier of the storage and its declared
                // count (checked by the declaration), from one thread, before `init_sync`.
                unsafe { mbarrier::mbarrier_init(bar, count) }
            }
            #[inline(always)]
            fn fence_init() {
                fence::fence_mbarrier_init()
            }
            #[inline(always)]
            fn sync_cta() {
                // SAFETY: `init_sync` is called by every thread of the CTA.
                unsafe { fence::sync_cta() }
            }
            #[inline(always)]
            fn sync_cluster() {
                // SAFETY: `init_sync` of a clustered pipeline is called by every thread of the
                // cluster.
                unsafe { fence::cluster_sync() }
            }
            #[inline(always)]
            fn arrive_expect_tx(bar: u32, bytes: u32) {
                // SAFETY: an initialised full barrier and the declared bytes of its loads.
                unsafe { mbarrier::mbarrier_arrive_expect_tx(bar, bytes) }
            }
            #[inline(always)]
            fn arrive(bar: u32) {
                // SAFETY: an initialised barrier; the handles arrive once per declared arrival.
                unsafe { mbarrier::mbarrier_arrive(bar) }
            }
            #[inline(always)]
            fn arrive_cluster(bar: u32, cta: u32) {
                // SAFETY: the same barrier in a CTA of the declared release set, which drains
                // before it exits.
                unsafe { mbarrier::mbarrier_arrive_remote(bar, cta) }
            }
            #[inline(always)]
            fn wait(bar: u32, parity: u32) -> bool {
                $wait(bar, parity)
            }
            #[inline(always)]
            fn map_cta(addr: u32, cta: u32) -> u32 {
                mbarrier::mapa(addr, cta)
            }
            #[inline(always)]
            fn tma_load(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
                // SAFETY: the declared box of an acquired stage, completing on its full barrier,
                // whose expect_tx counts it.
                unsafe { tma::tma_load_2d(dst, map, c0, c1, bar) }
            }
            #[inline(always)]
            fn tma_load_multicast(dst: u32, map: u64, c0: u32, c1: u32, bar: u32, mask: u16) {
                // SAFETY: as above, to the declared sharers of the tile.
                unsafe { tma::tma_load_2d_multicast(dst, map, c0, c1, bar, mask) }
            }
            #[inline(always)]
            fn tma_load_pair(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
                // SAFETY: as above, `bar` the pair leader's full barrier (`split_pair`).
                unsafe { tma::tma_load_2d_pair(dst, map, c0, c1, bar) }
            }
        }

        impl<$($gen)*> TensorMapOps for $ty {
            #[inline(always)]
            fn replace_address(slot: u64, address: u64) {
                // SAFETY: `slot` is a retired map slot the handle borrows exclusively
                // (`MapSlot`), 128-B aligned by its type.
                unsafe {
                    core::arch::asm!("tensormap.replace.tile.global_address.global.b1024.b64 [{0}], {1};",
                        in(reg64) slot, in(reg64) address, options(nostack))
                }
            }
            #[inline(always)]
            fn replace_dim<const ORD: u32>(slot: u64, value: u32) {
                // SAFETY: as above.
                unsafe {
                    core::arch::asm!("tensormap.replace.tile.global_dim.global.b1024.b32 [{0}], {ord}, {1};",
                        in(reg64) slot, in(reg32) value, ord = const ORD, options(nostack))
                }
            }
            #[inline(always)]
            fn replace_stride<const ORD: u32>(slot: u64, bytes: u64) {
                // SAFETY: as above.
                unsafe {
                    core::arch::asm!("tensormap.replace.tile.global_stride.global.b1024.b64 [{0}], {ord}, {1};",
                        in(reg64) slot, in(reg64) bytes, ord = const ORD, options(nostack))
                }
            }
            #[inline(always)]
            fn release() {
                fence::fence_tensormap_release()
            }
            #[inline(always)]
            fn acquire(slot: u64) {
                // SAFETY: a slot the handle borrows (a `&mut TensorMapMem`).
                unsafe { fence::fence_tensormap_acquire(slot) }
            }
            #[inline(always)]
            fn bulk_wait_read_all() {
                tma::bulk_wait_group_read::<0>()
            }
        }
    )*};
}

pipeline_ops! {
    [] Spin, spin_wait;
    [const CYCLES: u64] Watchdog<CYCLES>, watchdog_wait::<CYCLES>;
}

#[inline(always)]
fn spin_wait(bar: u32, parity: u32) -> bool {
    // SAFETY: the handles wait on initialised barriers of the storage.
    unsafe { mbarrier::mbarrier_wait(bar, parity) };
    true
}

#[inline(always)]
fn watchdog_wait<const CYCLES: u64>(bar: u32, parity: u32) -> bool {
    // SAFETY: as `spin_wait`.
    unsafe {
        if mbarrier::mbarrier_try_wait(bar, parity) {
            return true;
        }
        let t0 = sreg::clock64();
        while !mbarrier::mbarrier_try_wait(bar, parity) {
            if sreg::clock64().wrapping_sub(t0) > CYCLES {
                return false;
            }
        }
        true
    }
}

/// `griddepcontrol` for a programmatic dependent launch (the same instructions for both).
macro_rules! grid_dep_ops {
    ($([$($gen:tt)*] $ty:ty;)*) => {$(
        impl<$($gen)*> crate::pdl::GridDepOps for $ty {
            #[inline(always)]
            fn wait() {
                fence::griddepcontrol_wait()
            }
            #[inline(always)]
            fn launch_dependents() {
                fence::griddepcontrol_launch_dependents()
            }
        }
    )*};
}
grid_dep_ops! {
    [] Spin;
    [const CYCLES: u64] Watchdog<CYCLES>;
}

/// `clusterlaunchcontrol` (sm100) for the dynamic persistent scheduler ([`crate::clc`]).
macro_rules! clc_ops {
    ($([$($gen:tt)*] $ty:ty;)*) => {$(
        impl<$($gen)*> crate::clc::ClcOps for $ty {
            #[inline(always)]
            fn try_cancel(resp: u32, bar: u32) {
                // SAFETY: the scheduler passes its 16-B aligned response and 8-B aligned
                // barrier (checked by `ClcScheduler::new`), after a successful response only.
                unsafe {
                    core::arch::asm!(
                        "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [{0}], [{1}];",
                        in(reg32) resp, in(reg32) bar, options(nostack)
                    )
                }
            }
            #[inline(always)]
            fn query(resp: u32) -> Option<[u32; 3]> {
                let (ok, x, y, z): (u32, u32, u32, u32);
                // SAFETY: reads the landed response (the scheduler waited for its barrier).
                unsafe {
                    core::arch::asm!(
                        "{{ .reg .b128 r; .reg .pred p; .reg .b64 lo, hi; .reg .b32 w;",
                        "ld.shared.v2.b64 {{lo, hi}}, [{4}];",
                        "mov.b128 r, {{lo, hi}};",
                        "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, r;",
                        "selp.u32 {0}, 1, 0, p;",
                        "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {{{1}, {2}, {3}, w}}, r; }}",
                        out(reg32) ok, out(reg32) x, out(reg32) y, out(reg32) z, in(reg32) resp,
                        options(nostack)
                    )
                }
                if ok != 0 { Some([x, y, z]) } else { None }
            }
        }
        impl<$($gen)*> crate::clc::ClcMulticastOps for $ty {
            #[inline(always)]
            fn try_cancel_multicast(resp: u32, bar: u32) {
                // SAFETY: `ClcCluster` passes its 16-B aligned response and 8-B aligned barrier,
                // the same offsets in every CTA, from rank 0 only, once every CTA read the last
                // response (`ClcDrain::wait_readers`).
                unsafe {
                    core::arch::asm!(
                        "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [{0}], [{1}];",
                        in(reg32) resp, in(reg32) bar, options(nostack)
                    )
                }
            }
        }
    )*};
}
clc_ops! {
    [] Spin;
    [const CYCLES: u64] Watchdog<CYCLES>;
}
