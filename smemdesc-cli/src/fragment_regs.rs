//! `smemdesc fragment` for registers: the wgmma A operand read from registers (`--operand A
//! --regs` with a `m64nNk*` shape), the per-register table (`--regs`), and the accumulator → A
//! conversion of a chained pair (`--chain m64nNk*`). Every number comes from
//! `smemdesc_core::fragment` (`WgmmaRegA`, `ChainedMma`, `WgmmaAccum`); this module formats.

use super::fragment::{FragmentArgs, FragmentReport, Report};
use crate::CliError;
use serde::Serialize;
use smemdesc_core::fragment::{ChainedMma, SyncArch, WgmmaAccum, WgmmaInstr, WgmmaRegA};
use smemdesc_core::{AccumType, ElementType, MmaShape};
use std::fmt::Write as _;

/// `--accum`: f32, f16 (s32 parses, and the chain check refuses it).
pub(crate) fn parse_accum(s: &str) -> Result<AccumType, String> {
    AccumType::from_name(s).ok_or_else(|| format!("unknown accumulator `{s}`; legal: f32, f16"))
}

/// The accumulator a lone wgmma of `t` has by default: s32 for integers, else f32.
fn default_accum(t: ElementType) -> AccumType {
    match t {
        ElementType::S8 | ElementType::U8 => AccumType::S32,
        _ => AccumType::F32,
    }
}

fn shape(text: &str) -> Result<MmaShape, CliError> {
    MmaShape::parse(text).ok_or_else(|| {
        CliError(format!(
            "malformed wgmma shape `{text}`; expected m64nNkK, e.g. m64n128k16"
        ))
    })
}

fn instr(text: &str, t: ElementType, acc: AccumType) -> Result<WgmmaInstr, CliError> {
    WgmmaInstr::new(shape(text)?, t, acc).map_err(|e| CliError(format!("{text}: {e}")))
}

/// `--operand A --regs` for a wgmma shape: the A-from-registers map, `[thread, elem, m, k]`.
pub(crate) fn wgmma_a(args: &FragmentArgs) -> Result<Report, CliError> {
    let i = &args.instr;
    let s = shape(&i.mma)?;
    // Without a type, K names the register layout (it depends only on the bytes per element).
    let (t, label) = match i.a_type.or(i.dtype) {
        Some(t) => (t, t.name()),
        None => match s.k {
            8 => (ElementType::TF32, "tf32"),
            16 => (ElementType::BF16, "f16/bf16"),
            32 => (ElementType::E4M3, "e4m3/e5m2/s8/u8"),
            k => {
                return Err(CliError(format!(
                    "{}: K = {k} is no wgmma K (8 for tf32, 16 for f16/bf16, 32 for 8-bit types)",
                    i.mma
                )))
            }
        },
    };
    instr(&i.mma, t, default_accum(t))?;
    let a = WgmmaRegA::new(t)
        .ok_or_else(|| CliError(format!("{} has no wgmma A-from-registers form", t.name())))?;
    let mut map = vec![];
    for thread in 0..128 {
        for e in 0..a.elems() {
            let (m, k) = a.coord(thread, e).expect("in range");
            map.push([thread, e, m, k]);
        }
    }
    Ok((
        FragmentReport {
            instruction: format!("wgmma.mma_async.{} (A from registers, {label})", i.mma),
            operand: "A",
            rows: 64,
            cols: a.k(),
            map,
            per_reg: Some(a.per_reg()),
        },
        'a',
        "thread",
    ))
}

/// `--regs` as text: one line per lane/thread and 32-bit register.
pub(crate) fn reg_table(r: &FragmentReport, per_reg: u32, letter: char, who: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} operand {}: {} x {}; one line per {who} and 32-bit register: its elements (low bits first) and their (row, col)",
        r.instruction, r.operand, r.rows, r.cols
    );
    for chunk in r.map.chunks(per_reg.max(1) as usize) {
        let [who_id, e0, ..] = chunk[0];
        let _ = write!(s, "T{who_id:<3} r{}:", e0 / per_reg.max(1));
        for &[_, e, row, col] in chunk {
            let _ = write!(s, "  {letter}{e} ({row}, {col})");
        }
        s.push('\n');
    }
    s
}

#[derive(Serialize)]
struct ChainRows {
    /// `shfl.sync.bfly` lane distances of a row reduction, in order.
    row_reduce_xor: [u32; 2],
    /// The accumulator elements of a thread's row `16w + groupID` (0) and the row 8 below (1),
    /// in column order.
    row_elems: [Vec<u32>; 2],
}

#[derive(Serialize)]
struct ChainReport {
    first: String,
    first_dtype: &'static str,
    accum: &'static str,
    second: String,
    a_dtype: &'static str,
    ksteps: u32,
    /// The packing `cvt` (`null`: the f16 accumulator register is reused).
    conversion: Option<&'static str>,
    /// `[kstep, a_reg, low_elem, high_elem]`: A register `a_reg` of k-step `kstep` packs the same
    /// thread's accumulator elements `low_elem` (low half) and `high_elem`.
    map: Vec<[u32; 4]>,
    rows: ChainRows,
}

/// `--chain FIRST`: how FIRST's accumulator becomes the A registers of `--mma`.
pub(crate) fn chain(args: &FragmentArgs, first: &str, json: bool) -> Result<String, CliError> {
    let i = &args.instr;
    if !matches!(i.arch, SyncArch::Sm90) {
        return Err(CliError(format!(
            "--chain chains two wgmma instructions, which exist on sm90 only (got {})",
            i.arch.name()
        )));
    }
    let a_t = i.a_type.or(i.dtype).unwrap_or(ElementType::BF16);
    let first_t = args.chain_dtype.unwrap_or(a_t);
    let acc = args.accum.unwrap_or(AccumType::F32);
    let f = instr(first, first_t, acc)?;
    let sec = instr(&i.mma, a_t, default_accum(a_t))?;
    let c = ChainedMma::new(f, sec)
        .map_err(|e| CliError(format!("--chain {first} -> --mma {}: {e}", i.mma)))?;
    let d = WgmmaAccum::new(f.shape.n).expect("checked N");
    let half = |h| {
        (0..d.row_elems())
            .map(|j| d.row_elem(h, j).expect("in range"))
            .collect::<Vec<_>>()
    };
    let mut map = vec![];
    for ks in 0..c.ksteps() {
        for (r, [lo, hi]) in c.kstep_table(ks).expect("k-step").into_iter().enumerate() {
            map.push([ks, r as u32, lo, hi]);
        }
    }
    let rep = ChainReport {
        first: first.to_string(),
        first_dtype: first_t.name(),
        accum: acc.name(),
        second: i.mma.clone(),
        a_dtype: a_t.name(),
        ksteps: c.ksteps(),
        conversion: c.conversion().ptx(),
        map,
        rows: ChainRows {
            row_reduce_xor: WgmmaAccum::ROW_REDUCE_XOR,
            row_elems: [half(0), half(1)],
        },
    };
    if json {
        return super::to_json(&rep);
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "wgmma.mma_async.{} ({}, {} accumulator) -> wgmma.mma_async.{} (A: {} from registers)",
        rep.first, rep.first_dtype, rep.accum, rep.second, rep.a_dtype
    );
    let _ = writeln!(
        s,
        "{} k-steps of k16; A register r of k-step s packs the same thread's accumulator elements d[8s+2r] (low half, lower k) and d[8s+2r+1] (high half)",
        rep.ksteps
    );
    let _ = match rep.conversion {
        Some(cvt) => writeln!(
            s,
            "packing: {cvt} a, d_high, d_low (cvt puts its first source in the upper half){}",
            if acc == AccumType::F16 {
                ", after unpacking the f16 pairs to f32"
            } else {
                ""
            }
        ),
        None => writeln!(
            s,
            "packing: none, the f16 accumulator register (elements 2j, 2j+1) is the A register"
        ),
    };
    let _ = writeln!(
        s,
        "k-step  {:>9} {:>9} {:>9} {:>9}   (cell = d<low>|d<high>)",
        "a0", "a1", "a2", "a3"
    );
    for ks in 0..rep.ksteps {
        let _ = write!(s, "{ks:>6}  ");
        for &[_, _, lo, hi] in rep.map.iter().filter(|m| m[0] == ks) {
            let _ = write!(s, " {:>9}", format!("d{lo}|d{hi}"));
        }
        s.push('\n');
    }
    let list = |v: &[u32]| {
        v.iter()
            .map(|e| format!("d{e}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(
        s,
        "rows: thread T owns rows 16*(T/32) + (T%32)/4 and 8 below; a row's 4 threads are one quad; reduce a row with shfl.sync.bfly xor {}, then xor {}",
        rep.rows.row_reduce_xor[0], rep.rows.row_reduce_xor[1]
    );
    let _ = writeln!(
        s,
        "  row +0 ({} elements per thread): {}",
        d.row_elems(),
        list(&rep.rows.row_elems[0])
    );
    let _ = writeln!(s, "  row +8: {}", list(&rep.rows.row_elems[1]));
    Ok(s)
}
