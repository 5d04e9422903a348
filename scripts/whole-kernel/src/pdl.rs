//! Programmatic dependent launch (issue 46, item 4): a primary that triggers its dependents
//! once its stores are issued, and a dependent whose prologue (barrier init, tensor-map
//! prefetch) runs before `griddepcontrol.wait` and whose reads of the primary's output, an
//! `Upstream` kernel parameter, can only come after it.

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

/// The primary: `out[i] = 2 i + 1` for its thread, then lets the dependent grid start.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_pdl_primary(out: u64, n: u32) {
    let i = ctaid() * 128 + tid();
    if i < n {
        st_global_u32(out + 4 * i as u64, 2 * i + 1);
    }
    launch_dependents::<Spin>();
}

/// The dependent: its prologue initialises a barrier and prefetches its own map, then waits;
/// `x[i]` (the primary's output) is read only with the wait's proof.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_pdl_dependent(x: Upstream<u32>, own_map: u64, y: u64, n: u32) {
    let prologue = Prologue::start();
    if tid() == 0 {
        mbar_init(smem_dyn(), 1);
        fence_barrier_init();
        prefetch_tensormap(own_map);
    }
    let done = prologue.wait::<Spin>();
    let i = ctaid() * 128 + tid();
    if i < n {
        let v = ld_upstream_u32(x.element(&done, i as u64));
        st_global_u32(y + 4 * i as u64, v + 1);
    }
}
