//! Issue 32 item 3: one kernel per `cp.reduce.async.bulk.tensor` reduction (`.redOp`). The
//! element type is the tensor map's (the instruction names none), so one kernel serves every type
//! the PTX ISA allows its reduction on; the host (`rust_kernels --reduce`) runs each legal
//! (kind, type) pair of `smemdesc::epilogue::ReduceOp::allows` and checks the global tensor
//! exactly against a CPU reduction.
//!
//! `reduce_{op}(map, src, bytes, c0, c1)`, one CTA of 128 threads: the tile image at `src`
//! (`bytes` bytes, a multiple of 4: the box, row-major, no swizzle) is copied into shared memory,
//! made visible to the async proxy, and thread 0 reduces it into the map's tensor at coordinates
//! `(c0 innermost, c1)` and waits for the bulk group to complete.

use crate::ptx::*;

macro_rules! reduce_kernel {
    ($op:ident, $issue:ident) => {
        #[export_name = concat!("reduce_", stringify!($op))]
        pub unsafe extern "ptx-kernel" fn $op(map: u64, src: u64, bytes: u32, c0: u32, c1: u32) {
            let t = tid();
            let base = smem_dyn();
            let mut i = t * 4;
            while i < bytes {
                st_shared_u32(base + i, ld_global_u32(src + i as u64));
                i += 128 * 4;
            }
            fence_proxy_async_shared();
            sync_threads();
            if t == 0 {
                tensormap_acquire(map);
                smemdesc::ptx::$issue(map, base, c0, c1);
                bulk_commit();
                bulk_wait_all();
            }
        }
    };
}

/// The kernels, one module each (a kernel named `add` would clash with nothing, but keep the
/// Rust names apart from `core`'s).
pub mod k_add {
    use super::*;
    reduce_kernel!(add, tma_reduce_add_2d);
}
/// `.min`.
pub mod k_min {
    use super::*;
    reduce_kernel!(min, tma_reduce_min_2d);
}
/// `.max`.
pub mod k_max {
    use super::*;
    reduce_kernel!(max, tma_reduce_max_2d);
}
/// `.inc`.
pub mod k_inc {
    use super::*;
    reduce_kernel!(inc, tma_reduce_inc_2d);
}
/// `.dec`.
pub mod k_dec {
    use super::*;
    reduce_kernel!(dec, tma_reduce_dec_2d);
}
/// `.and`.
pub mod k_and {
    use super::*;
    reduce_kernel!(and, tma_reduce_and_2d);
}
/// `.or`.
pub mod k_or {
    use super::*;
    reduce_kernel!(or, tma_reduce_or_2d);
}
/// `.xor`.
pub mod k_xor {
    use super::*;
    reduce_kernel!(xor, tma_reduce_xor_2d);
}
