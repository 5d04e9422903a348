//! `smemdesc decode --tensor-map ROW`: one tensor map's `cuTensorMapEncodeTiled` arguments (a row
//! of `tensormap check --tiled`, its fields separated by tabs or spaces), every argument by name,
//! the verdict of the core's rules (`TensorMap::check`: the box no wider than the swizzle atom,
//! strides, alignment, ...) and the lints of `tensormap check` (with `--oob-base-128kb`: the
//! Blackwell 128 KiB out-of-bounds window), each message ending with its rule's id and source.

use super::tensormap::{self, Row};
use smemdesc_core::Arch;
use std::fmt::Write as _;

/// The report of one row, and whether the map is refused (exit status 1 after the report), or
/// why the row cannot be read.
///
/// ```
/// let row = "m 9 2 0 4096,1024 8192 64,128 1,1 0 3 0 0";
/// let (text, refused) = smemdesc_cli::decode_map::report(row, smemdesc_core::Arch::Sm90, false).unwrap();
/// assert!(!refused && text.contains("verdict: ok"), "{text}");
/// ```
pub fn report(row: &str, arch: Arch, oob_128kb: bool) -> Result<(String, bool), String> {
    // `tensormap check` rows are tab-separated; on a command line, spaces do.
    let line = row.split_whitespace().collect::<Vec<_>>().join("\t");
    let parsed = tensormap::parse_row(&line, false)
        .map_err(|e| format!("--tensor-map: {e} (fields: {FIELDS})"))?;
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(
        w,
        "tensor map `{}` (cuTensorMapEncodeTiled) for {}",
        parsed.id,
        arch.name()
    );
    fields(w, &parsed);
    let verdict = parsed.verdict(false, arch);
    let refused = match &verdict {
        Ok(()) => {
            let _ = writeln!(w, "verdict: ok");
            false
        }
        Err(reason) => {
            let _ = writeln!(w, "verdict: refused: {reason}");
            true
        }
    };
    if !refused {
        let lint = if oob_128kb {
            tensormap::lint_oob_128kb(&parsed, arch)
        } else {
            None
        };
        match (lint, oob_128kb) {
            (Some(l), _) => {
                let _ = writeln!(w, "lint (OOB_ADDR_GEN_MODE_BASE_128kB): {l}");
            }
            (None, true) => {
                let _ = writeln!(
                    w,
                    "lint (OOB_ADDR_GEN_MODE_BASE_128kB): holds: the tensor's span from its address is 128 KiB-aligned and owns 128 KiB (rules tma.oob-128kb-aligned, tma.oob-128kb-headroom)"
                );
            }
            (None, false) => {}
        }
    }
    Ok((out, refused))
}

/// The row's columns, for messages.
const FIELDS: &str =
    "id dtype rank addr_off dims strides box element_strides interleave swizzle l2 oob";

fn list<T: std::fmt::Display>(v: &[T]) -> String {
    let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

fn fields(w: &mut String, r: &Row) {
    let names = r.options().ok();
    let [dtype, il, sw, l2, oob] = r.codes;
    let named = |code: u64, name: Option<&str>| match name {
        Some(n) => format!("{code} ({n})"),
        None => format!("{code} (not a value of its enumeration)"),
    };
    let rows = [
        (
            "tensorDataType",
            named(dtype, names.map(|o| o.data_type.name())),
        ),
        ("tensorRank", r.rank.to_string()),
        ("globalAddress", format!("{:#x}", r.address)),
        ("globalDim", list(&r.dims)),
        ("globalStrides", list(&r.strides)),
        ("boxDim", list(&r.box_dim)),
        ("elementStrides", list(&r.element_strides)),
        ("interleave", named(il, names.map(|o| o.interleave.name()))),
        ("swizzle", named(sw, names.map(|o| o.swizzle.name()))),
        ("l2Promotion", named(l2, names.map(|o| o.l2.name()))),
        ("oobFill", named(oob, names.map(|o| o.oob.name()))),
    ];
    for (name, value) in rows {
        let _ = writeln!(w, "  {name:<15} = {value}");
    }
}
