//! smemdesc-gpu: proves smemdesc's descriptors, advance tables and TMA plans on a Hopper GPU.
//!
//! `cargo run --release -p smemdesc-gpu [-- --out DIR]` compiles the kernels with NVRTC (or `nvcc`
//! when NVRTC cannot be loaded) for sm_90a, checks every layout class with TMA + wgmma against a
//! CPU reference, runs the negative control, and times a pipelined bf16 GEMM against cuBLAS
//! (through PyTorch, when `python3` with torch is present). Results go to `DIR/results.json` and
//! `DIR/RESULTS.md`.

mod checks;
mod class;
// The CLI's MSRV (1.85) predates `is_multiple_of`; this program's (1.88) lints ask for it.
#[allow(dead_code, missing_docs, unused_imports, clippy::manual_is_multiple_of)]
#[path = "../../smemdesc-cli/src/lib.rs"]
mod cli;
mod cublas;
mod cuda;
mod data;
mod gemm;
mod gemm_plan;
mod gemm_tiles;
mod gen;
mod header;
mod im2col_gen;
mod im2col_set;
mod placement;
mod plan;
mod report;
mod tmaps;

// The CLI's modules name these as `crate::…`.
use cli::{parse_num, CliError};
use plan::BuiltClass;
use std::fmt::Write as _;
use std::path::PathBuf;

pub(crate) struct Opts {
    pub(crate) out: PathBuf,
    pub(crate) check: bool,
    pub(crate) gemm: bool,
    pub(crate) cublas: bool,
    pub(crate) group_m: Vec<u32>,
    pub(crate) run_class: Option<(usize, PathBuf)>,
    pub(crate) gemm_size: u32,
    pub(crate) variants: Vec<String>,
    /// Alternating timing rounds (ours, cuBLAS) and, per timing, seconds of warm-up and iterations.
    pub(crate) rounds: u32,
    pub(crate) warmup_s: f64,
    pub(crate) iters: u32,
    /// Tensor-map parameter sets to judge against the driver (`--tensor-maps N`; 0 skips).
    pub(crate) tensor_maps: u64,
    /// The im2col driver set to judge instead of everything else (`--im2col-set N`: N generated
    /// rows; `--im2col-judge FILE`: the rows of FILE).
    pub(crate) im2col: Option<Im2colRows>,
    /// The generator's seed (`--im2col-seed S`, before `--im2col-gen`; default the first set's).
    pub(crate) im2col_seed: u64,
}

/// Where the im2col driver set's rows come from.
pub(crate) enum Im2colRows {
    Generated(usize),
    File(PathBuf),
}

fn parse() -> Opts {
    let mut o = Opts {
        out: PathBuf::from("gpu/out"),
        check: true,
        gemm: true,
        cublas: true,
        group_m: vec![1, 4, 8, 16, 32],
        run_class: None,
        gemm_size: 8192,
        variants: vec![
            "gemm_bf16".into(),
            "gemm_bf16_persistent".into(),
            "gemm_bf16_persistent_vst".into(),
            "gemm_bf16_persistent_vst_cs".into(),
            "gemm_bf16_cluster2".into(),
        ],
        rounds: 7,
        warmup_s: 2.0,
        iters: 100,
        tensor_maps: 200_000,
        im2col: None,
        im2col_seed: im2col_gen::SET1_SEED,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--out" => {
                i += 1;
                o.out = PathBuf::from(&args[i]);
            }
            "--skip-check" => o.check = false,
            "--rounds" => {
                i += 1;
                o.rounds = args[i].parse().expect("--rounds N");
            }
            "--skip-gemm" => o.gemm = false,
            "--no-cublas" => o.cublas = false,
            "--group-m" => {
                i += 1;
                o.group_m = args[i]
                    .split(',')
                    .map(|x| x.parse().expect("--group-m N[,N..]"))
                    .collect();
            }
            "--variants" => {
                i += 1;
                o.variants = args[i].split(',').map(String::from).collect();
            }
            "--tensor-maps" => {
                i += 1;
                o.tensor_maps = args[i].parse().expect("--tensor-maps N");
            }
            "--im2col-set" => {
                i += 1;
                o.im2col = Some(Im2colRows::Generated(
                    args[i].parse().expect("--im2col-set N"),
                ));
            }
            "--im2col-seed" => {
                i += 1;
                o.im2col_seed = args[i].parse().expect("--im2col-seed S (a u64)");
            }
            "--im2col-judge" => {
                i += 1;
                o.im2col = Some(Im2colRows::File(PathBuf::from(&args[i])));
            }
            "--im2col-gen" => {
                // Write N generated im2col rows (no GPU needed) and exit.
                let n: usize = args[i + 1].parse().expect("--im2col-gen N FILE");
                std::fs::write(&args[i + 2], im2col_gen::rows(n, o.im2col_seed))
                    .expect("--im2col-gen N FILE");
                std::process::exit(0);
            }
            "--im2col-compare" => {
                // Compare verdict files (no GPU needed): ROWS OURS DRIVER ARCH.
                let read = |k: usize| {
                    std::fs::read_to_string(&args[i + k]).unwrap_or_else(|e| {
                        panic!(
                            "--im2col-compare ROWS OURS DRIVER ARCH: {}: {e}",
                            args[i + k]
                        )
                    })
                };
                let arch = smemdesc::Arch::from_name(&args[i + 4]).expect("ARCH: sm90 or sm100");
                match im2col_set::compare(&read(1), &read(2), &read(3), arch) {
                    Ok(j) => print!("{j}"),
                    Err(e) => {
                        eprintln!("--im2col-compare: {e}");
                        std::process::exit(2);
                    }
                }
                std::process::exit(0);
            }
            "--size" => {
                i += 1;
                o.gemm_size = args[i].parse().expect("--size N");
            }
            "--run-class" => {
                o.run_class = Some((
                    args[i + 1].parse().expect("--run-class I CUBIN"),
                    PathBuf::from(&args[i + 2]),
                ));
                i += 2;
            }
            "--emit" => {
                // Write the generated CUDA sources (no GPU needed) and exit.
                let dir = PathBuf::from(&args[i + 1]);
                std::fs::create_dir_all(&dir).unwrap();
                let built: Vec<BuiltClass> =
                    plan::classes().iter().map(|c| c.build().unwrap()).collect();
                std::fs::write(
                    dir.join("gen_check.cu"),
                    checks::check_source(&built).unwrap(),
                )
                .unwrap();
                std::fs::write(dir.join("gen_gemm.cu"), gemm::gemm_source().unwrap()).unwrap();
                std::process::exit(0);
            }
            "--list" => {
                for (i, c) in plan::classes().iter().enumerate() {
                    println!("{i:2} {}", c.name);
                }
                std::process::exit(0);
            }
            "-h" | "--help" => {
                println!(
                    "smemdesc-gpu [--out DIR] [--skip-check] [--skip-gemm] [--no-cublas] [--group-m N,N..] [--size N] [--variants K,K..] [--rounds N] [--tensor-maps N] [--list] [--emit DIR] | [--im2col-seed S] --im2col-set N [--out DIR] | --im2col-judge ROWS [--out DIR] | [--im2col-seed S] --im2col-gen N FILE | --im2col-compare ROWS OURS DRIVER ARCH"
                );
                std::process::exit(0);
            }
            a => panic!("unknown argument {a}"),
        }
        i += 1;
    }
    o
}

fn main() {
    let o = parse();
    if let Some((idx, cubin)) = &o.run_class {
        checks::child_main(*idx, cubin);
        return;
    }
    let work = std::env::temp_dir().join(format!("smemdesc-gpu-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&o.out).unwrap();
    let gpu = match cuda::Gpu::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("no usable CUDA device: {e}");
            std::process::exit(2);
        }
    };
    println!(
        "{} (sm_{}{}, {} SMs, driver {})",
        gpu.name, gpu.cc.0, gpu.cc.1, gpu.sms, gpu.driver
    );
    if let Some(src) = &o.im2col {
        let rows = match src {
            Im2colRows::Generated(n) => im2col_gen::rows(*n, o.im2col_seed),
            Im2colRows::File(p) => std::fs::read_to_string(p)
                .unwrap_or_else(|e| panic!("--im2col-judge {}: {e}", p.display())),
        };
        let arch = if gpu.cc.0 >= 10 {
            smemdesc::Arch::Sm100
        } else {
            smemdesc::Arch::Sm90
        };
        match im2col_set::run(&rows, &o.out, arch) {
            Ok(j) => {
                let j = j.replacen(
                    '{',
                    &format!(
                        "{{\"device\": \"{}\", \"driver\": {}, \"seed\": {}, ",
                        gpu.name,
                        gpu.driver,
                        match src {
                            Im2colRows::Generated(_) => o.im2col_seed.to_string(),
                            Im2colRows::File(_) => "null".into(),
                        }
                    ),
                    1,
                );
                std::fs::write(o.out.join("im2col_driver_set.json"), &j).unwrap();
                print!("{j}");
                println!("im2col driver set in {}", o.out.display());
            }
            Err(e) => {
                eprintln!("im2col driver set: {e}");
                std::process::exit(2);
            }
        }
        return;
    }
    let mut log = String::new();
    let checks = if o.check {
        match checks::run_checks(&work, &mut log) {
            Ok(r) => r,
            Err(e) => {
                println!("check failed: {e}");
                writeln!(log, "check failed: {e}").unwrap();
                Vec::new()
            }
        }
    } else {
        Vec::new()
    };
    let gemm = if o.gemm {
        let r = gemm::run_gemm(&o, &work, &gpu, &mut log);
        if let Err(e) = &r {
            writeln!(log, "gemm failed: {e}").unwrap();
        }
        Some(r)
    } else {
        None
    };
    for f in ["gen_check.cu", "gen_gemm.cu", "gemm.cubin", "check.cubin"] {
        let _ = std::fs::copy(work.join(f), o.out.join(f));
    }
    report::write_results(&o.out, &gpu, &checks, gemm.as_ref(), &log).unwrap();
    if o.tensor_maps > 0 {
        let t = tmaps::run(o.tensor_maps, gpu.cc.0);
        println!(
            "tensor maps: {} accepted and encoded, {} rejected and refused by the driver, {} disagreements ({} unexplained)",
            t.accepted_and_encoded,
            t.rejected_and_driver_rejects,
            t.disagreements,
            t.unexplained()
        );
        for (kind, n) in &t.kinds {
            let why = tmaps::explanation(kind).unwrap_or("UNEXPLAINED");
            println!("  {n:7} {kind}: {why}");
        }
        for e in &t.examples {
            println!("  example: {e}");
        }
        // results.json is one object: add the counts as its first member.
        let path = o.out.join("results.json");
        let j = std::fs::read_to_string(&path).unwrap();
        let j = j.replacen("{\n", &format!("{{\n  \"tensor_maps\": {},\n", t.json()), 1);
        std::fs::write(&path, j).unwrap();
        let md = o.out.join("RESULTS.md");
        let text = std::fs::read_to_string(&md).unwrap_or_default();
        std::fs::write(&md, text + &t.markdown()).unwrap();
    }
    if let Some(Ok(g)) = &gemm {
        println!(
            "GEMM {s}^3: ours {:?} TFLOP/s, cuBLAS {:?}, ratio {:?}; cublasLt in-process {:?}, ratio {:?} ({:?})",
            g.tflops,
            g.cublas_tflops,
            report::ratio(g),
            g.cublaslt_tflops,
            report::lt_ratio(g),
            g.cublaslt_error,
            s = g.size
        );
    }
    println!("results in {}", o.out.display());
}
