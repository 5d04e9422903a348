//! `--im2col-walk` (issue 32): the core's implicit-GEMM A-tile plan (`smemdesc::tma::ImplicitGemmA`)
//! against the hardware. For small NHWC u16 convolutions (strides, padding, dilation, tiles that
//! cross rows and images), every planned load is issued as it is planned (the map from
//! `ImplicitGemmA::map`, encoded by `smemdesc::cuda::encode_im2col`; coordinates and offsets
//! from `ImplicitGemmA::load`) by the `im2col_probe` kernel, and the pixels it gathers are
//! compared with a naive im2col matrix built here from the convolution's definition. The
//! negative control issues the same loads with the two offsets swapped.

use crate::cuda;
use smemdesc::tma::{Conv2d, ImplicitGemmA};
use smemdesc::{Arch, TensorMapDataType};

/// One case: the convolution, BM, BK and pixels per load.
struct Case {
    name: &'static str,
    conv: Conv2d,
    bm: u32,
    bk: u32,
    pixels: u32,
}

fn cases() -> Vec<Case> {
    let c = |n, h, w, ch, r, s| Conv2d::new(n, h, w, ch, 8, r, s);
    vec![
        Case {
            name: "3x3 stride 2 pad 1 dilation 2",
            conv: c(2, 9, 11, 32, 3, 3).stride(2, 2).pad(1, 1).dilation(2, 2),
            bm: 16,
            bk: 16,
            pixels: 16,
        },
        Case {
            name: "3x3 stride 1 pad 1",
            conv: c(2, 5, 7, 16, 3, 3).pad(1, 1),
            bm: 16,
            bk: 16,
            pixels: 8,
        },
        Case {
            name: "3x3 stride 2 pad 1",
            conv: c(3, 7, 6, 32, 3, 3).stride(2, 2).pad(1, 1),
            bm: 32,
            bk: 32,
            pixels: 32,
        },
        Case {
            name: "1x1 stride 2",
            conv: c(2, 8, 9, 16, 1, 1).stride(2, 2),
            bm: 16,
            bk: 16,
            pixels: 16,
        },
        Case {
            name: "3x5 stride (1,2) pad (2,1) dilation (1,3)",
            conv: c(2, 6, 13, 16, 3, 5).stride(1, 2).pad(2, 1).dilation(1, 3),
            bm: 16,
            bk: 16,
            pixels: 16,
        },
    ]
}

/// The input value at (n, h, w, c): distinct and nonzero (zero is the padding).
fn input(conv: &Conv2d, n: u32, h: u32, w: u32, c: u32) -> u16 {
    (1 + ((n * conv.h + h) * conv.w + w) * conv.c + c) as u16
}

/// Naive A[m][k] (k = (r·S + s)·C + c), zero outside the image and past M.
fn naive(conv: &Conv2d, m: u64, k: u32) -> u16 {
    let (p, q) = conv.output().unwrap();
    if m >= (conv.n * p * q) as u64 {
        return 0;
    }
    let m = m as u32;
    let (n, pq) = (m / (p * q), m % (p * q));
    let (op, oq) = (pq / q, pq % q);
    let (c, tap) = (k % conv.c, k / conv.c);
    let (r, s) = (tap / conv.s, tap % conv.s);
    let h = (op * conv.stride.0 + r * conv.dilation.0) as i64 - conv.pad.0 as i64;
    let w = (oq * conv.stride.1 + s * conv.dilation.1) as i64 - conv.pad.1 as i64;
    if h < 0 || w < 0 || h >= conv.h as i64 || w >= conv.w as i64 {
        return 0;
    }
    input(conv, n, h as u32, w as u32, c)
}

/// Runs every case; the JSON rows and whether all passed.
pub fn run(module: &cuda::Module) -> cuda::Res<(String, bool)> {
    let k = module.kernel("im2col_probe", 64 * 1024)?;
    let mut rows = Vec::new();
    let mut ok = true;
    for case in cases() {
        let conv = case.conv;
        let plan = ImplicitGemmA::new(conv, TensorMapDataType::Uint16, case.bm, case.bk)
            .and_then(|a| a.pixels_per_load(case.pixels))
            .map_err(|e| format!("{}: {e}", case.name))?;
        let mut data = Vec::with_capacity((conv.n * conv.h * conv.w * conv.c) as usize);
        for n in 0..conv.n {
            for h in 0..conv.h {
                for w in 0..conv.w {
                    for c in 0..conv.c {
                        data.push(input(&conv, n, h, w, c));
                    }
                }
            }
        }
        let src = cuda::Buf::from(&data)?;
        let map = plan.map(Arch::Sm90).address(src.ptr);
        let enc = smemdesc::cuda::encode_im2col(&map)
            .map_err(|e| format!("{}: encode: {e}", case.name))?;
        // SAFETY: `CUtensorMap` is 128 bytes of plain data.
        let raw: [u64; 16] = unsafe { std::mem::transmute(enc.map) };
        let mapb = cuda::Buf::from(&raw)?;
        let bytes = case.pixels * case.bk * 2;
        let out = cuda::Buf::new(bytes as usize)?;
        let (mut loads, mut mism, mut ctrl_mism) = (0u64, 0u64, 0u64);
        // The control can only differ where some load's two offsets differ (not a 1x1 filter).
        let mut ctrl_applies = false;
        for mb in 0..plan.m_blocks() {
            for kk in 0..plan.k_steps() {
                for j in 0..plan.loads_per_step() {
                    let l = plan.load(mb, kk, j).map_err(|e| e.to_string())?;
                    ctrl_applies |= l.offsets[0] != l.offsets[1];
                    for (swap, count) in [(false, &mut mism), (true, &mut ctrl_mism)] {
                        let (ow, oh) = if swap {
                            (l.offsets[1], l.offsets[0])
                        } else {
                            (l.offsets[0], l.offsets[1])
                        };
                        out.fill(0xEE)?;
                        k.launch(
                            1,
                            128,
                            &[
                                cuda::Arg::Ptr(mapb.ptr),
                                cuda::Arg::Ptr(out.ptr),
                                cuda::Arg::I32(bytes as i32),
                                cuda::Arg::I32(l.coords[0]),
                                cuda::Arg::I32(l.coords[1]),
                                cuda::Arg::I32(l.coords[2]),
                                cuda::Arg::I32(l.coords[3]),
                                cuda::Arg::I32(ow as i32),
                                cuda::Arg::I32(oh as i32),
                            ],
                        )?;
                        cuda::sync()?;
                        let mut got = vec![0u16; (bytes / 2) as usize];
                        out.read(&mut got)?;
                        for row in 0..l.rows {
                            let m = mb * case.bm as u64 + (l.first_row + row) as u64;
                            for x in 0..case.bk {
                                let want = naive(&conv, m, kk * case.bk + x);
                                if got[(row * case.bk + x) as usize] != want {
                                    *count += 1;
                                }
                            }
                        }
                    }
                    loads += 1;
                }
            }
        }
        let pass = mism == 0 && (ctrl_mism > 0 || !ctrl_applies);
        ok &= pass;
        println!(
            "im2col walk {}: {loads} loads, {mism} mismatches; control (offsets swapped) {ctrl_mism} mismatches{}: {}",
            case.name,
            if ctrl_applies { "" } else { " (equal offsets: the control cannot differ)" },
            if pass { "PASS" } else { "FAIL" }
        );
        rows.push(format!(
            "{{\"case\": {:?}, \"loads\": {loads}, \"mismatches\": {mism}, \"control_offsets_swapped_mismatches\": {ctrl_mism}, \"control_applies\": {ctrl_applies}, \"pass\": {pass}}}",
            case.name
        ));
    }
    Ok((format!("[\n  {}\n]\n", rows.join(",\n  ")), ok))
}
