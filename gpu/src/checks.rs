//! The layout-class checks: every class of `plan::classes()` loads its tiles with TMA (smemdesc's
//! boxes) and multiplies them with wgmma (smemdesc's descriptors), each in a child process, and is
//! compared exactly against a CPU reference; the device's descriptors are compared with `try_desc`.

use crate::cuda;
use crate::data::{encode, Lcg};
use crate::plan::{self, BuiltClass, ClassCfg};
use smemdesc_core::Major;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const COMMON: &str = include_str!("../kernels/common.cuh");
const CHECK: &str = include_str!("../kernels/check.cu");

pub(crate) struct ClassResult {
    pub(crate) name: String,
    pub(crate) negative: bool,
    pub(crate) elements: usize,
    pub(crate) mismatches: usize,
    pub(crate) desc_match: bool,
    pub(crate) first_bad: String,
    pub(crate) error: Option<String>,
    pub(crate) info: String,
    /// Bytes past the 1024-aligned base where A sits.
    pub(crate) smem_offset: u32,
    /// How A's bytes were written: `absolute` or `relative` (spec §7).
    pub(crate) placement: &'static str,
}

pub(crate) fn operand_info(op: &plan::BuiltOperand, cfg: plan::OperandCfg) -> String {
    format!(
        "{{\"major\":\"{}\",\"swizzle\":\"{:?}\",\"order\":\"{:?}\",\"lbo\":{},\"sbo\":{},\"layout_type\":{},\"stage_bytes\":{},\"mmas_mn\":{},\"mmas_k\":{},\"boxes_per_stage\":{},\"box\":[{},{}],\"box_source\":\"{}\"}}",
        if cfg.major == Major::K { "K" } else { "MN" },
        cfg.swizzle,
        cfg.order,
        op.tile.lbo(),
        op.tile.sbo(),
        op.tile.layout_type(),
        op.tile.stage_bytes(),
        op.tile.mmas_mn(),
        op.tile.mmas_k(),
        op.tma.boxes.len(),
        op.tma.box_inner,
        op.tma.box_rows,
        op.tma.source
    )
}

/// `globalDim` (innermost first) and the row stride in bytes of a dense `mn × k` operand.
pub(crate) fn map_dims(major: Major, mn: u64, k: u64, elem_bytes: u64) -> ([u64; 2], u64) {
    match major {
        Major::K => ([k, mn], k * elem_bytes),
        Major::Mn => ([mn, k], mn * elem_bytes),
    }
}

/// Runs class `idx` from a compiled check cubin in this process.
pub(crate) fn run_class(
    idx: usize,
    c: &BuiltClass,
    module: &cuda::Module,
) -> cuda::Res<(usize, usize, bool, String)> {
    let cfg = &c.cfg;
    let dtype = cfg.dtype;
    let m = c.a.tile.spec().tile_mn as usize;
    let n = c.b.tile.spec().tile_mn as usize;
    let ktot = (c.a.tile.spec().tile_k * plan::CHECK_STAGES) as usize;
    let mut rng = Lcg(0x5eed + idx as u64 * 7919);
    let av: Vec<i32> = (0..m * ktot).map(|_| rng.small()).collect();
    let bv: Vec<i32> = (0..n * ktot).map(|_| rng.small()).collect();
    let ga = cuda::Buf::from(&encode(&av, m, ktot, cfg.a.major, dtype))?;
    let gb = cuda::Buf::from(&encode(&bv, n, ktot, cfg.b.major, dtype))?;
    let eb = dtype.smem_bytes() as u64;
    let map = |op: &plan::BuiltOperand, major: Major, g: &cuda::Buf, mn: usize| {
        let (dims, stride) = map_dims(major, mn as u64, ktot as u64, eb);
        cuda::tensor_map(
            op.tma.data_type,
            op.tma.swizzle,
            g.ptr,
            dims,
            stride,
            [op.tma.box_inner, op.tma.box_rows],
        )
    };
    let ma = map(&c.a, cfg.a.major, &ga, m)?;
    let mb = map(&c.b, cfg.b.major, &gb, n)?;
    let out = cuda::Buf::new(m * n * 4)?;
    out.fill(0xFF)?; // NaN poison
    let ndesc = c.a.desc0.len() + c.b.desc0.len();
    let dbg = cuda::Buf::new((2 + ndesc) * 8)?;
    let smem = plan::check_smem_bytes(c);
    let k = module.kernel(&format!("check_{idx}"), smem)?;
    k.launch(
        1,
        128,
        &[
            cuda::Arg::Map(&ma.map),
            cuda::Arg::Map(&mb.map),
            cuda::Arg::Ptr(out.ptr),
            cuda::Arg::Ptr(dbg.ptr),
        ],
    )?;
    cuda::sync()?;
    let mut d = vec![0f32; m * n];
    out.read(&mut d)?;
    let mut used = vec![0u64; 2 + ndesc];
    dbg.read(&mut used)?;
    // Device descriptors must equal smemdesc's (placed) try_desc at the actual tile bases.
    let (a_base, b_base) = (used[0] as u32, used[1] as u32);
    let mut desc_match = true;
    let mut idxd = 2;
    let a_at = (cfg.desc_model(), a_base);
    let b_at = (smemdesc_core::Placement::Absolute, b_base);
    for (op, (model, base), neg) in [(&c.a, a_at, cfg.wrong_sbo), (&c.b, b_at, false)] {
        for s in 0..plan::CHECK_STAGES {
            for kk in 0..op.tile.mmas_k() {
                for i in 0..op.tile.mmas_mn() {
                    let want = crate::placement::placed_desc(&op.tile, model, base, i, kk, s)?;
                    let want = if neg {
                        plan::with_wrong_sbo(want)?
                    } else {
                        want.raw()
                    };
                    desc_match &= used[idxd] == want;
                    idxd += 1;
                }
            }
        }
    }
    let (bad, first) = crate::data::exact_mismatches(&av, &bv, &d, (m, n, ktot));
    Ok((m * n, bad, desc_match, first))
}

pub(crate) fn class_subprocess(idx: usize, cubin: &Path) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(exe)
        .arg("--run-class")
        .arg(idx.to_string())
        .arg(cubin)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    loop {
        if let Some(_st) = child.try_wait().map_err(|e| e.to_string())? {
            let o = child.wait_with_output().map_err(|e| e.to_string())?;
            let s = String::from_utf8_lossy(&o.stdout).to_string();
            if let Some(line) = s.lines().find(|l| l.starts_with("RESULT ")) {
                return Ok(line[7..].to_string());
            }
            return Err(format!(
                "class process failed: {}{}",
                s.trim(),
                String::from_utf8_lossy(&o.stderr).trim()
            ));
        }
        if t0.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            return Err("timeout (60 s)".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub(crate) fn check_source(built: &[BuiltClass]) -> Result<String, String> {
    Ok(format!(
        "{COMMON}\n{}\n{CHECK}\n{}",
        crate::gen::check_wrappers(),
        crate::gen::check_header(built)?
    ))
}

pub(crate) fn run_checks(work: &Path, log: &mut String) -> cuda::Res<Vec<ClassResult>> {
    let classes: Vec<ClassCfg> = plan::classes();
    let built: Vec<BuiltClass> = classes
        .iter()
        .map(|c| c.build())
        .collect::<Result<_, _>>()?;
    let src = check_source(&built)?;
    std::fs::write(work.join("gen_check.cu"), &src).map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    let (cubin, how) = cuda::compile(&src, "check", work)?;
    let cubin_path = work.join("check.cubin");
    std::fs::write(&cubin_path, &cubin).map_err(|e| e.to_string())?;
    writeln!(
        log,
        "check module: {} kernels compiled by {how} in {:.1} s",
        built.len(),
        t0.elapsed().as_secs_f32()
    )
    .unwrap();
    let mut res = Vec::new();
    for (i, c) in built.iter().enumerate() {
        let info = format!(
            "{{\"dtype\":\"{}\",\"a\":{},\"b\":{}}}",
            c.cfg.dtype.name(),
            operand_info(&c.a, c.cfg.a),
            operand_info(&c.b, c.cfg.b)
        );
        let mut r = ClassResult {
            name: c.cfg.name.clone(),
            negative: c.cfg.negative(),
            elements: 0,
            mismatches: 0,
            desc_match: false,
            first_bad: String::new(),
            error: None,
            info,
            smem_offset: c.cfg.smem_offset,
            placement: c.cfg.placement.name(),
        };
        match class_subprocess(i, &cubin_path) {
            Ok(line) => {
                let f: Vec<&str> = line.splitn(4, ' ').collect();
                r.elements = f[0].parse().unwrap_or(0);
                r.mismatches = f[1].parse().unwrap_or(0);
                r.desc_match = f[2] == "1";
                r.first_bad = f.get(3).unwrap_or(&"").to_string();
            }
            Err(e) => r.error = Some(e),
        }
        let verdict = verdict(&r);
        let line = format!(
            "{:3} {:46} {:5} mism {:5}/{:5} desc {} {}",
            i,
            r.name,
            verdict,
            r.mismatches,
            r.elements,
            if r.desc_match { "ok" } else { "DIFF" },
            r.error.clone().unwrap_or(r.first_bad.clone())
        );
        println!("{line}");
        writeln!(log, "{line}").unwrap();
        res.push(r);
    }
    Ok(res)
}

pub(crate) fn verdict(r: &ClassResult) -> &'static str {
    if r.error.is_some() {
        "ERROR"
    } else if r.negative {
        if r.mismatches > 0 {
            "PASS"
        } else {
            "FAIL"
        }
    } else if r.mismatches == 0 && r.desc_match && r.elements > 0 {
        "PASS"
    } else {
        "FAIL"
    }
}

pub(crate) fn child_main(idx: usize, cubin: &Path) {
    let run = || -> cuda::Res<(usize, usize, bool, String)> {
        let _gpu = cuda::Gpu::new()?;
        let c = plan::classes()[idx].build()?;
        let bin = std::fs::read(cubin).map_err(|e| e.to_string())?;
        let m = cuda::Module::load(&bin)?;
        run_class(idx, &c, &m)
    };
    match run() {
        Ok((n, bad, dm, first)) => println!("RESULT {n} {bad} {} {first}", u8::from(dm)),
        Err(e) => {
            println!("ERR {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_source_is_self_contained() {
        let built: Vec<_> = plan::classes().iter().map(|c| c.build().unwrap()).collect();
        let s = check_source(&built).unwrap();
        assert!(!s.contains("#include"));
        assert!(s.contains("check_body<"));
    }
}
