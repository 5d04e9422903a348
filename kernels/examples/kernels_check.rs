//! The launchers on a GPU: each once per shape on small integer data, C compared exactly with
//! the CPU's integer product (entries in [-2, 2]: every partial sum is an integer below 2^24,
//! exact in fp32, so C is that integer rounded to bf16 to nearest even, whatever the order of
//! the sums). C is filled with NaN bits first, so a tile the kernel does not write mismatches.
//! Then the refusals: a shape off the tiles and a short buffer must be typed errors. The
//! attention forward and the convolution follow (`check/attn_conv.rs`: the convolution exact
//! on integers, attention against an f64 reference within the bound of its roundings, with a
//! negative control), then their refusals.
//!
//! ```text
//! gpu/rust-kernel/build_ptx.sh
//! cargo run --release -p smemdesc-kernels --example kernels_check -- gpu/rust-kernel/out/kernels.ptx
//! ```
//!
//! On the device machine (no Rust): `bash gpu/kernels_launch_run.sh` (its header says how to
//! stage). Exit status 0 only when every launch is exact and every refusal is the expected one.

#[path = "check/attn_conv.rs"]
mod attn_conv;

use smemdesc::cuda::cudarc::driver::{CudaContext, CudaStream};
use smemdesc_kernels::{Dim, Error, GemmCluster, GemmShape, Kernels, ShapeError};
use std::sync::Arc;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Integers in -2..=2 from a 64-bit LCG.
fn ints(n: usize, seed: u64) -> Vec<i32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % 5) as i32 - 2
        })
        .collect()
}

/// bf16 bits of `v` rounded to nearest even (finite `v`).
fn bf16(v: f32) -> u16 {
    let b = v.to_bits();
    ((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16
}

/// e4m3 bits of an integer in -2..=2: sign, 4 exponent bits (bias 7), 3 mantissa bits.
fn e4m3(v: i32) -> u8 {
    let mag = match v.abs() {
        0 => 0x00,
        1 => 7 << 3, // 1.0 = 2^(7 - 7)
        2 => 8 << 3, // 2.0 = 2^(8 - 7)
        _ => unreachable!("only -2..=2 is generated"),
    };
    if v < 0 {
        0x80 | mag
    } else {
        mag
    }
}

/// C's mismatches against the exact product (A: M x K, B: N x K), and the first one.
fn mismatches(s: GemmShape, a: &[i32], b: &[i32], c: &[u16]) -> (usize, Option<String>) {
    let (m, n, k) = (s.m as usize, s.n as usize, s.k as usize);
    let mut bad = 0;
    let mut first = None;
    for i in 0..m {
        let ar = &a[i * k..(i + 1) * k];
        for j in 0..n {
            let br = &b[j * k..(j + 1) * k];
            let want = ar.iter().zip(br).map(|(x, y)| x * y).sum::<i32>();
            let got = c[i * n + j];
            if got != bf16(want as f32) {
                if first.is_none() {
                    first = Some(format!("C[{i}][{j}] = {got:#06x}, want {want}"));
                }
                bad += 1;
            }
        }
    }
    (bad, first)
}

enum Kind {
    Bf16,
    Fp8,
    Cluster(GemmCluster),
}

/// One launch at `s`: (mismatches, elements, first mismatch, ms of the launch).
fn run(k: &Kernels, st: &Arc<CudaStream>, kind: &Kind, s: GemmShape) -> Res<bool> {
    let (av, bv) = (
        ints(s.a_len(), 1 + s.m as u64),
        ints(s.b_len(), 2 + s.n as u64),
    );
    let mut c = st.clone_htod(&vec![0xffffu16; s.c_len()])?;
    let t0 = std::time::Instant::now();
    let name = match kind {
        Kind::Bf16 => {
            let a = st.clone_htod(&av.iter().map(|&x| bf16(x as f32)).collect::<Vec<_>>())?;
            let b = st.clone_htod(&bv.iter().map(|&x| bf16(x as f32)).collect::<Vec<_>>())?;
            k.gemm_bf16(st, s, &a, &b, &mut c)?;
            st.synchronize()?;
            "gemm_bf16 (gemm_epi_rust)"
        }
        Kind::Fp8 => {
            let a = st.clone_htod(&av.iter().map(|&x| e4m3(x)).collect::<Vec<_>>())?;
            let b = st.clone_htod(&bv.iter().map(|&x| e4m3(x)).collect::<Vec<_>>())?;
            k.gemm_fp8(st, s, &a, &b, &mut c)?;
            st.synchronize()?;
            "gemm_fp8 (gemm_fp8_rust)"
        }
        Kind::Cluster(cl) => {
            let a = st.clone_htod(&av.iter().map(|&x| bf16(x as f32)).collect::<Vec<_>>())?;
            let b = st.clone_htod(&bv.iter().map(|&x| bf16(x as f32)).collect::<Vec<_>>())?;
            k.gemm_bf16_cluster(st, *cl, s, &a, &b, &mut c)?;
            st.synchronize()?;
            match cl {
                GemmCluster::M2 => "gemm_bf16_cluster M2 (gemm_cl21_rust)",
                GemmCluster::N2 => "gemm_bf16_cluster N2 (gemm_cl12_rust)",
            }
        }
    };
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let got = st.clone_dtoh(&c)?;
    let (bad, first) = mismatches(s, &av, &bv, &got);
    let watchdog = k.watchdog_fired(st)?;
    let plan = match kind {
        Kind::Bf16 => smemdesc_kernels::gemm_bf16_plan(s, k.sms())?,
        Kind::Fp8 => smemdesc_kernels::gemm_fp8_plan(s, k.sms())?,
        // The plan the launcher launched (the driver's resident-cluster count).
        Kind::Cluster(cl) => k.gemm_bf16_cluster_plan_on(st, s, *cl)?.launch,
    };
    println!(
        "{name} {}x{}x{}: grid {} (tiles {}), block {}, {} B shared: {bad} / {} mismatches{}{} ({ms:.1} ms with the upload, first launch)",
        s.m,
        s.n,
        s.k,
        plan.grid.0,
        plan.tiles,
        plan.block.0,
        plan.shared_mem_bytes,
        s.c_len(),
        first.map(|f| format!(", first {f}")).unwrap_or_default(),
        if watchdog { ", WATCHDOG FIRED" } else { "" }
    );
    Ok(bad == 0 && !watchdog)
}

/// The grouped GEMM once: groups of `rows` rows, each its own N x K block of B.
fn run_grouped(k: &Kernels, st: &Arc<CudaStream>, rows: &[u32], n: u32, kk: u32) -> Res<bool> {
    let total: u32 = rows.iter().sum();
    let (nu, ku) = (n as usize, kk as usize);
    let av = ints(total as usize * ku, 3 + total as u64);
    let bv = ints(rows.len() * nu * ku, 4 + n as u64);
    let a = st.clone_htod(&av.iter().map(|&x| bf16(x as f32)).collect::<Vec<_>>())?;
    let b = st.clone_htod(&bv.iter().map(|&x| bf16(x as f32)).collect::<Vec<_>>())?;
    let mut c = st.clone_htod(&vec![0xffffu16; total as usize * nu])?;
    k.gemm_grouped_bf16(st, rows, n, kk, &a, &b, &mut c)?;
    st.synchronize()?;
    let got = st.clone_dtoh(&c)?;
    let (mut bad, mut first, mut r0) = (0, None, 0usize);
    for (g, &m) in rows.iter().enumerate() {
        let s = GemmShape::new(m, n, kk);
        let m = m as usize;
        let (gb, gf) = mismatches(
            s,
            &av[r0 * ku..(r0 + m) * ku],
            &bv[g * nu * ku..(g + 1) * nu * ku],
            &got[r0 * nu..(r0 + m) * nu],
        );
        bad += gb;
        if first.is_none() {
            first = gf.map(|f| format!("group {g}: {f}"));
        }
        r0 += m;
    }
    let plan = smemdesc_kernels::gemm_grouped_plan(rows, n, kk, k.sms())?;
    let watchdog = k.watchdog_fired(st)?;
    println!(
        "gemm_grouped_bf16 (gemm_grouped_spin_all_rust) {} groups ({} rows), N {n}, K {kk}: grid {} (tiles {}): {bad} / {} mismatches{}{}",
        rows.len(),
        total,
        plan.launch.grid.0,
        plan.launch.tiles,
        total as usize * nu,
        first.map(|f| format!(", first {f}")).unwrap_or_default(),
        if watchdog { ", WATCHDOG FIRED" } else { "" }
    );
    Ok(bad == 0 && !watchdog)
}

/// A refusal: the call must return exactly `want`.
fn refused(what: &str, r: Result<(), Error>, want: ShapeError) -> bool {
    let ok = matches!(&r, Err(Error::Shape(e)) if *e == want);
    println!(
        "refusal, {what}: {} ({})",
        match &r {
            Ok(()) => "launched".to_string(),
            Err(e) => e.to_string(),
        },
        if ok { "as expected" } else { "UNEXPECTED" }
    );
    ok
}

fn main() {
    match check() {
        Ok(true) => println!("PASS"),
        Ok(false) => {
            println!("FAIL");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}

fn check() -> Res<bool> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or("gpu/rust-kernel/out/kernels.ptx".into());
    let ctx = CudaContext::new(0)?;
    let st = ctx.default_stream();
    let (major, minor) = ctx.compute_capability()?;
    let k = Kernels::from_ptx_file(&ctx, &path)?;
    println!(
        "device: {} (sm_{major}{minor}), {} SMs; PTX {path}",
        ctx.name()?,
        k.sms()
    );
    let mut ok = true;
    // Fewer tiles than SMs, then more (each CTA loops over several tiles).
    for s in [(256, 512, 320), (384, 768, 128), (1536, 3072, 192)] {
        ok &= run(&k, &st, &Kind::Bf16, GemmShape::new(s.0, s.1, s.2))?;
    }
    for s in [(256, 512, 256), (384, 768, 128), (1536, 3072, 384)] {
        ok &= run(&k, &st, &Kind::Fp8, GemmShape::new(s.0, s.1, s.2))?;
    }
    // Clusters of 2: fewer cluster tiles than resident clusters, then more (96 cluster tiles
    // against 66 resident on an H100).
    for cl in [GemmCluster::M2, GemmCluster::N2] {
        for s in [(256, 512, 320), (2048, 3072, 128)] {
            ok &= run(&k, &st, &Kind::Cluster(cl), GemmShape::new(s.0, s.1, s.2))?;
        }
    }
    // MoE-like groups: empty ones, tails of 1 and 127 rows, more tiles than SMs in the second.
    ok &= run_grouped(&k, &st, &[300, 0, 1, 127, 256, 65], 512, 128)?;
    let big: Vec<u32> = (0..24)
        .map(|g| [0, 1, 129, 200, 384, 511][g % 6] + g as u32)
        .collect();
    ok &= run_grouped(&k, &st, &big, 1024, 192)?;
    let s = GemmShape::new(128, 256, 64);
    let a = st.alloc_zeros::<u16>(s.a_len())?;
    let b = st.alloc_zeros::<u16>(s.b_len())?;
    let mut c = st.alloc_zeros::<u16>(s.c_len())?;
    let mut short = st.alloc_zeros::<u16>(s.c_len() - 1)?;
    ok &= refused(
        "bf16 M = 100",
        k.gemm_bf16(&st, GemmShape::new(100, 256, 64), &a, &b, &mut c),
        ShapeError::NotMultiple {
            dim: Dim::M,
            value: 100,
            multiple: 128,
        },
    );
    ok &= refused(
        "bf16 C one element short",
        k.gemm_bf16(&st, s, &a, &b, &mut short),
        ShapeError::Length {
            operand: "C",
            len: s.c_len() - 1,
            expected: s.c_len(),
        },
    );
    let (a8, b8) = (
        st.alloc_zeros::<u8>(s.a_len())?,
        st.alloc_zeros::<u8>(s.b_len())?,
    );
    ok &= refused(
        "fp8 K = 64",
        k.gemm_fp8(&st, s, &a8, &b8, &mut c),
        ShapeError::NotMultiple {
            dim: Dim::K,
            value: 64,
            multiple: 128,
        },
    );
    // The 1x1 shape is not a whole cluster tile of either cluster kernel.
    ok &= refused(
        "cluster M2 M = 128",
        k.gemm_bf16_cluster(&st, GemmCluster::M2, s, &a, &b, &mut c),
        ShapeError::NotMultiple {
            dim: Dim::M,
            value: 128,
            multiple: 256,
        },
    );
    ok &= refused(
        "cluster N2 N = 256",
        k.gemm_bf16_cluster(&st, GemmCluster::N2, s, &a, &b, &mut c),
        ShapeError::NotMultiple {
            dim: Dim::N,
            value: 256,
            multiple: 512,
        },
    );
    ok &= refused(
        "grouped K = 96",
        k.gemm_grouped_bf16(&st, &[128], 256, 96, &a, &b, &mut c),
        ShapeError::NotMultiple {
            dim: Dim::K,
            value: 96,
            multiple: 64,
        },
    );
    ok &= attn_conv::check(&k, &st)?;
    Ok(ok)
}
