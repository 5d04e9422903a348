//! One Hopper `wgmma.mma_async m64n64k16.f32.bf16.bf16`, compiled by cuda-oxide, whose two shared
//! memory operands are laid out and described by smemdesc.
//!
//! * `#[smem_tile]` declares A (64 x 16 bf16, K-major) and B (N = 64 x K = 16 bf16, K-major), both
//!   with the 32-byte swizzle, so the element placement is not the identity.
//! * The shared arrays get their size and alignment from the tiles (`BYTES`, `ALIGN`).
//! * The 128 threads copy the operands from global memory with plain stores at the swizzled byte
//!   offsets `offset_wrapping(mn, k)` gives, evaluated on the device (LLVM folds the layout into
//!   shifts, masks and one XOR).
//! * The descriptors come from `TileAt::<T>::new_unvalidated(shared_address).desc_wrapping(0, 0,
//!   0)` (what an `#[smem_storage]` member accessor returns: the tile's type and one `u32`, no
//!   layout value for cuda-oxide's single optimisation pass to rebuild)
//!   after the kernel checks the placement precondition itself (base aligned to `ALIGN`, tile
//!   inside the 14-bit start-address field); a failed check sets a status bit instead of
//!   producing a descriptor. The checked forms (`try_offset`, `try_desc`, `TileLayout::place`)
//!   did not compile with cuda-oxide at a105afd5 with smemdesc's error data of then (a
//!   `&'static str`, a `bool`); the data are plain now, not retried: "Limits met" in README.md.
//! * The raw accumulators (32 f32 per thread, `[[f32; 8]; 4]` in register order), the two shared
//!   addresses, the two descriptors and every thread's status go to `out`; the host program
//!   (smemdesc's `gpu/cuda-oxide/host`) maps the fragments and compares with a CPU product exactly.
//!
//! Build: `cargo oxide build smemdesc_wgmma --arch sm_90a` (writes `smemdesc_wgmma.ptx`).

use cuda_device::barrier::fence_proxy_async_shared_cta;
use cuda_device::shared::{cvta_generic_to_shared_offset, SharedArray};
use cuda_device::wgmma::{
    wgmma_commit_group, wgmma_fence, wgmma_mma_m64n64k16_f32_bf16, wgmma_wait_group,
};
use cuda_device::{kernel, thread, DisjointSlice};
use smemdesc::smem::TileAt;
use smemdesc::SmemTile;

include!("tiles.rs");

/// Elements of one operand.
const ELEMS: u32 = 64 * 16;
/// Threads of the one warpgroup.
const THREADS: u32 = 128;
/// Where the header (addresses, descriptors) starts in `out`, after 128 x 32 accumulators.
const HEADER: usize = 128 * 32;
/// Where the per-thread status words start.
const STATUS: usize = HEADER + 8;

/// `out` needs `STATUS + 128` words. `a` is A row-major (64 x 16), `b` is B^T row-major (N x K,
/// 64 x 16), both bf16 bit patterns. Launch: one block of 128 threads, no dynamic shared memory.
///
/// # Safety
///
/// One block of exactly 128 threads; `a`, `b` hold 1024 values each, `out` at least 4232.
#[kernel]
pub unsafe fn smemdesc_wgmma_m64n64k16(a: &[u16], b: &[u16], mut out: DisjointSlice<u32>) {
    static mut SA: SharedArray<u8, { TileA::BYTES as usize }, { TileA::ALIGN as usize }> =
        SharedArray::UNINIT;
    static mut SB: SharedArray<u8, { TileB::BYTES as usize }, { TileB::ALIGN as usize }> =
        SharedArray::UNINIT;

    let tid = thread::threadIdx_x();
    let mut status: u32 = 0;

    unsafe {
        let pa = SharedArray::as_raw_mut_ptr(&raw mut SA);
        let pb = SharedArray::as_raw_mut_ptr(&raw mut SB);

        // Thread copies at smemdesc's swizzled offsets: element (mn, k) of each operand.
        let per_thread = ELEMS / THREADS;
        let mut i = 0u32;
        while i < per_thread {
            let e = tid * per_thread + i;
            let (mn, k) = (e / 16, e % 16);
            // `offset_wrapping`, not the checked `try_offset`: cuda-oxide could not translate
            // the `&'static str` constants smemdesc's index errors had (README.md). The indices
            // are in range by construction (mn < 64, k < 16).
            let off_a = TileA::offset_wrapping(mn, k);
            let off_b = TileB::offset_wrapping(mn, k);
            *(pa.add(off_a as usize) as *mut u16) = a[e as usize];
            *(pb.add(off_b as usize) as *mut u16) = b[e as usize];
            i += 1;
        }
        // The generic-proxy stores must be visible to the async proxy wgmma reads through.
        fence_proxy_async_shared_cta();
        thread::sync_threads();

        // Shared-window addresses and the checked descriptors.
        let a_addr = cvta_generic_to_shared_offset(pa as *const u8) as u32;
        let b_addr = cvta_generic_to_shared_offset(pb as *const u8) as u32;
        // The descriptors of subtile (0, 0), stage 0. smemdesc's checked forms (`try_desc`,
        // `TileLayout::place`) return `Result<_, smemdesc::Error>`, which cuda-oxide could not
        // lower (README.md), so the placement precondition (a base aligned to `ALIGN`, the tile
        // below the 14-bit start-address field's 256 KiB) is checked here, and a failure is a
        // status bit instead of a descriptor.
        let placed = |addr: u32, align: u32, bytes: u32| {
            addr.is_multiple_of(align) && addr + bytes <= 1 << 18
        };
        let desc_a = if placed(a_addr, TileA::ALIGN, TileA::BYTES) {
            TileAt::<TileA>::new_unvalidated(a_addr).desc_wrapping(0, 0, 0)
        } else {
            status |= 4;
            0
        };
        let desc_b = if placed(b_addr, TileB::ALIGN, TileB::BYTES) {
            TileAt::<TileB>::new_unvalidated(b_addr).desc_wrapping(0, 0, 0)
        } else {
            status |= 8;
            0
        };

        let mut acc: [[f32; 8]; 4] = [[0.0f32; 8]; 4];
        wgmma_fence();
        wgmma_mma_m64n64k16_f32_bf16(&mut acc, desc_a, desc_b);
        wgmma_commit_group();
        wgmma_wait_group::<0>();

        let base = tid as usize * 32;
        let mut j = 0usize;
        while j < 4 {
            let mut r = 0usize;
            while r < 8 {
                *out.get_unchecked_mut(base + j * 8 + r) = acc[j][r].to_bits();
                r += 1;
            }
            j += 1;
        }
        if tid == 0 {
            *out.get_unchecked_mut(HEADER) = a_addr;
            *out.get_unchecked_mut(HEADER + 1) = b_addr;
            *out.get_unchecked_mut(HEADER + 2) = desc_a as u32;
            *out.get_unchecked_mut(HEADER + 3) = (desc_a >> 32) as u32;
            *out.get_unchecked_mut(HEADER + 4) = desc_b as u32;
            *out.get_unchecked_mut(HEADER + 5) = (desc_b >> 32) as u32;
            *out.get_unchecked_mut(HEADER + 6) = 0x5EED_0001; // marker: the kernel ran
        }
        *out.get_unchecked_mut(STATUS + tid as usize) = status;
    }
}

/// Where the K = 64 kernel's header starts: A and B addresses, a marker, then the four K-step
/// descriptors of A and of B (lo, hi words).
const HEADER_K64: usize = 128 * 32;
/// Where its per-thread status words start.
const STATUS_K64: usize = HEADER_K64 + 24;

/// K = 64 with the 128-byte swizzle: four `wgmma m64n64k16` into one accumulator, the k-th reading
/// the subtile `desc_wrapping(0, k, 0)` (smemdesc's `ADVANCE_K`: +32 bytes in the 128-byte atom
/// row). `a`: A row-major (64 x 64), `b`: B^T row-major (64 x 64); `out` needs `STATUS_K64 + 128`
/// words. Launch: one block of 128 threads.
///
/// # Safety
///
/// One block of exactly 128 threads; `a`, `b` hold 4096 values each, `out` at least 4248.
#[kernel]
pub unsafe fn smemdesc_wgmma_k64_sw128(a: &[u16], b: &[u16], mut out: DisjointSlice<u32>) {
    static mut SA: SharedArray<u8, { TileA128::BYTES as usize }, { TileA128::ALIGN as usize }> =
        SharedArray::UNINIT;
    static mut SB: SharedArray<u8, { TileB128::BYTES as usize }, { TileB128::ALIGN as usize }> =
        SharedArray::UNINIT;

    let tid = thread::threadIdx_x();
    let mut status: u32 = 0;

    unsafe {
        let pa = SharedArray::as_raw_mut_ptr(&raw mut SA);
        let pb = SharedArray::as_raw_mut_ptr(&raw mut SB);

        let per_thread = 64 * 64 / THREADS;
        let mut i = 0u32;
        while i < per_thread {
            let e = tid * per_thread + i;
            let (mn, k) = (e / 64, e % 64);
            let off_a = TileA128::offset_wrapping(mn, k);
            let off_b = TileB128::offset_wrapping(mn, k);
            *(pa.add(off_a as usize) as *mut u16) = a[e as usize];
            *(pb.add(off_b as usize) as *mut u16) = b[e as usize];
            i += 1;
        }
        fence_proxy_async_shared_cta();
        thread::sync_threads();

        let a_addr = cvta_generic_to_shared_offset(pa as *const u8) as u32;
        let b_addr = cvta_generic_to_shared_offset(pb as *const u8) as u32;
        let placed = |addr: u32, align: u32, bytes: u32| {
            addr.is_multiple_of(align) && addr + bytes <= 1 << 18
        };
        if !placed(a_addr, TileA128::ALIGN, TileA128::BYTES) {
            status |= 4;
        }
        if !placed(b_addr, TileB128::ALIGN, TileB128::BYTES) {
            status |= 8;
        }
        let (ta, tb) = (
            TileAt::<TileA128>::new_unvalidated(a_addr),
            TileAt::<TileB128>::new_unvalidated(b_addr),
        );
        let da = [
            ta.desc_wrapping(0, 0, 0),
            ta.desc_wrapping(0, 1, 0),
            ta.desc_wrapping(0, 2, 0),
            ta.desc_wrapping(0, 3, 0),
        ];
        let db = [
            tb.desc_wrapping(0, 0, 0),
            tb.desc_wrapping(0, 1, 0),
            tb.desc_wrapping(0, 2, 0),
            tb.desc_wrapping(0, 3, 0),
        ];

        let mut acc: [[f32; 8]; 4] = [[0.0f32; 8]; 4];
        wgmma_fence();
        wgmma_mma_m64n64k16_f32_bf16(&mut acc, da[0], db[0]);
        wgmma_mma_m64n64k16_f32_bf16(&mut acc, da[1], db[1]);
        wgmma_mma_m64n64k16_f32_bf16(&mut acc, da[2], db[2]);
        wgmma_mma_m64n64k16_f32_bf16(&mut acc, da[3], db[3]);
        wgmma_commit_group();
        wgmma_wait_group::<0>();

        let base = tid as usize * 32;
        let mut j = 0usize;
        while j < 4 {
            let mut r = 0usize;
            while r < 8 {
                *out.get_unchecked_mut(base + j * 8 + r) = acc[j][r].to_bits();
                r += 1;
            }
            j += 1;
        }
        if tid == 0 {
            *out.get_unchecked_mut(HEADER_K64) = a_addr;
            *out.get_unchecked_mut(HEADER_K64 + 1) = b_addr;
            *out.get_unchecked_mut(HEADER_K64 + 2) = 0x5EED_0064;
            let mut s = 0usize;
            while s < 4 {
                *out.get_unchecked_mut(HEADER_K64 + 4 + 2 * s) = da[s] as u32;
                *out.get_unchecked_mut(HEADER_K64 + 5 + 2 * s) = (da[s] >> 32) as u32;
                *out.get_unchecked_mut(HEADER_K64 + 12 + 2 * s) = db[s] as u32;
                *out.get_unchecked_mut(HEADER_K64 + 13 + 2 * s) = (db[s] >> 32) as u32;
                s += 1;
            }
        }
        *out.get_unchecked_mut(STATUS_K64 + tid as usize) = status;
    }
}

/// The K = 64 kernel with smemdesc's checked forms: the fill's offsets from the checked
/// `try_offset` (status bit 1), each tile placed with the checked `TileAt::place` (bits 4, 8),
/// and the descriptor set of stage 0 (`stage_descs`, bits 16, 32) formed before `wgmma_fence`:
/// cuda-oxide's wgmma lowering takes no run-time loop around the MMA and no arithmetic inside
/// the fence..wait region, so the four K-steps' descriptors are read from the set first and the
/// four wgmma are straight-line. The same `out` as `smemdesc_wgmma_k64_sw128`, marker
/// `0x5EED_0065`.
///
/// # Safety
///
/// One block of exactly 128 threads; `a`, `b` hold 4096 values each, `out` at least 4248.
#[kernel]
pub unsafe fn smemdesc_wgmma_k64_set(a: &[u16], b: &[u16], mut out: DisjointSlice<u32>) {
    static mut SA: SharedArray<u8, { TileA128::BYTES as usize }, { TileA128::ALIGN as usize }> =
        SharedArray::UNINIT;
    static mut SB: SharedArray<u8, { TileB128::BYTES as usize }, { TileB128::ALIGN as usize }> =
        SharedArray::UNINIT;

    let tid = thread::threadIdx_x();
    let mut status: u32 = 0;

    unsafe {
        let pa = SharedArray::as_raw_mut_ptr(&raw mut SA);
        let pb = SharedArray::as_raw_mut_ptr(&raw mut SB);

        let per_thread = 64 * 64 / THREADS;
        let mut i = 0u32;
        while i < per_thread {
            let e = tid * per_thread + i;
            let (mn, k) = (e / 64, e % 64);
            match (TileA128::try_offset(mn, k), TileB128::try_offset(mn, k)) {
                (Ok(off_a), Ok(off_b)) => {
                    *(pa.add(off_a as usize) as *mut u16) = a[e as usize];
                    *(pb.add(off_b as usize) as *mut u16) = b[e as usize];
                }
                _ => status |= 1,
            }
            i += 1;
        }
        fence_proxy_async_shared_cta();
        thread::sync_threads();

        let a_addr = cvta_generic_to_shared_offset(pa as *const u8) as u32;
        let b_addr = cvta_generic_to_shared_offset(pb as *const u8) as u32;
        // A failed check ends the kernel before the wgmma region with its status bit (every
        // thread of the warpgroup sees the same addresses, so all of them leave together).
        macro_rules! refuse {
            ($bit:expr) => {{
                *out.get_unchecked_mut(STATUS_K64 + tid as usize) = status | $bit;
                return;
            }};
        }
        let ta = match TileAt::<TileA128>::place(a_addr) {
            Ok(t) => t,
            Err(_) => refuse!(4),
        };
        let tb = match TileAt::<TileB128>::place(b_addr) {
            Ok(t) => t,
            Err(_) => refuse!(8),
        };
        let sa = match ta.stage_descs(0) {
            Ok(s) => s,
            Err(_) => refuse!(16),
        };
        let sb = match tb.stage_descs(0) {
            Ok(s) => s,
            Err(_) => refuse!(32),
        };
        // The set read before the region: cuda-oxide's lowering takes no arithmetic between
        // `wgmma_fence` and the wait.
        let da = [sa.desc(0, 0), sa.desc(0, 1), sa.desc(0, 2), sa.desc(0, 3)];
        let db = [sb.desc(0, 0), sb.desc(0, 1), sb.desc(0, 2), sb.desc(0, 3)];

        let mut acc: [[f32; 8]; 4] = [[0.0f32; 8]; 4];
        wgmma_fence();
        wgmma_mma_m64n64k16_f32_bf16(&mut acc, da[0], db[0]);
        wgmma_mma_m64n64k16_f32_bf16(&mut acc, da[1], db[1]);
        wgmma_mma_m64n64k16_f32_bf16(&mut acc, da[2], db[2]);
        wgmma_mma_m64n64k16_f32_bf16(&mut acc, da[3], db[3]);
        wgmma_commit_group();
        wgmma_wait_group::<0>();

        let base = tid as usize * 32;
        let mut j = 0usize;
        while j < 4 {
            let mut r = 0usize;
            while r < 8 {
                *out.get_unchecked_mut(base + j * 8 + r) = acc[j][r].to_bits();
                r += 1;
            }
            j += 1;
        }
        if tid == 0 {
            *out.get_unchecked_mut(HEADER_K64) = a_addr;
            *out.get_unchecked_mut(HEADER_K64 + 1) = b_addr;
            *out.get_unchecked_mut(HEADER_K64 + 2) = 0x5EED_0065;
            let mut s = 0usize;
            while s < 4 {
                *out.get_unchecked_mut(HEADER_K64 + 4 + 2 * s) = da[s] as u32;
                *out.get_unchecked_mut(HEADER_K64 + 5 + 2 * s) = (da[s] >> 32) as u32;
                *out.get_unchecked_mut(HEADER_K64 + 12 + 2 * s) = db[s] as u32;
                *out.get_unchecked_mut(HEADER_K64 + 13 + 2 * s) = (db[s] >> 32) as u32;
                s += 1;
            }
        }
        *out.get_unchecked_mut(STATUS_K64 + tid as usize) = status;
    }
}

include!("checked.rs");

fn main() {
    println!(
        "smemdesc_wgmma: kernel compiled; launch smemdesc_wgmma.ptx from smemdesc's gpu/cuda-oxide/host"
    );
}
