//! The PTX the kernels need (PTX ISA 8.0, sm_90a): what the library ships is
//! `smemdesc::ptx`'s (the functions here keep the kernels' names and call it), the rest one
//! `asm!` each. Addresses named `bar`, `dst` and `addr` are shared-window addresses (`u32`);
//! `map` is the generic address of a `CUtensorMap`.

use core::arch::asm;

/// `%tid.x` (`smemdesc::ptx::tid_x`).
#[inline(always)]
pub fn tid() -> u32 {
    smemdesc::ptx::tid_x()
}

/// `%ctaid.x` (`smemdesc::ptx::ctaid_x`).
#[inline(always)]
pub fn ctaid() -> u32 {
    smemdesc::ptx::ctaid_x()
}

/// `%nctaid.x` (`smemdesc::ptx::nctaid_x`).
#[inline(always)]
pub fn nctaid() -> u32 {
    smemdesc::ptx::nctaid_x()
}

/// Shared-window address of `smem_dyn`, the module's dynamic shared memory (declared in `lib.rs`).
#[inline(always)]
pub fn smem_dyn() -> u32 {
    let r: u32;
    // SAFETY: takes the address of a symbol.
    unsafe { asm!("mov.u32 {0}, smem_dyn;", out(reg32) r, options(pure, nomem, nostack)) };
    r
}

/// `barrier.sync 0` (`__syncthreads`; `smemdesc::ptx::sync_cta`).
#[inline(always)]
pub unsafe fn sync_threads() {
    smemdesc::ptx::sync_cta()
}

/// `bar.warp.sync` of the full warp (`__syncwarp`).
#[inline(always)]
pub unsafe fn sync_warp() {
    asm!("bar.warp.sync -1;", options(nostack));
}

/// `trap` (`smemdesc::ptx::trap`).
#[inline(always)]
pub fn trap() -> ! {
    smemdesc::ptx::trap()
}

/// `mbarrier.init` with an arrival count (`smemdesc::ptx::mbarrier_init`).
#[inline(always)]
pub unsafe fn mbar_init(bar: u32, count: u32) {
    smemdesc::ptx::mbarrier_init(bar, count)
}

/// Makes mbarrier initialisation visible to the async proxy and the cluster
/// (`smemdesc::ptx::fence_mbarrier_init`).
#[inline(always)]
pub unsafe fn fence_barrier_init() {
    smemdesc::ptx::fence_mbarrier_init()
}

/// Arrive and expect `bytes` of TMA transactions on `bar` (`smemdesc::ptx::mbarrier_arrive_expect_tx`).
#[inline(always)]
pub unsafe fn mbar_expect_tx(bar: u32, bytes: u32) {
    smemdesc::ptx::mbarrier_arrive_expect_tx(bar, bytes)
}

/// Arrive on `bar` (`smemdesc::ptx::mbarrier_arrive`).
#[inline(always)]
pub unsafe fn mbar_arrive(bar: u32) {
    smemdesc::ptx::mbarrier_arrive(bar)
}

/// One `try_wait.parity` probe: whether the phase with `parity` completed
/// (`smemdesc::ptx::mbarrier_try_wait`).
#[inline(always)]
pub unsafe fn mbar_try_wait(bar: u32, parity: u32) -> bool {
    smemdesc::ptx::mbarrier_try_wait(bar, parity)
}

/// Waits for the phase with `parity` of `bar` (`smemdesc::ptx::mbarrier_wait`).
#[inline(always)]
pub unsafe fn mbar_wait(bar: u32, parity: u32) {
    smemdesc::ptx::mbarrier_wait(bar, parity)
}

/// Acquire fence for a tensor map the host wrote to global memory before the launch (CUDA
/// Programming Guide, TMA, "tensor map in global memory": the consumer acquires the tensormap
/// proxy at system scope before its first `cp.async.bulk.tensor`;
/// `smemdesc::ptx::fence_tensormap_acquire_sys`).
#[inline(always)]
pub unsafe fn tensormap_acquire(map: u64) {
    smemdesc::ptx::fence_tensormap_acquire_sys(map)
}

/// [`tensormap_acquire`] at GPU scope: enough for a map the host wrote before the launch
/// (every writer is outside the grid and finished before it started;
/// `smemdesc::ptx::fence_tensormap_acquire`).
#[inline(always)]
pub unsafe fn tensormap_acquire_gpu(map: u64) {
    smemdesc::ptx::fence_tensormap_acquire(map)
}

/// `prefetch.tensormap`: brings the map at generic address `map` into the TMA unit's cache
/// ahead of its first use (`smemdesc::ptx::prefetch_tensormap`).
#[inline(always)]
pub unsafe fn prefetch_tensormap(map: u64) {
    smemdesc::ptx::prefetch_tensormap(map)
}

/// `%globaltimer`: nanoseconds, one clock for every SM (the attention timeline experiment).
#[inline(always)]
pub fn globaltimer() -> u64 {
    let r: u64;
    // SAFETY: reads a special register; volatile, so each read stays where it is written.
    unsafe { asm!("mov.u64 {0}, %globaltimer;", out(reg64) r, options(nostack)) };
    r
}

/// `%smid`: the multiprocessor this thread runs on.
#[inline(always)]
pub fn smid() -> u32 {
    let r: u32;
    // SAFETY: reads a special register.
    unsafe { asm!("mov.u32 {0}, %smid;", out(reg32) r, options(nostack)) };
    r
}

/// One TMA box: tensor coordinates `(c0 innermost, c1)` of `map` to shared `dst`, completing
/// on `bar` (`smemdesc::ptx::tma_load_2d`).
#[inline(always)]
pub unsafe fn tma_load_2d(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
    smemdesc::ptx::tma_load_2d(dst, map, c0, c1, bar)
}

/// One TMA box of an sm100 CTA pair: `.cta_group::2`, completing on `bar`, the
/// `.shared::cluster` address of the pair leader's barrier (sm_100a; `smemdesc::ptx::tma_load_2d_pair`).
#[inline(always)]
pub unsafe fn tma_load_2d_pair(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
    smemdesc::ptx::tma_load_2d_pair(dst, map, c0, c1, bar)
}

/// `wgmma.fence` (`smemdesc::accum::wgmma_fence`).
#[inline(always)]
pub unsafe fn wgmma_fence() {
    smemdesc::accum::wgmma_fence()
}

/// `wgmma.commit_group` (`smemdesc::accum::wgmma_commit_group`).
#[inline(always)]
pub unsafe fn wgmma_commit() {
    smemdesc::accum::wgmma_commit_group()
}

/// `wgmma.wait_group N` (`smemdesc::accum::wgmma_wait_group`).
#[inline(always)]
pub unsafe fn wgmma_wait<const N: u32>() {
    smemdesc::accum::wgmma_wait_group::<N>()
}

/// `wgmma.wait_group N` that stays after the instructions before it
/// (`smemdesc::accum::wgmma_wait_group_after`, which says why).
#[inline(always)]
pub unsafe fn wgmma_wait_after<const N: u32>(uniform: u32) {
    smemdesc::accum::wgmma_wait_group_after::<N>(uniform)
}

/// Gives registers back (producer warpgroup; `smemdesc::ptx::setmaxnreg_dec`).
#[inline(always)]
pub unsafe fn setmaxnreg_dec_40() {
    smemdesc::ptx::setmaxnreg_dec::<40>()
}

/// Takes registers (consumer warpgroups; `smemdesc::ptx::setmaxnreg_inc`).
#[inline(always)]
pub unsafe fn setmaxnreg_inc_232() {
    smemdesc::ptx::setmaxnreg_inc::<232>()
}

/// Two fp32 to packed bf16x2 (`hi` in the upper half), round to nearest.
#[inline(always)]
pub fn bf16x2(lo: f32, hi: f32) -> u32 {
    let r: u32;
    // SAFETY: register-only conversion.
    unsafe {
        asm!(
            "cvt.rn.bf16x2.f32 {0}, {1}, {2};",
            out(reg32) r,
            in(reg32) hi,
            in(reg32) lo,
            options(pure, nomem, nostack)
        )
    };
    r
}

/// `st.shared.u32`.
#[inline(always)]
pub unsafe fn st_shared_u32(addr: u32, v: u32) {
    asm!("st.shared.u32 [{0}], {1};", in(reg32) addr, in(reg32) v, options(nostack));
}

/// `ld.shared.v4.u32`.
#[inline(always)]
pub unsafe fn ld_shared_v4(addr: u32) -> [u32; 4] {
    let (a, b, c, d): (u32, u32, u32, u32);
    asm!(
        "ld.shared.v4.u32 {{{0}, {1}, {2}, {3}}}, [{4}];",
        out(reg32) a,
        out(reg32) b,
        out(reg32) c,
        out(reg32) d,
        in(reg32) addr,
        options(nostack)
    );
    [a, b, c, d]
}

/// `st.global.v4.u32` (16 bytes, 16-byte aligned).
#[inline(always)]
pub unsafe fn st_global_v4(ptr: u64, v: [u32; 4]) {
    asm!(
        "st.global.v4.u32 [{0}], {{{1}, {2}, {3}, {4}}};",
        in(reg64) ptr,
        in(reg32) v[0],
        in(reg32) v[1],
        in(reg32) v[2],
        in(reg32) v[3],
        options(nostack)
    );
}

/// `%cluster_ctarank`: this CTA's rank in its cluster (`smemdesc::ptx::cluster_ctarank`).
#[inline(always)]
pub fn cluster_ctarank() -> u32 {
    smemdesc::ptx::cluster_ctarank()
}

/// `%clock64` (not `pure`: every read is a new sample; `smemdesc::ptx::clock64`).
#[inline(always)]
pub fn clock64() -> u64 {
    smemdesc::ptx::clock64()
}

/// Cluster-wide barrier: `barrier.cluster.arrive.release` + `wait.acquire` (every thread of
/// every CTA of the cluster; `smemdesc::ptx::cluster_sync`).
#[inline(always)]
pub unsafe fn cluster_sync() {
    smemdesc::ptx::cluster_sync()
}

/// Named barrier `id` over `threads` threads (`bar.sync id, threads`;
/// `smemdesc::ptx::named_barrier_sync`).
#[inline(always)]
pub unsafe fn named_bar(id: u32, threads: u32) {
    smemdesc::ptx::named_barrier_sync(id, threads)
}

/// Arrive on the mbarrier at the same shared offset as `bar` in cluster CTA `cta`: `mapa` then
/// a plain `mbarrier.arrive.shared::cluster` (`smemdesc::ptx::mbarrier_arrive_remote`, which
/// says why the plain form).
#[inline(always)]
pub unsafe fn mbar_arrive_remote(bar: u32, cta: u32) {
    smemdesc::ptx::mbarrier_arrive_remote(bar, cta)
}

/// `mapa.shared::cluster.u32`: the address of `addr` in cluster CTA `cta` (`smemdesc::ptx::mapa`).
#[inline(always)]
pub unsafe fn mapa(addr: u32, cta: u32) -> u32 {
    smemdesc::ptx::mapa(addr, cta)
}

/// One TMA box multicast to the cluster CTAs of `mask` (same shared offsets and mbarrier in
/// each of them; `smemdesc::ptx::tma_load_2d_multicast`).
#[inline(always)]
pub unsafe fn tma_load_2d_multicast(dst: u32, map: u64, c0: u32, c1: u32, bar: u32, mask: u16) {
    smemdesc::ptx::tma_load_2d_multicast(dst, map, c0, c1, bar, mask)
}

/// `stmatrix.sync.aligned.m8n8.x4.shared.b16`: this lane's row address `addr`, registers
/// `r[0..4]` (matrix `i` gets `r[i]` of every lane).
#[inline(always)]
pub unsafe fn stmatrix_x4(addr: u32, r: [u32; 4]) {
    asm!(
        "stmatrix.sync.aligned.m8n8.x4.shared.b16 [{0}], {{{1}, {2}, {3}, {4}}};",
        in(reg32) addr,
        in(reg32) r[0],
        in(reg32) r[1],
        in(reg32) r[2],
        in(reg32) r[3],
        options(nostack)
    );
}

/// Makes this thread's generic-proxy shared-memory writes visible to the async proxy (TMA;
/// `smemdesc::ptx::fence_proxy_async_shared_cta`).
#[inline(always)]
pub unsafe fn fence_proxy_async_shared() {
    smemdesc::ptx::fence_proxy_async_shared_cta()
}

/// TMA store of one box: shared `src` to tensor coordinates `(c0 innermost, c1)` of `map`, in
/// the thread's current bulk group (`smemdesc::ptx::tma_store_2d`).
#[inline(always)]
pub unsafe fn tma_store_2d(map: u64, src: u32, c0: u32, c1: u32) {
    smemdesc::ptx::tma_store_2d(map, src, c0, c1)
}

/// `cp.async.bulk.commit_group` (`smemdesc::ptx::bulk_commit_group`).
#[inline(always)]
pub unsafe fn bulk_commit() {
    smemdesc::ptx::bulk_commit_group()
}

/// `cp.async.bulk.wait_group.read N`: at most `N` bulk groups still reading shared memory
/// (`smemdesc::ptx::bulk_wait_group_read`).
#[inline(always)]
pub unsafe fn bulk_wait_read<const N: u32>() {
    smemdesc::ptx::bulk_wait_group_read::<N>()
}

/// `cp.async.bulk.wait_group 0`: every bulk group complete (`smemdesc::ptx::bulk_wait_group`).
#[inline(always)]
pub unsafe fn bulk_wait_all() {
    smemdesc::ptx::bulk_wait_group::<0>()
}

/// `ld.shared.u32`.
#[inline(always)]
pub unsafe fn ld_shared_u32(addr: u32) -> u32 {
    let v: u32;
    asm!("ld.shared.u32 {0}, [{1}];", out(reg32) v, in(reg32) addr, options(nostack));
    v
}

/// `ld.global.nc.u32` (read-only data).
#[inline(always)]
pub unsafe fn ld_global_u32(ptr: u64) -> u32 {
    let v: u32;
    asm!("ld.global.nc.u32 {0}, [{1}];", out(reg32) v, in(reg64) ptr, options(nostack));
    v
}

/// `ld.global.nc.u64`.
#[inline(always)]
pub unsafe fn ld_global_u64(ptr: u64) -> u64 {
    let v: u64;
    asm!("ld.global.nc.u64 {0}, [{1}];", out(reg64) v, in(reg64) ptr, options(nostack));
    v
}

/// `st.global.u32`.
#[inline(always)]
pub unsafe fn st_global_u32(ptr: u64, v: u32) {
    asm!("st.global.u32 [{0}], {1};", in(reg64) ptr, in(reg32) v, options(nostack));
}

/// `st.global.u64`.
#[inline(always)]
pub unsafe fn st_global_u64(ptr: u64, v: u64) {
    asm!("st.global.u64 [{0}], {1};", in(reg64) ptr, in(reg64) v, options(nostack));
}

/// Runs `$body` for `$i` = 0, 1, … `$n - 1` as straight-line code (`$n` a constant ≤ 32): the
/// closure is inlined at each constant index, so array indices stay constant (registers, not
/// local memory) and descriptor steps are constants.
#[macro_export]
#[rustfmt::skip]
macro_rules! unroll {
    ($n:expr, |$i:ident| $body:block) => {{
        let n: u32 = $n;
        if n > 32 {
            $crate::ptx::trap();
        }
        #[allow(unused_mut)]
        let mut f = #[inline(always)] |$i: u32| $body;
        if n > 0 { f(0) } if n > 1 { f(1) } if n > 2 { f(2) } if n > 3 { f(3) }
        if n > 4 { f(4) } if n > 5 { f(5) } if n > 6 { f(6) } if n > 7 { f(7) }
        if n > 8 { f(8) } if n > 9 { f(9) } if n > 10 { f(10) } if n > 11 { f(11) }
        if n > 12 { f(12) } if n > 13 { f(13) } if n > 14 { f(14) } if n > 15 { f(15) }
        if n > 16 { f(16) } if n > 17 { f(17) } if n > 18 { f(18) } if n > 19 { f(19) }
        if n > 20 { f(20) } if n > 21 { f(21) } if n > 22 { f(22) } if n > 23 { f(23) }
        if n > 24 { f(24) } if n > 25 { f(25) } if n > 26 { f(26) } if n > 27 { f(27) }
        if n > 28 { f(28) } if n > 29 { f(29) } if n > 30 { f(30) } if n > 31 { f(31) }
    }};
}
