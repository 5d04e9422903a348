//! `ldmatrix` and `stmatrix` (PTX ISA, "Warp-level matrix load/store": `ldmatrix.sync.aligned
//! .m8n8.{x1,x2,x4}{.trans}.shared.b16`, `stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared
//! .b16`, sm90 for `stmatrix`): the per-lane row address a `#[smem_fragment_tile]`'s
//! `ldmatrix_offset(instr, lane)` or an epilogue tile's `writer_offset` gives, and one `.b32`
//! register per 8 × 8 matrix (matrix `i` in register `i` of every lane: for `mma.sync`, the
//! [`MmaA`](crate::accum::MmaA) / [`MmaB`](crate::accum::MmaB) fragments).

use core::arch::asm;

/// `ldmatrix.sync.aligned.m8n8.x1.shared.b16`: 1 matrix(es) of 8 × 8 b16;
/// lanes `8i … 8i + 7` give matrix `i`'s row addresses (`addr`, 16-byte aligned, shared window).
///
/// ```ignore
/// let a = unsafe { smemdesc::ptx::ldmatrix_x1(base + FragA::ldmatrix_offset(k, lane)) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`); `addr` is a 16-byte aligned
/// shared address of 16 readable bytes.
#[inline(always)]
pub unsafe fn ldmatrix_x1(addr: u32) -> u32 {
    let mut r = [0u32; 1];
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {{{0}}}, [{1}];",
            out(reg32) r[0],
            in(reg32) addr,
            options(nostack, readonly),
        );
    }
    r[0]
}

/// `ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16`: 1 matrix(es) of 8 × 8 b16 transposed (each 8 × 8 matrix delivered column-major: the B fragment of an MN-major operand);
/// lanes `8i … 8i + 7` give matrix `i`'s row addresses (`addr`, 16-byte aligned, shared window).
///
/// ```ignore
/// let a = unsafe { smemdesc::ptx::ldmatrix_x1_trans(base + FragA::ldmatrix_offset(k, lane)) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`); `addr` is a 16-byte aligned
/// shared address of 16 readable bytes.
#[inline(always)]
pub unsafe fn ldmatrix_x1_trans(addr: u32) -> u32 {
    let mut r = [0u32; 1];
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {{{0}}}, [{1}];",
            out(reg32) r[0],
            in(reg32) addr,
            options(nostack, readonly),
        );
    }
    r[0]
}

/// `ldmatrix.sync.aligned.m8n8.x2.shared.b16`: 2 matrix(es) of 8 × 8 b16;
/// lanes `8i … 8i + 7` give matrix `i`'s row addresses (`addr`, 16-byte aligned, shared window).
///
/// ```ignore
/// let a = unsafe { smemdesc::ptx::ldmatrix_x2(base + FragA::ldmatrix_offset(k, lane)) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`); `addr` is a 16-byte aligned
/// shared address of 16 readable bytes.
#[inline(always)]
pub unsafe fn ldmatrix_x2(addr: u32) -> [u32; 2] {
    let mut r = [0u32; 2];
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {{{0}, {1}}}, [{2}];",
            out(reg32) r[0],
            out(reg32) r[1],
            in(reg32) addr,
            options(nostack, readonly),
        );
    }
    r
}

/// `ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16`: 2 matrix(es) of 8 × 8 b16 transposed (each 8 × 8 matrix delivered column-major: the B fragment of an MN-major operand);
/// lanes `8i … 8i + 7` give matrix `i`'s row addresses (`addr`, 16-byte aligned, shared window).
///
/// ```ignore
/// let a = unsafe { smemdesc::ptx::ldmatrix_x2_trans(base + FragA::ldmatrix_offset(k, lane)) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`); `addr` is a 16-byte aligned
/// shared address of 16 readable bytes.
#[inline(always)]
pub unsafe fn ldmatrix_x2_trans(addr: u32) -> [u32; 2] {
    let mut r = [0u32; 2];
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {{{0}, {1}}}, [{2}];",
            out(reg32) r[0],
            out(reg32) r[1],
            in(reg32) addr,
            options(nostack, readonly),
        );
    }
    r
}

/// `ldmatrix.sync.aligned.m8n8.x4.shared.b16`: 4 matrix(es) of 8 × 8 b16;
/// lanes `8i … 8i + 7` give matrix `i`'s row addresses (`addr`, 16-byte aligned, shared window).
///
/// ```ignore
/// let a = unsafe { smemdesc::ptx::ldmatrix_x4(base + FragA::ldmatrix_offset(k, lane)) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`); `addr` is a 16-byte aligned
/// shared address of 16 readable bytes.
#[inline(always)]
pub unsafe fn ldmatrix_x4(addr: u32) -> [u32; 4] {
    let mut r = [0u32; 4];
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{0}, {1}, {2}, {3}}}, [{4}];",
            out(reg32) r[0],
            out(reg32) r[1],
            out(reg32) r[2],
            out(reg32) r[3],
            in(reg32) addr,
            options(nostack, readonly),
        );
    }
    r
}

/// `ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16`: 4 matrix(es) of 8 × 8 b16 transposed (each 8 × 8 matrix delivered column-major: the B fragment of an MN-major operand);
/// lanes `8i … 8i + 7` give matrix `i`'s row addresses (`addr`, 16-byte aligned, shared window).
///
/// ```ignore
/// let a = unsafe { smemdesc::ptx::ldmatrix_x4_trans(base + FragA::ldmatrix_offset(k, lane)) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`); `addr` is a 16-byte aligned
/// shared address of 16 readable bytes.
#[inline(always)]
pub unsafe fn ldmatrix_x4_trans(addr: u32) -> [u32; 4] {
    let mut r = [0u32; 4];
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{{0}, {1}, {2}, {3}}}, [{4}];",
            out(reg32) r[0],
            out(reg32) r[1],
            out(reg32) r[2],
            out(reg32) r[3],
            in(reg32) addr,
            options(nostack, readonly),
        );
    }
    r
}

/// `stmatrix.sync.aligned.m8n8.x1.shared.b16`: 1 matrix(es) of 8 × 8 b16 from
/// register(s) `r` (matrix `i` from register `i` of every lane); lanes `8i … 8i + 7` give
/// matrix `i`'s row addresses.
///
/// ```ignore
/// unsafe { smemdesc::ptx::stmatrix_x1(c + C::writer_offset(wg, warp, i, lane), r) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`, sm90+); `addr` is a 16-byte
/// aligned shared address of 16 writable bytes no other thread accesses meanwhile.
#[inline(always)]
pub unsafe fn stmatrix_x1(addr: u32, r: u32) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "stmatrix.sync.aligned.m8n8.x1.shared.b16 [{0}], {{{1}}};",
            in(reg32) addr,
            in(reg32) r,
            options(nostack),
        );
    }
}

/// `stmatrix.sync.aligned.m8n8.x1.trans.shared.b16`: 1 matrix(es) of 8 × 8 b16 transposed from
/// register(s) `r` (matrix `i` from register `i` of every lane); lanes `8i … 8i + 7` give
/// matrix `i`'s row addresses.
///
/// ```ignore
/// unsafe { smemdesc::ptx::stmatrix_x1_trans(c + C::writer_offset(wg, warp, i, lane), r) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`, sm90+); `addr` is a 16-byte
/// aligned shared address of 16 writable bytes no other thread accesses meanwhile.
#[inline(always)]
pub unsafe fn stmatrix_x1_trans(addr: u32, r: u32) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [{0}], {{{1}}};",
            in(reg32) addr,
            in(reg32) r,
            options(nostack),
        );
    }
}

/// `stmatrix.sync.aligned.m8n8.x2.shared.b16`: 2 matrix(es) of 8 × 8 b16 from
/// register(s) `r` (matrix `i` from register `i` of every lane); lanes `8i … 8i + 7` give
/// matrix `i`'s row addresses.
///
/// ```ignore
/// unsafe { smemdesc::ptx::stmatrix_x2(c + C::writer_offset(wg, warp, i, lane), r) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`, sm90+); `addr` is a 16-byte
/// aligned shared address of 16 writable bytes no other thread accesses meanwhile.
#[inline(always)]
pub unsafe fn stmatrix_x2(addr: u32, r: [u32; 2]) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "stmatrix.sync.aligned.m8n8.x2.shared.b16 [{0}], {{{1}, {2}}};",
            in(reg32) addr,
            in(reg32) r[0],
            in(reg32) r[1],
            options(nostack),
        );
    }
}

/// `stmatrix.sync.aligned.m8n8.x2.trans.shared.b16`: 2 matrix(es) of 8 × 8 b16 transposed from
/// register(s) `r` (matrix `i` from register `i` of every lane); lanes `8i … 8i + 7` give
/// matrix `i`'s row addresses.
///
/// ```ignore
/// unsafe { smemdesc::ptx::stmatrix_x2_trans(c + C::writer_offset(wg, warp, i, lane), r) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`, sm90+); `addr` is a 16-byte
/// aligned shared address of 16 writable bytes no other thread accesses meanwhile.
#[inline(always)]
pub unsafe fn stmatrix_x2_trans(addr: u32, r: [u32; 2]) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [{0}], {{{1}, {2}}};",
            in(reg32) addr,
            in(reg32) r[0],
            in(reg32) r[1],
            options(nostack),
        );
    }
}

/// `stmatrix.sync.aligned.m8n8.x4.shared.b16`: 4 matrix(es) of 8 × 8 b16 from
/// register(s) `r` (matrix `i` from register `i` of every lane); lanes `8i … 8i + 7` give
/// matrix `i`'s row addresses.
///
/// ```ignore
/// unsafe { smemdesc::ptx::stmatrix_x4(c + C::writer_offset(wg, warp, i, lane), r) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`, sm90+); `addr` is a 16-byte
/// aligned shared address of 16 writable bytes no other thread accesses meanwhile.
#[inline(always)]
pub unsafe fn stmatrix_x4(addr: u32, r: [u32; 4]) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "stmatrix.sync.aligned.m8n8.x4.shared.b16 [{0}], {{{1}, {2}, {3}, {4}}};",
            in(reg32) addr,
            in(reg32) r[0],
            in(reg32) r[1],
            in(reg32) r[2],
            in(reg32) r[3],
            options(nostack),
        );
    }
}

/// `stmatrix.sync.aligned.m8n8.x4.trans.shared.b16`: 4 matrix(es) of 8 × 8 b16 transposed from
/// register(s) `r` (matrix `i` from register `i` of every lane); lanes `8i … 8i + 7` give
/// matrix `i`'s row addresses.
///
/// ```ignore
/// unsafe { smemdesc::ptx::stmatrix_x4_trans(c + C::writer_offset(wg, warp, i, lane), r) };
/// ```
///
/// # Safety
/// Every lane of the warp executes it together (`.sync.aligned`, sm90+); `addr` is a 16-byte
/// aligned shared address of 16 writable bytes no other thread accesses meanwhile.
#[inline(always)]
pub unsafe fn stmatrix_x4_trans(addr: u32, r: [u32; 4]) {
    // SAFETY: the caller's contract.
    unsafe {
        asm!(
            "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [{0}], {{{1}, {2}, {3}, {4}}};",
            in(reg32) addr,
            in(reg32) r[0],
            in(reg32) r[1],
            in(reg32) r[2],
            in(reg32) r[3],
            options(nostack),
        );
    }
}
