//! The instructions of `smemdesc::ptx` that no other kernel of the project issues (`elect`, the
//! multicast im2col load, the by-reference tensor-map acquire, `%ctaid.y`), in one kernel, so
//! ptxas assembles every instruction the library ships (the other kernels issue the rest:
//! `gpu/rust-kernel` and this crate's GEMMs).

use smemdesc::grouped::TensorMapMem;
use smemdesc::ptx as isa;

/// Warp 0 elects one lane, which acquires the im2col map and multicasts one box of it (to this
/// CTA alone) into shared memory; every thread waits for it and thread 0 stores a word of it.
///
/// # Safety
/// A valid rank-4 im2col map at `map`, 4096 bytes of its box, 5 KiB of dynamic shared memory.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_ptx_ops(
    map: *const TensorMapMem,
    coords: u64,
    offsets: u32,
    out: *mut u32,
) {
    let base = (crate::ptx::smem_dyn() + 1023) & !1023;
    let bar = base + 4096;
    let tid = isa::tid_x();
    if tid == 0 {
        isa::mbarrier_init(bar, 1);
        isa::fence_mbarrier_init();
    }
    isa::sync_cta();
    // Warp 0 whole (a warp-uniform condition), then one lane of it.
    if tid < 32 && isa::elect_one() {
        isa::fence_tensormap_acquire_mem(&*map);
        isa::mbarrier_arrive_expect_tx(bar, 4096);
        let c = [coords as i32, (coords >> 32) as i32, isa::ctaid_x() as i32, isa::ctaid_y() as i32];
        let o = [offsets as u16, (offsets >> 16) as u16];
        isa::tma_load_im2col_4d_multicast(base, map as u64, c, o, bar, 1);
    }
    isa::mbarrier_wait(bar, 0);
    if tid == 0 {
        let v: u32;
        core::arch::asm!("ld.shared.u32 {0}, [{1}];", out(reg32) v, in(reg32) base, options(nostack));
        out.write(v);
    }
}
