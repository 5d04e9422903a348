//! Programmatic dependent launch on the GPU (issue 47, run 3): `pdl_step` is one link of a chain
//! `x -> y = 3 x + 1` (wrapping `u32`), each launch the dependent of the one before. It lets its
//! own dependent be scheduled at once (`griddepcontrol.launch_dependents`), runs its prologue
//! (an mbarrier init, as a pipelined kernel's would be), and reads its input — an `Upstream`
//! parameter, the previous link's output — only after `griddepcontrol.wait` (the
//! `smemdesc::pdl` proof). Launched without the attribute, the wait returns at once.

use crate::ptx::*;
use core::arch::asm;
use smemdesc::pdl::{launch_dependents, Prologue, Upstream};
use smemdesc::ptx::Spin;

/// `ld.global.u32`, coherent: not `ld.global.nc`, whose data must stay unwritten for the whole
/// life of the kernel (PTX ISA, `ld.global.nc`), which a dependent launch's input is not (its
/// primary writes it while the dependent's prologue runs).
#[inline(always)]
unsafe fn ld_upstream_u32(ptr: u64) -> u32 {
    let v: u32;
    asm!("ld.global.u32 {0}, [{1}];", out(reg32) v, in(reg64) ptr, options(nostack));
    v
}

/// `y[i] = 3 x[i] + 1` for `i < n`, grid-stride; 64 bytes of dynamic shared memory (the
/// prologue's barrier).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn pdl_step(x: Upstream<u32>, y: u64, n: u32) {
    launch_dependents::<Spin>();
    let prologue = Prologue::start();
    if tid() == 0 {
        mbar_init(smem_dyn(), 1);
        fence_barrier_init();
    }
    let done = prologue.wait::<Spin>();
    let stride = nctaid() * 256;
    let mut i = ctaid() * 256 + tid();
    while i < n {
        let v = ld_upstream_u32(x.element(&done, i as u64));
        st_global_u32(y + 4 * i as u64, v.wrapping_mul(3).wrapping_add(1));
        i += stride;
    }
}
