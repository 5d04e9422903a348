//! The kernels of issue 19 as a user wrote them: a `no_std` crate, `panic = "abort"`, a
//! `#[panic_handler]` that traps, and the tile of a bf16 GEMM's A operand. `user_placed_desc`
//! keeps the deprecated `smem::Placed` alias (until it is removed: it still compiles to the same
//! trap-only code); `user_storage_desc` is the same kernel through `#[smem_storage]`.

#[allow(deprecated)]
use smemdesc::smem::Placed;
use smemdesc::{smem_storage, smem_tile, SmemTile};

/// A operand of a bf16 GEMM: 128 x 64, K-major, 128B swizzle, 4 stages, wgmma m64n256k16.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            mma = m64n256k16, stages = 4)]
pub struct TileA;

/// One CTA's shared memory: `TileA` at offset 0.
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
}

/// The checked `desc` of a placed tile with a run-time stage (before: a call to the core's
/// `fail`, an `.extern .func` the module did not define), through the deprecated alias.
#[no_mangle]
#[allow(deprecated)]
pub unsafe extern "ptx-kernel" fn user_placed_desc(out: *mut u64, stage: u32) {
    *out = Placed::<TileA>::at_unchecked(0).desc(0, 0, stage);
}

/// The same through `#[smem_storage]` (a `TileAt<TileA>`).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn user_storage_desc(out: *mut u64, stage: u32) {
    *out = Storage::a(0).desc(0, 0, stage);
}

/// The checked `desc` with a run-time K subtile and stage.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn user_desc_k(out: *mut u64, k: u32, stage: u32) {
    *out = TileA::desc(0x400, 0, k, stage);
}

/// The unchecked form with a run-time K subtile (before: `ADVANCE_K` in `.global`, read with
/// `ld.global.nc.b16`).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn user_desc_unchecked_k(out: *mut u64, k: u32, stage: u32) {
    *out = TileA::desc_wrapping(0, 0, k, stage);
}

/// Masked indices (before: two `.global` tables and two `ld.global.nc`).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn user_desc_masked(out: *mut u64, mn: u32, k: u32, stage: u32) {
    *out = TileA::desc(0x400, mn & 1, k & 3, stage & 3);
}
