//! The register side by construction (issue 43, item 5): kernels that keep their accumulators
//! in registers through the library's whole-fragment operations ([`smemdesc::accum`]) in
//! ordinary run-time loops, the way the guide's chapters write them: typed accumulators
//! (`WgmmaAcc::<N>::zero()`, never `[0f32; N / 2]`), a per-stage descriptor set formed before
//! `wgmma.fence` (`stage_descs`), the library's `wgmma` issue, and the causal mask, row
//! max/sum, rescale, chained P packing and epilogue register groups as whole-fragment calls.
//! m64n256 FP8 (a GEMM with a TMA-store epilogue) and m64n128 bf16 (an attention forward loop:
//! S = Q·Kᵀ, online softmax, O += P·V with an MN-major V). The gate refuses any local depot,
//! call or `.global` table, and ptxas's budget any frame, spill or serialised `wgmma`.

use crate::load_stage;
use crate::ptx::*;
use smemdesc::accum::{self, Bf16x2, WgmmaAcc};
use smemdesc::prelude::*;
use smemdesc::smem_epilogue_tile;

/// A: 128 x 128 e4m3 per stage (one 64-row subtile per consumer warpgroup).
#[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K, swizzle = 128B,
            mma = m64n256k32, stages = 3)]
pub struct RegA8;

/// B: 256 x 128 e4m3 per stage.
#[smem_tile(arch = sm90, operand = B, dtype = e4m3, tile = (256, 128), major = K, swizzle = 128B,
            mma = m64n256k32, stages = 3)]
pub struct RegB8;

/// C: bf16 through `stmatrix.x4`, stored by TMA.
#[smem_epilogue_tile(dtype = bf16, tile = (128, 64), wgmma_n = 256, writer = stmatrix_x4,
                     reader = tma_store)]
pub struct RegC;

/// The FP8 GEMM's shared memory.
#[smem_storage(arch = sm90)]
pub struct GemmStorage {
    full: [Mbarrier; 3],
    empty: [Mbarrier; 3],
    a: RegA8,
    b: RegB8,
    #[smem(epilogue)]
    c: RegC,
}

const STAGES: u32 = RegA8::STAGES;
const STAGE_TX: u32 =
    RegA8::TMA_BOXES * RegA8::TMA_BOX_BYTES + RegB8::TMA_BOXES * RegB8::TMA_BOX_BYTES;

/// An m64n256 FP8 GEMM tile: zeroed typed accumulator, per-stage descriptors, the library's
/// issue, and the epilogue's register groups in a loop over chunks.
///
/// # Safety
/// 384 threads, `GemmStorage::LAUNCH_BYTES` of dynamic shared memory, valid maps.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_regs_fp8_n256(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    m0: u32,
    n0: u32,
    k_tiles: u32,
) {
    let base = GemmStorage::aligned_base(smem_dyn());
    let tid = tid();
    let wg = tid / 128;
    let (a, b) = (GemmStorage::a(base), GemmStorage::b(base));
    if tid == 0 {
        let mut s = 0;
        while s < STAGES {
            mbar_init(GemmStorage::full_at(base, s), 1);
            mbar_init(GemmStorage::empty_at(base, s), 2);
            s += 1;
        }
        fence_barrier_init();
    }
    sync_threads();
    if wg == 0 {
        if tid == 0 {
            let mut kt = 0;
            while kt < k_tiles {
                let (stage, phase) = (kt % STAGES, (kt / STAGES) & 1);
                mbar_wait(GemmStorage::empty_at(base, stage), phase ^ 1);
                let full = GemmStorage::full_at(base, stage);
                mbar_expect_tx(full, STAGE_TX);
                load_stage(a, map_a, stage, kt * 128, m0, full);
                load_stage(b, map_b, stage, kt * 128, n0, full);
                kt += 1;
            }
        }
        return;
    }
    let im = wg - 1;
    let mut d = WgmmaAcc::<256>::zero();
    let mut kt = 0;
    while kt < k_tiles {
        let (stage, phase) = (kt % STAGES, (kt / STAGES) & 1);
        mbar_wait(GemmStorage::full_at(base, stage), phase);
        // Checked once per stage, before the wgmma region.
        let (Ok(da), Ok(db)) = (a.stage_descs(stage), b.stage_descs(stage)) else {
            trap()
        };
        wgmma_fence();
        let mut k = 0;
        while k < RegA8::MMAS_K {
            accum::wgmma_m64n256k32_e4m3(&mut d, da.desc(im, k), db.desc(0, k), kt | k != 0);
            k += 1;
        }
        wgmma_commit();
        wgmma_wait::<0>();
        d.fence_operands(); // nothing of d moves above the wait
        if tid % 128 == 0 {
            mbar_arrive(GemmStorage::empty_at(base, stage));
        }
        kt += 1;
    }
    // Epilogue: each group of 4 pairs is one stmatrix.x4; a chunk's last instruction stores it.
    let (warp, lane) = ((tid % 128) / 32, tid % 32);
    let c = GemmStorage::c(base);
    d.for_each_group::<4, Bf16x2>(|g, r| {
        let (chunk, i) = (g as u32 / RegC::INSTRUCTIONS, g as u32 % RegC::INSTRUCTIONS);
        stmatrix_x4(c + RegC::writer_offset(im, warp, i, lane), r);
        if i == RegC::INSTRUCTIONS - 1 {
            fence_proxy_async_shared();
            named_bar(1, 256);
            // Thread 128's stores are predicated, not branched on: after `if tid == 128` LLVM
            // copied the next chunk's bar.sync and stmatrix into both arms (one lane of the
            // warp at other instructions than its warp's; scripts/check_convergence.py).
            let one = tid == 128;
            let mut bx = 0;
            while bx < RegC::TMA_BOXES {
                let (off, (c0, r0)) = RegC::tma_box(bx);
                smemdesc::ptx::tma_store_2d_if(one, map_c, c + off, n0 + 64 * chunk + c0, m0 + r0);
                bx += 1;
            }
            smemdesc::ptx::bulk_commit_group_if(one);
            smemdesc::ptx::bulk_wait_group_read_if::<0>(one);
            named_bar(1, 256);
        }
    });
}

/// Q: 64 query rows x 64 bf16 head dims per warpgroup (two consumer warpgroups).
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            mma = m64n128k16, stages = 1)]
pub struct AttnQ;

/// K: 128 keys x 64 head dims (S's B, K-major).
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            mma = m64n128k16, stages = 2)]
pub struct AttnK;

/// V: 128 keys (the K of P·V) x 128 head dims, MN-major (head dims contiguous).
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 128), major = MN, swizzle = 128B,
            mma = m64n128k16, stages = 2)]
pub struct AttnV;

/// The attention loop's shared memory.
#[smem_storage(arch = sm90)]
pub struct AttnStorage {
    full: [Mbarrier; 2],
    empty: [Mbarrier; 2],
    q: AttnQ,
    k: AttnK,
    v: AttnV,
}

const KV_TX: u32 =
    AttnK::TMA_BOXES * AttnK::TMA_BOX_BYTES + AttnV::TMA_BOXES * AttnV::TMA_BOX_BYTES;

/// A causal attention forward loop (bf16, m64n128): `S = Q·Kᵀ` per key tile, the causal mask at
/// the tile's origin and the bounds mask at the sequence's end, the online softmax (row max,
/// exp, row sum, rescale of O), and `O += P·V` with P packed from S's registers before the
/// region, k-step by k-step.
///
/// # Safety
/// 384 threads, `AttnStorage::LAUNCH_BYTES` of dynamic shared memory, valid maps.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_regs_attn_bf16_n128(
    map_q: u64,
    map_k: u64,
    map_v: u64,
    out: *mut f32,
    q0: u32,
    kv_tiles: u32,
    seqlen: u32,
) {
    let base = AttnStorage::aligned_base(smem_dyn());
    let tid = tid();
    let wg = tid / 128;
    let (q, k, v) = (
        AttnStorage::q(base),
        AttnStorage::k(base),
        AttnStorage::v(base),
    );
    if tid == 0 {
        let mut s = 0;
        while s < AttnK::STAGES {
            mbar_init(AttnStorage::full_at(base, s), 1);
            mbar_init(AttnStorage::empty_at(base, s), 2);
            s += 1;
        }
        fence_barrier_init();
    }
    sync_threads();
    if wg == 0 {
        if tid == 0 {
            let mut j = 0;
            while j < kv_tiles {
                let (stage, phase) = (j % 2, (j / 2) & 1);
                mbar_wait(AttnStorage::empty_at(base, stage), phase ^ 1);
                let full = AttnStorage::full_at(base, stage);
                mbar_expect_tx(full, KV_TX);
                load_stage(k, map_k, stage, 0, 128 * j, full);
                load_stage(v, map_v, stage, 128 * j, 0, full);
                j += 1;
            }
            let _ = map_q;
        }
        return;
    }
    let im = wg - 1;
    let t = tid % 128;
    let row0 = q0 + 64 * im;
    let Ok(dq) = q.stage_descs(0) else { trap() };
    let mut o = WgmmaAcc::<128>::zero();
    let (mut m, mut l) = ([f32::NEG_INFINITY; 2], [0f32; 2]);
    let mut j = 0;
    while j < kv_tiles {
        let (stage, phase) = (j % 2, (j / 2) & 1);
        mbar_wait(AttnStorage::full_at(base, stage), phase);
        let (Ok(dk), Ok(dv)) = (k.stage_descs(stage), v.stage_descs(stage)) else {
            trap()
        };
        let mut s = WgmmaAcc::<128>::zero();
        wgmma_fence();
        let mut ks = 0;
        while ks < AttnQ::MMAS_K {
            accum::wgmma_m64n128k16_bf16::<0, 0>(&mut s, dq.desc(im, ks), dk.desc(0, ks), ks != 0);
            ks += 1;
        }
        wgmma_commit();
        wgmma_wait::<0>();
        s.fence_operands(); // the mask and the reductions read S after the wait
        s.mask_causal(t, row0, 128 * j);
        // The sequence's end: keys (and queries) past seqlen in a partial last tile.
        s.mask_bounds(t, row0, 128 * j, seqlen, seqlen, f32::NEG_INFINITY);
        // The lab kernel's softmax (gpu/rust-kernel/src/attn.rs): the scale folded into log2
        // units, row maxima and sums in chains, one fma and one ex2 per element.
        let tile_max = s.row_max_chains::<16>();
        let m_new = [
            accum::max_f32(m[0], tile_max[0] * SCALE_LOG2),
            accum::max_f32(m[1], tile_max[1] * SCALE_LOG2),
        ];
        let alpha = [
            accum::ex2_approx(m[0] - m_new[0]),
            accum::ex2_approx(m[1] - m_new[1]),
        ];
        let sum = s.exp2_scaled_row_sums::<16>(SCALE_LOG2, m_new);
        l = [l[0] * alpha[0] + sum[0], l[1] * alpha[1] + sum[1]];
        m = m_new;
        o.scale_rows(alpha);
        let p = s.pack::<Bf16x2>(); // before the fence: no conversion inside the region
        wgmma_fence();
        p.for_each_kstep(|kstep, a| {
            accum::wgmma_m64n128k16_bf16_rs::<1>(&mut o, a, dv.desc(0, kstep as u32), true);
        });
        wgmma_commit();
        wgmma_wait::<0>();
        o.fence_operands(); // the next rescale reads O after the wait
        if t == 0 {
            mbar_arrive(AttnStorage::empty_at(base, stage));
        }
        j += 1;
    }
    // Each row's sum across its quad, then 1 / l (rcp.approx).
    let mut lq = l;
    for x in smemdesc::fragment::WgmmaAccum::ROW_REDUCE_XOR {
        lq = [lq[0] + accum::shfl_bfly(lq[0], x), lq[1] + accum::shfl_bfly(lq[1], x)];
    }
    let inv = [accum::rcp_approx(lq[0]), accum::rcp_approx(lq[1])];
    o.scale_rows(inv);
    // One value per thread, so the work is not dropped.
    let r = o.regs();
    *out.add(tid as usize) = r[0] + r[63];
}

/// The softmax scale in log2 units (1/sqrt(128) · log2 e).
const SCALE_LOG2: f32 = 0.127_516_4;

/// Each form of the library's `wgmma` issue at widths the two kernels above do not use (tf32
/// m64n8k8, f16 m64n96k16 SS with both transposes and RS, e5m2 m64n200k32, bf16 m64n64k16 with
/// an MN-major A), so that ptxas assembles every template of `smemdesc::accum`'s issue macro.
///
/// # Safety
/// 128 threads; `desc_a`, `desc_b` descriptors of resident tiles.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_regs_issue_forms(out: *mut f32, desc_a: u64, desc_b: u64) {
    let (mut d8, mut d96, mut d200, mut d64) = (
        WgmmaAcc::<8>::zero(),
        WgmmaAcc::<96>::zero(),
        WgmmaAcc::<200>::zero(),
        WgmmaAcc::<64>::zero(),
    );
    wgmma_fence();
    accum::wgmma_m64n8k8_tf32(&mut d8, desc_a, desc_b, false);
    accum::wgmma_m64n96k16_f16::<1, 1>(&mut d96, desc_a, desc_b, false);
    accum::wgmma_m64n96k16_f16_rs::<1>(&mut d96, [1, 2, 3, 4], desc_b, true);
    accum::wgmma_m64n200k32_e5m2(&mut d200, desc_a, desc_b, false);
    accum::wgmma_m64n64k16_bf16::<1, 0>(&mut d64, desc_a, desc_b, false);
    // P packed k-step by k-step (pack_ksteps), each step's registers fenced before its RS
    // wgmma (without the fence ptxas injects one per step, C7519).
    let mut sp = WgmmaAcc::<32>::zero();
    sp.fill(*out);
    sp.pack_ksteps::<Bf16x2>(|ks, a| {
        wgmma_fence();
        accum::wgmma_m64n64k16_bf16_rs::<1>(&mut d64, a, desc_b + 2 * ks as u64, true);
    });
    wgmma_commit();
    wgmma_wait::<0>();
    d8.fence_operands();
    d96.fence_operands();
    d200.fence_operands();
    d64.fence_operands();
    let t = tid() as usize;
    *out.add(t) = d8.regs()[3] + d96.regs()[47] + d200.regs()[99] + d64.regs()[31];
}
