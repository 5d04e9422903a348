//! `--conv` (issue 32, item 5): the implicit-GEMM forward convolution of
//! `gpu/rust-kernel/src/conv.rs` on ResNet-50 layer shapes (NHWC bf16, KRSC filter), its
//! tensor maps and walk from the core's plan (`ImplicitGemmA::for_tile` on the declared A tile:
//! the im2col map, `filter_map` on the B tile, the C tile's store map), checked and timed.
//!
//! Exactness: integer data in [-2, 2]; the reference is a cuBLASLt GEMM (fp32 accumulate,
//! exact on these integers) of a naive im2col matrix built here from the convolution's
//! definition (no TMA, no plan) with the filter read as `K_out × R·S·C`; ours must match it bit
//! for bit. The error against the exact (fp64) convolution is measured on a sample of outputs:
//! bf16 rounding only. The negative control (`gemm_conv_fprop_control_rust`) loads each tap's
//! channel blocks in reverse order (A's K order no longer the filter's) and must mismatch.
//!
//! Speed: alternating rounds, in one process, of ours, `torch.nn.functional.conv2d` (cuDNN,
//! channels-last bf16, `cudnn.benchmark`; through the Python driver's callback,
//! `gpu/conv_same_process.py`), and cuBLASLt on the materialised im2col matrix (the same GEMM
//! without the gather, for context).

use crate::epi::r1;
use crate::epi_problem::{bf16_bits, c_map, int_at, time_batch};
use crate::epi_tiles::{self as et, EpiDecl};
use crate::{cublas, cuda, median, Opts};
use serde_json::{json, Value};
use smemdesc::tma::{Conv2d, Im2colWalk, ImplicitGemmA};
use smemdesc::SmemTile;

/// The Python driver's torch timing (`ffi.rs`): in `--conv` mode `ms` holds the convolution's
/// 13 sizes `n h w c k r s stride_h stride_w pad_h pad_w dilation_h dilation_w`.
pub type TorchTimer = crate::ffi::TorchFn;

/// One layer: its name and convolution.
struct Shape {
    name: &'static str,
    conv: Conv2d,
}

/// ResNet-50 layers with at least 256 filters (the kernel's 256-wide N tile), batch sizes that
/// give about 3 or 6 waves of 128 x 256 tiles on 132 SMs, and one layer of 128 filters.
fn shapes() -> Vec<Shape> {
    let c = |n, hw, c, k, rs, stride, pad| {
        Conv2d::new(n, hw, hw, c, k, rs, rs)
            .stride(stride, stride)
            .pad(pad, pad)
    };
    vec![
        Shape {
            name: "conv4_x 3x3 256->256, 14x14",
            conv: c(256, 14, 256, 256, 3, 1, 1),
        },
        Shape {
            name: "conv4_x 3x3 256->256 stride 2, 28x28",
            conv: c(256, 28, 256, 256, 3, 2, 1),
        },
        Shape {
            name: "conv5_x 3x3 512->512, 7x7",
            conv: c(512, 7, 512, 512, 3, 1, 1),
        },
        Shape {
            name: "conv5_x 3x3 512->512 stride 2, 14x14",
            conv: c(512, 14, 512, 512, 3, 2, 1),
        },
        Shape {
            name: "conv4_x 1x1 1024->256, 14x14",
            conv: c(256, 14, 1024, 256, 1, 1, 0),
        },
        Shape {
            name: "conv4_x 1x1 512->1024 stride 2, 28x28",
            conv: c(64, 28, 512, 1024, 1, 2, 0),
        },
        Shape {
            name: "conv3_x 1x1 256->512 stride 2, 56x56",
            conv: c(64, 56, 256, 512, 1, 2, 0),
        },
        Shape {
            name: "conv3_x 3x3 128->128, 28x28",
            conv: c(256, 28, 128, 128, 3, 1, 1),
        },
    ]
}

/// The walk as the kernel's by-value parameter words.
fn words(w: &Im2colWalk) -> [u32; 17] {
    // SAFETY: `Im2colWalk` is `#[repr(C)]`, 17 `u32`s (transmute checks the size).
    unsafe { std::mem::transmute::<Im2colWalk, [u32; 17]>(*w) }
}

fn bf16_value(b: u16) -> f64 {
    f32::from_bits((b as u32) << 16) as f64
}

/// The naive im2col matrix `M × R·S·C` (bf16 bits; zero for padding), `k = (r·S + s)·C + c`.
fn im2col(conv: &Conv2d, x: &[u16]) -> Vec<u16> {
    let (p, q) = conv.output().unwrap();
    let kk = (conv.r * conv.s * conv.c) as usize;
    let m_total = (conv.n * p * q) as usize;
    let mut a = vec![0u16; m_total * kk];
    for (m, row) in a.chunks_mut(kk).enumerate() {
        let m = m as u32;
        let (n, op, oq) = (m / (p * q), (m / q) % p, m % q);
        for r in 0..conv.r {
            for s in 0..conv.s {
                let h = (op * conv.stride.0 + r * conv.dilation.0) as i64 - conv.pad.0 as i64;
                let w = (oq * conv.stride.1 + s * conv.dilation.1) as i64 - conv.pad.1 as i64;
                if h < 0 || w < 0 || h >= conv.h as i64 || w >= conv.w as i64 {
                    continue;
                }
                let src = (((n * conv.h + h as u32) * conv.w + w as u32) * conv.c) as usize;
                let dst = ((r * conv.s + s) * conv.c) as usize;
                row[dst..dst + conv.c as usize].copy_from_slice(&x[src..src + conv.c as usize]);
            }
        }
    }
    a
}

/// Runs one layer: exactness, the negative control, the timings.
fn run_shape(
    module: &cuda::Module,
    gpu: &cuda::Gpu,
    sh: &Shape,
    rounds: u32,
    torch: Option<TorchTimer>,
) -> cuda::Res<Value> {
    let conv = sh.conv;
    let plan = ImplicitGemmA::for_tile(conv, &<et::cl11::A as SmemTile>::PLAN)
        .map_err(|e| format!("plan: {e}"))?;
    let walk = plan.walk().map_err(|e| format!("walk: {e}"))?;
    let (m, kg, kout) = (
        plan.gemm_m() as usize,
        plan.gemm_k() as usize,
        conv.k as usize,
    );
    let xlen = (conv.n * conv.h * conv.w * conv.c) as usize;
    let x: Vec<u16> = (0..xlen).map(|i| bf16_bits(int_at(i, 31) as f32)).collect();
    let f: Vec<u16> = (0..kout * kg)
        .map(|i| bf16_bits(int_at(i, 37) as f32))
        .collect();
    let a = im2col(&conv, &x);
    let (xb, fb, ab) = (
        cuda::Buf::from(&x)?,
        cuda::Buf::from(&f)?,
        cuda::Buf::from(&a)?,
    );
    let out = cuda::Buf::new(2 * m * kout)?;
    let cref = cuda::Buf::new(2 * m * kout)?;
    let err = cuda::Buf::new(4)?;
    let enc_a = smemdesc::cuda::encode_im2col(&plan.map(smemdesc::Arch::Sm90).address(xb.ptr))
        .map_err(|e| format!("im2col map: {e}"))?;
    let ma = cuda::Buf::from(std::slice::from_ref(&enc_a))?;
    if let Ok(d) = std::env::var("SMEMDESC_CONV_DIAG") {
        // kind:swizzled:mb:kk (kind 0 probe, 1 conv kernel with grid mb).
        let v: Vec<u32> = d.split(':').map(|x| x.parse().unwrap_or(0)).collect();
        let (d, swz, dmb, dkk) = (v[0] * 2, v[1], v[2], v[3]);
        let mut pl = plan;
        if swz == 0 {
            pl = pl.swizzle(smemdesc::TensorMapSwizzle::None);
        }
        let e = smemdesc::cuda::encode_im2col(&pl.map(smemdesc::Arch::Sm90).address(xb.ptr))
            .map_err(|e| format!("diag map: {e}"))?;
        let mp = cuda::Buf::from(std::slice::from_ref(&e))?;
        let l = walk.load(walk.origin(dmb, 0), 0, &walk.step(dkk));
        let o = cuda::Buf::new(l.bytes as usize)?;
        if d < 2 {
            let k = module.kernel("im2col_probe", 64 * 1024)?;
            k.launch(
                1,
                128,
                &[
                    cuda::Arg::Ptr(mp.ptr),
                    cuda::Arg::Ptr(o.ptr),
                    cuda::Arg::I32(l.bytes as i32),
                    cuda::Arg::I32(l.coords[0]),
                    cuda::Arg::I32(l.coords[1]),
                    cuda::Arg::I32(l.coords[2]),
                    cuda::Arg::I32(l.coords[3]),
                    cuda::Arg::I32(l.offsets[0] as i32),
                    cuda::Arg::I32(l.offsets[1] as i32),
                ],
            )?;
            cuda::sync()?;
            println!("diag probe swizzled {swz} load ({dmb}, {dkk}) {l:?}: ran");
        } else {
            let k = module.kernel("gemm_conv_fprop_rust", et::Decl11::LAUNCH_BYTES)?;
            let mut bw = walk;
            if d == 4 {
                // The first pixel of a tile's loads one column left of the pixel box.
                bw.pad[1] += 1;
            }
            let ww = words(&bw);
            let out = cuda::Buf::new(2 * plan.gemm_m() as usize * conv.k as usize)?;
            let mc = c_map(&out, plan.gemm_m(), conv.k as u64, None)?;
            let err = cuda::Buf::new(4)?;
            let fmap = plan
                .filter_map(&<et::cl11::B as SmemTile>::PLAN)
                .map_err(|e| e.to_string())?;
            let fb = cuda::Buf::new(2 * (plan.gemm_k() * conv.k as u64) as usize)?;
            let enc_b = smemdesc::cuda::encode(&fmap.address(fb.ptr)).map_err(|e| e.to_string())?;
            let mb = cuda::Buf::from(std::slice::from_ref(&enc_b))?;
            k.launch(
                dmb.max(1),
                et::THREADS,
                &[
                    cuda::Arg::Ptr(mp.ptr),
                    cuda::Arg::Ptr(mb.ptr),
                    cuda::Arg::Ptr(mc.ptr),
                    cuda::Arg::Words(&ww),
                    cuda::Arg::I32(conv.k as i32),
                    cuda::Arg::I32(8),
                    cuda::Arg::Ptr(err.ptr),
                ],
            )?;
            cuda::sync()?;
            println!(
                "diag conv kernel swizzled {swz} grid {dmb} walk {}: ran",
                if d == 4 { "pad_w + 1" } else { "planned" }
            );
        }
        return Err("diagnostic".into());
    }
    let fmap = plan
        .filter_map(&<et::cl11::B as SmemTile>::PLAN)
        .map_err(|e| format!("filter map: {e}"))?;
    let enc_b =
        smemdesc::cuda::encode(&fmap.address(fb.ptr)).map_err(|e| format!("filter map: {e}"))?;
    let mb = cuda::Buf::from(std::slice::from_ref(&enc_b))?;
    let mc = c_map(&out, m as u64, kout as u64, None)?;
    let tiles = walk.m_blocks * (conv.k.div_ceil(et::BN));
    let grid = tiles.min(gpu.sms as u32);
    let kerns = [
        module.kernel("gemm_conv_fprop_rust", et::Decl11::LAUNCH_BYTES)?,
        module.kernel("gemm_conv_fprop_control_rust", et::Decl11::LAUNCH_BYTES)?,
    ];
    let ww = words(&walk);
    let launch = |v: usize| {
        kerns[v].launch(
            grid,
            et::THREADS,
            &[
                cuda::Arg::Ptr(ma.ptr),
                cuda::Arg::Ptr(mb.ptr),
                cuda::Arg::Ptr(mc.ptr),
                cuda::Arg::Words(&ww),
                cuda::Arg::I32(conv.k as i32),
                cuda::Arg::I32(8),
                cuda::Arg::Ptr(err.ptr),
            ],
        )
    };
    let gemm = cublas::Gemm::new(cublas::Input::Bf16, m as u64, kout as u64, kg as u64)?;
    gemm.run_ptr(ab.ptr, fb.ptr, cref.ptr)?;
    let mut want = vec![0u16; m * kout];
    cuda::sync()?;
    cref.read(&mut want)?;
    let mut results = Vec::new();
    for v in 0..2 {
        out.fill(0xFF)?;
        err.fill(0)?;
        cuda::sync()?;
        launch(v)?;
        cuda::sync()?;
        let mut got = vec![0u16; m * kout];
        out.read(&mut got)?;
        let mut e = [0u32];
        err.read(&mut e)?;
        results.push((got, e[0]));
    }
    let mism = results[0]
        .0
        .iter()
        .zip(&want)
        .filter(|(p, q)| p != q)
        .count();
    let ctrl = results[1]
        .0
        .iter()
        .zip(&want)
        .filter(|(p, q)| p != q)
        .count();
    // Exact fp64 outputs at a sample of (pixel, filter), against ours.
    let (mut max_err, mut sum_err, mut n_err) = (0f64, 0f64, 0usize);
    let mut s = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..4096 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let (i, j) = ((s % m as u64) as usize, ((s >> 32) % kout as u64) as usize);
        let exact: f64 = (0..kg)
            .map(|k| bf16_value(a[i * kg + k]) * bf16_value(f[j * kg + k]))
            .sum();
        let d = (bf16_value(results[0].0[i * kout + j]) - exact).abs();
        max_err = max_err.max(d);
        sum_err += d;
        n_err += 1;
    }
    let flops = conv.flops().unwrap_or(0) as f64;
    let torch_ms = |iters: u32| -> cuda::Res<f64> {
        let t = torch.expect("torch timer");
        let p = [
            conv.n,
            conv.h,
            conv.w,
            conv.c,
            conv.k,
            conv.r,
            conv.s,
            conv.stride.0,
            conv.stride.1,
            conv.pad.0,
            conv.pad.1,
            conv.dilation.0,
            conv.dilation.1,
        ];
        cuda::sync()?;
        let ms = t(p.as_ptr(), p.len() as u32, 0, 0, iters);
        if ms.is_finite() && ms > 0.0 {
            Ok(ms)
        } else {
            Err(format!("torch conv2d failed ({ms})"))
        }
    };
    if torch.is_some() {
        torch_ms(20)?; // tensors, cuDNN's algorithm search, warm-up
    }
    let t0 = std::time::Instant::now();
    while t0.elapsed().as_secs_f64() < 0.5 {
        launch(0)?;
        gemm.run_ptr(ab.ptr, fb.ptr, cref.ptr)?;
    }
    let nv = 2 + torch.is_some() as usize;
    let mut t = vec![Vec::new(); nv];
    for r in 0..rounds as usize {
        for j in 0..nv {
            let i = (j + r) % nv;
            let ms = match i {
                0 => time_batch(10, || launch(0))?,
                1 => time_batch(10, || gemm.run_ptr(ab.ptr, fb.ptr, cref.ptr))?,
                _ => torch_ms(10)?,
            };
            t[i].push(flops / (ms * 1e-3) / 1e12);
        }
    }
    let med: Vec<f64> = t.iter().map(|v| median(v)).collect();
    let cudnn = torch.map(|_| med[2]);
    println!(
        "conv {}: N={} M={m} N={kout} K={kg}: {mism} mismatches (flag {}), control {ctrl} (flag {}); max |err| vs fp64 {max_err} (sample {n_err}); ours {:.1} TFLOP/s, cuBLASLt on im2col {:.1}, cuDNN {}",
        sh.name,
        conv.n,
        results[0].1,
        results[1].1,
        med[0],
        med[1],
        cudnn.map_or("not run (no Python driver)".into(), |c| format!("{c:.1} ({:.3}x)", med[0] / c)),
    );
    Ok(
        json!({"layer": sh.name, "n": conv.n, "h": conv.h, "w": conv.w, "c": conv.c, "k": conv.k,
        "r": conv.r, "s": conv.s, "stride": conv.stride.0, "pad": conv.pad.0,
        "gemm_m": m, "gemm_k": kg, "tiles": tiles, "grid": grid,
        "mismatches_vs_cublaslt_on_naive_im2col": mism, "watchdog_flag": results[0].1,
        "max_abs_err": max_err, "mean_abs_err": sum_err / n_err as f64, "err_sample_outputs": n_err,
        "control_channel_blocks_reversed_mismatches": ctrl,
        "ours_median_tflops": r1(med[0]), "cudnn_median_tflops": cudnn.map(r1),
        "ours_over_cudnn": cudnn.map(|c| (med[0] / c * 1000.0).round() / 1000.0),
        "cublaslt_on_im2col_median_tflops": r1(med[1]),
        "ours_tflops": t[0].iter().map(|&v| r1(v)).collect::<Vec<_>>(),
        "cudnn_tflops": torch.map(|_| t[2].iter().map(|&v| r1(v)).collect::<Vec<_>>())}),
    )
}

/// Every layer.
pub fn run_conv(
    module: &cuda::Module,
    gpu: &cuda::Gpu,
    o: &Opts,
    torch: Option<TorchTimer>,
) -> Value {
    let mut rows = Vec::new();
    // SMEMDESC_CONV_SHAPES=S: the first S layers only (diagnostics).
    let only = std::env::var("SMEMDESC_CONV_SHAPES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    for sh in shapes().into_iter().take(only) {
        match run_shape(module, gpu, &sh, o.rounds, torch) {
            Ok(v) => rows.push(v),
            Err(e) => {
                println!("conv {}: error {e}", sh.name);
                rows.push(json!({"layer": sh.name, "error": e}));
            }
        }
    }
    json!({"device": gpu.name, "conv": rows})
}
