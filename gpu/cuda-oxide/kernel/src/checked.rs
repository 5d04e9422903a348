// The checked forms under cuda-oxide: one kernel per form (issue 44), each calling it at run-time
// indices in a loop as a kernel would, so that `ptxas -v` shows what the form costs (registers,
// stack frame, spills). Included by `main.rs`; the tiles are `tiles.rs`'s. Every failure is a
// status bit in `out`, never a descriptor.
//
// * `checked_try_offset` / `checked_offset`: the fill's element offsets, `SmemTile::try_offset`
//   and the asserting `offset` (a `trap` when out of range).
// * `checked_try_desc` / `checked_desc`: `TileAt::try_desc` and `desc` for K-steps `0..n`
//   (`n` a kernel argument: the compares stay).
// * `checked_storage`: an `#[smem_storage]` (two tiles, the pipeline's barriers): `aligned_base`,
//   the member accessors' `try_desc` / `desc` / `try_address`, a barrier address.
// * `checked_place`: `TileAt::place` of a run-time address, then its descriptors.
// * `checked_pipeline`: an `#[smem_pipeline]`'s handles (`PipeAt`, `Producer::acquire`,
//   `Fill::load`, `Consumer::wait`, `Full::release`) over `n` k-tiles, on cuda-oxide's
//   mbarrier / TMA intrinsics.
// * `smemdesc_wgmma_k64_set` (in `main.rs`): the descriptor set around four wgmma.

// (`main.rs` has the `kernel`, `thread`, `DisjointSlice`, `TileAt`, `SmemTile` and fence imports.)
use cuda_device::barrier::{
    Barrier, mbarrier_arrive, mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_try_wait_parity,
};
use cuda_device::shared::DynamicSharedArray;
use cuda_device::tma::{TmaDescriptor, cp_async_bulk_tensor_2d_g2s};
use smemdesc::pipeline::{PipeAt, PipelineOps};
use smemdesc::{Mbarrier, smem_pipeline, smem_storage};

/// Operand A of the pipeline: 64 x 64 bf16, K-major, 128-byte swizzle, two stages.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, swizzle = 128B,
            mma = m64n64k16, stages = 2)]
pub struct PipeA;

/// Operand B of the pipeline (the same shape).
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (64, 64), major = K, swizzle = 128B,
            mma = m64n64k16, stages = 2)]
pub struct PipeB;

/// The pipeline's shared storage: both operands' stages and the barriers.
#[smem_storage(arch = sm90)]
pub struct PipeStorage {
    a: PipeA,
    b: PipeB,
    full: [Mbarrier; 2],
    empty: [Mbarrier; 2],
}

/// A TMA -> wgmma pipeline of two stages, one consumer warpgroup.
#[smem_pipeline(storage = PipeStorage, loads = (a: PipeA, b: PipeB), consumers = 1)]
pub struct Pipe;

/// The generic pointer of shared-window address `addr` (the storage is the dynamic shared
/// memory: its generic base minus its own window address).
#[inline(always)]
fn shared_ptr(addr: u32) -> *mut u8 {
    let base = DynamicSharedArray::<u8, 1024>::get();
    let window = unsafe { cuda_device::shared::cvta_generic_to_shared_offset(base) } as u32;
    base.wrapping_add(addr.wrapping_sub(window) as usize)
}

/// The pipeline's instructions, on cuda-oxide's intrinsics (single CTA: no cluster forms).
struct OxideOps;

impl PipelineOps for OxideOps {
    #[inline(always)]
    fn init(bar: u32, count: u32) {
        unsafe { mbarrier_init(shared_ptr(bar) as *mut Barrier, count) }
    }
    #[inline(always)]
    fn fence_init() {
        unsafe { fence_proxy_async_shared_cta() };
    }
    #[inline(always)]
    fn sync_cta() {
        thread::sync_threads();
    }
    #[inline(always)]
    fn sync_cluster() {
        thread::sync_threads();
    }
    #[inline(always)]
    fn arrive_expect_tx(bar: u32, bytes: u32) {
        let _ = unsafe { mbarrier_arrive_expect_tx(shared_ptr(bar) as *const Barrier, 1, bytes) };
    }
    #[inline(always)]
    fn arrive(bar: u32) {
        let _ = unsafe { mbarrier_arrive(shared_ptr(bar) as *const Barrier) };
    }
    #[inline(always)]
    fn arrive_cluster(bar: u32, _cta: u32) {
        Self::arrive(bar);
    }
    #[inline(always)]
    fn wait(bar: u32, parity: u32) -> bool {
        while !unsafe { mbarrier_try_wait_parity(shared_ptr(bar) as *const Barrier, parity) } {}
        true
    }
    #[inline(always)]
    fn map_cta(addr: u32, _cta: u32) -> u32 {
        addr
    }
    #[inline(always)]
    fn tma_load(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
        unsafe {
            cp_async_bulk_tensor_2d_g2s(
                shared_ptr(dst),
                map as usize as *const TmaDescriptor,
                c0 as i32,
                c1 as i32,
                shared_ptr(bar) as *mut Barrier,
            )
        }
    }
    #[inline(always)]
    fn tma_load_multicast(dst: u32, map: u64, c0: u32, c1: u32, bar: u32, _mask: u16) {
        Self::tma_load(dst, map, c0, c1, bar);
    }
    #[inline(always)]
    fn tma_load_pair(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
        Self::tma_load(dst, map, c0, c1, bar);
    }
}

/// `SmemTile::try_offset` at every element a thread fills (`out[e]` the offset, status bit 1 on
/// an error). Launch: 128 threads; `out` holds 4096 + 128 words.
#[kernel]
pub fn checked_try_offset(n: u32, mut out: DisjointSlice<u32>) {
    let tid = thread::threadIdx_x();
    let mut status = 0u32;
    let mut i = 0u32;
    while i < n {
        let e = tid * n + i;
        match TileA128::try_offset(e / 64, e % 64) {
            Ok(o) => unsafe { *out.get_unchecked_mut(e as usize) = o },
            Err(_) => status |= 1,
        }
        i += 1;
    }
    unsafe { *out.get_unchecked_mut(4096 + tid as usize) = status };
}

/// The asserting `offset` (a `trap` out of range) at every element a thread fills.
#[kernel]
pub fn checked_offset(n: u32, mut out: DisjointSlice<u32>) {
    let tid = thread::threadIdx_x();
    let mut i = 0u32;
    while i < n {
        let e = tid * n + i;
        unsafe { *out.get_unchecked_mut(e as usize) = TileA128::offset(e / 64, e % 64) };
        i += 1;
    }
}

/// `TileAt::try_desc` of K-steps `0..n` of the tile at `addr` (`out[2 k]`, `out[2 k + 1]`: the
/// descriptor's words; status bit 1 on an error).
#[kernel]
pub fn checked_try_desc(addr: u32, n: u32, mut out: DisjointSlice<u32>) {
    let t = TileAt::<TileA128>::new_unvalidated(addr);
    let mut status = 0u32;
    let mut k = 0u32;
    while k < n {
        match t.try_desc(0, k, 0) {
            Ok(d) => unsafe {
                *out.get_unchecked_mut(2 * k as usize) = d.raw() as u32;
                *out.get_unchecked_mut(2 * k as usize + 1) = (d.raw() >> 32) as u32;
            },
            Err(_) => status |= 1,
        }
        k += 1;
    }
    unsafe { *out.get_unchecked_mut(64) = status };
}

/// The asserting forms at K-steps `0..n`: `TileAt::desc` of `TileA128` and the tile's own `desc`
/// of `TileB` (one K-step: `k > 0` traps there).
#[kernel]
pub fn checked_desc(addr: u32, n: u32, mut out: DisjointSlice<u32>) {
    let t = TileAt::<TileA128>::new_unvalidated(addr);
    let mut k = 0u32;
    while k < n {
        let d = t.desc(0, k, 0).wrapping_add(TileB::desc(addr, 0, k, 0));
        unsafe {
            *out.get_unchecked_mut(2 * k as usize) = d as u32;
            *out.get_unchecked_mut(2 * k as usize + 1) = (d >> 32) as u32;
        }
        k += 1;
    }
}

/// An `#[smem_storage]`'s accessors at a run-time base: `aligned_base`, each tile member's
/// `try_desc` / `desc` / `try_address` for stages and K-steps below `n`, a barrier's address.
#[kernel]
pub fn checked_storage(dyn_base: u32, n: u32, mut out: DisjointSlice<u32>) {
    let base = PipeStorage::aligned_base(dyn_base);
    let (a, b) = (PipeStorage::a(base), PipeStorage::b(base));
    let mut status = 0u32;
    let mut s = 0u32;
    while s < n {
        let mut k = 0u32;
        while k < n {
            let i = (s * n + k) as usize;
            match a.try_desc(0, k, s) {
                Ok(d) => unsafe { *out.get_unchecked_mut(3 * i) = d.raw() as u32 },
                Err(_) => status |= 1,
            }
            unsafe { *out.get_unchecked_mut(3 * i + 1) = b.desc(0, k, s) as u32 };
            match a.try_address(k, 8 * k, s) {
                Ok(p) => unsafe { *out.get_unchecked_mut(3 * i + 2) = p },
                Err(_) => status |= 2,
            }
            k += 1;
        }
        s += 1;
    }
    unsafe { *out.get_unchecked_mut(1024) = status ^ PipeStorage::full_at(base, n) };
}

/// `TileAt::place` of run-time addresses (`addr + j * 1024`, `j < n`), then a descriptor of the
/// placed tile; status bit 1 on a placement error.
#[kernel]
pub fn checked_place(addr: u32, n: u32, mut out: DisjointSlice<u32>) {
    let mut status = 0u32;
    let mut j = 0u32;
    while j < n {
        match TileAt::<TileA128>::place(addr + j * 1024) {
            Ok(t) => unsafe { *out.get_unchecked_mut(j as usize) = t.desc_wrapping(0, j, 0) as u32 },
            Err(_) => status |= 1,
        }
        j += 1;
    }
    unsafe { *out.get_unchecked_mut(64) = status };
}

/// The pipeline over `n` k-tiles: thread 0 initialises and produces (acquire, the two loads,
/// issued), the 128 threads consume (wait, release); `out[tid]` the stages seen, status bit 1 if
/// a wait gave up. `map_a`, `map_b`: the tensor maps' addresses.
#[kernel]
pub fn checked_pipeline(map_a: u64, map_b: u64, n: u32, mut out: DisjointSlice<u32>) {
    let tid = thread::threadIdx_x();
    let base = PipeStorage::aligned_base(unsafe {
        cuda_device::shared::cvta_generic_to_shared_offset(DynamicSharedArray::<u8, 1024>::get())
    } as u32);
    let pipe = PipeAt::<Pipe>::new(base, 0);
    if tid == 0 {
        pipe.init::<OxideOps>();
    }
    pipe.init_sync::<OxideOps>();
    let (mut producer, consumers) = pipe.split();
    let mut consumer = consumers.thread(tid);
    let mut status = 0u32;
    let mut seen = 0u32;
    let mut kt = 0u32;
    while kt < n {
        if tid == 0 {
            match producer.acquire::<OxideOps>() {
                Some(fill) => {
                    let _ = fill
                        .load::<OxideOps>(map_a, kt * 64, 0)
                        .load::<OxideOps>(map_b, kt * 64, 0)
                        .issued();
                }
                None => status |= 1,
            }
        }
        match consumer.wait::<OxideOps>() {
            Some(full) => {
                seen = seen.wrapping_mul(3).wrapping_add(full.stage());
                full.release::<OxideOps>();
            }
            None => status |= 1,
        }
        kt += 1;
    }
    unsafe { *out.get_unchecked_mut(tid as usize) = seen ^ (status << 31) };
}
