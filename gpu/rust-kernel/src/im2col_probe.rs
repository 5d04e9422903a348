//! Issue 32: one `cp.async.bulk.tensor.4d … .im2col` load, as the hardware performs it, so the
//! host (`rust_kernels --im2col-walk`) can compare the pixels it gathers with the core's
//! implicit-GEMM plan (`smemdesc::tma::ImplicitGemmA::load`) and a naive im2col matrix.
//!
//! `im2col_probe(map, out, bytes, c, w, h, n, off_w, off_h)`, one CTA of 128 threads: thread 0
//! loads the box at tensor coordinates `(c, w, h, n)` with the im2col offsets `(off_w, off_h)`
//! into shared memory through an mbarrier expecting `bytes`, then every thread copies the
//! `bytes` (a multiple of 4) to `out`.

use crate::ptx::*;

/// The probe.
///
/// # Safety
/// `map`: an im2col tensor map in global memory whose box is `bytes` bytes; `out`: `bytes` of
/// device memory; 128 threads and at least `bytes + 1024` bytes of dynamic shared memory.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn im2col_probe(
    map: u64,
    out: u64,
    bytes: u32,
    c: i32,
    w: i32,
    h: i32,
    n: i32,
    off_w: u32,
    off_h: u32,
) {
    let t = tid();
    let base = (smem_dyn() + 1023) & !1023;
    let bar = base + bytes.next_multiple_of(1024);
    if t == 0 {
        mbar_init(bar, 1);
        fence_barrier_init();
    }
    sync_threads();
    if t == 0 {
        tensormap_acquire(map);
        mbar_expect_tx(bar, bytes);
        let (ow, oh) = (off_w as u16, off_h as u16);
        // The library's im2col load (the PTX ISA's operand order), as the conv kernel issues it.
        smemdesc::ptx::tma_load_im2col_4d(base, map, [c, w, h, n], [ow, oh], bar);
        while !mbar_try_wait(bar, 0) {}
    }
    sync_threads();
    let mut i = t * 4;
    while i < bytes {
        st_global_u32(out + i as u64, ld_shared_u32(base + i));
        i += 128 * 4;
    }
}
