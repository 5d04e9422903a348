//! The PTX this kernel writes itself: the address of its dynamic shared-memory symbol.
//! Everything the declarations describe (mbarriers, TMA, the tensor-map fence, the special
//! registers, the pipeline's `PipelineOps`) is `smemdesc::ptx`'s, and the `wgmma` issue on the
//! typed accumulator is `smemdesc::accum`'s.

use core::arch::asm;

/// Shared-window address of `smem_dyn`, the module's dynamic shared memory (declared in
/// `lib.rs`). CUDA guarantees 16-byte alignment; the storage rounds it up to its own.
#[inline(always)]
pub fn smem_dyn() -> u32 {
    let r: u32;
    // SAFETY: takes the address of a symbol.
    unsafe { asm!("mov.u32 {0}, smem_dyn;", out(reg32) r, options(pure, nomem, nostack)) };
    r
}
