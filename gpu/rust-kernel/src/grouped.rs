//! Issue 30: a persistent, warp-specialised bf16 grouped (MoE) GEMM with C's TMA store map
//! rewritten inside the kernel for each group, through `smemdesc::grouped` (the ordering as
//! types: retire after the stores read the map, rewrite the declared fields, release, acquire),
//! and a probe that rewrites one map slot per group so the host can compare each with the
//! driver's encode.
//!
//! Layout (as `torch._grouped_mm` with offsets): A is the groups' rows concatenated
//! (`offs[g]..offs[g + 1]`, K contiguous), B is G experts of N x K stacked (`[G * N, K]`), C is
//! `[offs[G], N]`. A and B keep one map each (a tile of A that runs past its group reads the next
//! group's rows, which only feed C rows the store clips); C's map is rewritten per group to the
//! group's rows, so the TMA store clips the last tile of each group.

use crate::epi_tiles::{Decl11, EpiDecl, BM, BN};
use crate::gemm::Acc;
use crate::grouped_decl::MapC;
use crate::grouped_fp8::GroupedMma;
use crate::pipe_ops::{Ptx, PtxSpin};
use crate::ptx::*;
use smemdesc::grouped::{GroupValues, MapSlot, MapWorkspace, Released, TensorMapMem, TensorMapOps};
use smemdesc::pipeline::PipelineOps;
use smemdesc::pipeline::{Full, PipeAt};

/// The `tensormap` instructions, on maps in global memory (the library's: `smemdesc::ptx::Spin`
/// implements `TensorMapOps` too).
pub type TmOps = smemdesc::ptx::Spin;

/// Rewrites slot `g` of `slots` (each holding the host's template) for group `g` of `groups`
/// (`addrs[g]`, `rows[g]`), one thread, through the typed slot. `bad` ≠ 0 (the negative
/// control) also writes group 0's row stride 16 B off with the raw instruction, bypassing the
/// declaration (which does not rewrite strides).
///
/// # Safety
/// `slots`: `groups` 128-B aligned map slots in global memory; `addrs`: `groups` u64; `rows`:
/// `groups` u32.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn grouped_map_probe(
    slots: u64,
    addrs: u64,
    rows: u64,
    groups: u32,
    bad: u32,
) {
    if tid() != 0 || ctaid() != 0 {
        return;
    }
    let mut g = 0;
    while g < groups {
        let s = slots + 128 * g as u64;
        // SAFETY: slot g of the host's 128-B aligned array, named by this thread alone.
        let mem = unsafe { &mut *(s as *mut TensorMapMem) };
        let live = MapSlot::<MapC, Released>::new(mem).acquire::<TmOps>();
        let v = GroupValues::new(ld_global_u64(addrs + 8 * g as u64))
            .dim(1, ld_global_u32(rows + 4 * g as u64) as u64);
        let w = live.retire_after_stores::<TmOps>().rewrite::<TmOps>(&v);
        if bad != 0 && g == 0 {
            TmOps::replace_stride::<0>(s, 16 + ld_global_u64(addrs + 8 * groups as u64));
        }
        let _ = w.release::<TmOps>().acquire::<TmOps>();
        g += 1;
    }
}

/// The group and tile coordinates of tile `ct`: `tinfo[ct]`, packed by the host
/// (`GroupedTiles::write_table`), and the group's first row and rows. No division
/// and no branch: values loaded from memory are not uniform to ptxas, so an integer division
/// by one (a branchy sequence in SASS) puts the wgmma of the whole kernel on a divergent path,
/// and ptxas then serialises them all (C7518).
#[inline(always)]
unsafe fn locate(tinfo: u64, offs: u64, ct: u32) -> (u32, u32, u32, u32, u32) {
    let (g, mi, ni) = smemdesc::grouped::unpack_tile(ld_global_u32(tinfo + 4 * ct as u64));
    let (r0, r1) = (
        ld_global_u32(offs + 4 * g as u64),
        ld_global_u32(offs + 4 * (g + 1) as u64),
    );
    (g, r0, r1.wrapping_sub(r0), mi, ni)
}

/// The grouped GEMM: `C[offs[g]..offs[g+1], :] = A[offs[g]..offs[g+1], :] · B_gᵀ` for every
/// group, 128 x 256 tiles in the order of `tstart` (tile prefix per group, empty groups
/// skipped), the pipeline and storage of `Decl11`.
///
/// # Safety
/// 384 threads, `Decl11::LAUNCH_BYTES` of dynamic shared memory; `map_a` over `[offs[G], K]`,
/// `map_b` over `[G * N, K]` (the 1x1 declaration's boxes); `cslots`: 2 map slots of 128 B per
/// CTA holding C's template; `c` the `[offs[G], N]` bf16 output; `offs`, `tstart`: `G + 1` u32;
/// `tinfo`: every tile's group and M/N tile, packed (u32, `locate`); `tstart` (the tiles before each group) is unused;
/// N a multiple of 256, K of 64; `err` a device u32.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn grouped_body<
    D: GroupedMma,
    O: PipelineOps,
    const SKIP: bool,
    const MODE: u32,
>(
    map_a: u64,
    map_b: u64,
    mut cslots: MapWorkspace<2>,
    c: u64,
    offs: u64,
    _tstart: u64,
    tinfo: u64,
    groups: u32,
    tiles: u32,
    n: u32,
    k: u32,
    err: u64,
) {
    let base = D::aligned_base(smem_dyn());
    let (a_addr, b_addr) = (D::a(base).addr(), D::b(base).addr());
    // The tile count is a parameter (uniform): a bound loaded from memory would put the tile
    // loop, and every wgmma in it, on a path ptxas treats as divergent (C7518: serialised).
    let _ = groups;
    let k_tiles = k / D::BK;
    let tid = tid();
    let wg = tid / 128;
    let pipe = PipeAt::<<D as EpiDecl>::Pipe>::new(base, 0);
    if tid == 0 {
        pipe.init::<O>();
    }
    pipe.init_sync::<O>();
    let (mut producer, consumers) = pipe.split();
    if wg == 0 {
        setmaxnreg_dec_40();
        if tid == 0 {
            tensormap_acquire(map_a);
            tensormap_acquire(map_b);
            let mut ct = ctaid();
            'tiles: while ct < tiles {
                let (g, r0, _rows, mi, ni) = locate(tinfo, offs, ct);
                let (arow, brow) = (r0 + mi * BM, g * n + ni * BN);
                let mut kt = 0;
                while kt < k_tiles {
                    let Some(fill) = producer.acquire::<O>() else {
                        st_global_u32(err, 1);
                        break 'tiles;
                    };
                    let k0 = kt * D::BK;
                    let _ = fill
                        .load::<O>(map_a, k0, arow)
                        .load::<O>(map_b, k0, brow)
                        .issued();
                    kt += 1;
                }
                ct += nctaid();
            }
        }
        return;
    }
    setmaxnreg_inc_232();
    let im = wg - 1;
    let t = tid % 128;
    // This warpgroup's C map slot of the declared workspace (two per CTA, one per consumer
    // warpgroup): the host's template until the first group is written.
    let cmem = if im == 0 {
        cslots.slot::<0, MapC>(ctaid())
    } else {
        cslots.slot::<1, MapC>(ctaid())
    };
    let mut cslot = cmem.acquire::<TmOps>();
    let (warp, lane) = (t / 32, t % 32);
    let cbase = D::c(base, im);
    let lane_off = crate::epi::lane_offsets(warp, lane);
    let mut d = Acc::zero();
    let mut consumer = consumers.thread(t);
    let bar_id = 1 + im;
    let mut cur = u32::MAX;
    let mut ct = ctaid();
    'tiles: while ct < tiles {
        let (g, r0, rows, mi, ni) = locate(tinfo, offs, ct);
        let mut kt = 0;
        let mut held: Option<Full<<D as EpiDecl>::Pipe>> = None;
        // SKIP: this warpgroup's 64 rows are all past the group's last row (the tail tile of a
        // group of at most 64 rows): wait for and release each stage, issue no wgmma, store
        // nothing (the store would be clipped entirely).
        let idle = SKIP && mi * BM + im * 64 >= rows;
        while kt < k_tiles {
            let Some(full) = consumer.wait::<O>() else {
                st_global_u32(err, 1);
                break 'tiles;
            };
            if idle {
                full.release::<O>();
                kt += 1;
                continue;
            }
            D::mma_stage(&mut d, a_addr, b_addr, im, full.stage(), kt);
            wgmma_wait::<1>();
            if let Some(prev) = held.replace(full) {
                prev.release::<O>();
            }
            kt += 1;
        }
        wgmma_wait::<0>();
        d.fence_operands();
        if let Some(last) = held.take() {
            last.release::<O>();
        }
        if idle {
            ct += nctaid();
            continue;
        }
        let v = GroupValues::new(c + 2 * r0 as u64 * n as u64).dim(1, rows as u64);
        if MODE == 0 {
            if t == 0 && g != cur {
                // A new group: once every store has read the map, point it at the group's rows.
                cslot = cslot
                    .retire_after_stores::<TmOps>()
                    .rewrite::<TmOps>(&v)
                    .release::<TmOps>()
                    .acquire::<TmOps>();
            }
        } else if MODE == 2 {
            // Every thread of the warpgroup moves the slot together (the fences outside any
            // divergent path); thread 0 writes. On a uniform vote of "a new group".
            if vote_any(g != cur) {
                cslot = cslot
                    .retire_after_stores::<TmOps>()
                    .rewrite_by::<TmOps>(t == 0, &v)
                    .release::<TmOps>()
                    .acquire::<TmOps>();
            }
        }
        // (MODE 1: no rewrite, a diagnostic exact for one group only.)
        cur = g;
        crate::epi::store_tile(
            &d,
            cbase,
            &lane_off,
            t,
            bar_id,
            cslot.tma_map(),
            ni * BN,
            mi * BM + im * 64,
        );
        ct += nctaid();
    }
    if t == 0 {
        bulk_wait_all();
    }
}

macro_rules! grouped_entry {
    ($name:ident, $ops:ty, $skip:literal, $mode:literal, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// As [`grouped_body`]: 384 threads, `Decl11::LAUNCH_BYTES` of dynamic shared memory,
        /// the maps, slots and arrays it describes.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "ptx-kernel" fn $name(
            map_a: u64,
            map_b: u64,
            cslots: MapWorkspace<2>,
            c: u64,
            offs: u64,
            tstart: u64,
            tinfo: u64,
            groups: u32,
            tiles: u32,
            n: u32,
            k: u32,
            err: u64,
        ) {
            grouped_body::<Decl11, $ops, $skip, $mode>(
                map_a, map_b, cslots, c, offs, tstart, tinfo, groups, tiles, n, k, err,
            );
        }
    };
}

grouped_entry!(
    gemm_grouped_rust,
    Ptx,
    false,
    0,
    "The grouped GEMM with the watchdog's bounded waits: M tiles innermost. A wait that can give up \
     exits the tile loop on a per-thread path, and ptxas then serialises every wgmma (C7518); kept \
     to measure that cost."
);
grouped_entry!(
    gemm_grouped_spin_rust,
    PtxSpin,
    true,
    0,
    "Waits that never give up (no watchdog: the wgmma pipeline stays whole); a warpgroup whose \
     rows are all past its group's end skips the tile."
);
grouped_entry!(
    gemm_grouped_spin_all_rust,
    PtxSpin,
    false,
    0,
    "The recorded kernel: waits that never give up, every warpgroup computes every tile."
);
grouped_entry!(
    gemm_grouped_vote_rust,
    PtxSpin,
    false,
    2,
    "As `gemm_grouped_spin_all_rust`, the rewrite's fences in code the whole warpgroup runs, on a \
     vote of a new group (`MapSlot::rewrite_by`)."
);
grouped_entry!(
    gemm_grouped_norewrite_rust,
    PtxSpin,
    false,
    1,
    "A diagnostic: no rewrite (exact for one group only)."
);

/// `vote.sync.any.pred` over the warp.
#[inline(always)]
fn vote_any(p: bool) -> bool {
    let r: u32;
    // SAFETY: a warp vote with every lane active.
    unsafe {
        core::arch::asm!(
            "{{ .reg .pred a, b; setp.ne.u32 a, {1}, 0; vote.sync.any.pred b, a, 0xffffffff; selp.u32 {0}, 1, 0, b; }}",
            out(reg32) r,
            in(reg32) p as u32,
            options(nostack)
        );
    }
    r != 0
}
