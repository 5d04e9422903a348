//! The program as a C entry point, so that a Python driver (`gpu/grouped_same_process.py`) can
//! run it in its own process and time `torch._grouped_mm` between our launches: the grouped run
//! calls back into Python for each round's torch timing (`--grouped`; `--grouped-fp8` through
//! [`smemdesc_rust_kernels_main_fp8`], one callback for every torch FP8 path). Built as a shared
//! library by `gpu/rust-kernels-lib/` (the same sources, `crate-type = ["cdylib"]`); in the
//! `rust_kernels` binary this entry is unused.

use std::ffi::{c_char, CStr};

/// The `argc` strings of `argv`.
///
/// # Safety
/// `argv` holds `argc` NUL-terminated strings.
unsafe fn args(argc: u32, argv: *const *const c_char) -> Vec<String> {
    (0..argc as usize)
        .map(|i| {
            // SAFETY: the caller's contract.
            unsafe { CStr::from_ptr(*argv.add(i)) }
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// `torch(ms, groups, n, k, iters)`: milliseconds per call of `iters` back-to-back calls of
/// `torch._grouped_mm` on the groups' rows `ms[..groups]`, N, K (the callee builds and caches
/// the tensors for each shape).
pub type TorchFn = extern "C" fn(*const u32, u32, u32, u32, u32) -> f64;

/// Runs the program on `argc` arguments `argv` (no program name), timing torch through `torch`.
/// Returns the exit code.
///
/// # Safety
/// `argv` holds `argc` NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn smemdesc_rust_kernels_main(
    argc: u32,
    argv: *const *const c_char,
    torch: Option<TorchFn>,
) -> i32 {
    // SAFETY: the caller's contract.
    super::run(unsafe { args(argc, argv) }, torch)
}

/// `torch(path, ms, groups, n, k, iters)`: milliseconds per call of `iters` back-to-back calls of
/// torch FP8 path `path` (an index into `--torch-paths`) on the groups' rows `ms[..groups]`, N,
/// K; a negative or non-finite value when the path failed (the driver records why).
pub type TorchFp8Fn = extern "C" fn(u32, *const u32, u32, u32, u32, u32) -> f64;

/// [`smemdesc_rust_kernels_main`] with the FP8 callback of `--grouped-fp8`.
///
/// # Safety
/// `argv` holds `argc` NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn smemdesc_rust_kernels_main_fp8(
    argc: u32,
    argv: *const *const c_char,
    torch: Option<TorchFp8Fn>,
) -> i32 {
    // SAFETY: the caller's contract.
    super::run_with(unsafe { args(argc, argv) }, None, torch)
}
