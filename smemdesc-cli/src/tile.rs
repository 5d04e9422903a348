//! `smemdesc tile`: the tile arguments (shared with `draw`), building the core [`TilePlan`], and the
//! report of descriptors, advance tables and TMA plan.
//!
//! Every number in the report comes from `smemdesc_core` ([`TileDecl::build`],
//! [`TileLayout::try_desc`], [`TilePlan::box_offset`], ...); this module only formats them.

use super::idesc::parse_kind;
use crate::{parse_num, CliError};
use clap::Args;
use serde::Serialize;
use smemdesc_core::{
    Arch, Argument, ElementType, Error, Major, MmaKind, MmaShape, Operand, Order, Placement,
    Relative, SwizzleMode, TileDecl, TilePlan,
};
use std::fmt::Write as _;

/// The arguments that declare a tile: the same as the `smemdesc!` macro's keys.
#[derive(Args, Debug, Clone)]
pub struct TileArgs {
    /// Target architecture: sm90 (wgmma) or sm100 (tcgen05).
    #[arg(long, value_parser = parse_arch)]
    pub arch: Arch,
    /// MMA operand: A or B.
    #[arg(long, value_parser = parse_operand, default_value = "A")]
    pub operand: Operand,
    /// Element type: f16, bf16, tf32, f32, e4m3, e5m2, s8, u8, e2m3, e3m2, e2m1.
    #[arg(long, value_parser = parse_dtype)]
    pub dtype: ElementType,
    /// Tile extent per stage in elements, `MNxK` (e.g. 128x64).
    #[arg(long, value_parser = parse_pair)]
    pub tile: (u32, u32),
    /// Contiguous dimension: K or MN.
    #[arg(long, value_parser = parse_major)]
    pub major: Major,
    /// Swizzle: none, 32B, 64B, 128B, 128B_base32B (sm100) or auto (CUTLASS selector).
    #[arg(long, value_parser = parse_swizzle, default_value = "auto")]
    pub swizzle: SwizzleChoice,
    /// Atom stacking order: mn_first or k_first (default: the TMA-friendly one).
    #[arg(long, value_parser = parse_order)]
    pub order: Option<Order>,
    /// MMA instruction shape, e.g. m64n128k16, or `(M, N)` as the macros write it (K: 32 bytes
    /// of the kind's shared-memory form) (default: the largest legal one for the tile).
    #[arg(long, value_parser = parse_mma, conflicts_with = "mma_mn")]
    pub mma: Option<MmaArg>,
    /// The operand's M (A) or N (B) extent of one MMA instruction per CTA, instead of `--mma`.
    #[arg(long, value_parser = parse_u32)]
    pub mma_mn: Option<u32>,
    /// MMA kind (sm100): f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4 (default: from dtype).
    #[arg(long, value_parser = parse_kind)]
    pub kind: Option<MmaKind>,
    /// Pipeline stages.
    #[arg(long, value_parser = parse_u32, default_value = "1")]
    pub stages: u32,
    /// TMA box, `ROWSxINNER` (rows of the strided dimension x inner elements).
    #[arg(long, value_parser = parse_pair)]
    pub tma_box: Option<(u32, u32)>,
    /// CTA group (sm100): 1 or 2.
    #[arg(long, value_parser = parse_u32, default_value = "1")]
    pub cta_group: u32,
    /// Shared-memory byte address of stage 0's element (0, 0) (decimal or 0x hex).
    #[arg(long, value_parser = parse_u32, default_value = "0")]
    pub base: u32,
    /// Placement model (measured on an H100): absolute (TMA/CuTe data, base_offset 0 anywhere) or relative
    /// (pattern restarts at --base, base_offset (base >> 7) & 7).
    #[arg(long, value_parser = parse_placement, default_value = "absolute")]
    pub placement: Placement,
}

fn parse_placement(s: &str) -> Result<Placement, String> {
    match s.to_ascii_lowercase().as_str() {
        "absolute" | "abs" => Ok(Placement::Absolute),
        "relative" | "rel" => Ok(Placement::Relative),
        _ => Err(format!(
            "unknown placement `{s}`; legal: absolute, relative"
        )),
    }
}

/// A swizzle argument: a fixed mode or `auto`.
#[derive(Debug, Clone, Copy)]
pub enum SwizzleChoice {
    /// Let the core choose (CUTLASS selector).
    Auto,
    /// A fixed mode.
    Fixed(SwizzleMode),
}

fn parse_arch(s: &str) -> Result<Arch, String> {
    Arch::from_name(s).ok_or_else(|| format!("unknown arch `{s}`; legal: {}", Arch::NAMES))
}

fn parse_operand(s: &str) -> Result<Operand, String> {
    Operand::from_name(s).ok_or_else(|| format!("unknown operand `{s}`; legal: A, B"))
}

fn parse_dtype(s: &str) -> Result<ElementType, String> {
    dtype_any_case(s).ok_or_else(|| {
        let names: Vec<&str> = ElementType::ALL.iter().map(|t| t.name()).collect();
        format!("unknown dtype `{s}`; legal: {}", names.join(", "))
    })
}

/// An element type by name in any case (`BF16`, `E4M3`), as `--arch` takes `SM90`.
pub(crate) fn dtype_any_case(s: &str) -> Option<ElementType> {
    ElementType::from_name(s).or_else(|| ElementType::from_name(&s.to_ascii_lowercase()))
}

fn parse_major(s: &str) -> Result<Major, String> {
    Major::from_name(s).ok_or_else(|| format!("unknown major `{s}`; legal: K, MN"))
}

fn parse_order(s: &str) -> Result<Order, String> {
    Order::from_name(s).ok_or_else(|| format!("unknown order `{s}`; legal: mn_first, k_first"))
}

fn parse_swizzle(s: &str) -> Result<SwizzleChoice, String> {
    if s.eq_ignore_ascii_case("auto") {
        return Ok(SwizzleChoice::Auto);
    }
    SwizzleMode::from_name(s)
        .map(SwizzleChoice::Fixed)
        .ok_or_else(|| {
            format!("unknown swizzle `{s}`; legal: auto, none, 32B, 64B, 128B, 128B_base32B")
        })
}

/// `--mma`: a full shape, or `(M, N)` whose K the tile's type and kind imply.
#[derive(Clone, Copy, Debug)]
pub enum MmaArg {
    /// `mMnNkK`.
    Shape(MmaShape),
    /// `(M, N)` or `M,N`: K is 32 bytes of the kind's SMEM form, as the macros imply it.
    MN(u32, u32),
}

fn parse_mma(s: &str) -> Result<MmaArg, String> {
    if let Some(m) = MmaShape::parse(s) {
        return Ok(MmaArg::Shape(m));
    }
    // The macros' `(M, N)` (or `M, N`); `64x128` stays refused: it reads like a tile extent.
    Some(s)
        .filter(|s| s.contains(','))
        .and_then(split_pair)
        .and_then(|(m, n)| Some(MmaArg::MN(m.trim().parse().ok()?, n.trim().parse().ok()?)))
        .ok_or_else(|| {
            format!("malformed MMA shape `{s}`; expected mMnNkK (e.g. m64n128k16) or (M, N) (e.g. \"(64, 256)\")")
        })
}

fn parse_u32(s: &str) -> Result<u32, String> {
    let v = parse_num(s)?;
    u32::try_from(v).map_err(|_| format!("`{s}` does not fit in 32 bits"))
}

/// `A` and `B` of an extent pair written `AxB`, `A,B` or `(A, B)` (the macros' spelling).
pub(crate) fn split_pair(s: &str) -> Option<(&str, &str)> {
    let t = s.trim();
    let t = t
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(t);
    let (a, b) = t.split_once(['x', 'X', ','])?;
    Some((a.trim(), b.trim()))
}

fn parse_pair(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = split_pair(s).ok_or_else(|| {
        format!("malformed extent pair `{s}`; expected AxB or A,B, e.g. 128x64 or 128,64")
    })?;
    Ok((parse_u32(a)?, parse_u32(b)?))
}

/// The command-line flag a core [`Argument`] corresponds to.
pub fn flag_of(arg: Argument) -> &'static str {
    match arg {
        Argument::Arch => "--arch",
        Argument::Operand => "--operand",
        Argument::Dtype => "--dtype",
        Argument::TileMn => "--tile (MN)",
        Argument::TileK => "--tile (K)",
        Argument::Tile => "--tile",
        Argument::Major => "--major",
        Argument::Swizzle => "--swizzle",
        Argument::Order => "--order",
        Argument::Mma => "--mma",
        Argument::Kind => "--kind",
        Argument::Stages => "--stages",
        Argument::TmaBox => "--tma-box",
        Argument::CtaGroup => "--cta-group",
        Argument::Use => "--base",
    }
}

/// Wraps a core error as a CLI error naming the offending flag.
pub fn core_error(e: Error) -> CliError {
    CliError(format!("invalid {}: {e}", flag_of(e.argument())))
}

impl TileArgs {
    fn decl(&self) -> TileDecl {
        let mut d = TileDecl::new(
            self.arch,
            self.operand,
            self.dtype,
            self.major,
            self.tile.0,
            self.tile.1,
        )
        .stages(self.stages)
        .cta_group(self.cta_group);
        if let SwizzleChoice::Fixed(s) = self.swizzle {
            d = d.swizzle(s);
        }
        if let Some(o) = self.order {
            d = d.order(o);
        }
        match self.mma {
            Some(MmaArg::Shape(m)) => d = d.mma(m),
            Some(MmaArg::MN(m, n)) => {
                let kind = self.kind.unwrap_or(MmaKind::of(self.dtype));
                let k = smemdesc_core::SmemForm::of(self.dtype, kind).values_in(self.dtype, 32);
                d = d.mma(MmaShape::new(m, n, k));
            }
            None => {}
        }
        if let Some(k) = self.kind {
            d = d.kind(k);
        }
        if let Some((rows, inner)) = self.tma_box {
            d = d.tma_box(rows, inner);
        }
        if let Some(mn) = self.mma_mn {
            d = d.mma_mn(mn);
        }
        d
    }

    /// Validates the declaration through the core and returns the plan, or the core's error.
    pub fn plan(&self) -> Result<TilePlan, CliError> {
        self.decl().build().map_err(core_error)
    }
}

/// One MMA subtile descriptor of one stage.
#[derive(Debug, Serialize)]
pub struct DescEntry {
    /// Subtile index along M/N.
    pub mn: u32,
    /// Subtile index along K.
    pub k: u32,
    /// Pipeline stage.
    pub stage: u32,
    /// The descriptor, `0x` + 16 hex digits.
    pub desc: String,
    /// Its start address in bytes.
    pub start_address: u32,
}

/// One TMA box of one stage.
#[derive(Debug, Serialize)]
pub struct BoxEntry {
    /// Box number (increasing SMEM order).
    pub index: u32,
    /// Byte offset from the start of the stage.
    pub offset: u32,
    /// Tile coordinates `[mn0, k0]` (elements) of the box's first element.
    pub coord: [u32; 2],
}

/// The TMA plan of one stage.
#[derive(Debug, Serialize)]
pub struct TmaReport {
    /// `[rows, inner elements]`.
    pub r#box: [u32; 2],
    /// `boxDim` for `cuTensorMapEncodeTiled` (innermost first: `[inner, rows]`).
    pub box_dim: [u32; 2],
    /// Bytes per box.
    pub box_bytes: u32,
    /// Boxes per stage.
    pub boxes: u32,
    /// `CUtensorMapSwizzle` name.
    pub swizzle: &'static str,
    /// `CUtensorMapSwizzle` value.
    pub swizzle_value: u32,
    /// `CUtensorMapDataType` name.
    pub data_type: &'static str,
    /// `CUtensorMapDataType` value.
    pub data_type_value: u32,
    /// Alignment the SMEM destination needs.
    pub smem_align: u32,
    /// Every box of one stage.
    pub box_list: Vec<BoxEntry>,
}

/// The advance tables: start-address offsets in bytes.
#[derive(Debug, Serialize)]
pub struct AdvanceReport {
    /// Offset of subtile `(i, 0)` for each `i`.
    pub mn: Vec<u32>,
    /// Offset of subtile `(0, j)` for each `j`.
    pub k: Vec<u32>,
    /// Offset of one stage.
    pub stage: u32,
    /// Offset of subtile `(i, j)`: `grid[i][j]`.
    pub grid: Vec<Vec<u32>>,
}

/// Everything `tile` reports.
#[derive(Debug, Serialize)]
pub struct TileReport {
    /// Architecture.
    pub arch: &'static str,
    /// Operand.
    pub operand: &'static str,
    /// Element type.
    pub dtype: &'static str,
    /// Contiguous dimension.
    pub major: &'static str,
    /// `[MN, K]` in elements.
    pub tile: [u32; 2],
    /// Swizzle (resolved).
    pub swizzle: &'static str,
    /// Stacking order (resolved).
    pub order: &'static str,
    /// MMA instruction `[M, N, K]`.
    pub mma: [u32; 3],
    /// MMA kind.
    pub kind: &'static str,
    /// SMEM form of the values (`whole`, `padded`, `packed`).
    pub smem_form: &'static str,
    /// CTA group.
    pub cta_group: u32,
    /// The operand's M/N extent of one instruction in this CTA.
    pub mma_mn: u32,
    /// Instruction K in elements.
    pub mma_k: u32,
    /// Subtiles `[along MN, along K]`.
    pub mmas: [u32; 2],
    /// Pipeline stages.
    pub stages: u32,
    /// Base address.
    pub base: u32,
    /// Atom `[MN, K]` extent in elements.
    pub atom: [u32; 2],
    /// Bytes per atom.
    pub atom_bytes: u32,
    /// Bytes per stage.
    pub stage_bytes: u32,
    /// Bytes of all stages.
    pub bytes: u32,
    /// Required alignment of the tile base.
    pub align: u32,
    /// LBO in bytes.
    pub lbo: u32,
    /// SBO in bytes.
    pub sbo: u32,
    /// Descriptor layout-type code.
    pub layout_type: u8,
    /// Base offset the descriptors carry at `base`.
    pub base_offset: u8,
    /// Every subtile descriptor of every stage.
    pub descriptors: Vec<DescEntry>,
    /// Advance tables.
    pub advance: AdvanceReport,
    /// TMA plan of one stage.
    pub tma: TmaReport,
    /// Placement model of the descriptors (`absolute` or `relative`).
    pub placement: &'static str,
}

/// Builds the report for a plan placed at `base` under `placement`; fails if a
/// descriptor cannot be encoded there.
pub fn report_placed(
    plan: &TilePlan,
    base: u32,
    placement: Placement,
) -> Result<TileReport, CliError> {
    let t = &plan.tile;
    let spec = t.spec();
    let mut descriptors = Vec::new();
    let relative = match placement {
        Placement::Absolute => None,
        Placement::Relative => Some(t.place::<Relative>(base).map_err(core_error)?),
    };
    for stage in 0..spec.stages {
        for k in 0..t.mmas_k() {
            for mn in 0..t.mmas_mn() {
                let d = match relative {
                    None => t.try_desc(base, mn, k, stage),
                    Some(r) => r.try_desc(mn, k, stage),
                }
                .map_err(core_error)?;
                descriptors.push(DescEntry {
                    mn,
                    k,
                    stage,
                    desc: format!("{:#018x}", d.raw()),
                    start_address: d.start_address(),
                });
            }
        }
    }
    let grid = (0..t.mmas_mn())
        .map(|i| {
            (0..t.mmas_k())
                .map(|j| t.subtile_offset_bytes(i, j))
                .collect()
        })
        .collect();
    let tma = &plan.tma;
    let box_list = (0..tma.boxes)
        .map(|b| {
            let (mn0, k0) = plan.box_coord(b);
            BoxEntry {
                index: b,
                offset: plan.box_offset(b),
                coord: [mn0, k0],
            }
        })
        .collect();
    let atom = t.atom();
    let decl = plan.decl;
    Ok(TileReport {
        arch: spec.arch.name(),
        operand: decl.operand.name(),
        dtype: spec.dtype.name(),
        major: spec.major.name(),
        tile: [spec.tile_mn, spec.tile_k],
        swizzle: t.swizzle_mode().name(),
        order: spec.order.name(),
        mma: [plan.mma.m, plan.mma.n, plan.mma.k],
        kind: plan.kind.name(),
        smem_form: spec.form.name(),
        cta_group: decl.cta_group,
        mma_mn: spec.mma_mn,
        mma_k: t.mma_k(),
        mmas: [t.mmas_mn(), t.mmas_k()],
        stages: spec.stages,
        base,
        atom: [
            atom.mn_extent(),
            atom.k_extent() * spec.form.values_per_cell(),
        ],
        atom_bytes: t.swizzle_mode().atom_bytes(),
        stage_bytes: t.stage_bytes(),
        bytes: t.bytes(),
        align: t.align(),
        lbo: t.lbo(),
        sbo: t.sbo(),
        layout_type: t.layout_type(),
        base_offset: placement.base_offset(t, base),
        descriptors,
        advance: AdvanceReport {
            mn: (0..t.mmas_mn()).map(|i| t.advance_mn(i) * 16).collect(),
            k: (0..t.mmas_k()).map(|j| t.advance_k(j) * 16).collect(),
            stage: t.advance_stage() * 16,
            grid,
        },
        tma: TmaReport {
            r#box: [tma.box_rows, tma.box_inner],
            box_dim: tma.box_dim(),
            box_bytes: tma.box_bytes,
            boxes: tma.boxes,
            swizzle: tma.swizzle.name(),
            swizzle_value: tma.swizzle.value(),
            data_type: tma.data_type.name(),
            data_type_value: tma.data_type.value(),
            smem_align: tma.smem_align,
            box_list,
        },
        placement: placement.name(),
    })
}

/// Renders the report as readable tables.
pub fn render_text(r: &TileReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} operand {}: {} {}-major tile {}x{} (MN x K), swizzle {}, order {}",
        r.arch, r.operand, r.dtype, r.major, r.tile[0], r.tile[1], r.swizzle, r.order
    );
    if r.smem_form != "whole" {
        let _ = writeln!(s, "  SMEM form: {}", r.smem_form);
    }
    let _ = writeln!(
        s,
        "  mma m{}n{}k{} (kind {}, cta_group {}): subtile {}x{} elements, {} x {} subtiles (MN x K)",
        r.mma[0], r.mma[1], r.mma[2], r.kind, r.cta_group, r.mma_mn, r.mma_k, r.mmas[0], r.mmas[1]
    );
    let _ = writeln!(
        s,
        "  atom {}x{} elements ({} B); stage {} B x {} stages = {} B; align {} B",
        r.atom[0], r.atom[1], r.atom_bytes, r.stage_bytes, r.stages, r.bytes, r.align
    );
    let _ = writeln!(
        s,
        "  LBO {} B, SBO {} B, layout type {}, base {:#x} (base_offset {})",
        r.lbo, r.sbo, r.layout_type, r.base, r.base_offset
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "descriptors of each MMA subtile (mn, k) and stage, tile at base {:#x}:",
        r.base
    );
    let _ = writeln!(
        s,
        "  {:>5} {:>3} {:>3}  {:<18}  start",
        "stage", "mn", "k", "desc"
    );
    for d in &r.descriptors {
        let _ = writeln!(
            s,
            "  {:>5} {:>3} {:>3}  {}  {:#x}",
            d.stage, d.mn, d.k, d.desc, d.start_address
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "advance (bytes added to the start address; stage {} B):",
        r.advance.stage
    );
    let mut header = format!("  {:>6} |", "mn\\k");
    for j in 0..r.mmas[1] {
        let _ = write!(header, " {j:>7}");
    }
    let _ = writeln!(s, "{header}");
    for (i, row) in r.advance.grid.iter().enumerate() {
        let mut line = format!("  {i:>6} |");
        for v in row {
            let _ = write!(line, " {v:>7}");
        }
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s);
    let t = &r.tma;
    let _ = writeln!(
        s,
        "TMA: {} boxes of {} rows x {} elements ({} B), boxDim {:?}, {} ({}), {} ({}), smem align {} B",
        t.boxes,
        t.r#box[0],
        t.r#box[1],
        t.box_bytes,
        t.box_dim,
        t.swizzle,
        t.swizzle_value,
        t.data_type,
        t.data_type_value,
        t.smem_align
    );
    let _ = writeln!(s, "  {:>4} {:>8}  (mn0, k0)", "box", "offset");
    for b in &t.box_list {
        let _ = writeln!(
            s,
            "  {:>4} {:>8}  ({}, {})",
            b.index, b.offset, b.coord[0], b.coord[1]
        );
    }
    s
}
