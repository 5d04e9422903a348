//! The im2col driver set: rows of `smemdesc tensormap check --im2col` judged by the real
//! `cuTensorMapEncodeIm2col` (`--im2col-set N`, `--im2col-judge ROWS`) and compared with
//! smemdesc's verdicts (`--im2col-compare ROWS OURS DRIVER`, no GPU needed).
//!
//! Files (in `--out DIR`): `im2col_rows.tsv` (the rows), `im2col_ours.tsv` (smemdesc's verdicts,
//! exactly what `smemdesc tensormap check --im2col` prints), `im2col_driver.tsv` (`id<TAB>accepted`
//! or `id<TAB>refused(CODE)`, CODE the `CUresult` value), `im2col_driver_set.json` (`{"rows",
//! "agree", "unsafe_accepts", "stricter", "stricter_kinds", ...}`; an unsafe accept is a row
//! smemdesc accepts and the driver refuses).

use crate::cli::tensormap::{self, Refusal, Row};
use smemdesc::cuda::{encode_im2col_args, Im2colEncodeError};
use smemdesc::{Arch, Im2colArgs};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The rule's name of a refusal: the error variant (`PixelsOutOfRange`, `Map(StrideTooSmall)`),
/// or `EnumCode`.
pub(crate) fn kind(r: &Refusal) -> String {
    fn variant(debug: &str) -> &str {
        let end = debug
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(debug.len());
        &debug[..end]
    }
    match r {
        Refusal::Code(_) => "EnumCode".into(),
        Refusal::Im2col(smemdesc::Im2colError::Map(e)) | Refusal::Tiled(e) => {
            format!("Map({})", variant(&format!("{e:?}")))
        }
        Refusal::Im2col(e) => variant(&format!("{e:?}")).to_string(),
    }
}

/// Stricter refusals that are documented rules, with the reason (the same two as for tiled maps,
/// `crate::tmaps`): driver 13.0 applies neither to im2col maps (set 1: 760 and 167 rows), and
/// smemdesc keeps both.
///
/// `Map(StrideTooSmall)`: the `globalStrides` text of `cuTensorMapEncodeIm2col` defines each stride
/// as including the one below it (`globalStrides[0] = globalDim[0] *
/// elementSizeInBytes(tensorDataType) + padding[0]`, `globalStrides[i] = globalStrides[i - 1] *
/// (globalDim[i] + padding[i])`): a smaller stride describes overlapping pixels.
///
/// `Map(InterleaveSwizzle)`: its `swizzle` text: "When interleave is
/// CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B."
pub(crate) const EXPLAINED: &[(&str, &str)] = &[
    (
        "Map(StrideTooSmall)",
        "a global stride below the extent of the dimension under it (overlapping pixels): the documented stride formula forbids it, smemdesc enforces it, the driver does not check it",
    ),
    (
        "Map(InterleaveSwizzle)",
        "interleave 32B with a swizzle other than 32B: the documentation requires swizzle 32B, smemdesc enforces it, the driver does not check it for im2col maps",
    ),
];

/// The rows of a file: (line, row), header and comments skipped.
fn rows(text: &str) -> Result<Vec<Row>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            !(l.trim().is_empty() || l.starts_with('#') || l.split('\t').next() == Some("id"))
        })
        .map(|(n, l)| tensormap::parse_row(l, true).map_err(|e| format!("line {}: {e}", n + 1)))
        .collect()
}

/// The driver's arguments of a row: its values as given, unused entries 1 (dims, element
/// strides) or 0 (strides, corners); `None` for a code outside its enumeration.
fn args(r: &Row) -> Option<Im2colArgs> {
    let o = r.options().ok()?;
    let mut a = Im2colArgs {
        data_type: o.data_type,
        rank: r.rank,
        global_address: r.address,
        global_dim: [1; 5],
        global_strides: [0; 4],
        lower_corner: [0; 3],
        upper_corner: [0; 3],
        channels_per_pixel: r.channels,
        pixels_per_column: r.pixels,
        element_strides: [1; 5],
        interleave: o.interleave,
        swizzle: o.swizzle,
        l2_promotion: o.l2,
        oob_fill: o.oob,
    };
    a.global_dim[..r.dims.len()].copy_from_slice(&r.dims);
    a.global_strides[..r.strides.len()].copy_from_slice(&r.strides);
    a.lower_corner[..r.lower.len()].copy_from_slice(&r.lower);
    a.upper_corner[..r.upper.len()].copy_from_slice(&r.upper);
    a.element_strides[..r.element_strides.len()].copy_from_slice(&r.element_strides);
    Some(a)
}

/// The driver's verdict on every row (a current context is needed): `id<TAB>accepted` or
/// `id<TAB>refused(CODE)` lines.
pub(crate) fn judge(text: &str) -> Result<String, String> {
    let mut out = String::new();
    for r in rows(text)? {
        let verdict = match args(&r) {
            None => "refused(enum)".to_string(),
            Some(a) => match encode_im2col_args(&a) {
                Ok(_) => "accepted".to_string(),
                Err(Im2colEncodeError::DriverRefused { .. }) => "refused(1)".to_string(),
                Err(Im2colEncodeError::Driver(c)) => format!("refused({})", c as u32),
                Err(Im2colEncodeError::Invalid(_)) => "refused(rank)".to_string(),
                Err(e @ Im2colEncodeError::NoContext(_)) => return Err(e.to_string()),
            },
        };
        writeln!(out, "{}\t{verdict}", r.id).unwrap();
    }
    Ok(out)
}

/// Compares smemdesc's verdicts (`ours`: `smemdesc tensormap check --im2col` output) with the
/// driver's on the rows of `rows_text`; the kinds of stricter refusals are the rules `arch`'s
/// checks apply to those rows. The JSON object.
pub(crate) fn compare(
    rows_text: &str,
    ours: &str,
    driver: &str,
    arch: Arch,
) -> Result<String, String> {
    let rows = rows(rows_text)?;
    let ours: BTreeMap<&str, bool> = ours
        .lines()
        .map(|l| {
            let mut f = l.split('\t');
            (f.next().unwrap_or(""), f.next() == Some("ok"))
        })
        .collect();
    let driver: BTreeMap<&str, &str> = driver.lines().filter_map(|l| l.split_once('\t')).collect();
    let (mut agree, mut unsafe_accepts, mut stricter) = (0u64, 0u64, 0u64);
    let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
    let mut codes: BTreeMap<String, u64> = BTreeMap::new();
    let (mut unsafe_ex, mut stricter_ex) = (Vec::new(), BTreeMap::new());
    for r in &rows {
        let id = r.id.as_str();
        let ok = *ours
            .get(id)
            .ok_or(format!("row {id}: no verdict of ours"))?;
        let d = *driver
            .get(id)
            .ok_or(format!("row {id}: no driver verdict"))?;
        let accepted = d == "accepted";
        if !accepted {
            *codes.entry(d.to_string()).or_default() += 1;
        }
        let judged = r.verdict(true, arch);
        if judged.is_ok() != ok {
            return Err(format!(
                "row {id}: the verdict file says {} but the checks of {} say {}",
                if ok { "ok" } else { "refused" },
                arch.name(),
                if judged.is_ok() { "ok" } else { "refused" }
            ));
        }
        match (ok, accepted) {
            (true, false) => {
                unsafe_accepts += 1;
                if unsafe_ex.len() < 20 {
                    unsafe_ex.push(format!("{id}: driver {d}; {r:?}"));
                }
            }
            (false, true) => {
                stricter += 1;
                let e = judged.expect_err("refused");
                let k = kind(&e);
                *kinds.entry(k.clone()).or_default() += 1;
                stricter_ex.entry(k).or_insert_with(|| format!("{id}: {e}"));
            }
            _ => agree += 1,
        }
    }
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let obj = |m: &BTreeMap<String, u64>| {
        let v: Vec<String> = m
            .iter()
            .map(|(k, n)| format!("\"{}\": {n}", esc(k)))
            .collect();
        format!("{{{}}}", v.join(", "))
    };
    let strs = |v: Vec<String>| {
        let v: Vec<String> = v.iter().map(|s| format!("\"{}\"", esc(s))).collect();
        format!("[{}]", v.join(", "))
    };
    let unexplained: u64 = kinds
        .iter()
        .filter(|(k, _)| !EXPLAINED.iter().any(|(e, _)| e == k))
        .map(|(_, n)| n)
        .sum();
    let explained: Vec<String> = EXPLAINED
        .iter()
        .filter(|(k, _)| kinds.contains_key(*k))
        .map(|(k, why)| format!("\"{}\": \"{}\"", esc(k), esc(why)))
        .collect();
    Ok(format!(
        "{{\"rows\": {}, \"agree\": {agree}, \"unsafe_accepts\": {unsafe_accepts}, \"stricter\": {stricter}, \"stricter_kinds\": {}, \"stricter_unexplained\": {unexplained}, \"stricter_explained\": {{{}}}, \"arch\": \"{}\", \"driver_refusals\": {}, \"unsafe_examples\": {}, \"stricter_examples\": {}}}\n",
        rows.len(),
        obj(&kinds),
        explained.join(", "),
        arch.name(),
        obj(&codes),
        strs(unsafe_ex),
        strs(stricter_ex.into_values().collect()),
    ))
}

/// Judges `rows_text` with the driver of the current context and writes the four files to `out`;
/// returns the JSON.
pub(crate) fn run(rows_text: &str, out: &Path, arch: Arch) -> Result<String, String> {
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    let write = |name: &str, text: &str| {
        std::fs::write(out.join(name), text).map_err(|e| format!("{name}: {e}"))
    };
    write("im2col_rows.tsv", rows_text)?;
    let ours = tensormap::check_text(rows_text, true, arch)?;
    write("im2col_ours.tsv", &ours)?;
    let driver = judge(rows_text)?;
    write("im2col_driver.tsv", &driver)?;
    let json = compare(rows_text, &ours, &driver, arch)?;
    write("im2col_driver_set.json", &json)?;
    Ok(json)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comparison counts each case, and refuses verdict files that disagree with the checks.
    #[test]
    fn compare_counts() {
        let rows = "a\t0\t3\t0\t16,64,2\t16,1024\t0\t0\t16\t32\t1,1,1\t0\t0\t0\t0\n\
                    b\t0\t3\t0\t16,64,2\t16,1024\t0\t0\t16\t1025\t1,1,1\t0\t0\t0\t0\n\
                    c\t0\t3\t0\t16,64,2\t16,1024\t0\t0\t16\t2000\t1,1,1\t0\t0\t0\t0\n";
        let ours = tensormap::check_text(rows, true, Arch::Sm90).unwrap();
        assert_eq!(ours.lines().filter(|l| l.ends_with("\tok")).count(), 1);
        let driver = "a\trefused(1)\nb\taccepted\nc\trefused(1)\n";
        let j = compare(rows, &ours, driver, Arch::Sm90).unwrap();
        assert!(j.starts_with("{\"rows\": 3, \"agree\": 1, \"unsafe_accepts\": 1, \"stricter\": 1, \"stricter_kinds\": {\"PixelsOutOfRange\": 1}, \"stricter_unexplained\": 1, \"stricter_explained\": {}"), "{j}");
        let lie = ours.replace("b\trefused", "b\tok\t");
        assert!(compare(rows, &lie, driver, Arch::Sm90).is_err());
        // the driver's arguments keep the row's values
        let r = &super::rows(rows).unwrap()[1];
        let a = args(r).unwrap();
        assert_eq!(
            (a.pixels_per_column, a.global_dim, a.global_strides),
            (1025, [16, 64, 2, 1, 1], [16, 1024, 0, 0])
        );
    }
}
