//! The PTX this kernel needs, one `asm!` each: what a user of smemdesc writes. Shared-memory
//! operands are shared-window addresses (`u32`); a tensor map operand is the generic address of
//! a 128-byte `CUtensorMap` in global memory.

use core::arch::asm;

/// `%tid.x`.
#[inline(always)]
pub fn tid() -> u32 {
    let r: u32;
    // SAFETY: reads a special register.
    unsafe { asm!("mov.u32 {0}, %tid.x;", out(reg32) r, options(pure, nomem, nostack)) };
    r
}

/// `(%ctaid.x, %ctaid.y)`.
#[inline(always)]
pub fn ctaid() -> (u32, u32) {
    let (x, y): (u32, u32);
    // SAFETY: reads special registers.
    unsafe {
        asm!("mov.u32 {0}, %ctaid.x;", "mov.u32 {1}, %ctaid.y;", out(reg32) x, out(reg32) y,
             options(pure, nomem, nostack))
    };
    (x, y)
}

/// Shared-window address of `smem_dyn`, the module's dynamic shared memory (declared in
/// `lib.rs`). CUDA guarantees 16-byte alignment; the storage rounds it up to its own.
#[inline(always)]
pub fn smem_dyn() -> u32 {
    let r: u32;
    // SAFETY: takes the address of a symbol.
    unsafe { asm!("mov.u32 {0}, smem_dyn;", out(reg32) r, options(pure, nomem, nostack)) };
    r
}

/// `trap`: what a failed check (and the panic handler) ends in.
#[inline(always)]
pub fn trap() -> ! {
    // SAFETY: aborts the kernel.
    unsafe { asm!("trap;", options(noreturn, nostack)) }
}

/// `barrier.sync 0` (`__syncthreads()`).
#[inline(always)]
pub unsafe fn sync_threads() {
    asm!("barrier.sync 0;", options(nostack));
}

/// Initialises the mbarrier at `bar` for `count` arrivals.
#[inline(always)]
pub unsafe fn mbarrier_init(bar: u32, count: u32) {
    asm!("mbarrier.init.shared::cta.b64 [{0}], {1};", in(reg32) bar, in(reg32) count,
         options(nostack));
}

/// Makes the mbarrier initialisations visible to the async proxy (TMA).
#[inline(always)]
pub unsafe fn fence_mbarrier_init() {
    asm!("fence.mbarrier_init.release.cluster;", options(nostack));
}

/// Arrives on `bar` and adds `bytes` to the transaction count its phase waits for.
#[inline(always)]
pub unsafe fn mbarrier_arrive_expect_tx(bar: u32, bytes: u32) {
    asm!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{0}], {1};", in(reg32) bar,
         in(reg32) bytes, options(nostack));
}

/// Spins until the phase of `bar` with parity `parity` has completed.
#[inline(always)]
pub unsafe fn mbarrier_wait(bar: u32, parity: u32) {
    loop {
        let done: u32;
        asm!(
            "{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [{1}], {2}; selp.u32 {0}, 1, 0, p; }}",
            out(reg32) done, in(reg32) bar, in(reg32) parity, options(nostack)
        );
        if done != 0 {
            return;
        }
    }
}

/// Acquires the tensor map at `map` (written to global memory by the host before the launch) for
/// the tensormap proxy: needed once before the first TMA that uses it (PTX 8.3).
#[inline(always)]
pub unsafe fn tensormap_acquire(map: u64) {
    asm!("fence.proxy.tensormap::generic.acquire.gpu [{0}], 128;", in(reg64) map, options(nostack));
}

/// One 2-D TMA load: the box at tensor coordinates `(c0, c1)` (`c0` innermost) of `map` into
/// shared `dst`, its bytes counted on the mbarrier `bar`.
#[inline(always)]
pub unsafe fn tma_load_2d(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
    asm!(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{0}], [{1}, {{{2}, {3}}}], [{4}];",
        in(reg32) dst, in(reg64) map, in(reg32) c0, in(reg32) c1, in(reg32) bar, options(nostack)
    );
}

/// `wgmma.fence`: orders register accesses to the accumulators before the next wgmma.
#[inline(always)]
pub unsafe fn wgmma_fence() {
    asm!("wgmma.fence.sync.aligned;", options(nostack));
}

/// `wgmma.commit_group`.
#[inline(always)]
pub unsafe fn wgmma_commit_group() {
    asm!("wgmma.commit_group.sync.aligned;", options(nostack));
}

/// `wgmma.wait_group 0`: every committed wgmma of this warpgroup has completed.
#[inline(always)]
pub unsafe fn wgmma_wait_all() {
    asm!("wgmma.wait_group.sync.aligned 0;", options(nostack));
}

/// `d = A * B + (scale_d != 0 ? d : 0)` for one m64n128k16 bf16 step, f32 accumulators:
/// `desc_a` and `desc_b` are the shared-memory matrix descriptors of the two operands (both
/// K-major: transpose immediates 0). The 64 accumulators of a thread are the m64n128 fragment
/// (PTX ISA, "Matrix fragments for wgmma .m64nNk16": element `4 j + 2 h + e` is row
/// `16 warp + lane / 4 + 8 h`, column `8 j + 2 (lane % 4) + e`).
///
/// # Safety
/// Executed by all 128 threads of a warpgroup (`.sync.aligned`) after `wgmma_fence`, with both
/// operands resident in shared memory; `d` is read again only after `wgmma_wait_all`.
#[inline(always)]
pub unsafe fn wgmma_m64n128k16_bf16(d: &mut [f32; 64], desc_a: u64, desc_b: u64, scale_d: u32) {
    asm!(
        "{{ .reg .pred p; setp.ne.b32 p, {66}, 0;",
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16",
        "{{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}, {16}, {17}, {18}, {19}, {20}, {21}, {22}, {23}, {24}, {25}, {26}, {27}, {28}, {29}, {30}, {31}, {32}, {33}, {34}, {35}, {36}, {37}, {38}, {39}, {40}, {41}, {42}, {43}, {44}, {45}, {46}, {47}, {48}, {49}, {50}, {51}, {52}, {53}, {54}, {55}, {56}, {57}, {58}, {59}, {60}, {61}, {62}, {63}}},",
        "{64}, {65}, p, 1, 1, 0, 0; }}",
            inout(reg32) d[0],
            inout(reg32) d[1],
            inout(reg32) d[2],
            inout(reg32) d[3],
            inout(reg32) d[4],
            inout(reg32) d[5],
            inout(reg32) d[6],
            inout(reg32) d[7],
            inout(reg32) d[8],
            inout(reg32) d[9],
            inout(reg32) d[10],
            inout(reg32) d[11],
            inout(reg32) d[12],
            inout(reg32) d[13],
            inout(reg32) d[14],
            inout(reg32) d[15],
            inout(reg32) d[16],
            inout(reg32) d[17],
            inout(reg32) d[18],
            inout(reg32) d[19],
            inout(reg32) d[20],
            inout(reg32) d[21],
            inout(reg32) d[22],
            inout(reg32) d[23],
            inout(reg32) d[24],
            inout(reg32) d[25],
            inout(reg32) d[26],
            inout(reg32) d[27],
            inout(reg32) d[28],
            inout(reg32) d[29],
            inout(reg32) d[30],
            inout(reg32) d[31],
            inout(reg32) d[32],
            inout(reg32) d[33],
            inout(reg32) d[34],
            inout(reg32) d[35],
            inout(reg32) d[36],
            inout(reg32) d[37],
            inout(reg32) d[38],
            inout(reg32) d[39],
            inout(reg32) d[40],
            inout(reg32) d[41],
            inout(reg32) d[42],
            inout(reg32) d[43],
            inout(reg32) d[44],
            inout(reg32) d[45],
            inout(reg32) d[46],
            inout(reg32) d[47],
            inout(reg32) d[48],
            inout(reg32) d[49],
            inout(reg32) d[50],
            inout(reg32) d[51],
            inout(reg32) d[52],
            inout(reg32) d[53],
            inout(reg32) d[54],
            inout(reg32) d[55],
            inout(reg32) d[56],
            inout(reg32) d[57],
            inout(reg32) d[58],
            inout(reg32) d[59],
            inout(reg32) d[60],
            inout(reg32) d[61],
            inout(reg32) d[62],
            inout(reg32) d[63],
        in(reg64) desc_a,
        in(reg64) desc_b,
        in(reg32) scale_d,
        options(nostack),
    );
}

/// The instructions smemdesc's declared pipeline (`smemdesc::pipeline`) issues, one `asm!`
/// each: the handles in `lib.rs` call these with the declared barriers, counts and byte totals.
pub struct Ptx;

impl smemdesc::pipeline::PipelineOps for Ptx {
    #[inline(always)]
    fn init(bar: u32, count: u32) {
        // SAFETY: `bar` is a barrier of the storage; one thread initialises it.
        unsafe { mbarrier_init(bar, count) }
    }
    #[inline(always)]
    fn fence_init() {
        // SAFETY: a fence.
        unsafe { fence_mbarrier_init() }
    }
    #[inline(always)]
    fn sync_cta() {
        // SAFETY: every thread of the CTA calls `init_sync`.
        unsafe { sync_threads() }
    }
    #[inline(always)]
    fn sync_cluster() {
        // SAFETY: every thread of the cluster calls `init_sync` (never for this 1-CTA pipeline).
        unsafe {
            asm!("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;", options(nostack))
        }
    }
    #[inline(always)]
    fn arrive_expect_tx(bar: u32, bytes: u32) {
        // SAFETY: an initialised barrier of the storage.
        unsafe { mbarrier_arrive_expect_tx(bar, bytes) }
    }
    #[inline(always)]
    fn arrive(bar: u32) {
        // SAFETY: as above.
        unsafe {
            asm!("mbarrier.arrive.shared::cta.b64 _, [{0}];", in(reg32) bar, options(nostack))
        }
    }
    #[inline(always)]
    fn arrive_cluster(bar: u32, cta: u32) {
        // SAFETY: the same barrier in a CTA of the cluster.
        unsafe {
            asm!(
                "{{ .reg .b32 r; mapa.shared::cluster.u32 r, {0}, {1}; mbarrier.arrive.shared::cluster.b64 _, [r]; }}",
                in(reg32) bar, in(reg32) cta, options(nostack)
            )
        }
    }
    #[inline(always)]
    fn wait(bar: u32, parity: u32) -> bool {
        // SAFETY: try_wait probes of an initialised barrier.
        unsafe { mbarrier_wait(bar, parity) };
        true
    }
    #[inline(always)]
    fn map_cta(addr: u32, cta: u32) -> u32 {
        let r: u32;
        // SAFETY: address arithmetic.
        unsafe {
            asm!("mapa.shared::cluster.u32 {0}, {1}, {2};", out(reg32) r, in(reg32) addr,
                 in(reg32) cta, options(nostack))
        };
        r
    }
    #[inline(always)]
    fn tma_load(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
        // SAFETY: the declared stage of a declared tile, completing on its full barrier.
        unsafe { tma_load_2d(dst, map, c0, c1, bar) }
    }
    #[inline(always)]
    fn tma_load_pair(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
        // SAFETY: as above, `bar` the sm100 pair leader's full barrier (never issued by this
        // sm90 kernel: its pipeline is one CTA's).
        unsafe {
            asm!(
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [{0}], [{1}, {{{2}, {3}}}], [{4}];",
                in(reg32) dst, in(reg64) map, in(reg32) c0, in(reg32) c1, in(reg32) bar,
                options(nostack)
            )
        }
    }
    #[inline(always)]
    fn tma_load_multicast(dst: u32, map: u64, c0: u32, c1: u32, bar: u32, mask: u16) {
        // SAFETY: as above, to the declared sharers.
        unsafe {
            asm!(
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{0}], [{1}, {{{2}, {3}}}], [{4}], {5};",
                in(reg32) dst, in(reg64) map, in(reg32) c0, in(reg32) c1, in(reg32) bar,
                in(reg16) mask, options(nostack)
            )
        }
    }
}
