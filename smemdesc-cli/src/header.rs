//! `smemdesc header`: one tile as a C/C++ header, for CUDA C++ kernels and their host code.
//!
//! The same flags as `smemdesc tile`, plus `--name`. Every value is written twice from one list:
//! as `constexpr` in `namespace NAME` (C++17, NVRTC) and as a plain `#define NAME_…` (C; arrays as
//! `NAME_…_INIT` brace initialisers). Every number comes from `smemdesc_core` (through
//! [`report_placed`] and [`TensorMap::for_tile`]); this module only formats them.
//! `--from FILE` (the declarations of a Rust source file) is [`crate::header_src`].

use super::tile::{report_placed, TileArgs, TileReport};
use crate::CliError;
use smemdesc_core::{Major, Placement, TensorMap, TilePlan};
use std::fmt::Write as _;

/// One value of the header.
pub(crate) enum Val {
    /// A scalar, written in hex when `hex`.
    Scalar(u64, bool),
    /// An array (row-major) with its dimensions.
    Array(Vec<u64>, Vec<usize>, bool),
    /// A signed scalar (`int`).
    Signed(i64),
    /// A string literal (`const char[]` in C++).
    Str(String),
}

/// One named value with its C type and its documentation.
pub(crate) struct Item {
    pub(crate) name: String,
    pub(crate) ctype: &'static str,
    pub(crate) val: Val,
    pub(crate) doc: String,
}

/// An unsigned scalar item.
pub(crate) fn scalar(
    name: impl Into<String>,
    ctype: &'static str,
    v: u64,
    doc: impl Into<String>,
) -> Item {
    Item {
        name: name.into(),
        ctype,
        val: Val::Scalar(v, false),
        doc: doc.into(),
    }
}

/// An item of any value.
pub(crate) fn item(
    name: impl Into<String>,
    ctype: &'static str,
    val: Val,
    doc: impl Into<String>,
) -> Item {
    Item {
        name: name.into(),
        ctype,
        val,
        doc: doc.into(),
    }
}

fn lit(v: u64, hex: bool, ctype: &str) -> String {
    let suffix = match ctype {
        "unsigned long long" => "ull",
        _ => "u",
    };
    match (hex, ctype) {
        (false, _) => format!("{v}{suffix}"),
        (true, "unsigned long long") => format!("{v:#018x}{suffix}"),
        (true, _) => format!("{v:#010x}{suffix}"),
    }
}

/// A C string literal (the values are ASCII; quotes and backslashes escaped).
fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii_graphic() || c == ' ' => out.push(c),
            c => {
                let _ = write!(out, "\\x{:02x}", u32::from(c) & 0xff);
            }
        }
    }
    out.push('"');
    out
}

/// Brace initialiser of a row-major array of dimensions `dims`.
fn init(values: &[u64], dims: &[usize], hex: bool, ctype: &str) -> String {
    match dims {
        [] | [_] => {
            let parts: Vec<String> = values.iter().map(|&v| lit(v, hex, ctype)).collect();
            format!("{{{}}}", parts.join(", "))
        }
        [_, rest @ ..] => {
            let inner: usize = rest.iter().product();
            let parts: Vec<String> = values
                .chunks(inner.max(1))
                .map(|c| init(c, rest, hex, ctype))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// Checks that `name` is a C identifier (it becomes a namespace and a macro prefix); `what`
/// names it in the message.
pub(crate) fn check_ident(name: &str, what: &str) -> Result<(), CliError> {
    let mut chars = name.chars();
    let ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Err(CliError(format!(
            "invalid {what} `{name}`: it becomes a C++ namespace and a macro prefix; legal: a C identifier ([A-Za-z_][A-Za-z0-9_]*)"
        )));
    }
    if CPP_KEYWORDS.contains(&name) {
        return Err(CliError(format!(
            "invalid {what} `{name}`: it becomes a C++ namespace, and `{name}` is a C++ keyword; rename it"
        )));
    }
    Ok(())
}

/// C and C++ keywords (and alternative tokens), which cannot name a namespace.
const CPP_KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
];

fn check_name(name: &str) -> Result<(), CliError> {
    check_ident(name, "--name")
}

/// The descriptors of report `r` as `[stage][mn][k]` (the report lists them stage, k, mn).
pub(crate) fn desc_table(plan: &TilePlan, r: &TileReport) -> Result<Vec<u64>, CliError> {
    let t = &plan.tile;
    let (mmas_mn, mmas_k) = (t.mmas_mn(), t.mmas_k());
    let mut descs = vec![0u64; (t.spec().stages * mmas_mn * mmas_k) as usize];
    for d in &r.descriptors {
        let raw = u64::from_str_radix(d.desc.trim_start_matches("0x"), 16)
            .map_err(|e| CliError(format!("internal: descriptor {}: {e}", d.desc)))?;
        descs[((d.stage * mmas_mn + d.mn) * mmas_k + d.k) as usize] = raw;
    }
    Ok(descs)
}

/// The header for `plan` (declared by `args`) under `name`.
pub fn header(plan: &TilePlan, args: &TileArgs, name: &str) -> Result<String, CliError> {
    check_name(name)?;
    let (summary, items) = tile_items(plan, args.base, args.placement)?;
    Ok(render(name, &summary, &items))
}

/// The summary line and the items of `plan` placed at `base` under `placement`.
pub(crate) fn tile_items(
    plan: &TilePlan,
    base: u32,
    placement: Placement,
) -> Result<(String, Vec<Item>), CliError> {
    let r = report_placed(plan, base, placement)?;
    let t = &plan.tile;
    let spec = t.spec();
    let tma = &plan.tma;
    let (mmas_mn, mmas_k, stages) = (t.mmas_mn(), t.mmas_k(), spec.stages);
    // Descriptors at `base`, [stage][mn][k].
    let descs = desc_table(plan, &r)?;
    // Byte offset of every 16-byte chunk of stage 0: element (mn, k) is at CHUNK_OFFSETS[mn][k /
    // per16] + (k % per16) * ELEM_BYTES for K-major, [k][mn / per16] + (mn % per16) * ELEM_BYTES
    // for MN-major (a swizzle moves whole 16-byte chunks).
    let per16 = spec.dtype.per_16_bytes();
    let (rows, cols) = match spec.major {
        Major::K => (spec.tile_mn, spec.tile_k / per16),
        Major::Mn => (spec.tile_k, spec.tile_mn / per16),
    };
    let mut chunks = Vec::with_capacity((rows * cols) as usize);
    for row in 0..rows {
        for c in 0..cols {
            let (mn, k) = match spec.major {
                Major::K => (row, c * per16),
                Major::Mn => (c * per16, row),
            };
            chunks.push(t.byte_offset(mn, k) as u64);
        }
    }
    let map = TensorMap::for_tile(plan, 2);
    map.check()
        .map_err(|e| CliError(format!("internal: tile tensor map: {e}")))?;
    let [inner, outer] = match spec.major {
        Major::K => ["K", "MN"],
        Major::Mn => ["MN", "K"],
    };
    let arr = |name: &str, ctype, v: Vec<u64>, dims: Vec<usize>, hex, doc: String| Item {
        name: name.into(),
        ctype,
        val: Val::Array(v, dims, hex),
        doc,
    };
    let items = vec![
        scalar("ARCH", "unsigned int", if spec.arch.name() == "sm90" { 90 } else { 100 }, "target architecture (sm number)"),
        scalar("OPERAND_B", "unsigned int", u64::from(r.operand == "B"), "0: operand A, 1: operand B"),
        scalar("MAJOR_MN", "unsigned int", u64::from(r.major == "MN"), "0: K-major, 1: MN-major (contiguous dimension)"),
        scalar("TILE_MN", "unsigned int", spec.tile_mn.into(), "tile extent along M (A) or N (B), elements"),
        scalar("TILE_K", "unsigned int", spec.tile_k.into(), "tile extent along K, elements"),
        scalar("ELEM_BYTES", "unsigned int", spec.dtype.smem_bytes().into(), format!("bytes per {} element in shared memory", r.dtype)),
        scalar("STAGES", "unsigned int", stages.into(), "pipeline stages"),
        scalar("STAGE_BYTES", "unsigned int", t.stage_bytes().into(), "bytes of one stage"),
        scalar("BYTES", "unsigned int", t.bytes().into(), "bytes of all stages"),
        scalar("ALIGN", "unsigned int", t.align().into(), "alignment of the tile's shared-memory base, bytes"),
        scalar("BASE", "unsigned int", base.into(), "shared-memory address the descriptors below are for"),
        scalar("MMA_M", "unsigned int", plan.mma.m.into(), "instruction M"),
        scalar("MMA_N", "unsigned int", plan.mma.n.into(), "instruction N"),
        scalar("MMA_K", "unsigned int", plan.mma.k.into(), "instruction K, elements (32 bytes)"),
        scalar("MMAS_MN", "unsigned int", mmas_mn.into(), "MMA subtiles along M/N per stage"),
        scalar("MMAS_K", "unsigned int", mmas_k.into(), "MMA subtiles along K per stage"),
        Item { name: "DESC".into(), ctype: "unsigned long long", val: Val::Scalar(descs[0], true), doc: "descriptor of subtile (0, 0), stage 0, at BASE".into() },
        scalar("LBO", "unsigned int", t.lbo().into(), "leading dimension byte offset, bytes (as encoded)"),
        scalar("SBO", "unsigned int", t.sbo().into(), "stride dimension byte offset, bytes"),
        scalar("LAYOUT_TYPE", "unsigned int", t.layout_type().into(), "descriptor layout-type code"),
        scalar("BASE_OFFSET", "unsigned int", r.base_offset.into(), "descriptor base_offset at BASE"),
        arr("DESCS", "unsigned long long", descs, vec![stages as usize, mmas_mn as usize, mmas_k as usize], true, "descriptor of subtile [stage][mn][k] at BASE".into()),
        arr("ADVANCE_MN", "unsigned int", (0..mmas_mn).map(|i| t.advance_mn(i).into()).collect(), vec![mmas_mn as usize], false, "start-address advance of subtile (i, 0), 16-byte units (add to a descriptor)".into()),
        arr("ADVANCE_K", "unsigned int", (0..mmas_k).map(|j| t.advance_k(j).into()).collect(), vec![mmas_k as usize], false, "start-address advance of subtile (0, j), 16-byte units".into()),
        scalar("ADVANCE_STAGE", "unsigned int", t.advance_stage().into(), "start-address advance of one stage, 16-byte units"),
        arr("CHUNK_OFFSETS", "unsigned int", chunks, vec![rows as usize, cols as usize], false, format!("byte offset in stage 0 of the 16-byte chunk [{outer}][{inner} / {per16}]; element offset = chunk + ({inner} % {per16}) * ELEM_BYTES")),
        scalar("TMA_BOXES", "unsigned int", tma.boxes.into(), "TMA boxes per stage"),
        scalar("TMA_BOX_BYTES", "unsigned int", tma.box_bytes.into(), "bytes of one box (mbarrier transaction bytes per box)"),
        arr("TMA_BOX_OFFSETS", "unsigned int", (0..tma.boxes).map(|b| plan.box_offset(b).into()).collect(), vec![tma.boxes as usize], false, "byte offset of each box within a stage".into()),
        arr("TMA_BOX_COORDS", "unsigned int", (0..tma.boxes).flat_map(|b| { let (mn, k) = plan.box_coord(b); [mn.into(), k.into()] }).collect(), vec![tma.boxes as usize, 2], false, "tile coordinates {mn0, k0} of each box".into()),
        scalar("TMAP_DATA_TYPE", "unsigned int", map.data_type.value().into(), format!("cuTensorMapEncodeTiled tensorDataType: {}", map.data_type.name())),
        scalar("TMAP_RANK", "unsigned int", map.rank.into(), format!("tensorRank; globalDim = {{{inner} extent, {outer} extent}} (elements), globalStrides = {{bytes of one {outer} step}}, globalAddress 16-byte aligned")),
        arr("TMAP_BOX_DIM", "unsigned int", map.box_dim[..2].iter().map(|&v| v.into()).collect(), vec![2], false, "boxDim, innermost first".into()),
        arr("TMAP_ELEMENT_STRIDES", "unsigned int", map.element_strides[..2].iter().map(|&v| v.into()).collect(), vec![2], false, "elementStrides".into()),
        scalar("TMAP_INTERLEAVE", "unsigned int", map.interleave.value().into(), map.interleave.name()),
        scalar("TMAP_SWIZZLE", "unsigned int", map.swizzle.value().into(), map.swizzle.name()),
        scalar("TMAP_L2_PROMOTION", "unsigned int", map.l2_promotion.value().into(), map.l2_promotion.name()),
        scalar("TMAP_OOB_FILL", "unsigned int", map.oob_fill.value().into(), map.oob_fill.name()),
    ];
    Ok((r_summary(&r), items))
}

fn r_summary(r: &super::tile::TileReport) -> String {
    format!(
        "{} operand {}: {} {}-major tile {}x{} (MN x K), swizzle {}, order {}, mma m{}n{}k{} kind {}, cta_group {}, {} stage(s)",
        r.arch, r.operand, r.dtype, r.major, r.tile[0], r.tile[1], r.swizzle, r.order, r.mma[0],
        r.mma[1], r.mma[2], r.kind, r.cta_group, r.stages
    )
}

/// The `#define` lines of `it` under macro prefix `upper` (`PREFIX_NAME`).
fn c_lines(s: &mut String, upper: &str, it: &Item) {
    match &it.val {
        Val::Scalar(v, hex) => {
            let _ = writeln!(
                s,
                "#define {upper}_{} {} /* {} */",
                it.name,
                lit(*v, *hex, it.ctype),
                it.doc
            );
        }
        Val::Array(v, dims, hex) => {
            for (i, d) in dims.iter().enumerate() {
                let _ = writeln!(s, "#define {upper}_{}_DIM{i} {d}", it.name);
            }
            let _ = writeln!(
                s,
                "#define {upper}_{}_INIT {} /* {} */",
                it.name,
                init(v, dims, *hex, it.ctype),
                it.doc
            );
        }
        Val::Signed(v) => {
            let _ = writeln!(s, "#define {upper}_{} ({v}) /* {} */", it.name, it.doc);
        }
        Val::Str(v) => {
            let _ = writeln!(
                s,
                "#define {upper}_{} {} /* {} */",
                it.name,
                c_string(v),
                it.doc
            );
        }
    }
}

/// The C++ lines (doc comment and `inline constexpr`) of `it`.
fn cpp_lines(s: &mut String, it: &Item) {
    let _ = writeln!(s, "/// {}", it.doc);
    match &it.val {
        Val::Scalar(v, hex) => {
            let _ = writeln!(
                s,
                "inline constexpr {} {} = {};",
                it.ctype,
                it.name,
                lit(*v, *hex, it.ctype)
            );
        }
        Val::Array(v, dims, hex) => {
            let ext: String = dims.iter().map(|d| format!("[{d}]")).collect();
            let _ = writeln!(
                s,
                "inline constexpr {} {}{ext} = {};",
                it.ctype,
                it.name,
                init(v, dims, *hex, it.ctype)
            );
        }
        Val::Signed(v) => {
            let _ = writeln!(s, "inline constexpr {} {} = {v};", it.ctype, it.name);
        }
        Val::Str(v) => {
            let _ = writeln!(s, "inline constexpr char {}[] = {};", it.name, c_string(v));
        }
    }
}

fn render(name: &str, summary: &str, items: &[Item]) -> String {
    let upper = name.to_ascii_uppercase();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Generated by `smemdesc header` from smemdesc-core. Do not edit."
    );
    let _ = writeln!(s, "// {summary}");
    let _ = writeln!(s, "#ifndef SMEMDESC_HEADER_{upper}_H");
    let _ = writeln!(s, "#define SMEMDESC_HEADER_{upper}_H");
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "/* C: plain macros; arrays as brace initialisers (`NAME_..._INIT`). */"
    );
    for it in items {
        c_lines(&mut s, &upper, it);
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "#ifdef __cplusplus");
    let _ = writeln!(s, "/* C++17 (and NVRTC): the same values as constexpr. */");
    let _ = writeln!(s, "namespace {name} {{");
    for it in items {
        cpp_lines(&mut s, it);
    }
    let _ = writeln!(s, "}}  // namespace {name}");
    let _ = writeln!(s, "#endif");
    let _ = writeln!(s);
    let _ = writeln!(s, "#endif");
    s
}

/// A namespace of a multi-item header: its items and nested namespaces.
pub(crate) struct Ns {
    /// The C++ namespace (a C identifier).
    pub(crate) name: String,
    /// What it holds, one line.
    pub(crate) summary: String,
    /// Its values.
    pub(crate) items: Vec<Item>,
    /// Nested namespaces.
    pub(crate) children: Vec<Ns>,
}

/// `TileA` → `TILE_A`, `GemmStorage` → `GEMM_STORAGE`, `hopper` → `HOPPER` (a macro prefix
/// segment).
pub(crate) fn upper_snake(name: &str) -> String {
    let c: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &ch) in c.iter().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            let prev = c[i - 1];
            let next_lower = c.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(ch.to_ascii_uppercase());
    }
    out
}

/// A header of several namespaces under the top namespace `top`: every macro `TOP_NS_…_NAME`
/// (each namespace upper-snake-cased) and every C++ value `top::ns::…::NAME`. Fails when two
/// macros would have the same name.
pub(crate) fn render_tree(top: &Ns, source: &str) -> Result<String, CliError> {
    fn defines(
        ns: &Ns,
        prefix: &str,
        path: &str,
        s: &mut String,
        seen: &mut std::collections::HashMap<String, String>,
    ) -> Result<(), CliError> {
        if !ns.items.is_empty() {
            let _ = writeln!(s, "/* {path}: {} */", ns.summary);
        }
        for it in &ns.items {
            let full = format!("{prefix}_{}", it.name);
            let cpp = format!("{path}::{}", it.name);
            let clash = seen.insert(cpp.clone(), cpp.clone());
            if let Some(other) = clash.or_else(|| seen.insert(full.clone(), cpp.clone())) {
                return Err(CliError(format!(
                    "the C macros of `{other}` and `{cpp}` would both be `{full}`; rename one of the items"
                )));
            }
            c_lines(s, prefix, it);
        }
        for c in &ns.children {
            let p = format!("{prefix}_{}", upper_snake(&c.name));
            let cpp = format!("{path}::{}", c.name);
            // A namespace and a value of one name in one scope: a C++ error.
            if let Some(other) = seen.insert(cpp.clone(), cpp.clone()) {
                return Err(CliError(format!(
                    "namespace `{cpp}` has the name of `{other}`; rename one of the items"
                )));
            }
            defines(c, &p, &cpp, s, seen)?;
        }
        Ok(())
    }
    fn cpp(ns: &Ns, s: &mut String) {
        let _ = writeln!(s, "/// {}", ns.summary);
        let _ = writeln!(s, "namespace {} {{", ns.name);
        for it in &ns.items {
            cpp_lines(s, it);
        }
        for c in &ns.children {
            cpp(c, s);
        }
        let _ = writeln!(s, "}}  // namespace {}", ns.name);
    }
    let upper = upper_snake(&top.name);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Generated by `smemdesc header --from {source}` from smemdesc-core. Do not edit."
    );
    let _ = writeln!(s, "#ifndef SMEMDESC_HEADER_{upper}_H");
    let _ = writeln!(s, "#define SMEMDESC_HEADER_{upper}_H");
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "/* C: plain macros TOP_NAMESPACE_..._NAME; arrays as brace initialisers (`..._INIT`). */"
    );
    let mut seen = std::collections::HashMap::new();
    defines(top, &upper, &top.name, &mut s, &mut seen)?;
    let _ = writeln!(s);
    let _ = writeln!(s, "#ifdef __cplusplus");
    let _ = writeln!(s, "/* C++17 (and NVRTC): the same values as constexpr. */");
    cpp(top, &mut s);
    let _ = writeln!(s, "#endif");
    let _ = writeln!(s);
    let _ = writeln!(s, "#endif");
    Ok(s)
}
