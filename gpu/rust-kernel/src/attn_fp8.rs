//! Issue 47: an FP8 attention forward on the declarations of `attn_fp8_decl.rs` (head dim 128,
//! e4m3 Q, K, Vᵀ, f32 accumulation, bf16 O, f32 log-sum-exp), in the serial schedule of
//! `attn.rs` (one producer warpgroup, two consumer warpgroups of 64 query rows, K and Vᵀ in
//! two stages): per key block a consumer computes `S = Q·Kᵀ` (4 `m64n128k32.e4m3` from shared
//! memory), the softmax in f32 (`attn::softmax`: mask, row maxima, `ex2.approx`, row sums),
//! rescales O, packs P into e4m3 A registers of its own accumulator elements
//! ([`pack_e4m3`]), and accumulates `O += P·V` (4 RS `m64n128k32.e4m3` on Vᵀ, whose keys the
//! host permuted to match the packing: `attn_fp8_decl::key_of`).

use crate::attn::{consumer_start, finish_tile, producer_start, softmax, storage, SAcc, Tile};
use crate::attn_decl::{AttnDecl, BM, BN};
use crate::attn_fp8_decl::{d128e4, packed_elem};
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::accum::{self, cvt_e4m3x4, WgmmaAcc};
use smemdesc::pipeline::PipeAt;
use smemdesc::SmemTile;

type D = d128e4::Decl;

impl crate::attn::AttnKernel for d128e4::Decl {
    type ORegs = WgmmaAcc<128>;
}

/// P of k32 step `ks` as the RS `wgmma`'s four A registers: register `j`, byte `i` is
/// accumulator element `16 ks + packed_elem(j, i)` as e4m3.
#[inline(always)]
fn pack_e4m3(s: &SAcc, ks: usize) -> [u32; 4] {
    let r = s.regs();
    let e = |j: u32, i: u32| r[16 * ks + packed_elem(j, i) as usize];
    [
        cvt_e4m3x4([e(0, 0), e(0, 1), e(0, 2), e(0, 3)]),
        cvt_e4m3x4([e(1, 0), e(1, 1), e(1, 2), e(1, 3)]),
        cvt_e4m3x4([e(2, 0), e(2, 1), e(2, 2), e(2, 3)]),
        cvt_e4m3x4([e(3, 0), e(3, 1), e(3, 2), e(3, 3)]),
    ]
}

/// The FP8 kernel body; parameters as `attn::attn_body`, `map_v` the map of Vᵀ (`[b·h·128, s]`
/// e4m3, keys permuted as `key_of`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn attn_fp8_body<const CAUSAL: bool>(
    map_q: u64,
    map_k: u64,
    map_v: u64,
    map_o: u64,
    lse: u64,
    seqlen: u32,
    bh: u32,
    scale_log2: f32,
) {
    if bh == 0 || seqlen < BM {
        return;
    }
    let (base, q_addr, k_addr, v_addr) = storage::<D>();
    let tile = Tile::of_cta::<CAUSAL>(ctaid(), seqlen);
    let Tile {
        qt,
        row0,
        q_row,
        blocks,
    } = tile;
    let tid = tid();
    let wg = tid / 128;
    let qpipe = PipeAt::<<D as AttnDecl>::QPipe>::new(base, 0);
    let kv = PipeAt::<<D as AttnDecl>::KvPipe>::new(base, 0);
    if tid == 0 {
        qpipe.init::<PtxSpin>();
        kv.init::<PtxSpin>();
    }
    kv.init_sync::<PtxSpin>();
    let ((mut qp, qc), (mut producer, kvc)) = (qpipe.split(), kv.split());
    if wg == 0 {
        if producer_start(tid, map_q, map_k, map_v) {
            if let Some(fill) = qp.acquire::<PtxSpin>() {
                let _ = fill.load::<PtxSpin>(map_q, 0, q_row).issued();
            }
            // Vᵀ's rows are head (row0 / seqlen) · 128 + head-dim index.
            let vt_row = row0 / seqlen * D::HD;
            let mut j = 0;
            while j < blocks {
                let Some(fill) = producer.acquire::<PtxSpin>() else {
                    break;
                };
                // K: K-major, (head-dim byte 0, key row); Vᵀ: K-major, (key j·BN, head-dim row).
                let _ = fill
                    .load::<PtxSpin>(map_k, 0, row0 + j * BN)
                    .load::<PtxSpin>(map_v, j * BN, vt_row)
                    .issued();
                j += 1;
            }
        }
        return;
    }
    let (im, t, rows) = consumer_start(wg, tid, map_o);
    let mut m = [f32::NEG_INFINITY; 2];
    let mut l = [0.0f32; 2];
    let mut o = WgmmaAcc::<128>::zero();
    let mut s = SAcc::zero();
    let mut qc = qc.thread(t);
    if let Some(q) = qc.wait::<PtxSpin>() {
        q.release::<PtxSpin>();
    }
    let mut consumer = kvc.thread(t);
    let da = <d128e4::Q as SmemTile>::ACCESS.desc_wrapping(q_addr, im, 0, 0);
    let mut j = 0;
    while j < blocks {
        let Some(full) = consumer.wait::<PtxSpin>() else {
            break;
        };
        let stage = full.stage();
        let db = <d128e4::K as SmemTile>::ACCESS.desc_wrapping(k_addr, 0, 0, stage);
        accum::wgmma_fence();
        unroll!(<d128e4::Q as SmemTile>::MMAS_K, |k| {
            let (ka, kb) = (
                <d128e4::Q as SmemTile>::advance_k(k) as u64,
                <d128e4::K as SmemTile>::advance_k(k) as u64,
            );
            accum::wgmma_m64n128k32_e4m3(&mut s, da + ka, db + kb, k != 0);
        });
        accum::wgmma_commit_group();
        accum::wgmma_wait_group::<0>();
        s.fence_operands();
        let corr = softmax::<CAUSAL, 16>(&mut s, &mut m, &mut l, t, j, qt, im, scale_log2);
        o.scale_rows(corr);
        // Every A register first, then one fence and the 4 k-steps back to back.
        let mut a = [[0u32; 4]; 4];
        unroll!(4, |ks| {
            a[ks as usize] = pack_e4m3(&s, ks as usize);
        });
        let dv = <d128e4::V as SmemTile>::ACCESS.desc_wrapping(v_addr, 0, 0, stage);
        accum::wgmma_fence();
        unroll!(<d128e4::V as SmemTile>::MMAS_K, |ks| {
            let dk = dv + <d128e4::V as SmemTile>::advance_k(ks) as u64;
            accum::wgmma_m64n128k32_e4m3_rs(&mut o, a[ks as usize], dk, true);
        });
        accum::wgmma_commit_group();
        accum::wgmma_wait_group::<0>();
        o.fence_operands();
        full.release::<PtxSpin>();
        j += 1;
    }
    finish_tile::<D>(&mut o, m, l, rows, t, im, q_row, lse, base, map_o, true);
}
