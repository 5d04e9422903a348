//! Reporting: `results.json` and `RESULTS.md` from the check and GEMM results.

use crate::checks::{verdict, ClassResult};
use crate::cuda;
use crate::gemm::{median_f64, GemmResult};
use std::fmt::Write as _;
use std::path::Path;

/// Median of our timings over the median of cuBLAS's (alternating runs).
pub(crate) fn ratio(g: &GemmResult) -> Option<f64> {
    Some(median_f64(&g.tflops)? / median_f64(&g.cublas_tflops)?)
}

/// Median ours over median in-process cublasLt.
pub(crate) fn lt_ratio(g: &GemmResult) -> Option<f64> {
    Some(median_f64(&g.tflops)? / median_f64(&g.cublaslt_tflops)?)
}

/// The `"cublaslt_in_process"` object of results.json.
fn lt_json(g: &GemmResult) -> String {
    format!(
        "{{\"tflops\": {:?}, \"median_tflops\": {}, \"ours_over_cublaslt\": {}, \"error\": {}}}",
        g.cublaslt_tflops
            .iter()
            .map(|t| (t * 10.0).round() / 10.0)
            .collect::<Vec<_>>(),
        median_f64(&g.cublaslt_tflops)
            .map(|x| format!("{x:.1}"))
            .unwrap_or("null".into()),
        lt_ratio(g)
            .map(|x| format!("{x:.4}"))
            .unwrap_or("null".into()),
        g.cublaslt_error
            .as_deref()
            .map(json_str)
            .unwrap_or("null".into()),
    )
}

pub(crate) fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => {}
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

pub(crate) fn date_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let days = secs.div_euclid(86400);
    let tod = secs.rem_euclid(86400);
    // civil from days (Howard Hinnant's algorithm)
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        tod / 3600,
        (tod / 60) % 60
    )
}

pub(crate) fn write_results(
    out: &Path,
    gpu: &cuda::Gpu,
    checks: &[ClassResult],
    gemm: Option<&Result<GemmResult, String>>,
    log: &str,
) -> std::io::Result<()> {
    std::fs::create_dir_all(out)?;
    let date = date_utc();
    let positives: Vec<&ClassResult> = checks.iter().filter(|r| !r.negative).collect();
    let passed = positives.iter().filter(|r| verdict(r) == "PASS").count();
    let mut j = String::from("{\n");
    writeln!(j, "  \"device\": {},", json_str(&gpu.name)).unwrap();
    writeln!(
        j,
        "  \"compute_capability\": \"{}.{}\",",
        gpu.cc.0, gpu.cc.1
    )
    .unwrap();
    writeln!(j, "  \"multiprocessors\": {},", gpu.sms).unwrap();
    writeln!(j, "  \"driver_version\": {},", gpu.driver).unwrap();
    writeln!(j, "  \"date\": {},", json_str(&date)).unwrap();
    writeln!(
        j,
        "  \"classes_passed\": {passed},\n  \"classes_total\": {},",
        positives.len()
    )
    .unwrap();
    j.push_str("  \"classes\": [\n");
    for (i, r) in checks.iter().enumerate() {
        writeln!(
            j,
            "    {{\"name\": {}, \"negative_control\": {}, \"verdict\": \"{}\", \"elements\": {}, \"mismatches\": {}, \"descriptors_match_try_desc\": {}, \"first_mismatch\": {}, \"error\": {}, \"smem_offset\": {}, \"placement\": \"{}\", \"layout\": {}}}{}",
            json_str(&r.name),
            r.negative,
            verdict(r),
            r.elements,
            r.mismatches,
            r.desc_match,
            json_str(&r.first_bad),
            r.error.as_deref().map(json_str).unwrap_or("null".into()),
            r.smem_offset,
            r.placement,
            r.info,
            if i + 1 < checks.len() { "," } else { "" }
        )
        .unwrap();
    }
    j.push_str("  ],\n");
    match gemm {
        Some(Ok(g)) => {
            let vs: Vec<String> = g
                .variants
                .iter()
                .map(|v| {
                    format!(
                        "{{\"kernel\": {}, \"grid\": {}, \"rel_err_vs_f64\": {:.3e}, \"nan_outputs\": {}, \"regs_per_thread_at_entry\": {}, \"local_bytes\": {}, \"group_m_sweep\": [{}]}}",
                        json_str(&v.name),
                        v.grid,
                        v.rel_err,
                        v.nan_count,
                        v.regs,
                        v.local,
                        v.sweep
                            .iter()
                            .map(|(gm, ms, tf)| format!(
                                "{{\"group_m\": {gm}, \"median_ms\": {ms}, \"tflops\": {tf:.1}}}"
                            ))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
                .collect();
            writeln!(
                j,
                "  \"gemm\": {{\"m\": {s}, \"n\": {s}, \"k\": {s}, \"dtype\": \"bf16 in, fp32 accumulate, bf16 out\", \"compiler\": {}, \"best_kernel\": {}, \"best_group_m\": {}, \"warmup_s\": {}, \"iters_per_timing\": {}, \"contenders\": [{}], \"median_ms\": {:?}, \"tflops\": {:?}, \"ours_median_tflops\": {}, \"cublas_tflops\": {:?}, \"cublas_median_tflops\": {}, \"ours_over_cublas\": {}, \"sass\": {}, \"variants\": [{}], \"cublas\": [{}], \"cublaslt_in_process\": {}}}",
                json_str(&g.how),
                json_str(&g.best.0),
                g.best.1,
                g.warmup_s,
                g.iters,
                g.contenders
                    .iter()
                    .map(|(n, gm, t)| format!(
                        "{{\"kernel\": {}, \"group_m\": {gm}, \"tflops\": {:?}, \"median_tflops\": {}}}",
                        json_str(n),
                        t,
                        median_f64(t).map(|x| format!("{x:.1}")).unwrap_or("null".into())
                    ))
                    .collect::<Vec<_>>()
                    .join(", "),
                g.ms_median,
                g.tflops,
                median_f64(&g.tflops).map(|x| format!("{x:.1}")).unwrap_or("null".into()),
                g.cublas_tflops,
                median_f64(&g.cublas_tflops).map(|x| format!("{x:.1}")).unwrap_or("null".into()),
                ratio(g).map(|x| format!("{x:.4}")).unwrap_or("null".into()),
                json_str(&g.sass),
                vs.join(", "),
                g.cublas.join(", "),
                lt_json(g),
                s = g.size
            )
            .unwrap();
        }
        Some(Err(e)) => writeln!(j, "  \"gemm\": {{\"error\": {}}}", json_str(e)).unwrap(),
        None => j.push_str("  \"gemm\": null\n"),
    }
    j.push_str("}\n");
    std::fs::write(out.join("results.json"), j)?;

    let mut md = String::new();
    writeln!(md, "# smemdesc GPU check results\n").unwrap();
    writeln!(
        md,
        "Device: **{}** (sm_{}{}, {} SMs, driver {}), {}\n",
        gpu.name, gpu.cc.0, gpu.cc.1, gpu.sms, gpu.driver, date
    )
    .unwrap();
    writeln!(
        md,
        "Layout classes passed: **{passed} / {}** (TMA with smemdesc boxes, wgmma with smemdesc descriptors, exact compare vs CPU).\n",
        positives.len()
    )
    .unwrap();
    md.push_str("| # | class | verdict | mismatches / elements | device descriptors == try_desc | note |\n|---|---|---|---|---|---|\n");
    for (i, r) in checks.iter().enumerate() {
        writeln!(
            md,
            "| {i} | {} | {} | {} / {} | {} | {} |",
            r.name,
            verdict(r),
            r.mismatches,
            r.elements,
            r.desc_match,
            r.error.clone().unwrap_or(r.first_bad.clone())
        )
        .unwrap();
    }
    if let Some(n) = checks.iter().find(|r| r.negative) {
        writeln!(
            md,
            "\nNegative control (A's SBO doubled): {} of {} elements wrong -> {}.",
            n.mismatches,
            n.elements,
            if n.mismatches > 0 {
                "mismatch, as it must"
            } else {
                "NO MISMATCH (the check would be blind)"
            }
        )
        .unwrap();
    }
    match gemm {
        Some(Ok(g)) => {
            writeln!(
                md,
                "\n## GEMM {s}x{s}x{s} bf16 (fp32 accumulate, bf16 out)\n",
                s = g.size
            )
            .unwrap();
            md.push_str("| kernel | grid | rel. err vs f64 (2048 samples) | NaN outputs | regs at entry | local B | TFLOP/s by group_m |\n|---|---|---|---|---|---|---|\n");
            for v in &g.variants {
                writeln!(
                    md,
                    "| {} | {} | {:.2e} | {} | {} | {} | {} |",
                    v.name,
                    v.grid,
                    v.rel_err,
                    v.nan_count,
                    v.regs,
                    v.local,
                    v.sweep
                        .iter()
                        .map(|(gm, _, tf)| format!("{gm}: {tf:.1}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
                .unwrap();
            }
            writeln!(
                md,
                "\nTimed in {} alternating rounds; each timing (ours and cuBLAS alike) is a median of {} after {} s of warm-up of the same GEMM.\n\n{}\nBest: `{}` group_m {}: {:?} TFLOP/s per round.\n\nSASS: {}\n\ncuBLAS (torch.matmul, same run, alternating): {:?} TFLOP/s\n\n```\n{}\n```",
                g.tflops.len(),
                g.iters,
                g.warmup_s,
                g.contenders
                    .iter()
                    .map(|(n, gm, t)| format!(
                        "- `{n}` group_m {gm}: {:?} TFLOP/s, median {:.1}\n",
                        t.iter().map(|x| format!("{x:.1}")).collect::<Vec<_>>(),
                        median_f64(t).unwrap_or(0.0)
                    ))
                    .collect::<String>(),
                g.best.0,
                g.best.1,
                g.tflops.iter().map(|t| format!("{t:.1}")).collect::<Vec<_>>(),
                g.sass,
                g.cublas_tflops.iter().map(|t| format!("{t:.1}")).collect::<Vec<_>>(),
                g.cublas.join("\n")
            )
            .unwrap();
            if let Some(r) = ratio(g) {
                writeln!(md, "\nmedian ours / median cuBLAS = **{:.1}%**", 100.0 * r).unwrap();
            }
            match (lt_ratio(g), &g.cublaslt_error) {
                (Some(r), _) => writeln!(
                    md,
                    "\ncuBLAS in this process (cublasLt, A · Bᵀ, timed after ours or before it in alternate rounds): {:?} TFLOP/s; median ours / median cublasLt = **{:.1}%**",
                    g.cublaslt_tflops.iter().map(|t| format!("{t:.1}")).collect::<Vec<_>>(),
                    100.0 * r
                )
                .unwrap(),
                (None, Some(e)) => writeln!(md, "\ncublasLt in this process: {e}").unwrap(),
                (None, None) => {}
            }
        }
        Some(Err(e)) => writeln!(md, "\nGEMM error: {e}").unwrap(),
        None => {}
    }
    writeln!(md, "\n## Log\n\n```\n{log}```").unwrap();
    std::fs::write(out.join("RESULTS.md"), md)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_format() {
        assert!(date_utc().ends_with("UTC"));
    }
}
