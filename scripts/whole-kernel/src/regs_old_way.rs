//! The negative control of the register side (issue 43, item 5): `regs.rs`'s two kernels written
//! the way the guide taught before the library had whole-fragment operations: `[0f32; N / 2]`
//! accumulators, the checked descriptors inside the `wgmma` region, the index functions
//! (`WgmmaAccum::coord`, `row_elem`, `ChainedMma::source`, the epilogue's `pair`) in run-time
//! loops. Built only with the `old-way` feature, into its own module: the gate expects
//! `smemdesc check-ptx` to refuse it (a local depot per kernel, each named a zeroing loop and an
//! accumulator in memory). The ptxas numbers are in the CLI chapter of the guide.
use crate::load_stage;
use crate::ptx::*;
use crate::regs::*;
use smemdesc::accum::{self, WgmmaAcc};
use smemdesc::fragment::{ChainedMma, WgmmaAccum};
use smemdesc::prelude::*;

#[no_mangle]
pub unsafe extern "ptx-kernel" fn old_regs_fp8_n256(
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
        while s < 3 {
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
                let (stage, phase) = (kt % 3, (kt / 3) & 1);
                mbar_wait(GemmStorage::empty_at(base, stage), phase ^ 1);
                let full = GemmStorage::full_at(base, stage);
                mbar_expect_tx(full, 1);
                load_stage(a, map_a, stage, kt * 128, m0, full);
                load_stage(b, map_b, stage, kt * 128, n0, full);
                kt += 1;
            }
        }
        return;
    }
    let im = wg - 1;
    let mut d = [0f32; 128];
    let mut kt = 0;
    while kt < k_tiles {
        let (stage, phase) = (kt % 3, (kt / 3) & 1);
        mbar_wait(GemmStorage::full_at(base, stage), phase);
        wgmma_fence();
        let mut k = 0;
        while k < RegA8::MMAS_K {
            let mut acc = WgmmaAcc::<256>::from_regs(d);
            accum::wgmma_m64n256k32_e4m3(
                &mut acc,
                a.desc(im, k, stage),
                b.desc(0, k, stage),
                kt | k != 0,
            );
            d = acc.into_regs();
            k += 1;
        }
        wgmma_commit();
        wgmma_wait::<0>();
        if tid % 128 == 0 {
            mbar_arrive(GemmStorage::empty_at(base, stage));
        }
        kt += 1;
    }
    let (warp, lane) = ((tid % 128) / 32, tid % 32);
    let c = GemmStorage::c(base);
    let mut chunk = 0;
    while chunk < RegC::CHUNKS {
        let mut i = 0;
        while i < RegC::INSTRUCTIONS {
            let mut r = [0u32; 4];
            for q in 0..4 {
                let e = RegC::pair(chunk, i, q) as usize * 2;
                r[q as usize] = bf16x2(d[e], d[e + 1]);
            }
            stmatrix_x4(c + RegC::writer_offset(im, warp, i, lane), r);
            i += 1;
        }
        fence_proxy_async_shared();
        named_bar(1, 256);
        if tid == 128 {
            let (off, (c0, r0)) = RegC::tma_box(0);
            tma_store_2d(map_c, c + off, n0 + 64 * chunk + c0, m0 + r0);
            bulk_commit();
            bulk_wait_read::<0>();
        }
        named_bar(1, 256);
        chunk += 1;
    }
}

const CHAIN: ChainedMma = ChainedMma::declare(
    (
        smemdesc::mma::MmaShape::new(64, 128, 16),
        ElementType::BF16,
        smemdesc::mma::AccumType::F32,
    ),
    (
        smemdesc::mma::MmaShape::new(64, 128, 16),
        ElementType::BF16,
        smemdesc::mma::AccumType::F32,
    ),
);

#[no_mangle]
pub unsafe extern "ptx-kernel" fn old_regs_attn_bf16_n128(
    map_k: u64,
    map_v: u64,
    out: *mut f32,
    q0: u32,
    kv_tiles: u32,
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
        mbar_init(AttnStorage::full_at(base, 0), 1);
        mbar_init(AttnStorage::full_at(base, 1), 1);
        mbar_init(AttnStorage::empty_at(base, 0), 2);
        mbar_init(AttnStorage::empty_at(base, 1), 2);
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
                mbar_expect_tx(full, 1);
                load_stage(k, map_k, stage, 0, 128 * j, full);
                load_stage(v, map_v, stage, 128 * j, 0, full);
                j += 1;
            }
        }
        return;
    }
    let im = wg - 1;
    let t = tid % 128;
    let row0 = q0 + 64 * im;
    let map = WgmmaAccum::new(128).unwrap();
    let mut o = [0f32; 64];
    let (mut m, mut l) = ([f32::NEG_INFINITY; 2], [0f32; 2]);
    let mut j = 0;
    while j < kv_tiles {
        let (stage, phase) = (j % 2, (j / 2) & 1);
        mbar_wait(AttnStorage::full_at(base, stage), phase);
        let mut s = [0f32; 64];
        wgmma_fence();
        let mut ks = 0;
        while ks < AttnQ::MMAS_K {
            let mut acc = WgmmaAcc::<128>::from_regs(s);
            accum::wgmma_m64n128k16_bf16::<0, 0>(
                &mut acc,
                q.desc(im, ks, 0),
                k.desc(0, ks, stage),
                ks != 0,
            );
            s = acc.into_regs();
            ks += 1;
        }
        wgmma_commit();
        wgmma_wait::<0>();
        for e in 0..64u32 {
            let (r, c) = map.coord(t, e).unwrap();
            if 128 * j + c > row0 + r {
                s[e as usize] = f32::NEG_INFINITY;
            }
        }
        let mut mx = m;
        for h in 0..2u32 {
            for jj in 0..map.row_elems() {
                mx[h as usize] = mx[h as usize].max(s[map.row_elem(h, jj).unwrap() as usize]);
            }
            for x in WgmmaAccum::ROW_REDUCE_XOR {
                mx[h as usize] = mx[h as usize].max(accum::shfl_bfly(mx[h as usize], x));
            }
        }
        let mut sum = [0f32; 2];
        for e in 0..64usize {
            s[e] = s[e] - mx[(e >> 1) & 1];
            sum[(e >> 1) & 1] += s[e];
        }
        l = [l[0] + sum[0], l[1] + sum[1]];
        for e in 0..64usize {
            o[e] *= m[(e >> 1) & 1] - mx[(e >> 1) & 1];
        }
        m = mx;
        wgmma_fence();
        for kstep in 0..CHAIN.ksteps() {
            let mut a = [0u32; 4];
            for r in 0..4 {
                let [lo, hi] = CHAIN.source(kstep, r).unwrap();
                a[r as usize] = bf16x2(s[lo as usize], s[hi as usize]);
            }
            let mut acc = WgmmaAcc::<128>::from_regs(o);
            accum::wgmma_m64n128k16_bf16_rs::<1>(&mut acc, a, v.desc(0, kstep, stage), true);
            o = acc.into_regs();
        }
        wgmma_commit();
        wgmma_wait::<0>();
        if t == 0 {
            mbar_arrive(AttnStorage::empty_at(base, stage));
        }
        j += 1;
    }
    *out.add(tid as usize) = o[0] / l[0] + o[63] / l[1];
}

/// `regs_types.rs`'s s8 GEMM the old way: a `[0i32; 128]` accumulator and the dequantising
/// epilogue by the epilogue tile's `pair` in run-time loops.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn old_regs_s8_n256(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    scale_a: *const f32,
    m0: u32,
    k_tiles: u32,
) {
    use crate::regs_types::{i8g, I8Storage, I8C};
    let base = I8Storage::aligned_base(smem_dyn());
    let tid = tid();
    let wg = tid / 128;
    let (a, b) = (I8Storage::a(base), I8Storage::b(base));
    if tid == 0 {
        let mut s = 0;
        while s < 3 {
            mbar_init(I8Storage::full_at(base, s), 1);
            mbar_init(I8Storage::empty_at(base, s), 2);
            s += 1;
        }
        fence_barrier_init();
    }
    sync_threads();
    if wg == 0 {
        if tid == 0 {
            let mut kt = 0;
            while kt < k_tiles {
                let (stage, phase) = (kt % 3, (kt / 3) & 1);
                mbar_wait(I8Storage::empty_at(base, stage), phase ^ 1);
                let full = I8Storage::full_at(base, stage);
                mbar_expect_tx(full, 1);
                load_stage(a, map_a, stage, kt * 128, m0, full);
                load_stage(b, map_b, stage, kt * 128, 0, full);
                kt += 1;
            }
        }
        return;
    }
    let im = wg - 1;
    let mut d = [0i32; 128];
    let mut kt = 0;
    while kt < k_tiles {
        let (stage, phase) = (kt % 3, (kt / 3) & 1);
        mbar_wait(I8Storage::full_at(base, stage), phase);
        wgmma_fence();
        let mut k = 0;
        while k < i8g::A::MMAS_K {
            let mut acc = accum::WgmmaAccS32::<256>::from_regs(d);
            accum::wgmma_m64n256k32_s8(
                &mut acc,
                a.desc(im, k, stage),
                b.desc(0, k, stage),
                kt | k != 0,
            );
            d = acc.into_regs();
            k += 1;
        }
        wgmma_commit();
        wgmma_wait::<0>();
        if tid % 128 == 0 {
            mbar_arrive(I8Storage::empty_at(base, stage));
        }
        kt += 1;
    }
    let (warp, lane) = ((tid % 128) / 32, tid % 32);
    let row = (m0 + 64 * im + 16 * warp + lane / 4) as usize;
    let rs = [*scale_a.add(row), *scale_a.add(row + 8)];
    let c = I8Storage::c(base);
    let mut chunk = 0;
    while chunk < I8C::CHUNKS {
        let mut i = 0;
        while i < I8C::INSTRUCTIONS {
            let mut r = [0u32; 4];
            for q in 0..4 {
                let e = I8C::pair(chunk, i, q) as usize * 2;
                let s = rs[(e >> 1) & 1];
                r[q as usize] = bf16x2(d[e] as f32 * s, d[e + 1] as f32 * s);
            }
            stmatrix_x4(c + I8C::writer_offset(im, warp, i, lane), r);
            i += 1;
        }
        fence_proxy_async_shared();
        named_bar(1, 256);
        if tid == 128 {
            let (off, (c0, r0)) = I8C::tma_box(0);
            tma_store_2d(map_c, c + off, 64 * chunk + c0, m0 + r0);
            bulk_commit();
            bulk_wait_read::<0>();
        }
        named_bar(1, 256);
        chunk += 1;
    }
}
