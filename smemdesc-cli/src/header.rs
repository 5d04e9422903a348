//! `smemdesc header`: one tile as a C/C++ header, for CUDA C++ kernels and their host code.
//!
//! The same flags as `smemdesc tile`, plus `--name`. Every value is written twice from one list:
//! as `constexpr` in `namespace NAME` (C++17, NVRTC) and as a plain `#define NAME_…` (C; arrays as
//! `NAME_…_INIT` brace initialisers). Every number comes from `smemdesc_core` (through
//! [`crate::tile::report`] and [`TensorMap::for_tile`]); this module only formats them.

use crate::tile::{report, TileArgs};
use crate::CliError;
use smemdesc_core::{Major, TensorMap, TilePlan};
use std::fmt::Write as _;

/// One value of the header.
enum Val {
    /// A scalar, written in hex when `hex`.
    Scalar(u64, bool),
    /// An array (row-major) with its dimensions.
    Array(Vec<u64>, Vec<usize>, bool),
}

struct Item {
    name: &'static str,
    ctype: &'static str,
    val: Val,
    doc: String,
}

fn scalar(name: &'static str, ctype: &'static str, v: u64, doc: impl Into<String>) -> Item {
    Item {
        name,
        ctype,
        val: Val::Scalar(v, false),
        doc: doc.into(),
    }
}

fn lit(v: u64, hex: bool, ctype: &str) -> String {
    let suffix = match ctype {
        "unsigned long long" => "ull",
        _ => "u",
    };
    if hex {
        format!("{v:#018x}{suffix}")
    } else {
        format!("{v}{suffix}")
    }
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

/// Checks that `name` is a C identifier (it becomes a namespace and a macro prefix).
fn check_name(name: &str) -> Result<(), CliError> {
    let mut chars = name.chars();
    let ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(CliError(format!(
            "invalid --name `{name}`: it becomes a C++ namespace and a macro prefix; legal: a C identifier ([A-Za-z_][A-Za-z0-9_]*)"
        )))
    }
}

/// The header for `plan` (declared by `args`) under `name`.
pub fn header(plan: &TilePlan, args: &TileArgs, name: &str) -> Result<String, CliError> {
    check_name(name)?;
    let r = report(plan, args.base)?;
    let t = &plan.tile;
    let spec = t.spec();
    let tma = &plan.tma;
    let (mmas_mn, mmas_k, stages) = (t.mmas_mn(), t.mmas_k(), spec.stages);
    // Descriptors at --base, [stage][mn][k] (the report lists them stage, k, mn).
    let mut descs = vec![0u64; (stages * mmas_mn * mmas_k) as usize];
    for d in &r.descriptors {
        let raw = u64::from_str_radix(d.desc.trim_start_matches("0x"), 16)
            .map_err(|e| CliError(format!("internal: descriptor {}: {e}", d.desc)))?;
        descs[((d.stage * mmas_mn + d.mn) * mmas_k + d.k) as usize] = raw;
    }
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
    let arr = |name, ctype, v: Vec<u64>, dims: Vec<usize>, hex, doc: String| Item {
        name,
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
        scalar("BASE", "unsigned int", args.base.into(), "shared-memory address the descriptors below are for"),
        scalar("MMA_M", "unsigned int", plan.mma.m.into(), "instruction M"),
        scalar("MMA_N", "unsigned int", plan.mma.n.into(), "instruction N"),
        scalar("MMA_K", "unsigned int", plan.mma.k.into(), "instruction K, elements (32 bytes)"),
        scalar("MMAS_MN", "unsigned int", mmas_mn.into(), "MMA subtiles along M/N per stage"),
        scalar("MMAS_K", "unsigned int", mmas_k.into(), "MMA subtiles along K per stage"),
        Item { name: "DESC", ctype: "unsigned long long", val: Val::Scalar(descs[0], true), doc: "descriptor of subtile (0, 0), stage 0, at BASE".into() },
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
    Ok(render(name, &r_summary(&r), &items))
}

fn r_summary(r: &crate::tile::TileReport) -> String {
    format!(
        "{} operand {}: {} {}-major tile {}x{} (MN x K), swizzle {}, order {}, mma m{}n{}k{} kind {}, cta_group {}, {} stage(s)",
        r.arch, r.operand, r.dtype, r.major, r.tile[0], r.tile[1], r.swizzle, r.order, r.mma[0],
        r.mma[1], r.mma[2], r.kind, r.cta_group, r.stages
    )
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
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "#ifdef __cplusplus");
    let _ = writeln!(s, "/* C++17 (and NVRTC): the same values as constexpr. */");
    let _ = writeln!(s, "namespace {name} {{");
    for it in items {
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
        }
    }
    let _ = writeln!(s, "}}  // namespace {name}");
    let _ = writeln!(s, "#endif");
    let _ = writeln!(s);
    let _ = writeln!(s, "#endif");
    s
}
