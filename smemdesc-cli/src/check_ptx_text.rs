//! For `smemdesc check-ptx` ([`crate::check_ptx`]): where a panic comes from (smemdesc's
//! sources or the user's code) and how to remove it, and the text report.

use super::check_ptx::CheckReport;
use std::fmt::Write as _;
use std::path::Path;

/// `n` and `what`, plural unless `n` is 1.
pub fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The fix for a panic in the user's own code.
pub const USER_FIX: &str =
    "make the index/divisor provably in range or use a wrapping/checked form";

/// The fix for a call into smemdesc that was not inlined.
pub const SMEMDESC_CALL_FIX: &str = "everything a kernel reaches in smemdesc must inline (--emit asm writes only the kernel crate): use the #[smem_tile] type's constants and const fns, and report the function as an issue";

/// For a panic at `file`: the smemdesc API it comes from (when the file is smemdesc's) and the fix.
pub fn origin(file: &str) -> (Option<String>, String) {
    let Some(rel) = smemdesc_file(file) else {
        return (None, USER_FIX.to_string());
    };
    let (api, fix) = match rel.as_str() {
        "smemdesc-core/src/layout/algebra.rs" => (
            "Layout::eval / Mode::eval: a layout value evaluated at run time".to_string(),
            "use the tile's type-level accessors (Storage::a(base).desc(..), T::desc(..))",
        ),
        "smemdesc-core/src/tile/layout.rs" => (
            "TileLayout built at run time".to_string(),
            "build the tile in a `const` (a #[smem_tile] type's constants, or `const T: TileLayout = ...expect_valid()`)",
        ),
        _ => (
            format!("smemdesc ({rel})"),
            "a checked smemdesc function ran at run time: use the #[smem_tile] type's constants and const fns, or its value in a `const` item",
        ),
    };
    (Some(format!("{api} ({rel})")), fix.to_string())
}

/// `file` relative to smemdesc's repository (`smemdesc-core/src/...` or `src/...` of the facade)
/// when it is one of smemdesc's sources: a path inside a folder `smemdesc-core` or `smemdesc`
/// (also with a registry version, `smemdesc-core-0.1.0`), or an absolute path inside a crate
/// whose `Cargo.toml` names it `smemdesc`/`smemdesc-core`.
pub fn smemdesc_file(file: &str) -> Option<String> {
    let f = file.replace('\\', "/");
    let (dir, rel) = f.rsplit_once("/src/")?;
    let last = dir.rsplit('/').next().unwrap_or(dir);
    let versioned = |base: &str| {
        last == base
            || last
                .strip_prefix(base)
                .and_then(|r| r.strip_prefix('-'))
                .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
    };
    let krate = if versioned("smemdesc-core") {
        Some("smemdesc-core".to_string())
    } else if versioned("smemdesc") {
        Some("smemdesc".to_string())
    } else if dir.starts_with('/') || dir.chars().nth(1) == Some(':') {
        package_name(&Path::new(dir).join("Cargo.toml"))
    } else {
        None
    };
    match krate.as_deref() {
        Some("smemdesc-core") => Some(format!("smemdesc-core/src/{rel}")),
        Some("smemdesc") => Some(format!("src/{rel}")),
        _ => None,
    }
}

/// The `name = "..."` of a manifest's `[package]`, when the file can be read.
fn package_name(manifest: &Path) -> Option<String> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let package = text.split("[package]").nth(1)?;
    package.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == "name").then(|| v.trim().trim_matches('"').to_string())
    })
}

/// The text report: one section per kind of problem, then the summary line.
pub fn render_text(r: &CheckReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {} ({})",
        r.file,
        count(r.kernels.len(), "kernel"),
        r.kernels.join(", ")
    );
    if !r.extern_funcs.is_empty() {
        s.push_str(
            ".extern .func (defined by no module: the driver refuses to load the module):\n",
        );
        for e in &r.extern_funcs {
            let _ = writeln!(
                s,
                "  line {}: {} ({}), {}",
                e.line,
                e.demangled,
                e.name,
                count(e.calls, "call")
            );
        }
    }
    if !r.calls.is_empty() {
        s.push_str("calls:\n");
        for c in &r.calls {
            let _ = write!(s, "  {}, line {}: call {}", c.function, c.line, c.demangled);
            if c.panic {
                match &c.location {
                    Some(l) => {
                        let _ = write!(s, ": panic at {l}");
                    }
                    None => s.push_str(": panic (location not found)"),
                }
            }
            s.push('\n');
            if let Some(src) = &c.source {
                let _ = writeln!(s, "    from smemdesc: {src}");
            } else if c.location.is_some() {
                s.push_str("    from your code\n");
            }
            if let Some(fix) = &c.fix {
                let _ = writeln!(s, "    fix: {fix}");
            }
        }
    }
    if !r.tables.is_empty() {
        s.push_str(".global/.const data (read from memory at run time):\n");
        for t in &r.tables {
            let size = t
                .size
                .map_or("size unknown".to_string(), |b| format!("{b} bytes"));
            let ext = if t.external {
                ", .extern (defined by no module)"
            } else {
                ""
            };
            let used = if t.used_by.is_empty() {
                "named by no function".to_string()
            } else {
                format!("used by {}", t.used_by.join(", "))
            };
            let _ = writeln!(
                s,
                "  line {}: {} (.{}, {size}{ext}), {used}",
                t.line, t.demangled, t.space
            );
        }
        s.push_str("    fix: index tables with values known at compile time (unrolled loops, const generics) or compute the value; a `static`, or a `const` array indexed at run time, stays in memory\n");
    }
    if !r.panic_data.is_empty() {
        let _ = writeln!(
            s,
            "panic locations (go with the panic calls): {}",
            r.panic_data.join(", ")
        );
    }
    if !r.local_depots.is_empty() {
        s.push_str("local memory (per thread, in device memory):\n");
        for l in &r.local_depots {
            let size = l
                .size
                .map_or("size unknown".to_string(), |b| format!("{b} bytes"));
            let kind = if l.kernel { "kernel" } else { "function" };
            let _ = writeln!(
                s,
                "  line {}: {}: {size} in {kind} {}",
                l.line, l.name, l.function
            );
            if let Some(z) = l.zeroing_loop {
                let _ = writeln!(
                    s,
                    "    why: a zeroing loop: the loop storing zeros from line {z}"
                );
            }
            if let Some(a) = &l.accumulator {
                let what = if l.accumulator_exact {
                    "the size of"
                } else {
                    "holds at least"
                };
                let _ = writeln!(s, "    why: {what} the function's wgmma accumulator {a}");
            }
        }
        let zeroing = r.local_depots.iter().any(|l| l.zeroing_loop.is_some());
        let accumulator = r.local_depots.iter().any(|l| l.accumulator.is_some());
        if zeroing {
            let _ = writeln!(s, "    fix: {}", super::check_ptx_why::ZEROING_FIX);
        }
        if accumulator {
            let _ = writeln!(s, "    fix: {}", super::check_ptx_why::ACCUMULATOR_FIX);
        }
        if r.local_depots
            .iter()
            .any(|l| l.zeroing_loop.is_none() && l.accumulator.is_none())
        {
            s.push_str("    fix: an array indexed at run time (or spilled registers): index with values known at compile time or keep the values in scalars\n");
        }
    }
    s.push_str(&r.summary);
    s.push('\n');
    s
}
