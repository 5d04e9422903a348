//! `smemdesc check-ptx FILE.ptx`: why a PTX module that rustc wrote for nvptx64 (`--emit asm`)
//! would be refused by the driver, or is slow.
//!
//! * every `.extern .func` (no module defines it, so loading fails) and every call to one; for a
//!   panic, the source location `file:line:col` read from the `Location` data the call passes,
//!   and which smemdesc API it comes from when the file is smemdesc's;
//! * every `.global`/`.const` variable (a table or a copy of a layout in memory): its size and the
//!   functions that read it;
//! * every `.local` declaration (`__local_depot`: per-thread local memory) and its function.
//!
//! The module is read by [`crate::check_ptx_parse`]; [`crate::check_ptx_text`] writes the report.

use super::check_ptx_parse::{self as parse, DataVar, Function, Module};
use super::check_ptx_text::{count, origin, SMEMDESC_CALL_FIX, USER_FIX};
use crate::CliError;
use serde::Serialize;
use std::collections::HashSet;
use std::path::Path;

/// An `.extern .func` declaration.
#[derive(Debug, Serialize)]
pub struct ExternReport {
    /// The symbol as written.
    pub name: String,
    /// The symbol demangled (the name itself when it is no Rust symbol).
    pub demangled: String,
    /// 1-based line of the declaration.
    pub line: usize,
    /// How many calls the module makes to it.
    pub calls: usize,
}

/// A call to an `.extern .func`.
#[derive(Debug, Serialize)]
pub struct CallReport {
    /// The calling function (demangled).
    pub function: String,
    /// 1-based line of the `call`.
    pub line: usize,
    /// The callee as written.
    pub callee: String,
    /// The callee demangled.
    pub demangled: String,
    /// Whether the callee is one of core's panic functions.
    pub panic: bool,
    /// For a panic: `file:line:col` from the `Location` the call passes, when found.
    pub location: Option<String>,
    /// For a panic in smemdesc's sources: the API it comes from.
    pub source: Option<String>,
    /// For a panic: how to get rid of it.
    pub fix: Option<String>,
}

/// A module-scope `.global` or `.const` variable.
#[derive(Debug, Serialize)]
pub struct TableReport {
    /// The variable's name as written.
    pub name: String,
    /// The name demangled.
    pub demangled: String,
    /// `global` or `const`.
    pub space: &'static str,
    /// Size in bytes (`null` when the declaration leaves a dimension open).
    pub size: Option<u64>,
    /// Declared `.extern`: defined by another module, which the driver will not find.
    pub external: bool,
    /// 1-based line of the declaration.
    pub line: usize,
    /// The functions whose bodies name it (demangled).
    pub used_by: Vec<String>,
}

/// A `.local` declaration in a function (`__local_depot<N>`: the function's local memory).
#[derive(Debug, Serialize)]
pub struct LocalReport {
    /// The variable's name.
    pub name: String,
    /// Size in bytes.
    pub size: Option<u64>,
    /// The function it belongs to (demangled).
    pub function: String,
    /// Whether that function is a kernel (`.entry`).
    pub kernel: bool,
    /// 1-based line of the declaration.
    pub line: usize,
    /// The line of the first zero store of a loop that zeroes local memory (`[0f32; N]` in the
    /// kernel), when the function has one.
    pub zeroing_loop: Option<usize>,
    /// The function's `wgmma` accumulator the depot equals or holds (e.g.
    /// `m64n256 f32 (512 bytes)`), when its size is at least one.
    pub accumulator: Option<String>,
    /// The depot's size is exactly that accumulator's (or a sum of the function's accumulators).
    pub accumulator_exact: bool,
}

/// Everything `check-ptx` reports about a module.
#[derive(Debug, Serialize)]
pub struct CheckReport {
    /// The file as given.
    pub file: String,
    /// The kernels (`.entry`) defined.
    pub kernels: Vec<String>,
    /// The `.extern .func` declarations.
    pub extern_funcs: Vec<ExternReport>,
    /// The calls to them.
    pub calls: Vec<CallReport>,
    /// The `.global`/`.const` variables, less the panic locations of `calls`.
    pub tables: Vec<TableReport>,
    /// The `.global` variables that are the panics' `Location`s and file names (they go with the
    /// panic calls, and are not counted).
    pub panic_data: Vec<String>,
    /// The `.local` declarations.
    pub local_depots: Vec<LocalReport>,
    /// Calls + uncalled `.extern .func`s + tables + local declarations.
    pub problems: usize,
    /// No problem.
    pub clean: bool,
    /// The last line of the text report.
    pub summary: String,
}

/// Reads `path` and checks it: the report (text, or JSON with `json`) and whether it found
/// problems (exit status 1).
pub fn run(path: &Path, json: bool) -> Result<(String, bool), CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
    let r = check(&path.display().to_string(), &text);
    let out = if json {
        serde_json::to_string_pretty(&r)
            .map(|s| s + "\n")
            .map_err(|e| CliError(format!("JSON encoding failed: {e}")))?
    } else {
        super::check_ptx_text::render_text(&r)
    };
    Ok((out, !r.clean))
}

/// Demangles a Rust symbol (legacy `_ZN...E` or v0 `_R...`), without the hash; other names as
/// they are. NVPTX writes a `.` of a symbol as `_$_`, which is undone when that demangles.
pub fn demangle(name: &str) -> String {
    let try_one = |s: &str| {
        rustc_demangle::try_demangle(s)
            .ok()
            .map(|d| format!("{d:#}"))
    };
    try_one(name)
        .or_else(|| try_one(&name.replace("_$_", ".")))
        .unwrap_or_else(|| name.to_string())
}

/// Whether a demangled callee is one of core's panic entry points.
fn is_panic(demangled: &str) -> bool {
    let last = demangled.rsplit("::").next().unwrap_or(demangled);
    demangled.contains("panic")
        || last.ends_with("_failed")
        || last.ends_with("_fail")
        || last.starts_with("slice_index")
}

/// A call to an extern function, as found in a body.
struct RawCall {
    line: usize,
    callee: String,
    /// The symbols whose addresses the call's parameters hold.
    args: Vec<String>,
}

/// What one function body does: extern calls, the data it names, its `.local` declarations.
fn scan(f: &Function, externs: &HashSet<&str>, data: &HashSet<&str>) -> ScanOut {
    let mut out = ScanOut::default();
    // Registers holding a data symbol's address (`mov.b64 %rd7, sym;` `cvta.global.u64 %rd8, %rd7;`).
    let mut reg_sym: Vec<(String, String)> = Vec::new();
    let mut params: Vec<String> = Vec::new();
    for (line, text) in &f.body {
        let mut t = text.as_str();
        if t.starts_with('@') {
            t = t
                .split_once(char::is_whitespace)
                .map_or("", |x| x.1)
                .trim_start();
        }
        if t.starts_with(".local") {
            if let Some(v) = parse::data_decl(t.trim_end_matches(';'), *line) {
                out.locals.push(v);
            }
            continue;
        }
        if t == "{" {
            params.clear();
        }
        for id in identifiers(t) {
            if data.contains(id) {
                out.refs.insert(id.to_string());
            }
        }
        let (op, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        let operands: Vec<&str> = rest
            .trim_end_matches(';')
            .split(',')
            .map(str::trim)
            .collect();
        if op.starts_with("mov") || (op.starts_with("cvta") && !op.starts_with("cvta.to")) {
            if let [dst, src] = operands[..] {
                let sym = if data.contains(src) {
                    Some(src.to_string())
                } else {
                    reg_sym
                        .iter()
                        .find(|(r, _)| r == src)
                        .map(|(_, s)| s.clone())
                };
                reg_sym.retain(|(r, _)| r != dst);
                if let Some(s) = sym {
                    reg_sym.push((dst.to_string(), s));
                }
            }
        } else if op.starts_with("st.param") {
            if let Some((_, s)) = reg_sym
                .iter()
                .find(|(r, _)| Some(r.as_str()) == operands.get(1).copied())
            {
                params.push(s.clone());
            }
        } else if op.starts_with("call") {
            let mut c = rest.trim_start();
            if c.starts_with('(') {
                c = c.find(')').map_or("", |p| &c[p + 1..]);
                c = c.trim_start().trim_start_matches(',').trim_start();
            }
            let callee: String = c.chars().take_while(|&ch| parse::ident_char(ch)).collect();
            if externs.contains(callee.as_str()) {
                out.calls.push(RawCall {
                    line: *line,
                    callee,
                    args: std::mem::take(&mut params),
                });
            }
            params.clear();
        }
    }
    out
}

/// What [`scan`] finds in one body.
#[derive(Default)]
struct ScanOut {
    calls: Vec<RawCall>,
    refs: HashSet<String>,
    locals: Vec<DataVar>,
}

/// The identifiers of an instruction line that are not registers (`%rd1`) or directives.
fn identifiers(t: &str) -> impl Iterator<Item = &str> {
    t.split(|c: char| !parse::ident_char(c) && c != '%' && c != '.')
        .filter(|w| !w.is_empty() && !w.starts_with('%') && !w.contains('.'))
}

/// Checks the PTX `text` of the file `name`.
pub fn check(name: &str, text: &str) -> CheckReport {
    let m: Module = parse::parse(text);
    let externs: HashSet<&str> = m.externs.iter().map(|e| e.name.as_str()).collect();
    let data_names: HashSet<&str> = m.data.iter().map(|d| d.name.as_str()).collect();
    let mut calls = Vec::new();
    let mut tables_used: Vec<(String, String)> = Vec::new();
    let mut local_depots = Vec::new();
    let mut panic_data: Vec<String> = Vec::new();
    for f in &m.functions {
        let fname = demangle(&f.name);
        let s = scan(f, &externs, &data_names);
        for c in s.calls {
            let demangled = demangle(&c.callee);
            let panic = is_panic(&demangled);
            let mut report = CallReport {
                function: fname.clone(),
                line: c.line,
                callee: c.callee,
                demangled,
                panic,
                location: None,
                source: None,
                fix: None,
            };
            if panic {
                let found = c.args.iter().find_map(|a| {
                    let var = m.data.iter().find(|d| &d.name == a)?;
                    parse::location(var, &m.data).map(|l| (var, l))
                });
                if let Some((var, (file, line, col))) = found {
                    report.location = Some(format!("{file}:{line}:{col}"));
                    panic_data.push(var.name.clone());
                    panic_data.extend(var.relocs.first().map(|r| r.symbol.clone()));
                    let (source, fix) = origin(&file);
                    report.source = source;
                    report.fix = Some(fix);
                } else {
                    report.fix = Some(USER_FIX.to_string());
                }
            } else if ["smemdesc_core::", "smemdesc::"]
                .iter()
                .any(|p| report.demangled.starts_with(p))
            {
                report.source = Some(format!("{}, not inlined", report.demangled));
                report.fix = Some(SMEMDESC_CALL_FIX.to_string());
            }
            calls.push(report);
        }
        tables_used.extend(s.refs.into_iter().map(|r| (r, fname.clone())));
        local_depots.extend(s.locals.into_iter().map(|v| {
            let why = super::check_ptx_why::why(f, v.size);
            LocalReport {
                name: v.name,
                size: v.size,
                function: fname.clone(),
                kernel: f.kernel,
                line: v.line,
                zeroing_loop: why.zeroing_loop,
                accumulator: why.accumulator,
                accumulator_exact: why.exact,
            }
        }));
    }
    panic_data.sort();
    panic_data.dedup();
    let tables: Vec<TableReport> = m
        .data
        .iter()
        .filter(|d| !panic_data.contains(&d.name))
        .map(|d| {
            let mut used_by: Vec<String> = tables_used
                .iter()
                .filter(|(n, _)| *n == d.name)
                .map(|(_, f)| f.clone())
                .collect();
            used_by.dedup();
            TableReport {
                name: d.name.clone(),
                demangled: demangle(&d.name),
                space: d.space,
                size: d.size,
                external: d.external,
                line: d.line,
                used_by,
            }
        })
        .collect();
    let extern_funcs: Vec<ExternReport> = m
        .externs
        .iter()
        .map(|e| ExternReport {
            name: e.name.clone(),
            demangled: demangle(&e.name),
            line: e.line,
            calls: calls.iter().filter(|c| c.callee == e.name).count(),
        })
        .collect();
    let kernels: Vec<String> = m
        .functions
        .iter()
        .filter(|f| f.kernel)
        .map(|f| demangle(&f.name))
        .collect();
    let uncalled = extern_funcs.iter().filter(|e| e.calls == 0).count();
    let problems = calls.len() + uncalled + tables.len() + local_depots.len();
    let summary = if problems == 0 {
        format!(
            "check-ptx: {name}: clean ({})",
            count(kernels.len(), "kernel")
        )
    } else {
        let uncalled_text = if uncalled > 0 {
            format!(
                ", {}",
                count(uncalled, "uncalled .extern .func declaration")
            )
        } else {
            String::new()
        };
        format!(
            "check-ptx: {name}: {} ({}, {}, {}{uncalled_text})",
            count(problems, "problem"),
            count(calls.len(), "extern call"),
            count(tables.len(), ".global table"),
            count(local_depots.len(), "local depot"),
        )
    };
    CheckReport {
        file: name.to_string(),
        kernels,
        extern_funcs,
        calls,
        tables,
        panic_data,
        local_depots,
        problems,
        clean: problems == 0,
        summary,
    }
}
