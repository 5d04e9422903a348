//! The attention and convolution launchers on the GPU, against host references.
//!
//! Convolution: integer data in -2..=2, so every output is an integer sum below 2^24, exact in
//! fp32 whatever the order: the output must be that integer rounded to bf16, bit for bit (the
//! rule of `gpu/src/bin/rust_kernels/conv.rs`, whose reference is cuBLASLt on the same integers).
//!
//! Attention: normal data (bf16), the reference in f64 from the definition (`softmax(scale ·
//! QKᵀ)·V`, the log-sum-exp in natural log). The harness's rule (`gpu/attention_same_process.py`)
//! is "within the largest error of torch's SDPA backends", which needs torch; without it this
//! check states the bound of the kernels' roundings: P is rounded to bf16 before `P·V` and O
//! when stored (each a relative 2^-9), and the row sum comes from the unrounded P, so
//! `|O − ref| ≤ 3 · 2^-9 · max|V|`; the LSE (f32, `ex2.approx`) within 1e-4. A negative
//! control shows the check can fail: each causal output against the unmasked reference.

use super::{refused, Res};
use smemdesc::cuda::cudarc::driver::CudaStream;
use smemdesc_kernels::{
    attention_plan, conv2d_fprop_plan, AttentionShape, Conv2d, Dim, Kernels, ShapeError,
};
use std::sync::Arc;

/// Standard normal samples (Box-Muller on a 64-bit LCG).
fn normals(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    let mut u = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let (a, b) = (u(), u());
            ((-2.0 * a.ln()).sqrt() * (std::f64::consts::TAU * b).cos()) as f32
        })
        .collect()
}

fn f32_of(b: u16) -> f32 {
    f32::from_bits(u32::from(b) << 16)
}

/// `(O, LSE)` in f64 of one shape: rows `[b·h·s, d]`, keys `j ≤ i` when `causal`.
fn attention_ref(
    s: AttentionShape,
    causal: bool,
    scale: f64,
    q: &[u16],
    k: &[u16],
    v: &[u16],
) -> (Vec<f64>, Vec<f64>) {
    let (n, d) = (s.seqlen as usize, s.head_dim as usize);
    let mut o = vec![0f64; q.len()];
    let mut lse = vec![0f64; s.lse_len()];
    let mut p = vec![0f64; n];
    for bh in 0..(s.batch * s.heads) as usize {
        let at = |x: &[u16], r: usize, c: usize| f64::from(f32_of(x[(bh * n + r) * d + c]));
        for i in 0..n {
            let keys = if causal { i + 1 } else { n };
            let mut m = f64::NEG_INFINITY;
            for (j, pj) in p.iter_mut().enumerate().take(keys) {
                *pj = scale * (0..d).map(|c| at(q, i, c) * at(k, j, c)).sum::<f64>();
                m = m.max(*pj);
            }
            let mut l = 0.0;
            for pj in &mut p[..keys] {
                *pj = (*pj - m).exp();
                l += *pj;
            }
            let row = &mut o[(bh * n + i) * d..(bh * n + i + 1) * d];
            for (j, pj) in p.iter().enumerate().take(keys) {
                for (c, oc) in row.iter_mut().enumerate() {
                    *oc += pj * at(v, j, c);
                }
            }
            row.iter_mut().for_each(|x| *x /= l);
            lse[bh * n + i] = m + l.ln();
        }
    }
    (o, lse)
}

/// Largest |got − want|.
fn max_err(got: impl Iterator<Item = f64>, want: &[f64]) -> f64 {
    got.zip(want)
        .map(|(g, w)| (g - w).abs())
        .fold(0.0, f64::max)
}

/// One attention launch against the f64 reference.
fn run_attention(k: &Kernels, st: &Arc<CudaStream>, s: AttentionShape, causal: bool) -> Res<bool> {
    let n = s.qkv_len();
    let seed = u64::from(s.batch * 7 + s.heads * 3 + s.seqlen + s.head_dim);
    let bits = |x: Vec<f32>| x.into_iter().map(super::bf16).collect::<Vec<u16>>();
    let (qh, kh, vh) = (
        bits(normals(n, seed)),
        bits(normals(n, seed + 1)),
        bits(normals(n, seed + 2)),
    );
    let (q, kk, v) = (
        st.clone_htod(&qh)?,
        st.clone_htod(&kh)?,
        st.clone_htod(&vh)?,
    );
    let mut o = st.clone_htod(&vec![0xffffu16; n])?; // NaN: a row not written mismatches
    let mut lse = st.clone_htod(&vec![f32::NAN; s.lse_len()])?;
    let scale = 1.0 / (s.head_dim as f32).sqrt();
    k.attention_fwd(st, s, causal, scale, &q, &kk, &v, &mut o, &mut lse)?;
    st.synchronize()?;
    let (og, lg) = (st.clone_dtoh(&o)?, st.clone_dtoh(&lse)?);
    let (oref, lref) = attention_ref(s, causal, f64::from(scale), &qh, &kh, &vh);
    let vmax = vh.iter().map(|&x| f32_of(x).abs()).fold(0.0, f32::max) as f64;
    let tol = 3.0 * vmax / 512.0;
    let got = || og.iter().map(|&x| f64::from(f32_of(x)));
    let nan = og.iter().any(|&x| f32_of(x).is_nan()) || lg.iter().any(|x| x.is_nan());
    let (e, el) = (
        max_err(got(), &oref),
        max_err(lg.iter().map(|&x| f64::from(x)), &lref),
    );
    let mut ok = !nan && e <= tol && el <= 1e-4;
    let mut control = String::new();
    if causal {
        let (unmasked, _) = attention_ref(s, false, f64::from(scale), &qh, &kh, &vh);
        let ec = max_err(got(), &unmasked);
        let fails = ec > tol;
        ok &= fails;
        control = format!(
            "; control (against the unmasked reference): {ec:.3e} {}",
            if fails {
                "fails, as it must"
            } else {
                "PASSES: the check cannot see the mask"
            }
        );
    }
    // The clustered kernel's grid is the driver's resident clusters (asked in the launcher).
    let plan = attention_plan(s, causal, k.sms(), 1)?;
    let grid = if plan.cluster > 1 {
        format!("persistent, the resident clusters of {}", plan.cluster)
    } else if plan.sched_param {
        format!("persistent, {}", plan.grid.0)
    } else {
        plan.grid.0.to_string()
    };
    println!(
        "attention_fwd ({}) {}x{}x{}x{}{}: grid {grid} (tiles {}), block {}, {} B shared: O max err {e:.3e} (bound {tol:.3e}), LSE {el:.3e}{}{control}{}",
        plan.kernel,
        s.batch,
        s.heads,
        s.seqlen,
        s.head_dim,
        if causal { " causal" } else { "" },
        plan.tiles,
        plan.block.0,
        plan.shared_mem_bytes,
        if nan { ", NaN" } else { "" },
        if ok { "" } else { " FAIL" }
    );
    Ok(ok)
}

/// The convolution's exact outputs: `y[m][ko]` = Σ over taps and channels, as integers.
fn conv_ref(c: &Conv2d, x: &[i32], w: &[i32]) -> Vec<i32> {
    let (p, q) = c.output().expect("valid conv");
    let (cc, kk) = (c.c as usize, c.k as usize);
    let mut y = vec![0i32; (c.n * p * q) as usize * kk];
    for n in 0..c.n {
        for op in 0..p {
            for oq in 0..q {
                let m = ((n * p + op) * q + oq) as usize;
                for r in 0..c.r {
                    for s in 0..c.s {
                        let h = (op * c.stride.0 + r * c.dilation.0) as i64 - c.pad.0 as i64;
                        let ww = (oq * c.stride.1 + s * c.dilation.1) as i64 - c.pad.1 as i64;
                        if h < 0 || ww < 0 || h >= c.h as i64 || ww >= c.w as i64 {
                            continue;
                        }
                        let xi = (((n * c.h + h as u32) * c.w + ww as u32) as usize) * cc;
                        let xs = &x[xi..xi + cc];
                        for ko in 0..kk {
                            let wi =
                                ((ko * c.r as usize + r as usize) * c.s as usize + s as usize) * cc;
                            let ws = &w[wi..wi + cc];
                            y[m * kk + ko] += xs.iter().zip(ws).map(|(a, b)| a * b).sum::<i32>();
                        }
                    }
                }
            }
        }
    }
    y
}

/// One convolution launch, exact.
fn run_conv(k: &Kernels, st: &Arc<CudaStream>, name: &str, c: Conv2d) -> Res<bool> {
    let plan = conv2d_fprop_plan(c, k.sms())?;
    let (nx, nw, ny) = plan.lengths(&c);
    let (xv, wv) = (
        super::ints(nx, 5 + u64::from(c.h)),
        super::ints(nw, 6 + u64::from(c.k)),
    );
    let tobf = |v: &[i32]| {
        v.iter()
            .map(|&i| super::bf16(i as f32))
            .collect::<Vec<u16>>()
    };
    let (x, w) = (st.clone_htod(&tobf(&xv))?, st.clone_htod(&tobf(&wv))?);
    let mut y = st.clone_htod(&vec![0xffffu16; ny])?;
    k.conv2d_fprop(st, c, &x, &w, &mut y)?;
    st.synchronize()?;
    let got = st.clone_dtoh(&y)?;
    let want = conv_ref(&c, &xv, &wv);
    let kk = c.k as usize;
    let mut first = None;
    let mut bad = 0;
    for (i, (&g, &e)) in got.iter().zip(&want).enumerate() {
        if g != super::bf16(e as f32) {
            bad += 1;
            first.get_or_insert(format!("Y[{}][{}] = {g:#06x}, want {e}", i / kk, i % kk));
        }
    }
    let watchdog = k.watchdog_fired(st)?;
    println!(
        "conv2d_fprop ({}) {name} (N {} H {} W {} C {} K_out {} {}x{}, stride {:?} pad {:?} dilation {:?}): M {}, grid {} (tiles {}): {bad} / {ny} mismatches{}{}",
        plan.kernel, c.n, c.h, c.w, c.c, c.k, c.r, c.s, c.stride, c.pad, c.dilation,
        plan.m, plan.grid.0, plan.tiles,
        first.map(|f| format!(", first {f}")).unwrap_or_default(),
        if watchdog { ", WATCHDOG FIRED" } else { "" }
    );
    Ok(bad == 0 && !watchdog)
}

/// Every attention and convolution check, then their refusals.
pub(crate) fn check(k: &Kernels, st: &Arc<CudaStream>) -> Res<bool> {
    let mut ok = true;
    for (b, h, s, d, causal) in [
        (1, 2, 256, 64, false),
        (1, 2, 256, 64, true),
        (2, 3, 512, 64, true),
        // Clustered and persistent: 4 tiles, then 144 (more than the resident CTAs).
        (1, 2, 256, 128, false),
        (4, 18, 256, 128, false),
        // 3 query tiles a head: the one-tile-per-CTA kernel without the mask.
        (1, 2, 384, 128, false),
        // With the mask the persistent kernel, its tiles heaviest first across groups of 16
        // heads: fewer tiles than SMs (6, 24), then 144 tiles of 18 heads (a group of 16 and
        // one of 2; more tiles than the SMs, so CTAs take further tiles from the schedule).
        // Three launches on one schedule word pair: each must find it reset by the last.
        (1, 2, 384, 128, true),
        (2, 3, 512, 128, true),
        (1, 18, 1024, 128, true),
        // From 16,384 keys the one-tile-per-CTA overlapped kernel (128 tiles).
        (1, 1, 16384, 128, true),
    ] {
        ok &= run_attention(k, st, AttentionShape::new(b, h, s, d), causal)?;
    }
    let conv = |n, hw, c, ko, rs| Conv2d::new(n, hw, hw, c, ko, rs, rs);
    for (name, c) in [
        // 147 pixels: the second M-block clipped by the store.
        ("3x3 pad 1", conv(3, 7, 64, 256, 3).pad(1, 1)),
        (
            "3x3 stride 2 pad 1",
            conv(2, 14, 128, 512, 3).stride(2, 2).pad(1, 1),
        ),
        (
            "3x3 dilation 2 pad 2",
            conv(2, 10, 64, 256, 3).pad(2, 2).dilation(2, 2),
        ),
        ("1x1", conv(4, 14, 192, 256, 1)),
        // 148 tiles: more than the SMs, each CTA loops.
        ("3x3 pad 1, 148 tiles", conv(12, 28, 64, 512, 3).pad(1, 1)),
    ] {
        ok &= run_conv(k, st, name, c)?;
    }
    // Refusals: nothing launched, the typed error.
    let s = AttentionShape::new(1, 2, 256, 64);
    let buf = || st.alloc_zeros::<u16>(s.qkv_len());
    let (q, kk, v, mut o) = (buf()?, buf()?, buf()?, buf()?);
    let mut lse = st.alloc_zeros::<f32>(s.lse_len())?;
    let mut short = st.alloc_zeros::<f32>(s.lse_len() - 1)?;
    let bad = AttentionShape::new(1, 2, 200, 64);
    ok &= refused(
        "attention seqlen 200",
        k.attention_fwd(st, bad, false, 0.125, &q, &kk, &v, &mut o, &mut lse),
        ShapeError::NotMultiple {
            dim: Dim::SeqLen,
            value: 200,
            multiple: 128,
        },
    );
    let bad = AttentionShape::new(1, 4, 256, 32); // as many elements, no kernel
    ok &= refused(
        "attention head_dim 32",
        k.attention_fwd(st, bad, false, 0.125, &q, &kk, &v, &mut o, &mut lse),
        ShapeError::Unsupported {
            dim: Dim::HeadDim,
            value: 32,
            supported: &[64, 128],
        },
    );
    ok &= refused(
        "attention LSE one element short",
        k.attention_fwd(st, s, true, 0.125, &q, &kk, &v, &mut o, &mut short),
        ShapeError::Length {
            operand: "LSE",
            len: s.lse_len() - 1,
            expected: s.lse_len(),
        },
    );
    let c = Conv2d::new(1, 8, 8, 64, 128, 1, 1);
    let (x, w) = (
        st.alloc_zeros::<u16>(64 * 64)?,
        st.alloc_zeros::<u16>(128 * 64)?,
    );
    let mut y = st.alloc_zeros::<u16>(64 * 128)?;
    ok &= refused(
        "conv K_out 128",
        k.conv2d_fprop(st, c, &x, &w, &mut y),
        ShapeError::NotMultiple {
            dim: Dim::Filters,
            value: 128,
            multiple: 256,
        },
    );
    let c = Conv2d::new(1, 8, 8, 64, 256, 1, 1);
    let mut y = st.alloc_zeros::<u16>(64 * 256)?;
    ok &= refused(
        "conv W one filter short",
        k.conv2d_fprop(st, c, &x, &w, &mut y),
        ShapeError::Length {
            operand: "W",
            len: 128 * 64,
            expected: 256 * 64,
        },
    );
    Ok(ok)
}

/// The host references against cases solved by hand (`cargo test -p smemdesc-kernels --example
/// kernels_check`: no GPU).
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attention_reference_of_zero_queries_is_the_key_mean() {
        // Q = 0: every score 0, so P is uniform over the keys a query sees: O = the mean of
        // those rows of V, LSE = ln(keys).
        let s = AttentionShape::new(1, 1, 4, 2);
        let q = vec![0u16; 8];
        let v: Vec<u16> = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
            .iter()
            .map(|&x| super::super::bf16(x))
            .collect();
        let (o, lse) = attention_ref(s, true, 0.5, &q, &v, &v);
        assert_eq!(&o[..2], &[1.0, 2.0]); // query 0 sees key 0
        assert_eq!(&o[6..], &[4.0, 5.0]); // query 3: the mean of all four
        assert!((lse[2] - 3f64.ln()).abs() < 1e-12);
        let (o, _) = attention_ref(s, false, 0.5, &q, &v, &v);
        assert_eq!(&o[..2], &[4.0, 5.0]);
    }

    #[test]
    fn conv_reference_1x1_is_a_matrix_product_and_padding_zero() {
        // 1x1: y[m][k] = x[m] · w[k].
        let c = Conv2d::new(1, 1, 2, 2, 2, 1, 1);
        let y = conv_ref(&c, &[1, 2, 3, 4], &[1, 0, 1, 1]);
        assert_eq!(y, [1, 3, 3, 7]);
        // 3x3 with pad 1 on a 1x1 image: only the centre tap (r, s) = (1, 1) sees the pixel.
        let c = Conv2d::new(1, 1, 1, 1, 1, 3, 3).pad(1, 1);
        let w: Vec<i32> = (1..=9).collect();
        assert_eq!(conv_ref(&c, &[2], &w), [10]);
    }
}
