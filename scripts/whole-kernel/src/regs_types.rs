//! The register side for every accumulator type (issue 43, item 1's rest): kernels on the f16
//! and s32 `wgmma` accumulators and on a warp's `mma.sync` strips, in ordinary run-time loops,
//! each accumulator named by its declaration (`#[smem_mma]`'s `Acc`) and zeroed from a constant:
//! an f16-accumulator GEMM (m64n128k16, f16 pairs straight into `stmatrix`), an s8 GEMM
//! (m64n256k32 into s32, dequantised with per-row scales in the epilogue), and an `mma.sync`
//! attention loop (m16n8k16 bf16: `ldmatrix` fragments by `#[smem_fragment_tile]` offsets,
//! causal and bounds masks, the quad-shuffle row max/sum, P packed from S's C fragments into the
//! next MMA's A fragments). A fourth issues each remaining form once (ptxas assembles every
//! template). The gate refuses any local depot, call or `.global` table, and ptxas's budget any
//! frame, spill or C75xx warning.

use crate::load_stage;
use crate::ptx::*;
use smemdesc::accum::{self, Bf16x2, MmaAcc, MmaAccF16, MmaAccS32, WgmmaAcc, WgmmaAccF16};
use smemdesc::prelude::*;
use smemdesc::{smem_epilogue_tile, smem_fragment_tile, smem_mma};

/// The f16-accumulator pairing: f16 A and B, `.f16` D.
#[smem_mma(accum = f16)]
pub mod h16 {
    use smemdesc::smem_tile;
    /// A: 128 x 64 f16 per stage (one 64-row subtile per consumer warpgroup).
    #[smem_tile(arch = sm90, operand = A, dtype = f16, tile = (128, 64), major = K,
                swizzle = 128B, mma = m64n128k16, stages = 3)]
    pub struct A;
    /// B: 128 x 64 f16 per stage.
    #[smem_tile(arch = sm90, operand = B, dtype = f16, tile = (128, 64), major = K,
                swizzle = 128B, mma = m64n128k16, stages = 3)]
    pub struct B;
}

/// C: f16 through `stmatrix.x4`, stored by TMA.
#[smem_epilogue_tile(dtype = f16, tile = (128, 64), wgmma_n = 128, writer = stmatrix_x4,
                     reader = tma_store)]
pub struct H16C;

/// The f16 GEMM's shared memory.
#[smem_storage(arch = sm90)]
pub struct H16Storage {
    full: [Mbarrier; 3],
    empty: [Mbarrier; 3],
    a: h16::A,
    b: h16::B,
    #[smem(epilogue)]
    c: H16C,
}

const H16_TX: u32 =
    h16::A::TMA_BOXES * h16::A::TMA_BOX_BYTES + h16::B::TMA_BOXES * h16::B::TMA_BOX_BYTES;

/// The producer of both GEMMs: warpgroup 0's thread 0 loads every stage of A and B.
#[inline(always)]
unsafe fn produce<A: SmemTile, B: SmemTile>(
    full: impl Fn(u32) -> u32,
    empty: impl Fn(u32) -> u32,
    a: smemdesc::smem::TileAt<A>,
    b: smemdesc::smem::TileAt<B>,
    maps: (u64, u64),
    (m0, n0, k_tiles, tx): (u32, u32, u32, u32),
) {
    let mut kt = 0;
    while kt < k_tiles {
        let (stage, phase) = (kt % A::STAGES, (kt / A::STAGES) & 1);
        mbar_wait(empty(stage), phase ^ 1);
        mbar_expect_tx(full(stage), tx);
        load_stage(a, maps.0, stage, kt * A::TILE_K, m0, full(stage));
        load_stage(b, maps.1, stage, kt * B::TILE_K, n0, full(stage));
        kt += 1;
    }
}

/// An m64n128 f16-accumulator GEMM tile: `h16::Acc::zero()`, the f16 `wgmma` per k-step, the
/// bounds mask of a partial tile and the f16 pairs stored by `stmatrix` as they are.
///
/// # Safety
/// 384 threads, `H16Storage::LAUNCH_BYTES` of dynamic shared memory, valid maps.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn whole_regs_f16acc_n128(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    m0: u32,
    n0: u32,
    k_tiles: u32,
    rows: u32,
    cols: u32,
) {
    let base = H16Storage::aligned_base(smem_dyn());
    let tid = tid();
    let wg = tid / 128;
    let (a, b) = (H16Storage::a(base), H16Storage::b(base));
    if tid == 0 {
        let mut s = 0;
        while s < h16::A::STAGES {
            mbar_init(H16Storage::full_at(base, s), 1);
            mbar_init(H16Storage::empty_at(base, s), 2);
            s += 1;
        }
        fence_barrier_init();
    }
    sync_threads();
    if wg == 0 {
        if tid == 0 {
            let full = |s| H16Storage::full_at(base, s);
            let empty = |s| H16Storage::empty_at(base, s);
            produce(full, empty, a, b, (map_a, map_b), (m0, n0, k_tiles, H16_TX));
        }
        return;
    }
    let im = wg - 1;
    let mut d = h16::Acc::zero();
    let mut kt = 0;
    while kt < k_tiles {
        let (stage, phase) = (kt % h16::A::STAGES, (kt / h16::A::STAGES) & 1);
        mbar_wait(H16Storage::full_at(base, stage), phase);
        let (Ok(da), Ok(db)) = (a.stage_descs(stage), b.stage_descs(stage)) else {
            trap()
        };
        wgmma_fence();
        let mut k = 0;
        while k < h16::A::MMAS_K {
            let acc = kt | k != 0;
            accum::wgmma_m64n128k16_f16_f16acc::<0, 0>(&mut d, da.desc(im, k), db.desc(0, k), acc);
            k += 1;
        }
        wgmma_commit();
        wgmma_wait::<0>();
        d.fence_operands();
        if tid % 128 == 0 {
            mbar_arrive(H16Storage::empty_at(base, stage));
        }
        kt += 1;
    }
    let t = tid % 128;
    d.mask_bounds(t, m0 + 64 * im, n0, rows, cols, 0.0);
    let (warp, lane) = (t / 32, tid % 32);
    let c = H16Storage::c(base);
    d.for_each_group::<4>(|g, r| {
        let (chunk, i) = (g as u32 / H16C::INSTRUCTIONS, g as u32 % H16C::INSTRUCTIONS);
        smemdesc::ptx::stmatrix_x4(c + H16C::writer_offset(im, warp, i, lane), r);
        if i == H16C::INSTRUCTIONS - 1 {
            fence_proxy_async_shared();
            named_bar(1, 256);
            // Thread 128's stores are predicated, not branched on: after `if tid == 128` LLVM
            // copied the next chunk's bar.sync and stmatrix into both arms (one lane of the
            // warp at other instructions than its warp's; scripts/check_convergence.py).
            let one = tid == 128;
            let mut bx = 0;
            while bx < H16C::TMA_BOXES {
                let (off, (c0, r0)) = H16C::tma_box(bx);
                smemdesc::ptx::tma_store_2d_if(one, map_c, c + off, n0 + 64 * chunk + c0, m0 + r0);
                bx += 1;
            }
            smemdesc::ptx::bulk_commit_group_if(one);
            smemdesc::ptx::bulk_wait_group_read_if::<0>(one);
            named_bar(1, 256);
        }
    });
}

/// The s8 pairing: s8 A and B, `.s32` D.
#[smem_mma(accum = s32)]
pub mod i8g {
    use smemdesc::smem_tile;
    /// A: 128 x 128 s8 per stage.
    #[smem_tile(arch = sm90, operand = A, dtype = s8, tile = (128, 128), major = K,
                swizzle = 128B, mma = m64n256k32, stages = 3)]
    pub struct A;
    /// B: 256 x 128 s8 per stage.
    #[smem_tile(arch = sm90, operand = B, dtype = s8, tile = (256, 128), major = K,
                swizzle = 128B, mma = m64n256k32, stages = 3)]
    pub struct B;
}

/// C: the dequantised tile in bf16.
#[smem_epilogue_tile(dtype = bf16, tile = (128, 64), wgmma_n = 256, writer = stmatrix_x4,
                     reader = tma_store)]
pub struct I8C;

/// The s8 GEMM's shared memory.
#[smem_storage(arch = sm90)]
pub struct I8Storage {
    full: [Mbarrier; 3],
    empty: [Mbarrier; 3],
    a: i8g::A,
    b: i8g::B,
    #[smem(epilogue)]
    c: I8C,
}

const I8_TX: u32 =
    i8g::A::TMA_BOXES * i8g::A::TMA_BOX_BYTES + i8g::B::TMA_BOXES * i8g::B::TMA_BOX_BYTES;

/// An m64n256 s8 GEMM tile: `i8g::Acc::zero()` (128 s32 per thread), the integer `wgmma`, and
/// an epilogue that dequantises with per-row scales of A times B's scale, then stores bf16.
///
/// # Safety
/// 384 threads, `I8Storage::LAUNCH_BYTES` of dynamic shared memory, valid maps; `scale_a`
/// holds a scale per row of A.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn whole_regs_s8_n256(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    scale_a: *const f32,
    scale_b: f32,
    m0: u32,
    n0: u32,
    k_tiles: u32,
) {
    let base = I8Storage::aligned_base(smem_dyn());
    let tid = tid();
    let wg = tid / 128;
    let (a, b) = (I8Storage::a(base), I8Storage::b(base));
    if tid == 0 {
        let mut s = 0;
        while s < i8g::A::STAGES {
            mbar_init(I8Storage::full_at(base, s), 1);
            mbar_init(I8Storage::empty_at(base, s), 2);
            s += 1;
        }
        fence_barrier_init();
    }
    sync_threads();
    if wg == 0 {
        if tid == 0 {
            let full = |s| I8Storage::full_at(base, s);
            let empty = |s| I8Storage::empty_at(base, s);
            produce(full, empty, a, b, (map_a, map_b), (m0, n0, k_tiles, I8_TX));
        }
        return;
    }
    let im = wg - 1;
    let mut d = i8g::Acc::zero();
    let mut kt = 0;
    while kt < k_tiles {
        let (stage, phase) = (kt % i8g::A::STAGES, (kt / i8g::A::STAGES) & 1);
        mbar_wait(I8Storage::full_at(base, stage), phase);
        let (Ok(da), Ok(db)) = (a.stage_descs(stage), b.stage_descs(stage)) else {
            trap()
        };
        wgmma_fence();
        let mut k = 0;
        while k < i8g::A::MMAS_K {
            accum::wgmma_m64n256k32_s8(&mut d, da.desc(im, k), db.desc(0, k), kt | k != 0);
            k += 1;
        }
        wgmma_commit();
        wgmma_wait::<0>();
        d.fence_operands();
        if tid % 128 == 0 {
            mbar_arrive(I8Storage::empty_at(base, stage));
        }
        kt += 1;
    }
    let t = tid % 128;
    let (warp, lane) = (t / 32, tid % 32);
    let row = (m0 + 64 * im + 16 * warp + lane / 4) as usize;
    let rs = [*scale_a.add(row) * scale_b, *scale_a.add(row + 8) * scale_b];
    let f = d.to_f32_rows(rs);
    let c = I8Storage::c(base);
    f.for_each_group::<4, Bf16x2>(|g, r| {
        let (chunk, i) = (g as u32 / I8C::INSTRUCTIONS, g as u32 % I8C::INSTRUCTIONS);
        smemdesc::ptx::stmatrix_x4(c + I8C::writer_offset(im, warp, i, lane), r);
        if i == I8C::INSTRUCTIONS - 1 {
            fence_proxy_async_shared();
            named_bar(1, 256);
            let one = tid == 128; // predicated, not branched on (as in the f16 GEMM above)
            let mut bx = 0;
            while bx < I8C::TMA_BOXES {
                let (off, (c0, r0)) = I8C::tma_box(bx);
                smemdesc::ptx::tma_store_2d_if(one, map_c, c + off, n0 + 64 * chunk + c0, m0 + r0);
                bx += 1;
            }
            smemdesc::ptx::bulk_commit_group_if(one);
            smemdesc::ptx::bulk_wait_group_read_if::<0>(one);
            named_bar(1, 256);
        }
    });
}

/// Q: 64 query rows x 64 head dims (one 16-row A fragment per warp), `ldmatrix.x4`.
#[smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = bf16, operand = A, tile = (64, 64),
                     reader = ldmatrix_x4)]
pub struct SyncQ;

/// K: 64 keys (S's N) x 64 head dims, one n-fragment per `ldmatrix.x2`.
#[smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = bf16, operand = B, tile = (64, 64),
                     reader = ldmatrix_x2)]
pub struct SyncK;

/// V: 64 head dims (O's N) x 64 keys, MN-major (`ldmatrix.x2.trans`).
#[smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = bf16, operand = B, major = MN,
                     tile = (64, 64), reader = ldmatrix_x2)]
pub struct SyncV;

// The instruction order the loops rely on: Q's instruction `4·ks + warp` is warp's A fragment
// at k-step ks; K's and V's `8·ks + j` is n-fragment j at k-step ks.
const _: () = {
    let mut ks = 0;
    while ks < 4 {
        let mut j = 0;
        while j < 8 {
            assert!(j >= 4 || matches!(SyncQ::dest(4 * ks + j, 0), (k, f, 0) if k == ks && f == j));
            assert!(matches!(SyncK::dest(8 * ks + j, 0), (k, f, 0) if k == ks && f == j));
            assert!(matches!(SyncV::dest(8 * ks + j, 0), (k, f, 0) if k == ks && f == j));
            j += 1;
        }
        ks += 1;
    }
};

/// Copies one 8 KiB tile from global memory into shared memory (the CTA's 128 threads).
#[inline(always)]
unsafe fn copy_tile(dst: u32, src: u64, tid: u32) {
    let mut i = tid;
    while i < 2048 {
        st_shared_u32(dst + 4 * i, ld_global_u32(src + 4 * i as u64));
        i += 128;
    }
}

/// An `mma.sync` causal attention loop (FlashAttention-2 style, 4 warps of 16 query rows, head
/// dim 64, key tiles of 64): S = Q·Kᵀ per key tile with one `m16n8k16` per n-fragment
/// (`for_each_frag_mut`), the causal and bounds masks, the online softmax with the quad-shuffle
/// row max/sum, and O += P·V with P's k-steps packed from S's C fragments (`pack` →
/// `for_each_kstep`), V's fragments through `ldmatrix.x2.trans`.
///
/// # Safety
/// 128 threads, 24 KiB + 1 KiB of dynamic shared memory; `q`, `k`, `v` device addresses of
/// 8 KiB tiles (`k`, `v`: `kv_tiles` of them).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_regs_mma_sync_attn(
    q: u64,
    k: u64,
    v: u64,
    out: *mut f32,
    q0: u32,
    kv_tiles: u32,
    seqlen: u32,
) {
    let base = (smem_dyn() + 1023) & !1023;
    let (sq, sk) = (base, base + SyncQ::BYTES as u32);
    let sv = sk + SyncK::BYTES as u32;
    let tid = tid();
    let (warp, lane) = (tid / 32, tid % 32);
    copy_tile(sq, q, tid);
    let row0 = q0 + 16 * warp;
    let mut o = MmaAcc::<64>::zero();
    let (mut m, mut l) = ([f32::NEG_INFINITY; 2], [0f32; 2]);
    let mut j = 0;
    while j < kv_tiles {
        sync_threads();
        copy_tile(sk, k + 8192 * j as u64, tid);
        copy_tile(sv, v + 8192 * j as u64, tid);
        sync_threads();
        let mut s = MmaAcc::<64>::zero();
        let mut ks = 0;
        while ks < SyncQ::KSTEPS {
            let a = smemdesc::ptx::ldmatrix_x4(sq + SyncQ::ldmatrix_offset(4 * ks + warp, lane));
            s.for_each_frag_mut(|n, c| {
                let b = smemdesc::ptx::ldmatrix_x2(
                    sk + SyncK::ldmatrix_offset(8 * ks + n as u32, lane),
                );
                accum::mma_sync_m16n8k16_bf16(c, a, b);
            });
            ks += 1;
        }
        s.mask_causal(lane, row0, 64 * j);
        s.mask_bounds(lane, row0, 64 * j, seqlen, seqlen, f32::NEG_INFINITY);
        let tile_max = s.row_max();
        let m_new = [m[0].max(tile_max[0]), m[1].max(tile_max[1])];
        let alpha = [exp2(m[0] - m_new[0]), exp2(m[1] - m_new[1])];
        s.for_each_mut(|e, x| *x = exp2(*x - m_new[(e >> 1) & 1]));
        let sum = s.row_sum();
        l = [l[0] * alpha[0] + sum[0], l[1] * alpha[1] + sum[1]];
        m = m_new;
        o.scale_rows(alpha);
        s.pack::<Bf16x2>().for_each_kstep(|kk, a| {
            o.for_each_frag_mut(|n, c| {
                let at = sv + SyncV::ldmatrix_offset(8 * kk as u32 + n as u32, lane);
                accum::mma_sync_m16n8k16_bf16(c, a, smemdesc::ptx::ldmatrix_x2_trans(at));
            });
        });
        j += 1;
    }
    o.scale_rows([1.0 / l[0], 1.0 / l[1]]);
    let r = o.regs();
    *out.add(tid as usize) = r[0] + r[31];
}

/// `ex2.approx.ftz.f32`.
#[inline(always)]
fn exp2(x: f32) -> f32 {
    let r: f32;
    // SAFETY: register-only.
    unsafe {
        core::arch::asm!("ex2.approx.ftz.f32 {0}, {1};", out(reg32) r, in(reg32) x,
            options(pure, nomem, nostack))
    };
    r
}

/// Each remaining form once: the f16-accumulator RS, e4m3 and e5m2 `wgmma`s, the integer
/// u8/s8u8/u8s8 SS and s8 RS, the `mma.sync` f16 (both accumulators), tf32, e4m3, s8 and u8
/// forms on a warp's strips, and every `ldmatrix`/`stmatrix` width, so ptxas assembles every
/// template.
///
/// # Safety
/// 128 threads; `desc_a`, `desc_b` descriptors of resident tiles; `sm` a 1024-B aligned shared
/// address of 4 KiB.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_regs_acc_forms(
    out: *mut u32,
    desc_a: u64,
    desc_b: u64,
    sm: u32,
) {
    let t = tid();
    let lane = t % 32;
    let (mut h8, mut h96) = (WgmmaAccF16::<8>::zero(), WgmmaAccF16::<96>::zero());
    let (mut i16, mut i48, mut i24) = (
        accum::WgmmaAccS32::<16>::zero(),
        accum::WgmmaAccS32::<48>::zero(),
        accum::WgmmaAccS32::<24>::zero(),
    );
    let mut i8w = accum::WgmmaAccS32::<8>::zero();
    let a4 = smemdesc::ptx::ldmatrix_x4(sm + 16 * lane);
    let a4t = smemdesc::ptx::ldmatrix_x4_trans(sm + 16 * lane);
    wgmma_fence();
    accum::wgmma_m64n8k16_f16_rs_f16acc::<1>(&mut h8, a4, desc_b, false);
    accum::wgmma_m64n96k32_e4m3_f16acc(&mut h96, desc_a, desc_b, false);
    accum::wgmma_m64n96k32_e5m2_f16acc(&mut h96, desc_a, desc_b, true);
    accum::wgmma_m64n16k32_u8(&mut i16, desc_a, desc_b, false);
    accum::wgmma_m64n48k32_s8u8(&mut i48, desc_a, desc_b, false);
    accum::wgmma_m64n24k32_u8s8(&mut i24, desc_a, desc_b, false);
    accum::wgmma_m64n8k32_s8_rs(&mut i8w, a4t, desc_b, false);
    wgmma_commit();
    wgmma_wait::<0>();
    h8.fence_operands();
    h96.fence_operands();
    i16.fence_operands();
    i48.fence_operands();
    i24.fence_operands();
    i8w.fence_operands();
    // mma.sync on warp strips.
    let b2 = smemdesc::ptx::ldmatrix_x2(sm + 16 * (lane % 16));
    let b2t = smemdesc::ptx::ldmatrix_x2_trans(sm + 16 * (lane % 16));
    let b1 = smemdesc::ptx::ldmatrix_x1(sm + 16 * (lane % 8));
    let b1t = smemdesc::ptx::ldmatrix_x1_trans(sm + 16 * (lane % 8));
    let mut f = MmaAcc::<16>::zero();
    let mut fh = MmaAccF16::<16>::zero();
    let mut fi = MmaAccS32::<16>::zero();
    f.for_each_frag_mut(|n, c| {
        if n == 0 {
            accum::mma_sync_m16n8k16_f16(c, a4, b2);
            accum::mma_sync_m16n8k8_tf32(c, a4t, b2t);
        } else {
            accum::mma_sync_m16n8k32_e4m3(c, a4, [b1, b1t]);
        }
    });
    fh.for_each_frag_mut(|_n, c| accum::mma_sync_m16n8k16_f16_f16acc(c, a4, b2));
    fi.for_each_frag_mut(|n, c| {
        if n == 0 {
            accum::mma_sync_m16n8k32_s8(c, a4, b2);
        } else {
            accum::mma_sync_m16n8k32_u8(c, a4t, b2t);
        }
    });
    let [s0, s1] = fi.row_sum();
    let [h0, _] = fh.row_max();
    smemdesc::ptx::stmatrix_x1(sm + 16 * (lane % 8), fh.regs()[0]);
    smemdesc::ptx::stmatrix_x1_trans(sm + 16 * (lane % 8), fh.regs()[1]);
    smemdesc::ptx::stmatrix_x2(sm + 16 * (lane % 16), [fh.regs()[2], fh.regs()[3]]);
    smemdesc::ptx::stmatrix_x2_trans(sm + 16 * (lane % 16), [h8.regs()[0], h8.regs()[1]]);
    smemdesc::ptx::stmatrix_x4_trans(sm + 16 * lane, [h96.regs()[0], h96.regs()[23], 0, 1]);
    let ws = WgmmaAcc::<16>::zero();
    let v = f.regs()[0] + f.regs()[7] + h0 + ws.regs()[0];
    *out.add(t as usize) = v.to_bits()
        ^ (i16.regs()[7] + i48.regs()[23] + i24.regs()[11] + i8w.regs()[3] + s0 + s1) as u32;
}
