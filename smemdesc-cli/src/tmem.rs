//! `smemdesc tmem`: the Tensor Memory accumulator of one `tcgen05.mma`, the allocation it needs
//! and the register map of reading it with one `tcgen05.ld` shape. Every number comes from
//! `smemdesc_core::tmem`; this module parses flags and formats.

use super::idesc::parse_kind;
use crate::CliError;
use serde::Serialize;
use smemdesc_core::tmem::plan::alloc_columns_for;
use smemdesc_core::{
    is_block_scaled, AccumType, ElementType, InstrDesc, MmaKind, Operand, ScaleDecl, ScaleFormat,
    TmemAccum, TmemLoad, TmemScale,
};
use std::fmt::Write as _;

/// The flags of `smemdesc tmem`.
#[derive(clap::Args, Debug)]
pub struct TmemArgs {
    /// Instruction M (the CTA pair's M for --cta-group 2).
    #[arg(long)]
    m: u32,
    /// Instruction N.
    #[arg(long)]
    n: u32,
    /// CTA group: 1 or 2.
    #[arg(long, default_value_t = 1)]
    cta_group: u32,
    /// Accumulator type: f32 or s32 (one 32-bit column per element).
    #[arg(long, default_value = "f32", value_parser = parse_accum)]
    accum: AccumType,
    /// The tcgen05.ld shape and .num as in PTX: 32x32b.x16, 16x256b.x4, 16x32bx2.x1, ...
    #[arg(long)]
    load: String,
    /// MMA kind (block-scaled kinds add SFA/SFB columns).
    #[arg(long, default_value = "f16", value_parser = parse_kind)]
    kind: MmaKind,
    /// Accumulator stages.
    #[arg(long, default_value_t = 1)]
    stages: u32,
    /// Block-scaled kinds: K of one SMEM stage of A/B, in values (default: 4 MMAs).
    #[arg(long)]
    tile_k: Option<u32>,
    /// Block-scaled kinds: scale-factor stages in TMEM (default 1).
    #[arg(long)]
    sf_stages: Option<u32>,
    /// Block-scaled kinds: scale-factor format (default ue8m0; ue4m3 for mxf4nvf4 per 16 values).
    #[arg(long)]
    sf: Option<String>,
}

fn parse_accum(s: &str) -> Result<AccumType, String> {
    AccumType::from_name(s).ok_or_else(|| format!("unknown accumulator `{s}`; legal: f32, s32"))
}

/// A scale-factor region of the report.
#[derive(Serialize, Debug)]
pub struct ScaleRegion {
    /// First column.
    pub col: u32,
    /// Columns per stage.
    pub cols_per_stage: u32,
    /// Stages.
    pub stages: u32,
    /// The copy that fills one atom.
    pub copy: &'static str,
}

/// The report (`--json` prints it).
#[derive(Serialize, Debug)]
pub struct TmemReport {
    /// The `tcgen05.alloc` column count.
    pub alloc_columns: u32,
    /// Columns the accumulator stages and scale factors use.
    pub cols_used: u32,
    /// Registers each thread ends with (one accumulator stage).
    pub regs_per_thread: u32,
    /// Columns of one accumulator stage.
    pub accum_cols: u32,
    /// Loads each warp issues per stage.
    pub loads_per_warp: u32,
    /// The load instruction.
    pub instruction: String,
    /// CTAs that can share an SM without an allocation waiting.
    pub ctas_per_sm: u32,
    /// SFA columns (block-scaled kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sfa: Option<ScaleRegion>,
    /// SFB columns (block-scaled kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sfb: Option<ScaleRegion>,
    /// `[thread, reg, m, n, lane, col]` for every element of stage 0 (m CTA-local).
    pub map: Vec<[u32; 6]>,
    #[serde(skip)]
    rows: u32,
    #[serde(skip)]
    n: u32,
    #[serde(skip)]
    load_cols: u32,
}

/// The kind's rules on the accumulator type and the shape (M, N, cta_group), as the core's
/// instruction-descriptor validation states them ([`InstrDesc::validate`]). The input type only
/// matters to the accumulator rule of kind::f16 (bf16 takes f32 only): f16 stands in there, the
/// type that allows both f16 and f32; other kinds use their first input type.
fn check_kind(a: &TmemArgs) -> Result<(), CliError> {
    let dtype = if a.kind == MmaKind::F16 {
        Some(ElementType::F16)
    } else {
        ElementType::ALL
            .iter()
            .copied()
            .find(|&t| a.kind.accepts(t))
    };
    let Some(dtype) = dtype else {
        return Ok(());
    };
    InstrDesc::new(a.kind, dtype, dtype, a.accum, a.m, a.n)
        .cta_group(a.cta_group)
        .validate()
        .map_err(|e| CliError(format!("kind::{}: {e}", a.kind.name())))
}

/// Tensor Memory's columns per CTA (PTX ISA, tcgen05, "Tensor Memory": 512 columns of 128 lanes).
const TMEM_COLUMNS: u32 = 512;

/// The registers a thread can address: more in one `tcgen05.ld` than this cannot be allocated.
const MAX_REGS_PER_THREAD: u32 = 255;

/// Builds the report.
pub fn build(a: &TmemArgs) -> Result<TmemReport, CliError> {
    let err = |e: smemdesc_core::TmemError| CliError(e.to_string());
    check_kind(a)?;
    let acc = TmemAccum::new(a.m, a.n, a.cta_group, a.accum).map_err(err)?;
    let load = TmemLoad::parse(&a.load).map_err(|e| CliError(format!("--load {}: {e}", a.load)))?;
    let map = acc.load_map(load).map_err(err)?;
    if a.stages == 0 {
        return Err(CliError("--stages must be at least 1".into()));
    }
    // Exact (64-bit): a stage count that overflows u32 columns is refused with its true size.
    let accum_cols = u64::from(acc.cols()) * u64::from(a.stages);
    if accum_cols > u64::from(TMEM_COLUMNS) {
        return Err(CliError(format!(
            "the regions need {accum_cols} columns; Tensor Memory has {TMEM_COLUMNS} columns per CTA (PTX ISA, tcgen05, Tensor Memory: 512 columns x 128 lanes): accumulator {} x {} at column 0; legal: --stages 1..={}",
            a.stages,
            acc.cols(),
            TMEM_COLUMNS / acc.cols().max(1)
        )));
    }
    let mut used = accum_cols as u32;
    let (mut sfa, mut sfb) = (None, None);
    if is_block_scaled(a.kind) {
        let sf = a.sf.as_deref().unwrap_or("ue8m0");
        let format = ScaleFormat::from_name(sf)
            .ok_or_else(|| CliError(format!("unknown scale format `{sf}`; legal: ue8m0, ue4m3")))?;
        let sf_stages = a.sf_stages.unwrap_or(1);
        let k = match a.kind {
            MmaKind::Mxf8f6f4 => 32,
            _ => 64,
        };
        let tile_k = a.tile_k.unwrap_or(4 * k);
        let rows = acc.rows();
        let region = |op, mn, at: u32| -> Result<(ScaleRegion, u32), CliError> {
            let t = ScaleDecl::new(a.kind, op, mn, tile_k)
                .format(format)
                .stages(sf_stages)
                .cta_group(a.cta_group)
                .build()
                .map_err(|e| CliError(format!("scale factors of {}: {e}", op_name(op))))?;
            let s = TmemScale::of(&t);
            Ok((
                ScaleRegion {
                    col: at,
                    cols_per_stage: s.cols_per_stage,
                    stages: s.stages,
                    copy: s.copy_instruction(),
                },
                s.cols(),
            ))
        };
        let (ra, ca) = region(Operand::A, rows, used)?;
        used = used.saturating_add(ca);
        let (rb, cb) = region(Operand::B, a.n, used)?;
        used = used.saturating_add(cb);
        sfa = Some(ra);
        sfb = Some(rb);
    } else {
        // Dense kinds have no scale factors: a flag of theirs would be silently ignored.
        let given = [
            ("--tile-k", a.tile_k.is_some()),
            ("--sf", a.sf.is_some()),
            ("--sf-stages", a.sf_stages.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, g)| *g) {
            return Err(CliError(format!(
                "{flag} applies to the block-scaled kinds (mxf8f6f4, mxf4, mxf4nvf4), not kind::{}: a dense kind has no scale factors (PTX ISA, tcgen05.mma: scale_A/scale_B only with .kind::mxf*); legal: drop {flag}, or --kind mxf8f6f4 | mxf4 | mxf4nvf4",
                a.kind.name()
            )));
        }
    }
    let alloc = alloc_columns_for(used).map_err(|e| {
        let mut m = format!("{e}: accumulator {} x {} at column 0", a.stages, acc.cols());
        for (name, r) in [("SFA", &sfa), ("SFB", &sfb)] {
            if let Some(r) = r {
                let _ = write!(
                    m,
                    ", {name} {} x {} at column {}",
                    r.stages, r.cols_per_stage, r.col
                );
            }
        }
        CliError(m)
    })?;
    let mut rows = Vec::with_capacity((128 * map.regs_per_thread()) as usize);
    for t in 0..128 {
        for r in 0..map.regs_per_thread() {
            let (lane, col) = map.reg_address_wrapping(t, r);
            let (m, n) = acc.try_element(lane, col).map_err(err)?;
            rows.push([t, r, m, n, lane, col]);
        }
    }
    if map.regs_per_thread() > MAX_REGS_PER_THREAD {
        super::warn(format!(
            "one accumulator stage is {} registers per thread, more than the {MAX_REGS_PER_THREAD} a thread can have: read it in parts (a range of columns per tcgen05.ld, reusing the registers), not all at once",
            map.regs_per_thread()
        ));
    }
    Ok(TmemReport {
        alloc_columns: alloc,
        cols_used: used,
        regs_per_thread: map.regs_per_thread(),
        accum_cols: acc.cols(),
        loads_per_warp: map.loads(),
        instruction: load.mnemonic().as_str().to_string(),
        ctas_per_sm: 512 / alloc,
        sfa,
        sfb,
        map: rows,
        rows: acc.rows(),
        n: a.n,
        load_cols: load.cols(),
    })
}

fn op_name(op: Operand) -> &'static str {
    op.name()
}

/// The text report: the numbers, then a picture of D (CTA-local rows down, N across) with the
/// warp and first register holding each block.
pub fn render_text(r: &TmemReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "tcgen05.alloc columns  {} (CTAs per SM without waiting: {})",
        r.alloc_columns, r.ctas_per_sm
    );
    let _ = writeln!(
        s,
        "columns used           {} (accumulator stage: {})",
        r.cols_used, r.accum_cols
    );
    for (name, reg) in [("SFA", &r.sfa), ("SFB", &r.sfb)] {
        if let Some(g) = reg {
            let _ = writeln!(
                s,
                "{name}                    {} x {} columns at {} ({})",
                g.stages, g.cols_per_stage, g.col, g.copy
            );
        }
    }
    let _ = writeln!(
        s,
        "load                   {} x {} per warp",
        r.instruction, r.loads_per_warp
    );
    let _ = writeln!(s, "registers per thread   {}", r.regs_per_thread);
    // picture: blocks of 8 rows x (load columns) of D, each labelled w<warp>:r<first register>
    let bn = r.load_cols.max(r.n / 16).min(r.n).max(1);
    let bm = 8;
    let mut first: std::collections::HashMap<(u32, u32), (u32, u32)> = Default::default();
    for &[t, reg, m, n, _, _] in &r.map {
        let k = (m / bm, n / bn);
        let e = first.entry(k).or_insert((t / 32, reg));
        if reg < e.1 {
            *e = (t / 32, reg);
        }
    }
    let _ = writeln!(
        s,
        "\nD (rows {} x N {}), each cell {bm} rows x {bn} columns: warp w, first register r",
        r.rows, r.n
    );
    let _ = write!(s, "{:>8}", "m \\ n");
    for j in 0..r.n.div_ceil(bn) {
        let _ = write!(s, " {:>8}", j * bn);
    }
    s.push('\n');
    for i in 0..r.rows.div_ceil(bm) {
        let _ = write!(s, "{:>8}", i * bm);
        for j in 0..r.n.div_ceil(bn) {
            match first.get(&(i, j)) {
                Some((w, reg)) => {
                    let _ = write!(s, " {:>8}", format!("w{w}:r{reg}"));
                }
                None => {
                    let _ = write!(s, " {:>8}", "-");
                }
            }
        }
        s.push('\n');
    }
    s
}
