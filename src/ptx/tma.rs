//! TMA (`cp.async.bulk.tensor`): loads into shared memory completing on an mbarrier, stores and
//! reduces out of it in bulk async-groups, and the groups' commit and waits.
//!
//! Coordinates are the tensor map's, innermost first (`c0`); `map` is the generic address of
//! the 128-B map in global memory, acquired by this thread
//! ([`fence_tensormap_acquire`](super::fence_tensormap_acquire)) after its last write.
//!
//! Common to every load's `# Safety`: `dst` is a box-sized, box-aligned region of this CTA's
//! shared memory that nothing reads or writes until `bar`'s phase completes (a stage the caller
//! acquired), `bar` is an initialised mbarrier whose phase expects these bytes, and `map` is a
//! valid map of the box's shape acquired as above.

use core::arch::asm;

/// `cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst],
/// [map, {c0, c1}], [bar]` ([`PipelineOps::tma_load`](crate::pipeline::PipelineOps::tma_load)).
///
/// ```ignore
/// unsafe { smemdesc::ptx::tma_load_2d(a.tma_dst(0, s), map_a, k0, m0, Storage::full_at(base, s)) };
/// ```
///
/// # Safety
/// See the module.
#[inline(always)]
pub unsafe fn tma_load_2d(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{0}], [{1}, {{{2}, {3}}}], [{4}];",
            in(reg32) dst,
            in(reg64) map,
            in(reg32) c0,
            in(reg32) c1,
            in(reg32) bar,
            options(nostack)
        );
    }
}

/// [`tma_load_2d`] with `.multicast::cluster`: the box lands at `dst`'s offset, and completes on
/// `bar`'s offset, in every CTA of `mask` (bit `i`: cluster rank `i`).
///
/// ```ignore
/// unsafe { smemdesc::ptx::tma_load_2d_multicast(dst, map_b, k0, n0, bar, 0b11) };
/// ```
///
/// # Safety
/// The module's, in every CTA of `mask` (each expects the bytes on its own barrier).
#[inline(always)]
pub unsafe fn tma_load_2d_multicast(dst: u32, map: u64, c0: u32, c1: u32, bar: u32, mask: u16) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{0}], [{1}, {{{2}, {3}}}], [{4}], {5};",
            in(reg32) dst,
            in(reg64) map,
            in(reg32) c0,
            in(reg32) c1,
            in(reg32) bar,
            in(reg16) mask,
            options(nostack)
        );
    }
}

/// The sm100 CTA pair's load (`cta_group = 2`, sm_100a):
/// `cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2
/// [dst], [map, {c0, c1}], [bar]`, `bar` the `.shared::cluster` address of the pair leader's
/// barrier ([`PipelineOps::tma_load_pair`](crate::pipeline::PipelineOps::tma_load_pair)).
///
/// ```ignore
/// let bar = smemdesc::ptx::mapa(Storage::full_at(base, s), rank & !1);
/// unsafe { smemdesc::ptx::tma_load_2d_pair(dst, map_a, k0, m0, bar) };
/// ```
///
/// # Safety
/// The module's, with `bar` the leader's barrier, which expects both CTAs' bytes.
#[inline(always)]
pub unsafe fn tma_load_2d_pair(dst: u32, map: u64, c0: u32, c1: u32, bar: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [{0}], [{1}, {{{2}, {3}}}], [{4}];",
            in(reg32) dst,
            in(reg64) map,
            in(reg32) c0,
            in(reg32) c1,
            in(reg32) bar,
            options(nostack)
        );
    }
}

/// The im2col load of a 4-D (NHWC) activation: `cp.async.bulk.tensor.4d.shared::cluster.global
/// .im2col.mbarrier::complete_tx::bytes [dst], [map, {c, w, h, n}], [bar], {off_w, off_h}`.
///
/// The operand order is the PTX ISA's (`cp.async.bulk.tensor`, syntax: `[dstMem],
/// [tensorMap, tensorCoords], [mbar]{, im2colInfo}`): the coordinates innermost first (`coords =
/// [c, w, h, n]`, the corner of the bounding box, which may be negative in the padding), then
/// the barrier, then the im2col offsets as 16-bit values, innermost first (`offsets = [off_w,
/// off_h]`, the filter tap, each below the box's extent). The core's
/// [`Im2colLoad`](crate::tma::Im2colLoad) gives both for every load of a K-step.
///
/// ```ignore
/// let l = walk.load(origin, j, &step); // smemdesc::tma::Im2colWalk
/// unsafe { smemdesc::ptx::tma_load_im2col_4d(dst + l.byte_offset, map_x, l.coords, l.offsets, bar) };
/// ```
///
/// # Safety
/// The module's, with `map` an im2col map (`cuTensorMapEncodeIm2col`) of rank 4.
#[inline(always)]
pub unsafe fn tma_load_im2col_4d(
    dst: u32,
    map: u64,
    coords: [i32; 4],
    offsets: [u16; 2],
    bar: u32,
) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [{0}], [{1}, {{{2}, {3}, {4}, {5}}}], [{6}], {{{7}, {8}}};",
            in(reg32) dst,
            in(reg64) map,
            in(reg32) coords[0],
            in(reg32) coords[1],
            in(reg32) coords[2],
            in(reg32) coords[3],
            in(reg32) bar,
            in(reg16) offsets[0],
            in(reg16) offsets[1],
            options(nostack)
        );
    }
}

/// [`tma_load_im2col_4d`] with `.multicast::cluster` to the CTAs of `mask` (the mask after the
/// im2col offsets, as the PTX ISA orders the operands).
///
/// ```ignore
/// unsafe { smemdesc::ptx::tma_load_im2col_4d_multicast(dst, map_x, l.coords, l.offsets, bar, 0b11) };
/// ```
///
/// # Safety
/// As [`tma_load_im2col_4d`], in every CTA of `mask`.
#[inline(always)]
pub unsafe fn tma_load_im2col_4d_multicast(
    dst: u32,
    map: u64,
    coords: [i32; 4],
    offsets: [u16; 2],
    bar: u32,
    mask: u16,
) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster [{0}], [{1}, {{{2}, {3}, {4}, {5}}}], [{6}], {{{7}, {8}}}, {9};",
            in(reg32) dst,
            in(reg64) map,
            in(reg32) coords[0],
            in(reg32) coords[1],
            in(reg32) coords[2],
            in(reg32) coords[3],
            in(reg32) bar,
            in(reg16) offsets[0],
            in(reg16) offsets[1],
            in(reg16) mask,
            options(nostack)
        );
    }
}

/// A TMA store of one box: shared `src` to tensor coordinates `(c0, c1)` of `map`, in this
/// thread's current bulk async-group:
/// `cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [map, {c0, c1}], [src]`.
///
/// ```ignore
/// smemdesc::ptx::fence_proxy_async_shared_cta();
/// unsafe { smemdesc::ptx::tma_store_2d(map_c, c_tile, n0, m0) };
/// smemdesc::ptx::bulk_commit_group();
/// ```
///
/// # Safety
/// `src` is a box-sized, aligned region of this CTA's shared memory, written and fenced
/// ([`fence_proxy_async_shared_cta`](super::fence_proxy_async_shared_cta)) before, and not
/// written again until a [`bulk_wait_group_read`] covers this group; `map` is a valid, acquired
/// map whose tensor the caller may write.
#[inline(always)]
pub unsafe fn tma_store_2d(map: u64, src: u32, c0: u32, c1: u32) {
    // SAFETY: what the caller promises (`# Safety`).
    unsafe {
        asm!(
            "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [{0}, {{{1}, {2}}}], [{3}];",
            in(reg64) map,
            in(reg32) c0,
            in(reg32) c1,
            in(reg32) src,
            options(nostack)
        );
    }
}

macro_rules! reduce_2d {
    ($($name:ident $op:literal),*) => {$(
        #[doc = concat!("A TMA reduce of one box into the tensor: `cp.reduce.async.bulk.tensor.2d.global.shared::cta.", $op, ".tile.bulk_group [map, {c0, c1}], [src]` (the element type is the map's; the core's [`ReduceOp::allows`](crate::epilogue::ReduceOp::allows) says which the PTX ISA allows).")]
        ///
        /// ```ignore
        #[doc = concat!("unsafe { smemdesc::ptx::", stringify!($name), "(map_c, c_tile, n0, m0) };")]
        /// smemdesc::ptx::bulk_commit_group();
        /// ```
        ///
        /// # Safety
        /// As [`tma_store_2d`], with an element type the reduction allows.
        #[inline(always)]
        pub unsafe fn $name(map: u64, src: u32, c0: u32, c1: u32) {
            // SAFETY: what the caller promises (`# Safety`).
            unsafe {
                asm!(
                    concat!("cp.reduce.async.bulk.tensor.2d.global.shared::cta.", $op, ".tile.bulk_group [{0}, {{{1}, {2}}}], [{3}];"),
                    in(reg64) map,
                    in(reg32) c0,
                    in(reg32) c1,
                    in(reg32) src,
                    options(nostack)
                );
            }
        }
    )*};
}

reduce_2d!(
    tma_reduce_add_2d "add",
    tma_reduce_min_2d "min",
    tma_reduce_max_2d "max",
    tma_reduce_inc_2d "inc",
    tma_reduce_dec_2d "dec",
    tma_reduce_and_2d "and",
    tma_reduce_or_2d "or",
    tma_reduce_xor_2d "xor"
);

/// `cp.async.bulk.commit_group`: closes this thread's bulk async-group (the stores and reduces
/// issued since the last commit).
///
/// ```ignore
/// smemdesc::ptx::bulk_commit_group();
/// ```
#[inline(always)]
pub fn bulk_commit_group() {
    // SAFETY: groups this thread's issued bulk operations; accesses nothing.
    unsafe { asm!("cp.async.bulk.commit_group;", options(nostack)) }
}

/// `cp.async.bulk.wait_group.read N`: waits until at most `N` of this thread's bulk groups
/// still read their shared-memory source (and their maps).
///
/// ```ignore
/// smemdesc::ptx::bulk_wait_group_read::<0>(); // the C tile may be written again
/// ```
#[inline(always)]
pub fn bulk_wait_group_read<const N: u32>() {
    // SAFETY: a wait.
    unsafe { asm!("cp.async.bulk.wait_group.read {0};", const N, options(nostack)) }
}

/// `cp.async.bulk.wait_group N`: waits until at most `N` of this thread's bulk groups are
/// incomplete (their writes done).
///
/// ```ignore
/// smemdesc::ptx::bulk_wait_group::<0>(); // every store landed
/// ```
#[inline(always)]
pub fn bulk_wait_group<const N: u32>() {
    // SAFETY: a wait.
    unsafe { asm!("cp.async.bulk.wait_group {0};", const N, options(nostack)) }
}
