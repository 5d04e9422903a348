//! Host side of the Rust kernels (`gpu/rust-kernel`): loads their PTX module (built by
//! `gpu/rust-kernel/build_ptx.sh`), builds every tensor map from the same `#[smem_tile]`
//! declarations the kernels use (`gpu/rust-kernel/src/tiles.rs`, included below), runs the
//! layout-class check (exact against a CPU reference, plus the negative control), checks both
//! GEMMs exactly on integer data and times them against cuBLAS in alternating rounds, and writes
//! `results_rust.json`.
//!
//! ```text
//! smemdesc-rust-kernels [--ptx FILE] [--out DIR] [--size N] [--rounds R] [--group-m G,G..]
//!                       [--skip-check] [--skip-gemm] [--no-cublas]
//!                       [--epi] [--epi-shapes S] [--epi-ncu] [--epi-ncu-size N] [--epi-controls]
//!                       [--pipeline-before FILE] [--grouped] [--reduce] [--pdl] [--im2col-walk] [--conv]
//!                       [--grouped-fp8] [--torch-paths NAME,NAME..]
//! ```
//!
//! `--grouped-fp8` runs the FP8 grouped GEMM (`grouped_fp8.rs`: exact check, negative control,
//! timings against a cuBLASLt FP8 loop and, from `gpu/grouped_same_process.py --fp8`, the torch
//! FP8 paths named by `--torch-paths`) and writes `grouped_fp8_results.json`.
//!
//! `--reduce` runs every TMA reduce kind on every element type the PTX ISA allows it
//! (`reduce.rs`) and writes `reduce_results.json`.
//!
//! `--epi` runs the issue-22 kernels instead (`epi.rs`: exactness, negative controls, timings at
//! the first `S` of the 7 shapes, all by default) and writes `epi_results.json`; `--epi-ncu`
//! launches each issue-22 kernel once for Nsight Compute; `--epi-controls` runs the negative
//! controls (`epi_controls.json`).
//!
//! Tensor maps live in device global memory (written by `cuMemcpyHtoD` before the launch; the
//! kernels acquire them with `fence.proxy.tensormap::generic.acquire`), and their addresses are
//! the kernel arguments.

#[path = "../../cuda.rs"]
#[allow(dead_code)]
mod cuda;

#[path = "../../cublas.rs"]
mod cublas;

#[path = "../../../rust-kernel/src/tiles.rs"]
#[allow(dead_code)]
#[macro_use]
mod tiles;

#[path = "../../../rust-kernel/src/epi_tiles.rs"]
#[allow(dead_code)]
mod epi_tiles;

mod attn;
mod conv;
#[path = "../../../rust-kernel/src/conv_tiles.rs"]
#[allow(dead_code)]
mod conv_tiles;
mod epi;
mod epi_problem;
mod ffi;
mod gemm;
mod grouped;
#[path = "../../../rust-kernel/src/grouped_decl.rs"]
#[allow(dead_code)]
mod grouped_decl;
mod grouped_fp8;
mod grouped_fp8_check;
#[path = "../../../rust-kernel/src/grouped_fp8_decl.rs"]
#[allow(dead_code)]
mod grouped_fp8_decl;
mod im2col_walk;
mod pdl;
mod pdl_gemm;
mod pipeline;
mod reduce;
use gemm::{gemm_json, run_gemm, Kind};

use smemdesc::{Arch, DescriptorFields, Major, SmemDescriptor, SmemTile};
use std::fmt::Write as _;
use std::path::PathBuf;

struct Opts {
    ptx: PathBuf,
    out: PathBuf,
    size: u32,
    rounds: u32,
    group_m: Vec<u32>,
    check: bool,
    gemm: bool,
    cublas: bool,
    epi: bool,
    epi_shapes: usize,
    epi_ncu: bool,
    epi_controls: bool,
    epi_ncu_size: u32,
    pipeline_before: Option<PathBuf>,
    grouped: bool,
    grouped_fp8: bool,
    torch_paths: Vec<String>,
    reduce: bool,
    pdl: bool,
    im2col_walk: bool,
    conv: bool,
}

fn opts(args: Vec<String>) -> Opts {
    let mut o = Opts {
        ptx: PathBuf::from("gpu/rust-kernel/out/kernels.ptx"),
        out: PathBuf::from("gpu/out-rust"),
        size: 8192,
        rounds: 7,
        group_m: vec![8, 16],
        check: true,
        gemm: true,
        cublas: true,
        epi: false,
        epi_shapes: epi::SHAPES.len(),
        epi_ncu: false,
        epi_controls: false,
        epi_ncu_size: 2048,
        pipeline_before: None,
        grouped: false,
        grouped_fp8: false,
        torch_paths: Vec::new(),
        reduce: false,
        pdl: false,
        im2col_walk: false,
        conv: false,
    };
    let mut i = 0;
    while i < args.len() {
        let val = |i: usize| args.get(i + 1).cloned().expect("missing value");
        match args[i].as_str() {
            "--ptx" => o.ptx = PathBuf::from(val(i)),
            "--out" => o.out = PathBuf::from(val(i)),
            "--size" => o.size = val(i).parse().expect("--size N"),
            "--rounds" => o.rounds = val(i).parse().expect("--rounds R"),
            "--group-m" => {
                o.group_m = val(i)
                    .split(',')
                    .map(|g| g.parse().expect("--group-m G,G.."))
                    .collect()
            }
            "--skip-check" => o.check = false,
            "--skip-gemm" => o.gemm = false,
            "--no-cublas" => o.cublas = false,
            "--epi" => o.epi = true,
            "--grouped" => o.grouped = true,
            "--grouped-fp8" => o.grouped_fp8 = true,
            "--torch-paths" => {
                o.torch_paths = val(i)
                    .split(',')
                    .filter(|p| !p.is_empty())
                    .map(String::from)
                    .collect()
            }
            "--reduce" => o.reduce = true,
            "--pdl" => o.pdl = true,
            "--im2col-walk" => o.im2col_walk = true,
            "--conv" => o.conv = true,
            "--epi-ncu" => o.epi_ncu = true,
            "--epi-controls" => o.epi_controls = true,
            "--epi-ncu-size" => o.epi_ncu_size = val(i).parse().expect("--epi-ncu-size N"),
            "--epi-shapes" => o.epi_shapes = val(i).parse().expect("--epi-shapes S"),
            "--pipeline-before" => o.pipeline_before = Some(PathBuf::from(val(i))),
            a => {
                eprintln!("unknown argument {a}; see gpu/src/bin/rust_kernels/main.rs");
                std::process::exit(2);
            }
        }
        i += if args[i].starts_with("--skip")
            || matches!(
                args[i].as_str(),
                "--no-cublas"
                    | "--epi"
                    | "--epi-ncu"
                    | "--epi-controls"
                    | "--grouped"
                    | "--grouped-fp8"
                    | "--reduce"
                    | "--pdl"
                    | "--im2col-walk"
                    | "--conv"
            ) {
            1
        } else {
            2
        };
    }
    if o.group_m.is_empty() {
        o.group_m = vec![16];
    }
    o
}

// Test data (generator, bf16/e4m3 encodings, global layouts) and the exact check: gpu/'s own.
#[path = "../../data.rs"]
#[allow(dead_code)]
mod data;
use data::{bf16_of_f32 as bf16, e4m3_of_int as e4m3, encode, Lcg};

/// A tensor map of a 2-D tensor of `mn` x `k` elements stored as tile `T` expects it, boxes
/// from `T::TMA_BOX_DIM`, in device memory (returned with the map's buffer).
fn device_map<T: SmemTile>(data: &cuda::Buf, mn: u64, k: u64) -> cuda::Res<cuda::Buf> {
    let eb = T::PLAN.decl.dtype.smem_bytes() as u64;
    let (dims, stride) = match T::PLAN.decl.major {
        Major::K => ([k, mn], k * eb),
        Major::Mn => ([mn, k], mn * eb),
    };
    let map = cuda::tensor_map(
        T::TMA_DATA_TYPE,
        T::TMA_SWIZZLE,
        data.ptr,
        dims,
        stride,
        T::TMA_BOX_DIM,
    )?;
    cuda::Buf::from(std::slice::from_ref(&map))
}

/// The negative control's descriptor: the core's fields with SBO doubled.
fn wrong_sbo(d: SmemDescriptor) -> Result<u64, String> {
    let f = d.fields().map_err(|e| e.to_string())?;
    let mut g = DescriptorFields::new(f.start_address, f.lbo, f.sbo * 2, f.layout);
    g.base_offset = f.base_offset;
    Ok(SmemDescriptor::encode(Arch::Sm90, g)
        .map_err(|e| e.to_string())?
        .raw())
}

struct ClassResult {
    name: &'static str,
    negative: bool,
    elements: usize,
    mismatches: usize,
    desc_match: bool,
    first_bad: String,
    error: Option<String>,
}

/// Runs the class with tiles `A`, `B`: TMA-load, wgmma, compare D and the descriptors used.
fn run_class<A: SmemTile, B: SmemTile>(
    name: &'static str,
    negative: bool,
    module: &cuda::Module,
    seed: u64,
) -> cuda::Res<ClassResult> {
    let (m, n) = (
        A::PLAN.tile.spec().tile_mn as usize,
        B::PLAN.tile.spec().tile_mn as usize,
    );
    let ktot = (A::PLAN.tile.spec().tile_k * A::STAGES) as usize;
    let dtype = A::PLAN.decl.dtype;
    let mut rng = Lcg(seed);
    let av: Vec<i32> = (0..m * ktot).map(|_| rng.int(3)).collect();
    let bv: Vec<i32> = (0..n * ktot).map(|_| rng.int(3)).collect();
    let ga = cuda::Buf::from(&encode(&av, m, ktot, A::PLAN.decl.major, dtype))?;
    let gb = cuda::Buf::from(&encode(&bv, n, ktot, B::PLAN.decl.major, dtype))?;
    let ma = device_map::<A>(&ga, m as u64, ktot as u64)?;
    let mb = device_map::<B>(&gb, n as u64, ktot as u64)?;
    let out = cuda::Buf::new(m * n * 4)?;
    out.fill(0xFF)?; // NaN poison
    let count = |t: &smemdesc::TileLayout| (t.mmas_mn() * t.mmas_k() * t.spec().stages) as usize;
    let ndesc = count(&A::PLAN.tile) + count(&B::PLAN.tile);
    let dbg = cuda::Buf::new((2 + ndesc) * 8)?;
    let smem = tiles::CheckSmem::<A, B>::LAUNCH_BYTES;
    let k = module.kernel(&format!("check_{name}"), smem)?;
    k.launch(
        1,
        128,
        &[
            cuda::Arg::Ptr(ma.ptr),
            cuda::Arg::Ptr(mb.ptr),
            cuda::Arg::Ptr(out.ptr),
            cuda::Arg::Ptr(dbg.ptr),
        ],
    )?;
    cuda::sync()?;
    let mut d = vec![0f32; m * n];
    out.read(&mut d)?;
    let mut used = vec![0u64; 2 + ndesc];
    dbg.read(&mut used)?;
    // The descriptors used on the device must be the core's try_desc at the actual bases.
    let mut desc_match = true;
    let mut at = 2;
    for (tile, base, neg) in [
        (&A::PLAN.tile, used[0] as u32, negative),
        (&B::PLAN.tile, used[1] as u32, false),
    ] {
        for s in 0..tile.spec().stages {
            for kk in 0..tile.mmas_k() {
                for i in 0..tile.mmas_mn() {
                    let want = tile.try_desc(base, i, kk, s).map_err(|e| e.to_string())?;
                    let want = if neg { wrong_sbo(want)? } else { want.raw() };
                    desc_match &= used[at] == want;
                    at += 1;
                }
            }
        }
    }
    let (mismatches, first_bad) = data::exact_mismatches(&av, &bv, &d, (m, n, ktot));
    Ok(ClassResult {
        name,
        negative,
        elements: m * n,
        mismatches,
        desc_match,
        first_bad,
        error: None,
    })
}

fn run_classes(module: &cuda::Module) -> Vec<ClassResult> {
    let mut v: Vec<ClassResult> = Vec::new();
    let mut seed = 0x5eed;
    macro_rules! run {
        ($name:ident, $($rest:tt)*) => {{
            use tiles::class::$name as c;
            seed += 7919;
            let r = if v.iter().any(|r| r.error.is_some()) {
                Err("skipped after an earlier error (the context may be lost)".to_string())
            } else {
                run_class::<c::A, c::B>(c::NAME, c::NEGATIVE, module, seed)
            };
            v.push(r.unwrap_or_else(|e| ClassResult {
                name: c::NAME,
                negative: c::NEGATIVE,
                elements: 0,
                mismatches: 0,
                desc_match: false,
                first_bad: String::new(),
                error: Some(e),
            }));
        }};
    }
    for_each_class!(run);
    v
}

fn verdict(r: &ClassResult) -> &'static str {
    match (&r.error, r.negative) {
        (Some(_), _) => "ERROR",
        (None, false) if r.mismatches == 0 && r.desc_match => "PASS",
        (None, true) if r.mismatches > 0 && r.desc_match => "PASS",
        _ => "FAIL",
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Shuffles `v` in place (Fisher-Yates from the end): `below(n)` is a random index in `0..n`.
/// The timing loops' per-round order of their entries.
fn shuffle<T>(v: &mut [T], mut below: impl FnMut(usize) -> usize) {
    for i in (1..v.len()).rev() {
        v.swap(i, below(i + 1));
    }
}

fn js(s: &str) -> String {
    format!("{s:?}")
}

fn main() {
    std::process::exit(run(std::env::args().skip(1).collect(), None))
}

/// The program, on `args` (without the program name); `torch` times `torch._grouped_mm` in the
/// same process when a Python driver loaded this as a library (`ffi.rs`). Returns the exit code.
fn run(args: Vec<String>, torch: Option<grouped::TorchTimer>) -> i32 {
    run_with(args, torch, None)
}

/// [`run`], with `torch_fp8` timing the torch FP8 paths of `--grouped-fp8` (`ffi.rs`).
fn run_with(
    args: Vec<String>,
    torch: Option<grouped::TorchTimer>,
    torch_fp8: Option<grouped_fp8::TorchFp8Timer>,
) -> i32 {
    let o = opts(args);
    std::fs::create_dir_all(&o.out).expect("--out");
    // cudarc panics when libcuda cannot be loaded: report that as "no GPU" too.
    let gpu = std::panic::catch_unwind(cuda::Gpu::new)
        .unwrap_or_else(|_| Err("the CUDA driver library could not be loaded".into()))
        .unwrap_or_else(|e| {
            eprintln!("no GPU: {e}");
            std::process::exit(1)
        });
    let mut ptx = std::fs::read(&o.ptx).unwrap_or_else(|e| {
        eprintln!(
            "{}: {e} (build it with gpu/rust-kernel/build_ptx.sh)",
            o.ptx.display()
        );
        std::process::exit(1)
    });
    ptx.push(0);
    let t0 = std::time::Instant::now();
    let module = cuda::Module::load(&ptx).unwrap_or_else(|e| {
        eprintln!("loading the PTX: {e}");
        std::process::exit(1)
    });
    println!(
        "{} (sm_{}{}, {} SMs, driver {}): PTX module JIT-compiled in {:.1} s",
        gpu.name,
        gpu.cc.0,
        gpu.cc.1,
        gpu.sms,
        gpu.driver,
        t0.elapsed().as_secs_f64()
    );
    if o.im2col_walk {
        let (json, ok) = im2col_walk::run(&module).unwrap_or_else(|e| {
            println!("im2col walk: error {e}");
            (format!("{{\"error\": {e:?}}}\n"), false)
        });
        std::fs::create_dir_all(&o.out).expect("create --out");
        let path = o.out.join("im2col_walk.json");
        std::fs::write(&path, json).expect("write im2col_walk.json");
        println!("wrote {}", path.display());
        return i32::from(!ok);
    }
    if o.conv {
        let v = conv::run_conv(&module, &gpu, &o, torch);
        let path = o.out.join("conv_results.json");
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).expect("write results");
        println!("wrote {}", path.display());
        return 0;
    }
    if o.pdl {
        let mut v = pdl::run_pdl(&module, &gpu, o.rounds).unwrap_or_else(|e| {
            println!("pdl run: error {e}");
            serde_json::json!({"error": e})
        });
        v["gemm_pair"] = pdl_gemm::run_gemm_pair(&module, &gpu, o.rounds).unwrap_or_else(|e| {
            println!("pdl gemm pair: error {e}");
            serde_json::json!({"error": e})
        });
        let path = o.out.join("pdl_results.json");
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).expect("write results");
        println!("wrote {}", path.display());
        return 0;
    }
    if o.reduce {
        let json = reduce::run_reduce(&module);
        std::fs::create_dir_all(&o.out).expect("create --out");
        let path = o.out.join("reduce_results.json");
        std::fs::write(&path, json).expect("write reduce_results.json");
        println!("wrote {}", path.display());
        return 0;
    }
    if o.grouped_fp8 {
        let v = grouped_fp8::run_grouped_fp8(&module, &gpu, &o, torch_fp8);
        let path = o.out.join("grouped_fp8_results.json");
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).expect("write results");
        println!("wrote {}", path.display());
        return i32::from(
            v["all_exact"] != true || v["negative_controls_fail_as_required"] != true,
        );
    }
    if o.grouped {
        let v = grouped::run_grouped(&module, &gpu, &o, torch).unwrap_or_else(|e| {
            println!("grouped run: error {e}");
            serde_json::json!({"error": e})
        });
        let path = o.out.join("grouped_results.json");
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).expect("write results");
        println!("wrote {}", path.display());
        return 0;
    }
    if let Some(before) = &o.pipeline_before {
        let mut b = std::fs::read(before).expect("--pipeline-before FILE");
        b.push(0);
        let bm = cuda::Module::load(&b).expect("loading the before PTX");
        let v = pipeline::run_pipeline(&module, &bm, &gpu, &o).unwrap_or_else(|e| {
            println!("pipeline run: error {e}");
            serde_json::json!({"error": e})
        });
        let path = o.out.join("pipeline_results.json");
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).expect("write results");
        println!("wrote {}", path.display());
        return 0;
    }
    if o.epi || o.epi_ncu || o.epi_controls {
        let (r, name) = if o.epi_ncu {
            (epi::run_ncu(&module, &gpu, o.epi_ncu_size), "epi_ncu.json")
        } else if o.epi_controls {
            (epi::run_controls(&module, &gpu), "epi_controls.json")
        } else {
            let n = o.epi_shapes.min(epi::SHAPES.len());
            let v = epi::run_epi(&module, &gpu, &o, &epi::SHAPES[..n]);
            (Ok(v), "epi_results.json")
        };
        let v = r.unwrap_or_else(|e| {
            println!("issue-22 run: error {e}");
            serde_json::json!({"error": e})
        });
        let path = o.out.join(name);
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).expect("write results");
        println!("wrote {}", path.display());
        return 0;
    }
    let classes = if o.check {
        run_classes(&module)
    } else {
        Vec::new()
    };
    let mut cj = Vec::new();
    for r in &classes {
        println!(
            "{:<48} {:>5}  {} / {} mismatches, descriptors {}{}",
            r.name,
            verdict(r),
            r.mismatches,
            r.elements,
            if r.desc_match { "= try_desc" } else { "DIFFER" },
            r.error
                .as_deref()
                .map(|e| format!(", error: {e}"))
                .unwrap_or_default()
        );
        cj.push(format!(
            "{{\"name\": {}, \"negative_control\": {}, \"verdict\": {}, \"elements\": {}, \"mismatches\": {}, \"descriptors_match_try_desc\": {}, \"first_mismatch\": {}, \"error\": {}}}",
            js(r.name),
            r.negative,
            js(verdict(r)),
            r.elements,
            r.mismatches,
            r.desc_match,
            js(&r.first_bad),
            r.error.as_deref().map(js).unwrap_or("null".into())
        ));
    }
    let passed = classes.iter().filter(|r| verdict(r) == "PASS").count();
    let mut gj = String::new();
    if o.gemm {
        for kind in [Kind::Bf16, Kind::Fp8] {
            let g = run_gemm(kind, &o, &gpu, &module);
            if let Ok(g) = &g {
                println!(
                    "gemm {}: exact check {} / {} mismatches; median ours {:.1} TFLOP/s, cublasLt in-process {:.1} (its check: {:?} mismatches, error {:?}), cuBLAS (torch) {:.1}",
                    kind.name(),
                    g.mismatches,
                    g.checked,
                    median(&g.ours_tflops),
                    median(&g.cublaslt_tflops),
                    g.cublaslt_mismatches,
                    g.cublaslt_error,
                    median(&g.cublas_tflops)
                );
            } else if let Err(e) = &g {
                println!("gemm {}: error {e}", kind.name());
            }
            if !gj.is_empty() {
                gj.push_str(", ");
            }
            write!(gj, "{}: {}", js(kind.name()), gemm_json(&g, &o)).unwrap();
        }
    }
    let json = format!(
        "{{\n  \"device\": {},\n  \"compute_capability\": \"{}.{}\",\n  \"multiprocessors\": {},\n  \"driver_version\": {},\n  \"kernels\": \"Rust (gpu/rust-kernel, nightly nvptx64, PTX JIT-compiled by the driver)\",\n  \"classes_passed\": {passed},\n  \"classes_total\": {},\n  \"classes\": [\n    {}\n  ],\n  \"gemm\": {{{gj}}}\n}}\n",
        js(&gpu.name),
        gpu.cc.0,
        gpu.cc.1,
        gpu.sms,
        gpu.driver,
        classes.len(),
        cj.join(",\n    ")
    );
    let path = o.out.join("results_rust.json");
    std::fs::write(&path, json).expect("write results");
    println!("wrote {}", path.display());
    0
}

#[cfg(test)]
#[path = "../../class.rs"]
#[allow(dead_code)]
mod class;

#[cfg(test)]
#[path = "../../plan.rs"]
#[allow(dead_code)]
mod plan;

#[cfg(test)]
#[path = "../../placement.rs"]
#[allow(dead_code)]
mod placement;

#[cfg(test)]
mod tests {
    use super::*;

    /// Fisher-Yates from the end: `below` is asked for 0..3 then 0..2, and each answer picks the
    /// element swapped into the last open position (worked by hand: all-zero answers rotate
    /// [0, 1, 2] to [1, 2, 0], answers equal to the position keep the order).
    #[test]
    fn shuffle_is_fisher_yates() {
        let mut asked = Vec::new();
        let mut v = [0, 1, 2];
        shuffle(&mut v, |n| {
            asked.push(n);
            0
        });
        assert_eq!((asked, v), (vec![3, 2], [1, 2, 0]));
        let mut v = [0, 1, 2];
        shuffle(&mut v, |n| n - 1);
        assert_eq!(v, [0, 1, 2]);
        let mut one = [7];
        shuffle(&mut one, |_| {
            unreachable!("a single element is not shuffled")
        });
        assert_eq!(one, [7]);
    }

    /// The Rust kernels check exactly the layout classes of `gpu/` (names and tiles).
    #[test]
    fn classes_are_gpu_classes() {
        let mut ours: Vec<(String, smemdesc::TileLayout, smemdesc::TileLayout, bool)> = Vec::new();
        macro_rules! collect {
            ($name:ident, $($rest:tt)*) => {{
                use tiles::class::$name as c;
                ours.push((
                    c::NAME.to_string(),
                    c::A::PLAN.tile,
                    c::B::PLAN.tile,
                    c::NEGATIVE,
                ));
            }};
        }
        for_each_class!(collect);
        // gpu/'s aligned classes (its unaligned-placement classes have no Rust twin yet).
        let theirs: Vec<_> = plan::classes()
            .into_iter()
            .filter(|c| c.smem_offset == 0)
            .collect();
        assert_eq!(ours.len(), theirs.len());
        for (o, t) in ours.iter().zip(&theirs) {
            let b = t.build().unwrap();
            assert_eq!(o.0, t.name);
            assert_eq!(
                (o.1, o.2, o.3),
                (b.a.tile, b.b.tile, t.wrong_sbo),
                "{}",
                t.name
            );
        }
    }

    /// E4M3 by its definition: (-1)^s x 2^(e - 7) x (1 + m / 8) for e > 0.
    #[test]
    fn e4m3_encoding() {
        let decode = |b: u8| {
            let (s, e, m) = (b >> 7, ((b >> 3) & 15) as i32, (b & 7) as f32);
            let v = if e == 0 {
                0.0
            } else {
                2f32.powi(e - 7) * (1.0 + m / 8.0)
            };
            if s == 1 {
                -v
            } else {
                v
            }
        };
        for v in -3..=3 {
            assert_eq!(decode(e4m3(v)), v as f32);
        }
    }

    #[test]
    fn encode_mn_major_transposes() {
        let v = [1, 2, 3, -1, -2, -3]; // 2 x 3 (mn x k)
        let e = encode(&v, 2, 3, Major::Mn, smemdesc::ElementType::TF32);
        let back: Vec<f32> = e
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(back, vec![1.0, -1.0, 2.0, -2.0, 3.0, -3.0]);
    }

    /// The GEMMs' shared memory fits one CTA, tiles at their alignment, barriers after them.
    #[test]
    fn gemm_smem_fits() {
        for (s, a, b) in [
            (tiles::BF16_SMEM, tiles::Bf16A::BYTES, tiles::Bf16B::BYTES),
            (tiles::FP8_SMEM, tiles::Fp8A::BYTES, tiles::Fp8B::BYTES),
        ] {
            assert_eq!((s.a, s.b, s.full), (0, a, a + b));
            assert!(s.launch_bytes <= smemdesc::smem::MAX_SMEM_PER_CTA);
            assert_eq!(s.align, 1024);
        }
    }
}
