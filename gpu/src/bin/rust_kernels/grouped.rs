//! Issue 30 on the GPU: the grouped GEMM of `gpu/rust-kernel/src/grouped.rs` (C's map rewritten
//! in the kernel per group) checked bit for bit against a cuBLASLt GEMM per group and timed
//! against that loop in alternating rounds; the rewrite itself checked byte for byte against the
//! driver's encode of each group's map (`grouped_map_probe`), with a negative control (a stride
//! written by the raw instruction, bypassing the declaration, must differ). The shapes are also
//! written to `grouped_shapes.json`. When `gpu/grouped_same_process.py` runs this program as a
//! library, each round also times `torch._grouped_mm` on the same shape, in the same process,
//! through its callback ([`TorchTimer`]).

use crate::epi::r1;
use crate::epi_problem::{ints, operand_map, slice_box, time_batch, VARIANTS};
use crate::epi_tiles::{self as et, EpiDecl};
use crate::grouped_decl::{c_template, C_REWRITES};
use crate::{cublas, cuda, median, Opts};
use serde_json::{json, Value};
use smemdesc::grouped::{GroupShape, GroupValues, GroupedMap, GroupedTiles};

/// The Python driver's torch timing (`ffi.rs`).
pub type TorchTimer = crate::ffi::TorchFn;

/// The template C map of a launch with `n` columns.
pub(crate) fn c_grouped(n: u32) -> cuda::Res<GroupedMap> {
    GroupedMap::new(c_template().dim(0, n as u64), &C_REWRITES).map_err(|e| format!("C map: {e}"))
}

/// Group `g`'s C map values: its first row of C and its rows.
fn c_values(c: u64, offs: &[u32], g: usize, n: u32) -> GroupValues {
    GroupValues::new(c + 2 * offs[g] as u64 * n as u64).dim(1, (offs[g + 1] - offs[g]) as u64)
}

pub(crate) fn encode(gm: &GroupedMap, v: &GroupValues) -> cuda::Res<[u64; 16]> {
    let m = smemdesc::cuda::encode_group(gm, v).map_err(|e| format!("encode: {e}"))?;
    // SAFETY: `CUtensorMap` is 128 bytes of plain data.
    Ok(unsafe {
        std::mem::transmute::<smemdesc::cuda::cudarc::driver::sys::CUtensorMap, [u64; 16]>(m.map)
    })
}

pub(crate) fn prefix(ms: &[u32]) -> Vec<u32> {
    let mut o = vec![0u32];
    for &m in ms {
        o.push(o.last().unwrap() + m);
    }
    o
}

/// The map probe: `groups` slots rewritten in the kernel against the host encode.
fn probe(module: &cuda::Module, bad: bool) -> cuda::Res<(usize, usize, usize, Vec<usize>)> {
    let ms: Vec<u32> = vec![
        300, 1, 127, 2048, 129, 64, 1000, 5, 256, 17, 640, 33, 900, 128, 2, 511,
    ];
    let (g, n) = (ms.len(), 4096u32);
    let offs = prefix(&ms);
    let c = cuda::Buf::new(2 * offs[g] as usize * n as usize)?;
    let gm = c_grouped(n)?;
    // Every slot starts from another group's map (address C, 1 row): each must be rewritten.
    let start = encode(&gm, &GroupValues::new(c.ptr).dim(1, 1))?;
    let slots = cuda::Buf::from(&vec![start; g])?;
    let mut addrs: Vec<u64> = (0..g)
        .map(|i| c_values(c.ptr, &offs, i, n).address)
        .collect();
    addrs.push(2 * n as u64); // the row stride, for the control's raw write
    let rows: Vec<u32> = ms.clone();
    let (ab, rb) = (cuda::Buf::from(&addrs)?, cuda::Buf::from(&rows)?);
    let k = module.kernel("grouped_map_probe", 0)?;
    k.launch(
        1,
        32,
        &[
            cuda::Arg::Ptr(slots.ptr),
            cuda::Arg::Ptr(ab.ptr),
            cuda::Arg::Ptr(rb.ptr),
            cuda::Arg::I32(g as i32),
            cuda::Arg::I32(bad as i32),
        ],
    )?;
    cuda::sync()?;
    let mut got = vec![[0u64; 16]; g];
    slots.read(&mut got)?;
    let (mut same128, mut same64, mut differ) = (0, 0, Vec::new());
    for (i, dev) in got.iter().enumerate() {
        let host = encode(&gm, &c_values(c.ptr, &offs, i, n))?;
        if *dev == host {
            same128 += 1;
        } else {
            differ.push(i);
        }
        if dev[..8] == host[..8] {
            same64 += 1;
        }
    }
    Ok((g, same128, same64, differ))
}

/// One grouped shape: groups' rows, N, K.
pub(crate) struct Shape {
    pub(crate) ms: Vec<u32>,
    pub(crate) n: u32,
    pub(crate) k: u32,
}

/// Tokens per expert, MoE-like: some empty, some 1-127, unaligned tails, up to `max`.
fn tokens(g: usize, max: u32, seed: u64) -> Vec<u32> {
    let mut s = seed | 1;
    let mut next = |r: u32| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % r as u64) as u32
    };
    (0..g)
        .map(|i| match (i % 8, next(8)) {
            (0, _) => 0,
            (1, _) | (_, 0) => 1 + next(127),
            _ => 128 + next(max - 128),
        })
        .collect()
}

pub(crate) fn shapes() -> Vec<Shape> {
    [
        (8, 4096, 4096, 2048),
        (8, 7168, 2048, 2048),
        (8, 2048, 7168, 2048),
        (32, 4096, 2048, 1024),
        (32, 2048, 4096, 1024),
        (64, 4096, 2048, 512),
        (64, 2048, 7168, 512),
        (128, 2048, 2048, 512),
    ]
    .iter()
    .enumerate()
    .map(|(i, &(g, n, k, max))| Shape {
        ms: tokens(g, max, 0x5eed + i as u64),
        n,
        k,
    })
    .chain(std::iter::once(
        // A diagnostic, not one of the 8: one group of 8192 rows (the dense GEMM's tiles, no
        // tails, 8 waves).
        Shape {
            ms: vec![8192],
            n: 4096,
            k: 4096,
        },
    ))
    .collect()
}

/// The device arguments of the grouped GEMM entries (`grouped_body`'s parameters, BF16 and FP8
/// alike): the A, B and C-workspace maps, C, the group offsets, tile starts and tile table, the
/// group and tile counts, N, K and the error flag.
#[derive(Clone, Copy)]
pub(crate) struct GroupedArgs {
    pub maps: [u64; 3],
    pub c: u64,
    pub tables: [u64; 3],
    pub groups: u32,
    pub tiles: u32,
    pub n: u32,
    pub k: u32,
    pub err: u64,
}

impl GroupedArgs {
    /// Launches `kern` on `grid` persistent CTAs of `et::THREADS` threads with these arguments.
    pub(crate) fn launch(&self, kern: &cuda::Kernel, grid: u32) -> cuda::Res<()> {
        let ([ma, mb, slots], [ob, tb, gb]) = (self.maps, self.tables);
        kern.launch(
            grid,
            et::THREADS,
            &[
                cuda::Arg::Ptr(ma),
                cuda::Arg::Ptr(mb),
                cuda::Arg::Ptr(slots),
                cuda::Arg::Ptr(self.c),
                cuda::Arg::Ptr(ob),
                cuda::Arg::Ptr(tb),
                cuda::Arg::Ptr(gb),
                cuda::Arg::I32(self.groups as i32),
                cuda::Arg::I32(self.tiles as i32),
                cuda::Arg::I32(self.n as i32),
                cuda::Arg::I32(self.k as i32),
                cuda::Arg::Ptr(self.err),
            ],
        )
    }
}

fn run_shape(
    module: &cuda::Module,
    gpu: &cuda::Gpu,
    sh: &Shape,
    rounds: u32,
    torch: Option<TorchTimer>,
) -> cuda::Res<Value> {
    let (g, n, k) = (sh.ms.len(), sh.n, sh.k);
    let offs = prefix(&sh.ms);
    let total = offs[g] as usize;
    let a = cuda::Buf::from(&ints(total * k as usize, 1))?;
    let b = cuda::Buf::from(&ints(g * n as usize * k as usize, 2))?;
    let c = cuda::Buf::new(2 * total * n as usize)?;
    let cref = cuda::Buf::new(2 * total * n as usize)?;
    let err = cuda::Buf::new(4)?;
    // The library's schedule (M tiles innermost, empty groups skipped): every tile's group and
    // M/N tile, packed, which the kernel decodes without a division
    // (`smemdesc::grouped::unpack_tile`), and the tiles before each group (the kernel's unused
    // `tstart` parameter, kept for its ABI).
    let shapes: Vec<GroupShape> = sh.ms.iter().map(|&m| GroupShape { m, n, k }).collect();
    let sched = GroupedTiles::new::<et::Pipe11>(&shapes, et::BM, et::BN, et::BK)
        .map_err(|e| e.to_string())?;
    let tiles: Vec<u32> = (0..g).map(|i| sched.group_tiles(i)).collect();
    let tstart = prefix(&tiles);
    let mut tgroup = vec![0u32; sched.tiles() as usize];
    sched.write_table(&mut tgroup).map_err(|e| e.to_string())?;
    let (ob, tb) = (cuda::Buf::from(&offs)?, cuda::Buf::from(&tstart)?);
    let gb = cuda::Buf::from(if tgroup.is_empty() {
        &[0u32][..]
    } else {
        &tgroup[..]
    })?;
    let v11 = &VARIANTS[1];
    let ma = operand_map::<et::cl11::A>(&a, total as u64, k as u64, slice_box(v11, true))?;
    let mb = operand_map::<et::cl11::B>(&b, g as u64 * n as u64, k as u64, slice_box(v11, false))?;
    let grid = sched.persistent_grid(gpu.sms as u32);
    let gm = c_grouped(n)?;
    let start = encode(&gm, &GroupValues::new(c.ptr).dim(1, 1))?;
    // The kernel's declared C workspace: `MapWorkspace<2>`, two maps per CTA, CTA-major.
    type Ws = smemdesc::grouped::MapWorkspace<2>;
    let maps = Ws::bytes(grid).ok_or("C workspace size")?
        / u64::from(smemdesc::grouped::MapWorkspaceDecl::SLOT_BYTES);
    let slots = cuda::Buf::from(&vec![start; maps as usize])?;
    // The variants, and for one group the no-rewrite diagnostic (exact only there).
    let names: Vec<&str> = KERNELS
        .iter()
        .copied()
        .chain((g == 1).then_some("gemm_grouped_norewrite_rust"))
        .collect();
    let kerns = names
        .iter()
        .map(|name| module.kernel(name, et::Decl11::LAUNCH_BYTES))
        .collect::<cuda::Res<Vec<_>>>()?;
    let dev = GroupedArgs {
        maps: [ma.ptr, mb.ptr, slots.ptr],
        c: c.ptr,
        tables: [ob.ptr, tb.ptr, gb.ptr],
        groups: g as u32,
        tiles: tstart[g],
        n,
        k,
        err: err.ptr,
    };
    let launch = |v: usize| dev.launch(&kerns[v], grid);
    // cuBLASLt, one GEMM per non-empty group (plans by M).
    let mut plans: Vec<(u32, cublas::Gemm)> = Vec::new();
    for &m in &sh.ms {
        if m > 0 && !plans.iter().any(|(pm, _)| *pm == m) {
            plans.push((
                m,
                cublas::Gemm::new(cublas::Input::Bf16, m as u64, n as u64, k as u64)?,
            ));
        }
    }
    // A dense reference, not the same product: one cuBLASLt GEMM over the concatenated rows
    // with group 0's B (same flops), into C's buffer.
    let concat = cublas::Gemm::new(cublas::Input::Bf16, total as u64, n as u64, k as u64)?;
    let cublas_concat = || concat.run_ptr(a.ptr, b.ptr, c.ptr);
    let cublas_loop = || -> cuda::Res<()> {
        for (i, &m) in sh.ms.iter().enumerate() {
            if m == 0 {
                continue;
            }
            let p = &plans.iter().find(|(pm, _)| *pm == m).unwrap().1;
            let o = offs[i] as u64;
            p.run_ptr(
                a.ptr + 2 * o * k as u64,
                b.ptr + 2 * (i as u64 * n as u64) * k as u64,
                cref.ptr + 2 * o * n as u64,
            )?;
        }
        Ok(())
    };
    cublas_loop()?;
    let mut y = vec![0u16; total * n as usize];
    cref.read(&mut y)?;
    let mut exact = Vec::new();
    for v in 0..names.len() {
        c.fill(0xFF)?;
        err.fill(0)?;
        cuda::sync()?;
        launch(v)?;
        cuda::sync()?;
        let mut x = vec![0u16; total * n as usize];
        c.read(&mut x)?;
        let mut e = [0u32];
        err.read(&mut e)?;
        exact.push((x.iter().zip(&y).filter(|(p, q)| p != q).count(), e[0]));
    }
    let flops: f64 = sh
        .ms
        .iter()
        .map(|&m| 2.0 * m as f64 * n as f64 * k as f64)
        .sum();
    let t0 = std::time::Instant::now();
    while t0.elapsed().as_secs_f64() < 1.0 {
        for v in 0..names.len() {
            launch(v)?;
        }
        cublas_loop()?;
    }
    let torch_ms = |iters: u32| -> cuda::Res<f64> {
        let f = torch.expect("torch timer");
        cuda::sync()?;
        let ms = f(sh.ms.as_ptr(), g as u32, n, k, iters);
        if ms.is_finite() && ms > 0.0 {
            Ok(ms)
        } else {
            Err(format!("torch._grouped_mm failed ({ms})"))
        }
    };
    if torch.is_some() {
        torch_ms(20)?; // the tensors, and warm-up
    }
    // Each round: every variant, the cuBLASLt loop, the concatenated GEMM and (from the Python
    // driver) torch._grouped_mm, the order rotated round by round.
    let nv = names.len() + 2 + torch.is_some() as usize;
    let mut t = vec![Vec::new(); nv];
    for r in 0..rounds as usize {
        for j in 0..nv {
            let i = (j + r) % nv;
            let ms = if i < names.len() {
                time_batch(10, || launch(i))?
            } else if i == names.len() {
                time_batch(10, cublas_loop)?
            } else if i == names.len() + 1 {
                time_batch(10, cublas_concat)?
            } else {
                torch_ms(10)?
            };
            t[i].push(flops / (ms * 1e-3) / 1e12);
        }
    }
    let med: Vec<f64> = t.iter().map(|v| median(v)).collect();
    let (cb, cc) = (med[names.len()], med[names.len() + 1]);
    let tq = torch.map(|_| med[names.len() + 2]);
    println!(
        "grouped G={g} N={n} K={k} tokens={total} (empty {}, 1-127 {}): cuBLASLt loop {cb:.1} TFLOP/s, one GEMM over the concatenated rows {cc:.1}, torch._grouped_mm {}",
        sh.ms.iter().filter(|&&m| m == 0).count(),
        sh.ms.iter().filter(|&&m| m > 0 && m < 128).count(),
        tq.map_or("not run (no Python driver)".into(), |t| format!("{t:.1}")),
    );
    let mut variants = serde_json::Map::new();
    for (i, name) in names.iter().enumerate() {
        println!(
            "  {name}: {} mismatches, flag {}, {:.1} TFLOP/s ({:.3}x the loop{})",
            exact[i].0,
            exact[i].1,
            med[i],
            med[i] / cb,
            tq.map_or(String::new(), |t| format!(", {:.3}x torch", med[i] / t)),
        );
        variants.insert(
            name.to_string(),
            json!({"mismatches": exact[i].0, "watchdog_flag": exact[i].1, "median_tflops": r1(med[i]),
                "tflops": t[i].iter().map(|&v| r1(v)).collect::<Vec<_>>()}),
        );
    }
    let (o, mism) = (med[RECORD], exact.iter().map(|e| e.0).sum::<usize>());
    Ok(
        json!({"groups": g, "m": sh.ms, "n": n, "k": k, "mismatches": mism, "watchdog_flag": exact[RECORD].1,
        "ours_median_tflops": r1(o), "ours_kernel": names[RECORD], "cublaslt_loop_median_tflops": r1(cb), "cublaslt_concatenated_median_tflops": r1(cc),
        "ours_over_cublaslt_loop": (o / cb * 1000.0).round() / 1000.0,
        "ours_tflops": t[RECORD].iter().map(|&v| r1(v)).collect::<Vec<_>>(),
        "cublaslt_loop_tflops": t[names.len()].iter().map(|&v| r1(v)).collect::<Vec<_>>(),
        "torch_grouped_mm_median_tflops": tq.map(r1),
        "torch_grouped_mm_tflops": torch.map(|_| t[names.len() + 2].iter().map(|&v| r1(v)).collect::<Vec<_>>()),
        "ours_over_torch_grouped_mm": tq.map(|t| (o / t * 1000.0).round() / 1000.0),
        "variants": variants}),
    )
}

/// The kernel variants timed (`gpu/rust-kernel/src/grouped.rs`).
const KERNELS: [&str; 4] = [
    "gemm_grouped_rust",
    "gemm_grouped_spin_rust",
    "gemm_grouped_spin_all_rust",
    "gemm_grouped_vote_rust",
];
/// The variant reported as ours: no watchdog, no skip (chosen from the selection run of
/// `gpu/device-logs/2026-11-27-grouped-spin-select`, then measured again).
const RECORD: usize = 2;

/// The probe, its negative control and the shapes.
pub fn run_grouped(
    module: &cuda::Module,
    gpu: &cuda::Gpu,
    o: &Opts,
    torch: Option<TorchTimer>,
) -> cuda::Res<Value> {
    let (g, same, same64, differ) = probe(module, false)?;
    println!("map probe: {same} of {g} rewritten maps byte-identical to the host encode (first 64 B: {same64}); differ: {differ:?}");
    let (_, bsame, _, bdiffer) = probe(module, true)?;
    println!("negative control (group 0's stride 16 B off, raw instruction): {bsame} identical, differ {bdiffer:?}");
    let shapes = shapes();
    std::fs::write(
        o.out.join("grouped_shapes.json"),
        serde_json::to_string(
            &shapes
                .iter()
                .map(|s| json!({"m": s.ms, "n": s.n, "k": s.k}))
                .collect::<Vec<_>>(),
        )
        .unwrap(),
    )
    .map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for sh in &shapes {
        match run_shape(module, gpu, sh, o.rounds, torch) {
            Ok(v) => rows.push(v),
            Err(e) => {
                println!("grouped G={} N={} K={}: error {e}", sh.ms.len(), sh.n, sh.k);
                rows.push(json!({"groups": sh.ms.len(), "n": sh.n, "k": sh.k, "error": e}));
                break;
            }
        }
    }
    Ok(
        json!({"device": gpu.name, "map_identity": {"groups_compared": g, "byte_identical": same, "first_64_bytes_identical": same64},
        "negative_controls": [{"name": "group 0's row stride 16 B off, written by the raw instruction", "byte_identical": bsame, "differ": bdiffer}],
        "shapes": rows}),
    )
}
