//! The attention kernels' scalar operations, each one PTX instruction (`asm!`, so LLVM neither
//! fuses nor reorders them differently from what the kernel says): warp shuffles, the MUFU
//! approximations (`ex2`, `lg2`, `rcp`) and exact `fma`/`max`.

/// `shfl.sync.bfly.b32` over the full warp.
#[inline(always)]
pub(crate) fn shfl_xor(v: f32, lane_mask: u32) -> f32 {
    let r: f32;
    // SAFETY: a warp shuffle with every lane active.
    unsafe {
        core::arch::asm!("shfl.sync.bfly.b32 {0}, {1}, {2}, 0x1f, 0xffffffff;",
            out(reg32) r, in(reg32) v, in(reg32) lane_mask, options(nomem, nostack))
    };
    r
}

/// `ex2.approx.ftz.f32`: 2^x.
#[inline(always)]
pub(crate) fn ex2(x: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        core::arch::asm!("ex2.approx.ftz.f32 {0}, {1};", out(reg32) r, in(reg32) x,
            options(pure, nomem, nostack))
    };
    r
}

/// `lg2.approx.ftz.f32`: log2(x).
#[inline(always)]
pub(crate) fn lg2(x: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        core::arch::asm!("lg2.approx.ftz.f32 {0}, {1};", out(reg32) r, in(reg32) x,
            options(pure, nomem, nostack))
    };
    r
}

/// `rcp.approx.ftz.f32`: 1/x.
#[inline(always)]
pub(crate) fn rcp(x: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        core::arch::asm!("rcp.approx.ftz.f32 {0}, {1};", out(reg32) r, in(reg32) x,
            options(pure, nomem, nostack))
    };
    r
}

/// `fma.rn.f32`: a·b + c.
#[inline(always)]
pub(crate) fn fma(a: f32, b: f32, c: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        core::arch::asm!("fma.rn.f32 {0}, {1}, {2}, {3};", out(reg32) r, in(reg32) a, in(reg32) b,
            in(reg32) c, options(pure, nomem, nostack))
    };
    r
}

/// `max.f32` (no NaN handling needed: the inputs are finite or -inf).
#[inline(always)]
pub(crate) fn fmax(a: f32, b: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        core::arch::asm!("max.f32 {0}, {1}, {2};", out(reg32) r, in(reg32) a, in(reg32) b,
            options(pure, nomem, nostack))
    };
    r
}
