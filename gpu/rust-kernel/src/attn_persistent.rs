//! The persistent form of the serial attention kernel (`attn.rs`), a measured experiment: one
//! CTA per SM walks the query tiles (exact, 0.89–1.03× the non-persistent kernel on the H200;
//! `docs/guide/attention.md`).

use crate::attn::*;
use crate::attn_decl::{d128, d64, AttnDecl, BM, BN, S_ACC};
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::pipeline::PipeAt;

/// The persistent form of the serial kernel: `nctaid` CTAs walk the query tiles
/// `ctaid, ctaid + nctaid, …` (tile `w`: head `w % bh`, query tile `q_tiles − 1 − w / bh`,
/// heaviest first), the producer running ahead into the next tile's Q, K and V while the
/// consumers finish the current one (Q's stage is released after the tile's last `Q·Kᵀ`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn attn_persistent_body<D: AttnDecl, const CAUSAL: bool>(
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
    let base = D::aligned_base(smem_dyn());
    let (q_addr, k_addr, v_addr) = (D::q(base).addr(), D::k(base).addr(), D::v(base).addr());
    let q_tiles = seqlen / BM;
    let tiles = q_tiles * bh;
    let tile = |w: u32| {
        let (head, qt) = (w % bh, q_tiles - 1 - w / bh);
        let blocks = if CAUSAL {
            (qt * BM + BM).div_ceil(BN)
        } else {
            seqlen / BN
        };
        (head * seqlen, qt, blocks)
    };
    let tid = tid();
    let wg = tid / 128;
    let qpipe = PipeAt::<D::QPipe>::new(base, 0);
    let kv = PipeAt::<D::KvPipe>::new(base, 0);
    if tid == 0 {
        qpipe.init::<PtxSpin>();
        kv.init::<PtxSpin>();
    }
    kv.init_sync::<PtxSpin>();
    if wg == 0 {
        setmaxnreg_dec_40();
        if tid == 0 {
            tensormap_acquire(map_q);
            tensormap_acquire(map_k);
            tensormap_acquire(map_v);
            let mut qp = qpipe.producer();
            let mut producer = kv.producer();
            let mut w = ctaid();
            while w < tiles {
                let (row0, qt, blocks) = tile(w);
                if let Some(fill) = qp.acquire::<PtxSpin>() {
                    let _ = fill.load::<PtxSpin>(map_q, 0, row0 + qt * BM).issued();
                }
                let mut j = 0;
                while j < blocks {
                    let Some(fill) = producer.acquire::<PtxSpin>() else {
                        break;
                    };
                    let kv_row = row0 + j * BN;
                    let _ = fill
                        .load::<PtxSpin>(map_k, 0, kv_row)
                        .load::<PtxSpin>(map_v, kv_row, 0)
                        .issued();
                    j += 1;
                }
                w += nctaid();
            }
        }
        return;
    }
    setmaxnreg_inc_232();
    let im = wg - 1;
    let t = tid % 128;
    if t == 0 {
        tensormap_acquire(map_o);
    }
    let rows = match S_ACC.rows(t) {
        Some(r) => r,
        None => trap(),
    };
    let mut qc = qpipe.consumer(t);
    let mut consumer = kv.consumer(t);
    let mut s = Frag::zero();
    let mut w = ctaid();
    while w < tiles {
        let (row0, qt, blocks) = tile(w);
        let q_row = row0 + qt * BM;
        let mut m = [f32::NEG_INFINITY; 2];
        let mut l = [0.0f32; 2];
        let mut o = Frag::zero();
        let Some(q) = qc.wait::<PtxSpin>() else {
            break;
        };
        let mut j = 0;
        while j < blocks {
            let Some(full) = consumer.wait::<PtxSpin>() else {
                break;
            };
            let stage = full.stage();
            wgmma_fence();
            qk::<D>(&mut s, q_addr, k_addr, im, stage);
            wgmma_commit();
            wgmma_wait::<0>();
            fence_frag(&mut s);
            let corr = softmax::<CAUSAL>(&mut s, &mut m, &mut l, t, j, qt, im, scale_log2);
            unroll64!(D::HD / 2, |e| {
                o.set(e, o.get(e) * corr[((e >> 1) & 1) as usize]);
            });
            let pa = pack_all::<D, false>(&s);
            wgmma_fence();
            pv_regs::<D>(&mut o, &pa, v_addr, stage);
            wgmma_commit();
            wgmma_wait::<0>();
            full.release::<PtxSpin>();
            j += 1;
        }
        // Every Q·Kᵀ of the tile completed: the producer may load the next tile's Q.
        q.release::<PtxSpin>();
        fence_frag(&mut o);
        let mut inv = [0.0f32; 2];
        unroll!(2, |h| {
            let mut sum = l[h as usize];
            unroll!(2, |x| {
                sum += shfl_xor(
                    sum,
                    smemdesc::fragment::WgmmaAccum::ROW_REDUCE_XOR[x as usize],
                );
            });
            inv[h as usize] = rcp(sum);
            if t % 4 == 0 {
                let row = q_row + im * 64 + rows[h as usize];
                let v = (m[h as usize] + lg2(sum)) * core::f32::consts::LN_2;
                st_global_u32(lse + 4 * row as u64, v.to_bits());
            }
        });
        unroll64!(D::HD / 2, |e| {
            o.set(e, o.get(e) * inv[((e >> 1) & 1) as usize]);
        });
        store_o::<D>(&o, D::o(base, im), t, 1 + im, map_o, q_row + im * 64);
        w += nctaid();
    }
    if t == 0 {
        bulk_wait_all();
    }
}

macro_rules! attn_persistent_entry {
    ($name:ident, $decl:ty, $causal:literal, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// As the non-persistent entries, with any grid size (`nctaid` CTAs share the tiles).
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "ptx-kernel" fn $name(
            map_q: u64,
            map_k: u64,
            map_v: u64,
            map_o: u64,
            lse: u64,
            seqlen: u32,
            bh: u32,
            scale_log2: f32,
        ) {
            attn_persistent_body::<$decl, $causal>(
                map_q, map_k, map_v, map_o, lse, seqlen, bh, scale_log2,
            );
        }
    };
}

attn_persistent_entry!(
    attn_fwd_d64_p_rust,
    d64::Decl,
    false,
    "Head dim 64, persistent."
);
attn_persistent_entry!(
    attn_fwd_d64_causal_p_rust,
    d64::Decl,
    true,
    "Head dim 64, causal, persistent."
);
attn_persistent_entry!(
    attn_fwd_d128_p_rust,
    d128::Decl,
    false,
    "Head dim 128, persistent."
);
attn_persistent_entry!(
    attn_fwd_d128_causal_p_rust,
    d128::Decl,
    true,
    "Head dim 128, causal, persistent."
);
