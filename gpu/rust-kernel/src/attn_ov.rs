//! The overlapped attention kernel (FlashAttention-3's schedule) on the declarations of
//! `attn_decl.rs`: per key block `j` a consumer warpgroup issues `S_j = Q·K_jᵀ`, rescales O to
//! block `j − 1`'s maxima while it runs, issues `O += P_{j−1}·V_{j−1}`, then computes the softmax
//! of `S_j` while `P·V` is on the tensor cores. K and V have pipelines of their own (`KPipe`,
//! `VPipe`): K of block `j` is released as soon as `S_j` is computed, V of block `j − 1` once
//! `P·V` is, so the producer refills K a block earlier than a shared K/V stage would allow (with
//! one shared stage per block, two stages starved this schedule: 0.6× the serial kernel).
//! For head dim 128 the two consumer warpgroups take turns to issue their wgmma (named barriers
//! 3 and 4), so one warpgroup's softmax runs under the other's GEMMs. O is rescaled only when a
//! row of the warp has a new maximum.
//!
//! Two forms of the same body: persistent (one CTA per SM walking the query tiles, its producer
//! loading the next tile while the consumers finish the current one), and clustered (two CTAs,
//! two query tiles of one head, each loading half of every K and V block and multicasting it to
//! both: the declared `KPipe2` / `VPipe2`). Without the mask, head dim 128 runs both at once.

use crate::attn::{
    consumer_start, finish_tile, pack_all, producer_start, pv_regs, qk, softmax, storage,
    AttnKernel, OAcc, PAcc, SAcc, Tile,
};
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::pipeline::{Independent, Load, PipeAt, Pipeline, Single, TileLoad};

/// `bar.arrive id, threads`: arrive on named barrier `id` without waiting
/// (`smemdesc::ptx::named_barrier_arrive`).
#[inline(always)]
unsafe fn named_bar_arrive(id: u32, threads: u32) {
    smemdesc::ptx::named_barrier_arrive(id, threads)
}

/// `atom.global.add.u32`: adds `v` to the word at `ptr`, returns the old value.
#[inline(always)]
unsafe fn atom_add_u32(ptr: u64, v: u32) -> u32 {
    let r: u32;
    core::arch::asm!("atom.global.add.u32 {0}, [{1}], {2};", out(reg32) r, in(reg64) ptr,
        in(reg32) v, options(nostack));
    r
}

/// `vote.sync.any.pred` over the full warp.
#[inline(always)]
fn vote_any(p: bool) -> bool {
    let r: u32;
    // SAFETY: a warp vote with every lane active.
    unsafe {
        core::arch::asm!("{{ .reg .pred p, q; setp.ne.u32 p, {1}, 0; vote.sync.any.pred q, p, 0xffffffff; selp.u32 {0}, 1, 0, q; }}",
            out(reg32) r, in(reg32) p as u32, options(nomem, nostack))
    };
    r != 0
}

/// [`attn_ov_body`]'s switch (issue 47, causal): the query tiles taken heaviest first across
/// groups of [`LPT_HEADS`] heads instead of within one head ([`tile_index`]); on in the recorded
/// d = 128 causal kernel (`attn_fwd_d128_causal_p_lpt_rust`, persistent).
pub(crate) const X_LPT: u32 = 4;
/// Heads per group of [`X_LPT`]'s order: 16 heads of 16 query tiles at 2048 keys are 256
/// tiles, about two waves of 132; their K and V (16 MB of bf16 for d = 128) stay in L2.
pub(crate) const LPT_HEADS: u32 = 16;

/// The tile of schedule position `w`, as the index [`Tile::of_cta`] takes (the CTA that
/// computes it in the one-tile-per-CTA grid). Without [`X_LPT`]: `w` (a head's tiles
/// consecutive, heaviest first within the head). With it (causal): the heads in groups of
/// [`LPT_HEADS`] (the last group may be smaller), and within a group the tiles level by level,
/// heaviest level first (level `lv`: query tile `q_tiles − 1 − lv` of each head of the group).
/// A group's heaviest tiles then start a whole group before the end, not within the last few
/// tiles of the grid, where one 16-block tile of the last head kept one SM busy while the
/// others idled. Only the producer maps `w`; the consumers read the index it stored with Q.
#[inline(always)]
pub(crate) fn tile_index<const CAUSAL: bool, const X: u32>(w: u32, seqlen: u32, bh: u32) -> u32 {
    if X & X_LPT == 0 || !CAUSAL {
        return w;
    }
    let q_tiles = seqlen / crate::attn_decl::BM;
    // At least 1 (the body returns before with `seqlen < BM` or `bh == 0`): no division by zero.
    let per_group = (LPT_HEADS * q_tiles).max(1);
    let g = w / per_group;
    let heads = bh.saturating_sub(g * LPT_HEADS).clamp(1, LPT_HEADS);
    let r = w - g * per_group;
    let lv = r / heads;
    let head = g * LPT_HEADS + (r - lv * heads);
    head * q_tiles + lv
}

/// Named barriers 3 and 4: "warpgroup 0 (1) may issue its wgmma" (1 and 2 are the epilogue's).
const SCHED_BAR: u32 = 3;

/// `O += P·V` of the block whose P is packed in `pa`, issued on V stage `stage` and committed,
/// then the turn passed on: the loop's and the tile's last `P·V` (their rescales of O differ, and
/// the V wait stays with the caller: inside, its returned stage made the PTX differ).
#[inline(always)]
unsafe fn issue_pv<D: AttnKernel, const BAD: bool>(
    o: &mut D::ORegs,
    pa: &PAcc,
    v_addr: u32,
    stage: u32,
    pass: impl Fn(),
) {
    smemdesc::accum::wgmma_fence();
    pv_regs::<D, BAD>(o, pa, v_addr, stage);
    smemdesc::accum::wgmma_commit_group();
    pass();
}

/// The overlapped kernel's body; parameters as `attn::attn_body`. `KP`, `VP`: K's and V's
/// pipelines, `D::KPipe` / `D::VPipe`, or in a 2x1 cluster `D::KPipe2` / `D::VPipe2` (CTAs `2p`
/// and `2p + 1` must be query tiles of one head: an even number of them per head). `PERSIST`:
/// the CTAs take query tiles from a dynamic schedule (CTA `c` first takes tile `c`, then
/// `nctaid` plus the next index of a fetch-and-add on `sched`; in a cluster the static
/// `c + nctaid`; any grid, one CTA per SM is the intent), the producer loading the next tile's
/// Q as soon as both consumers computed the current tile's last `S`, and K and V as stages free
/// up, while the consumers finish the current tile. `X`: switches ([`X_LPT`], on in the recorded
/// d = 128 causal kernel; 0 in the others).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn attn_ov_body<
    D: AttnKernel,
    KP: Pipeline<Loads = (Load<0>, ()), Group = Single, Launch = Independent>
        + TileLoad<0, Tile = D::K>,
    VP: Pipeline<Loads = (Load<0>, ()), Group = Single, Launch = Independent>
        + TileLoad<0, Tile = D::V>,
    const CAUSAL: bool,
    const BAD: bool,
    const PERSIST: bool,
    const X: u32,
>(
    map_q: u64,
    map_k: u64,
    map_v: u64,
    map_o: u64,
    lse: u64,
    seqlen: u32,
    bh: u32,
    scale_log2: f32,
    sched: u64,
) {
    if bh == 0 || seqlen < crate::attn_decl::BM {
        return;
    }
    let (base, q_addr, k_addr, v_addr) = storage::<D>();
    // Tiles are numbered as the non-persistent grid's CTAs.
    let tiles = seqlen / crate::attn_decl::BM * bh;
    let slot = D::qtile(base);
    let tid = tid();
    let wg = tid / 128;
    let qpipe = PipeAt::<D::QPipe>::new(base, 0);
    // In a cluster (`KP`, `VP` multicast: `D::KPipe2`, `D::VPipe2`) the CTA's rank picks its
    // slice of each K and V block; `init_sync` is then the cluster's barrier too.
    let clustered = const { KP::LAYOUT.ctas() > 1 };
    let rank = if clustered { cluster_ctarank() } else { 0 };
    let kpipe = PipeAt::<KP>::new(base, rank);
    let vpipe = PipeAt::<VP>::new(base, rank);
    if tid == 0 {
        qpipe.init::<PtxSpin>();
        kpipe.init::<PtxSpin>();
        vpipe.init::<PtxSpin>();
    }
    kpipe.init_sync::<PtxSpin>();
    let (mut qp, qcs) = qpipe.split();
    let ((mut kp, kcs), (mut vp, vcs)) = (kpipe.split(), vpipe.split());
    if wg == 0 {
        if producer_start(tid, map_q, map_k, map_v) {
            let mut w = ctaid();
            loop {
                let more = w < tiles;
                let idx = tile_index::<CAUSAL, X>(if more { w } else { 0 }, seqlen, bh);
                let tile = Tile::of_cta::<CAUSAL>(idx, seqlen);
                let Some(fill) = qp.acquire::<PtxSpin>() else {
                    break;
                };
                st_shared_u32(slot, if more { idx } else { u32::MAX });
                let _ = fill.load::<PtxSpin>(map_q, 0, tile.q_row).issued();
                if !more {
                    break;
                }
                // The next tile, fetched now so its latency hides under this tile's loads.
                // In a cluster the schedule is static (`w + nctaid`): both CTAs walk the tiles
                // of one head in step, as their shared K and V need.
                let next = if PERSIST && clustered {
                    w + nctaid()
                } else if PERSIST {
                    nctaid() + atom_add_u32(sched, 1)
                } else {
                    tiles
                };
                let mut j = 0;
                while j < tile.blocks {
                    let kv_row = tile.row0 + j * crate::attn_decl::BN;
                    // K: K-major, coordinates (head_dim, row); V: MN-major, (row, head_dim).
                    let Some(fill) = kp.acquire::<PtxSpin>() else {
                        break;
                    };
                    let _ = fill.load::<PtxSpin>(map_k, 0, kv_row).issued();
                    let Some(fill) = vp.acquire::<PtxSpin>() else {
                        break;
                    };
                    let _ = fill.load::<PtxSpin>(map_v, kv_row, 0).issued();
                    j += 1;
                }
                if !PERSIST {
                    break;
                }
                w = next;
            }
            // Cluster: stay until both CTAs' consumers released every stage, so no remote
            // arrive reaches this CTA after it exits.
            if clustered {
                let _ = kp.drain::<PtxSpin>();
                let _ = vp.drain::<PtxSpin>();
            }
            // Every fetch of this CTA is done: the last CTA to get here resets the schedule.
            if PERSIST && !clustered && atom_add_u32(sched + 4, 1) == nctaid() - 1 {
                st_global_u32(sched, 0);
                st_global_u32(sched + 4, 0);
            }
        }
        return;
    }
    let (im, t, rows) = consumer_start(wg, tid, map_o);
    let mut s = SAcc::zero();
    let mut qc = qcs.thread(t);
    let (mut kc, mut vc) = (kcs.thread(t), vcs.thread(t));
    // Turns: a warpgroup issues its wgmma only on its turn (bar.sync on its barrier), then hands
    // the turn to the other (bar.arrive on the other's). Warpgroup 1 gives warpgroup 0 the first
    // turn and every round hands the turn on; warpgroup 0 takes the last one when the tiles end,
    // so each arrive meets one bar.sync. A tile's rounds: S_0, then (S_j, P·V_{j−1}) for j ≥ 1,
    // then P·V of its last block.
    // Head dim 64 runs without the turns (measured: 1-3 % faster; its softmax is as long as its
    // GEMMs, so the warpgroups gain nothing from alternating).
    let pp = D::HD > 64;
    let turn = || {
        if pp {
            named_bar(SCHED_BAR + im, 256)
        }
    };
    let pass = || {
        if pp {
            named_bar_arrive(SCHED_BAR + (1 - im), 256);
        }
    };
    if pp && im == 1 {
        named_bar_arrive(SCHED_BAR, 256);
    }
    loop {
        let Some(q) = qc.wait::<PtxSpin>() else {
            return;
        };
        let w = ld_shared_u32(slot);
        if w == u32::MAX {
            q.release::<PtxSpin>();
            // The last tile's O stores read shared memory before the CTA ends.
            if t == 0 {
                bulk_wait_read::<0>();
            }
            // Warpgroup 1 handed the turn on after its last round: take it.
            if pp && im == 0 {
                turn();
            }
            return;
        }
        let Tile {
            qt, q_row, blocks, ..
        } = Tile::of_cta::<CAUSAL>(w, seqlen);
        let mut m = [f32::NEG_INFINITY; 2];
        let mut l = [0.0f32; 2];
        let mut o = D::ORegs::zero();
        let Some(k0) = kc.wait::<PtxSpin>() else {
            return;
        };
        turn();
        smemdesc::accum::wgmma_fence();
        qk::<D>(&mut s, q_addr, k_addr, im, k0.stage());
        smemdesc::accum::wgmma_commit_group();
        pass();
        smemdesc::accum::wgmma_wait_group::<0>();
        s.fence_operands();
        k0.release::<PtxSpin>();
        let mut corr = softmax::<CAUSAL, 16>(&mut s, &mut m, &mut l, t, 0, qt, im, scale_log2);
        let mut pa = pack_all(&s);
        let mut j = 1;
        while j < blocks {
            let Some(kj) = kc.wait::<PtxSpin>() else {
                return;
            };
            turn();
            smemdesc::accum::wgmma_fence();
            qk::<D>(&mut s, q_addr, k_addr, im, kj.stage());
            smemdesc::accum::wgmma_commit_group();
            // Skipped when no row of the warp has a new maximum (every factor exactly 1).
            if vote_any(corr[0] != 1.0 || corr[1] != 1.0) {
                o.scale_rows(corr);
            }
            let Some(vp) = vc.wait::<PtxSpin>() else {
                return;
            };
            issue_pv::<D, BAD>(&mut o, &pa, v_addr, vp.stage(), pass);
            smemdesc::accum::wgmma_wait_group::<1>();
            s.fence_operands();
            kj.release::<PtxSpin>();
            corr = softmax::<CAUSAL, 16>(&mut s, &mut m, &mut l, t, j, qt, im, scale_log2);
            // ptxas hoists a `wgmma.wait_group` above work of its basic block that does not
            // need it (here: the whole softmax); on both arms of a branch it stays below it.
            smemdesc::accum::wgmma_wait_group_after::<0>(j);
            o.fence_operands();
            vp.release::<PtxSpin>();
            pa = pack_all(&s);
            j += 1;
        }
        // Every S of the tile is computed: the producer may load the next tile's Q.
        q.release::<PtxSpin>();
        turn();
        o.scale_rows(corr);
        let Some(vp) = vc.wait::<PtxSpin>() else {
            return;
        };
        issue_pv::<D, BAD>(&mut o, &pa, v_addr, vp.stage(), pass);
        smemdesc::accum::wgmma_wait_group::<0>();
        o.fence_operands();
        vp.release::<PtxSpin>();
        finish_tile::<D>(&mut o, m, l, rows, t, im, q_row, lse, base, map_o, !PERSIST);
        if !PERSIST {
            if pp && im == 0 {
                turn();
            }
            return;
        }
    }
}
