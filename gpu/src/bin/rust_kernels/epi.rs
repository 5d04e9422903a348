//! Issue 22 from the Rust kernels (`gpu/rust-kernel/src/epi.rs`): the TMA-store epilogue
//! GEMM and the 2x1 / 1x2 multicast cluster GEMMs, checked bit for bit against cublasLt in this
//! process (integer data in [-2, 2]: every partial sum is exact in fp32, so both round the same
//! integer to bf16; cuBLAS's own output is checked against the exact integer product at 4096
//! sampled elements), the negative controls (a wrong `expect_tx` must end in the watchdog, a C
//! tensor map with another swizzle than the tile's must mismatch), and timings of every variant
//! and cuBLAS in shuffled rounds at 7 shapes. Every layout number on the host side (tensor-map
//! boxes and swizzles, launch bytes, cluster dimensions) comes
//! from `gpu/rust-kernel/src/epi_tiles.rs`, the kernels' own declarations.

use crate::epi_problem::time_batch;
use crate::epi_tiles as et;
use crate::{cuda, median, Opts};
use serde_json::{json, Value};
use smemdesc::TensorMapSwizzle;

/// The shapes (M, N, K) of the issue besides 8192³.
pub const SHAPES: [(u32, u32, u32); 7] = [
    (8192, 8192, 8192),
    (4096, 4096, 4096),
    (8192, 8192, 2048),
    (16384, 8192, 4096),
    (2048, 16384, 8192),
    (6144, 6144, 6144),
    (12288, 6144, 8192),
];

#[cfg(test)]
use crate::epi_problem::slice_box;
use crate::epi_problem::{c_map, Problem, VARIANTS};
#[cfg(test)]
use crate::epi_tiles::EpiDecl;

fn spread(v: &[f64]) -> Value {
    let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    json!([r1(lo), r1(hi)])
}

/// `x` rounded to one decimal (TFLOP/s in the JSON records).
pub(crate) fn r1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Timing of every variant and cuBLAS at one shape: `rounds` rounds of 10 launches each, each
/// round in a fresh shuffled order, after `warm_s` seconds of warm-up.
fn time_shape(
    p: &Problem,
    rounds: u32,
    warm_s: f64,
    group_m: u32,
    seed: u64,
) -> cuda::Res<Vec<Vec<f64>>> {
    let n = VARIANTS.len() + 1;
    let t0 = std::time::Instant::now();
    while t0.elapsed().as_secs_f64() < warm_s {
        for i in 0..n {
            if i < VARIANTS.len() {
                p.launch(i, 0, None, group_m)?;
            } else {
                p.cublas.run(&p.a, &p.b, &p.cref)?;
            }
        }
        cuda::sync()?;
    }
    let mut out = vec![Vec::new(); n];
    let mut rng = crate::Lcg(seed);
    for _ in 0..rounds {
        let mut order: Vec<usize> = (0..n).collect();
        crate::shuffle(&mut order, |k| rng.next() as usize % k);
        for &i in &order {
            let ms = if i < VARIANTS.len() {
                time_batch(10, || p.launch(i, 0, None, group_m))?
            } else {
                time_batch(10, || p.cublas.run(&p.a, &p.b, &p.cref))?
            };
            out[i].push(p.flops() / ms / 1e9);
        }
    }
    Ok(out)
}

/// The bank model's prediction for one warpgroup writing the C tile once per chunk (all chunks):
/// (wavefronts, conflicts) of the declared offsets.
fn bank_model() -> (u32, u32) {
    let (mut wf, mut cf) = (0, 0);
    for w in 0..4 {
        for i in 0..et::CTile::INSTRUCTIONS {
            let r = et::CTile::EPILOGUE.writer_report(0, w, i);
            wf += r.wavefronts;
            cf += r.conflicts();
        }
    }
    (wf * et::CTile::CHUNKS, cf * et::CTile::CHUNKS)
}

/// `--ncu`: one launch of each kernel Nsight Compute profiles (the store-only kernel: declared,
/// control, one warp, 4 repetitions; cuBLAS and the three issue-22 GEMMs at `size`³), nothing
/// timed.
pub fn run_ncu(module: &cuda::Module, gpu: &cuda::Gpu, size: u32) -> cuda::Res<Value> {
    let st = module.kernel("epi_store_only_rust", epi_store_bytes())?;
    let sink = cuda::Buf::new(128 * 4)?;
    for (threads, reps, ctrl) in [(128, 1, 0), (128, 1, 1), (32, 1, 0), (128, 4, 0)] {
        st.launch(
            1,
            threads,
            &[
                cuda::Arg::I32(reps),
                cuda::Arg::I32(ctrl),
                cuda::Arg::Ptr(sink.ptr),
            ],
        )?;
    }
    cuda::sync()?;
    let p = Problem::new((size, size, size), module, gpu)?;
    p.reference()?;
    let mut mism = Vec::new();
    for (i, v) in VARIANTS.iter().enumerate().skip(1) {
        let (mm, err, _) = p.run_checked(i, 0, None, 16)?;
        mism.push(json!({"variant": v.name, "mismatches": mm, "watchdog_flag": err}));
    }
    let (wf, cf) = bank_model();
    Ok(
        json!({"profiled_at": [size, size, size], "exact": mism, "model_per_warpgroup_tile": {"wavefronts": wf, "conflicts": cf}}),
    )
}

fn epi_store_bytes() -> u32 {
    et::CTile::STAGE_BYTES + 1024
}

/// `--epi-controls`: the negative controls at 2048³ (run in their own process: a watchdog that
/// failed would hang only this one, under the script's `timeout`).
pub fn run_controls(module: &cuda::Module, gpu: &cuda::Gpu) -> cuda::Res<Value> {
    let group_m = 16;
    let p = Problem::new((2048, 2048, 2048), module, gpu)?;
    p.reference()?;
    let mut controls = Vec::new();
    for (i, v) in VARIANTS.iter().enumerate().skip(1) {
        let (mm, err, secs) = p.run_checked(i, 1024, None, group_m)?;
        let (after, err2, _) = p.run_checked(i, 0, None, group_m)?;
        let ok = err == 1 && after == 0 && err2 == 0;
        println!(
            "control expect_tx + 1024, {}: watchdog flag {err} after {secs:.2} s ({mm} mismatches); next run {after} mismatches, flag {err2}: {}",
            v.name,
            if ok { "timed out cleanly" } else { "UNEXPECTED" }
        );
        controls.push(json!({
            "name": format!("wrong expect_tx (+1024 B), {}", v.name),
            "outcome": if ok { format!("timeout: watchdog flag set, kernel returned after {secs:.2} s, next run exact") } else { format!("UNEXPECTED: flag {err}, next run {after} mismatches") },
            "watchdog_flag": err, "seconds": r1(secs * 100.0) / 100.0, "next_run_mismatches": after, "passed": ok,
        }));
    }
    for i in [1usize, 2] {
        let v = &VARIANTS[i];
        let wrong = c_map(&p.c, p.m as u64, p.n as u64, Some(TensorMapSwizzle::None))?;
        let (mm, err, _) = p.run_checked(i, 0, Some(&wrong), group_m)?;
        let (ok_mm, _, _) = p.run_checked(i, 0, None, group_m)?;
        let ok = mm > 0 && ok_mm == 0 && err == 0;
        println!(
            "control C map swizzle NONE (tile: 128B), {}: {mm} / {} mismatches; declared: {ok_mm}",
            v.name,
            p.m * p.n
        );
        controls.push(json!({
            "name": format!("wrong C swizzle (tensor map NONE, tile 128B), {}", v.name),
            "outcome": if ok { format!("mismatch: {mm} / {} outputs wrong; with the declared swizzle 0", p.m * p.n) } else { format!("UNEXPECTED: {mm} mismatches, declared {ok_mm}") },
            "mismatches": mm, "declared_swizzle_mismatches": ok_mm, "passed": ok,
        }));
    }
    Ok(json!({"negative_controls": controls}))
}

/// `--epi`: exactness and timings at every shape; the issue-22 part of `results_rust.json`
/// (without the negative controls: `--epi-controls`). A failure at one shape is recorded and
/// ends the run with what was measured before it.
pub fn run_epi(
    module: &cuda::Module,
    gpu: &cuda::Gpu,
    o: &Opts,
    shapes: &[(u32, u32, u32)],
) -> Value {
    let group_m = 16;
    let mut shape_rows = Vec::new();
    let mut exact = Vec::new();
    let mut error = None;
    for (si, &(m, n, k)) in shapes.iter().enumerate() {
        let r = measure_shape(module, gpu, o, si, (m, n, k), group_m);
        match r {
            Ok((row, ex)) => {
                shape_rows.push(row);
                exact.push(ex);
            }
            Err(e) => {
                println!("{m}x{n}x{k}: error {e}");
                error = Some(format!("{m}x{n}x{k}: {e}"));
                break;
            }
        }
    }
    if exact.is_empty() {
        return json!({"shapes": shape_rows, "error": error});
    }
    record(&exact[0], shape_rows, error)
}

type Exact = (
    u32,
    u32,
    u32,
    Vec<(usize, u32)>,
    usize,
    Vec<f64>,
    Vec<Vec<f64>>,
);

fn measure_shape(
    module: &cuda::Module,
    gpu: &cuda::Gpu,
    o: &Opts,
    si: usize,
    (m, n, k): (u32, u32, u32),
    group_m: u32,
) -> cuda::Res<(Value, Exact)> {
    {
        let p = Problem::new((m, n, k), module, gpu)?;
        p.reference()?;
        let cublas_sample = p.check_cublas_sample()?;
        let mut mism = Vec::new();
        for i in 0..VARIANTS.len() {
            let (mm, err, _) = p.run_checked(i, 0, None, group_m)?;
            mism.push((mm, err));
        }
        let rounds = if si == 0 {
            o.rounds.max(21)
        } else {
            o.rounds.max(11)
        };
        let t = time_shape(
            &p,
            rounds,
            if si == 0 { 2.0 } else { 1.0 },
            group_m,
            77 + si as u64,
        )?;
        let med: Vec<f64> = t.iter().map(|v| median(v)).collect();
        let cub = med[VARIANTS.len()];
        let best = (1..VARIANTS.len())
            .max_by(|&a, &b| med[a].total_cmp(&med[b]))
            .unwrap();
        println!(
            "{m}x{n}x{k}: {} | cuBLAS {:.1} (sample check {cublas_sample} / 4096) | fastest issue-22 variant {} {:.3}x cuBLAS",
            VARIANTS
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{} {:.1} ({} mism.)", v.name, med[i], mism[i].0))
                .collect::<Vec<_>>()
                .join(", "),
            cub,
            VARIANTS[best].name,
            med[best] / cub
        );
        let mut variants = serde_json::Map::new();
        for (i, v) in VARIANTS.iter().enumerate() {
            variants.insert(
                v.name.into(),
                json!({"kernel": v.kernel, "median_tflops": r1(med[i]), "spread": spread(&t[i]), "tflops": t[i].iter().map(|&x| r1(x)).collect::<Vec<_>>(), "mismatches": mism[i].0, "watchdog_flag": mism[i].1, "grid": p.prepared[i].3, "regs": p.kernels[i].regs, "local_bytes": p.kernels[i].local}),
            );
        }
        variants.insert("cublas".into(), json!({"median_tflops": r1(cub), "spread": spread(&t[VARIANTS.len()]), "tflops": t[VARIANTS.len()].iter().map(|&x| r1(x)).collect::<Vec<_>>(), "exact_sample_mismatches": cublas_sample}));
        let row = json!({
            "m": m, "n": n, "k": k,
            "ours_median_tflops": r1(med[best]),
            "ours_variant": VARIANTS[best].name,
            "ours_spread": spread(&t[best]),
            "cublas_median_tflops": r1(cub),
            "cublas_spread": spread(&t[VARIANTS.len()]),
            "ours_over_cublas": (med[best] / cub * 1000.0).round() / 1000.0,
            "rounds": rounds,
            "variants": variants,
        });
        Ok((row, (m, n, k, mism, cublas_sample, med, t)))
    }
}

/// The record: `epilogue` and `cluster` from the first shape (8192³), and every shape's row.
fn record(first: &Exact, shape_rows: Vec<Value>, error: Option<String>) -> Value {
    let (m, n, k, mism, sample, med, t) = first;
    let elems = *m as usize * *n as usize;
    let epilogue = json!({
        "kernel": "gemm_epi_rust", "shape": [m, n, k], "mismatches": mism[1].0, "elements": elems,
        "bank_conflicts": null,
        "bank_conflicts_source": "filled from Nsight Compute (device_run_epi.sh)",
        "ours_median_tflops": r1(med[1]), "ours_spread": spread(&t[1]),
        "cublas_median_tflops": r1(med[4]), "cublas_spread": spread(&t[4]),
        "cublas_exact_sample_mismatches": sample,
        "direct_store_persistent_median_tflops": r1(med[0]),
    });
    let cluster: Vec<Value> = [(2usize, [2, 1]), (3, [1, 2])]
        .iter()
        .map(|&(i, shape)| {
            json!({
                "shape": shape, "kernel": VARIANTS[i].kernel, "mismatches": mism[i].0, "elements": elems,
                "ours_median_tflops": r1(med[i]), "ours_spread": spread(&t[i]),
                "persistent_median_tflops": r1(med[1]), "persistent_spread": spread(&t[1]),
                "persistent_kernel": "gemm_epi_rust (non-cluster, same TMA-store epilogue)",
                "direct_store_persistent_median_tflops": r1(med[0]),
                "cublas_median_tflops": r1(med[4]), "cublas_spread": spread(&t[4]),
                "over_persistent": (med[i] / med[1] * 1000.0).round() / 1000.0,
                "over_cublas": (med[i] / med[4] * 1000.0).round() / 1000.0,
                "meets_bar": med[i] >= med[1] && med[i] >= med[4],
            })
        })
        .collect();
    json!({
        "epilogue": epilogue,
        "cluster": cluster,
        "shapes": shape_rows,
        "error": error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[a][b][c]` integers of the `static __constant__` array `name` of a C header.
    fn header_ints(h: &str, name: &str) -> Vec<i64> {
        let line = h
            .lines()
            .find(|l| l.contains(&format!(" {name}[")))
            .unwrap_or_else(|| panic!("{name} not in the header"));
        let body = &line[line.find('=').unwrap() + 1..];
        body.split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect()
    }

    /// The Rust kernels' C tile and multicast plans are the numbers the CUDA C++ kernels run
    /// with (`gpu/kernels/epi_decl.h`, generated from the core's declarations and measured exact
    /// and conflict-free on the H100).
    #[test]
    fn declarations_match_the_cuda_header() {
        let h = include_str!("../../../kernels/epi_decl.h");
        let lanes: Vec<i64> = et::c_lane_offsets()
            .iter()
            .flatten()
            .flatten()
            .map(|&x| x as i64)
            .collect();
        assert_eq!(lanes, header_ints(h, "EPI_LANE_OFF"));
        assert_eq!(et::C_BOXES[0].0 as i64, header_ints(h, "EPI_BOX_OFF")[0]);
        assert_eq!(et::CTile::TMA_BOXES, 1);
        assert_eq!(et::CTile::TMA_BOX_DIM, [64, 64]);
        for (p, d) in [
            ("CL21_A", et::Decl21::A_SLICES),
            ("CL21_B", et::Decl21::B_SLICES),
            ("CL12_A", et::Decl12::A_SLICES),
            ("CL12_B", et::Decl12::B_SLICES),
        ] {
            let mask: Vec<i64> = d.mask.iter().map(|&m| m as i64).collect();
            assert_eq!(mask, header_ints(h, &format!("{p}_MASK")), "{p}");
            let off: Vec<i64> = (0..2).map(|r| d.off[r][0] as i64).collect();
            assert_eq!(off, header_ints(h, &format!("{p}_OFF")), "{p}");
            let coord: Vec<i64> = (0..2)
                .flat_map(|r| [d.coord[r][0].0 as i64, d.coord[r][0].1 as i64])
                .collect();
            assert_eq!(coord, header_ints(h, &format!("{p}_COORD")), "{p}");
            assert_eq!(d.n, 1);
        }
        assert_eq!(
            (
                et::Decl21::EXPECT_TX,
                et::Decl12::EXPECT_TX,
                et::Decl11::EXPECT_TX
            ),
            (49152, 49152, 49152)
        );
        assert_eq!(
            (et::Decl21::B_SLICES.count, et::Decl12::A_SLICES.count),
            (2, 2)
        );
        assert_eq!(slice_box(&VARIANTS[2], false), [64, 128]);
        assert_eq!(slice_box(&VARIANTS[3], true), [64, 64]);
    }

    /// The bank model: the declared tile's stores are conflict-free, 64 wavefronts per chunk
    /// for a warpgroup (16 stmatrix.x4 of 4 wavefronts), as the header states.
    #[test]
    fn bank_model_is_conflict_free() {
        assert_eq!(bank_model(), (4 * 64, 0));
    }

    /// The storages fit and place the C tiles on their swizzle repeat.
    #[test]
    fn storage_fits() {
        for b in [
            et::Storage11::LAUNCH_BYTES,
            et::Storage21::LAUNCH_BYTES,
            et::Storage12::LAUNCH_BYTES,
        ] {
            assert!(b <= smemdesc::smem::MAX_SMEM_PER_CTA);
        }
        assert_eq!(et::Storage11::C0_OFFSET % 1024, 0);
        assert_eq!(
            et::Storage11::C1_OFFSET - et::Storage11::C0_OFFSET,
            et::CTile::BYTES
        );
    }
}
