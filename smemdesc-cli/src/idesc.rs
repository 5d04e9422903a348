//! `smemdesc idesc` (build a tcgen05 instruction descriptor) and `smemdesc decode --idesc`
//! (explain one). Every bit comes from `smemdesc_core` ([`InstrDesc`], [`Idesc`],
//! [`idesc_fields`]); this module parses flags and formats.

use crate::CliError;
use serde::Serialize;
use smemdesc_core::{
    idesc_fields, AccumType, ElementType, Idesc, InstrDesc, Major, MmaKind, ScaleFormat,
};
use std::fmt::Write as _;

/// The kind names, comma-separated, from [`MmaKind::ALL`] (the one list of kinds).
pub(crate) fn kind_names() -> String {
    let names: Vec<&str> = MmaKind::ALL.iter().map(|k| k.name()).collect();
    names.join(", ")
}

/// Parses `--kind` (shared by `tile`, `idesc` and `decode --idesc`).
pub(crate) fn parse_kind(s: &str) -> Result<MmaKind, String> {
    MmaKind::from_name(s).ok_or_else(|| format!("unknown kind `{s}`; legal: {}", kind_names()))
}

fn parse_type(s: &str) -> Result<ElementType, String> {
    ElementType::from_name(s).ok_or_else(|| {
        format!("unknown type `{s}`; legal: f16, bf16, tf32, e4m3, e5m2, e2m3, e3m2, e2m1, s8, u8")
    })
}

fn parse_accum(s: &str) -> Result<AccumType, String> {
    AccumType::from_name(s)
        .ok_or_else(|| format!("unknown accumulator `{s}`; legal: f16, f32, s32"))
}

fn parse_major(s: &str) -> Result<Major, String> {
    Major::from_name(s).ok_or_else(|| format!("unknown major `{s}`; legal: K, MN"))
}

fn parse_sf(s: &str) -> Result<ScaleFormat, String> {
    ScaleFormat::from_name(s)
        .ok_or_else(|| format!("unknown scale format `{s}`; legal: ue8m0, ue4m3"))
}

/// The flags of `smemdesc idesc` (exactly these; other tools drive them).
#[derive(clap::Args, Debug)]
pub struct IdescArgs {
    /// MMA kind: f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4.
    #[arg(long, value_parser = parse_kind)]
    kind: MmaKind,
    /// A's element type.
    #[arg(long, value_parser = parse_type)]
    a: ElementType,
    /// B's element type.
    #[arg(long, value_parser = parse_type)]
    b: ElementType,
    /// Accumulator (D) type: f16, f32, s32 (block-scaled kinds: f32).
    #[arg(long, value_parser = parse_accum)]
    c: AccumType,
    /// Instruction M (the CTA pair's M for cta_group 2).
    #[arg(long)]
    m: u32,
    /// Instruction N.
    #[arg(long)]
    n: u32,
    /// A's major-ness: K or MN (MN = transposed).
    #[arg(long, value_parser = parse_major)]
    a_major: Major,
    /// B's major-ness: K or MN (MN = transposed).
    #[arg(long, value_parser = parse_major)]
    b_major: Major,
    /// Negate A (bit 13).
    #[arg(long)]
    negate_a: bool,
    /// Negate B (bit 14).
    #[arg(long)]
    negate_b: bool,
    /// Saturate (kind::i8 only, bit 3).
    #[arg(long)]
    saturate: bool,
    /// Scale-factor format of a block-scaled kind (default ue8m0).
    #[arg(long, value_parser = parse_sf)]
    sf: Option<ScaleFormat>,
    /// CTA group, 1 or 2 (default: 2 when M = 256, else 1); not encoded, checked.
    #[arg(long)]
    cta_group: Option<u32>,
    /// Instruction K (default: the kind's). Only `96` changes the descriptor: the K bit (31) of
    /// dense kind::mxf4/mxf4nvf4 with cta_group 2 and M 256; any other value must be the kind's K.
    #[arg(long)]
    k: Option<u32>,
}

impl IdescArgs {
    /// The descriptor the flags describe (not yet validated).
    pub fn desc(&self) -> InstrDesc {
        let mut d = InstrDesc::new(self.kind, self.a, self.b, self.c, self.m, self.n)
            .majors(self.a_major, self.b_major)
            .negate(self.negate_a, self.negate_b)
            .saturate(self.saturate);
        d.sf = match (self.sf, d.sf) {
            // Given for a dense kind: kept, so that the core reports it.
            (Some(s), _) => Some(s),
            (None, default) => default,
        };
        if let Some(cg) = self.cta_group {
            d = d.cta_group(cg);
        }
        d.k96(self.k == Some(96))
    }
}

/// One field of the report.
#[derive(Debug, Serialize)]
pub struct FieldOut {
    /// Field name.
    pub name: &'static str,
    /// Bit range, e.g. `"17-22"`.
    pub bits: String,
    /// Raw value in the field.
    pub raw: u32,
    /// What it holds.
    pub meaning: &'static str,
}

/// What `idesc` prints (and each reading of `decode --idesc`).
#[derive(Debug, Serialize)]
pub struct IdescReport {
    /// The 32-bit descriptor, `0x` + 8 hex digits.
    pub idesc: String,
    /// The 64-bit run-time form (`idesc << 32`), as CUTLASS passes it.
    pub idesc64: String,
    /// The kind whose table was used.
    pub kind: &'static str,
    /// A's type.
    pub a: &'static str,
    /// B's type.
    pub b: &'static str,
    /// Accumulator type.
    pub c: &'static str,
    /// M.
    pub m: u32,
    /// N.
    pub n: u32,
    /// K of one instruction (elements).
    pub k: u32,
    /// `K` or `MN`.
    pub a_major: &'static str,
    /// `K` or `MN`.
    pub b_major: &'static str,
    /// Negate A.
    pub negate_a: bool,
    /// Negate B.
    pub negate_b: bool,
    /// Saturate.
    pub saturate: bool,
    /// Sparse.
    pub sparse: bool,
    /// Scale-factor format (`null` for dense kinds).
    pub sf: Option<&'static str>,
    /// The K = 96 bit.
    pub k96: bool,
    /// CTA group the descriptor was checked for (decode: 2 iff M = 256).
    pub cta_group: u32,
    /// Every field.
    pub fields: Vec<FieldOut>,
    /// Rules the descriptor breaks (decode only; `idesc` refuses an illegal one).
    pub problems: Vec<String>,
    /// How `decode --idesc` read a value written without `0x` (absent when not inferred).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
}

fn report(raw: u32, d: &InstrDesc) -> IdescReport {
    let fields = idesc_fields(d.kind)
        .iter()
        .map(|f| FieldOut {
            name: f.name,
            bits: if f.width == 1 {
                f.lo.to_string()
            } else {
                format!("{}-{}", f.lo, f.lo + f.width - 1)
            },
            raw: f.get(raw),
            meaning: f.meaning,
        })
        .collect();
    IdescReport {
        idesc: format!("0x{raw:08x}"),
        idesc64: format!("0x{:016x}", Idesc::new(raw, d.kind).runtime64()),
        kind: d.kind.name(),
        a: d.a.name(),
        b: d.b.name(),
        c: d.c.name(),
        m: d.m,
        n: d.n,
        k: d.k(),
        a_major: d.a_major.name(),
        b_major: d.b_major.name(),
        negate_a: d.negate_a,
        negate_b: d.negate_b,
        saturate: d.saturate,
        sparse: d.sparse,
        sf: d.sf.map(ScaleFormat::name),
        k96: d.k96,
        cta_group: d.cta_group,
        fields,
        problems: match d.validate() {
            Ok(()) => Vec::new(),
            Err(e) => vec![e.to_string()],
        },
        input: None,
    }
}

/// `smemdesc idesc`: validates and encodes; an illegal descriptor is an error naming the flag.
pub fn build(args: &IdescArgs) -> Result<IdescReport, CliError> {
    let d = args.desc();
    let i = d.encode().map_err(|e| {
        let flag = match e.argument() {
            "negate" => "negate-a/--negate-b".to_string(),
            "k96" => "k".to_string(),
            other => other.replace('_', "-"),
        };
        CliError(format!("invalid --{flag}: {e}"))
    })?;
    if let Some(k) = args.k.filter(|&k| k != d.k()) {
        let k96 = if matches!(d.kind, MmaKind::Mxf4 | MmaKind::Mxf4nvf4) {
            ", or 96 with --cta-group 2 and --m 256"
        } else {
            ""
        };
        return Err(CliError(format!(
            "invalid --k: K = {k} is not an instruction K of kind::{}; legal K: {}{k96}",
            d.kind.name(),
            d.k()
        )));
    }
    Ok(report(i.raw(), &d))
}

/// `smemdesc decode --idesc`: every reading of `raw` (the given kind, or each kind whose table
/// decodes it; the legal readings first, and only those when there are any).
pub fn decode(raw: u32, kind: Option<MmaKind>) -> Result<Vec<IdescReport>, CliError> {
    let kinds: Vec<MmaKind> = match kind {
        Some(k) => vec![k],
        None => MmaKind::ALL.to_vec(),
    };
    let mut errors = Vec::new();
    let mut readings = Vec::new();
    for k in kinds {
        match Idesc::new(raw, k).decode() {
            Ok(d) => readings.push(report(raw, &d)),
            Err(e) => errors.push(format!("kind::{}: {e}", k.name())),
        }
    }
    if readings.is_empty() {
        return Err(CliError(format!(
            "0x{raw:08x} is not a tcgen05 instruction descriptor: {}",
            errors.join("; ")
        )));
    }
    if readings.iter().any(|r| r.problems.is_empty()) {
        readings.retain(|r| r.problems.is_empty());
    }
    Ok(readings)
}

/// Text form of one report.
pub fn render_text(r: &IdescReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "tcgen05 instruction descriptor {} (64-bit form {})",
        r.idesc, r.idesc64
    );
    let _ = writeln!(
        s,
        "  kind::{} D {} A {} ({}-major) B {} ({}-major) M {} N {} K {} cta_group::{}",
        r.kind, r.c, r.a, r.a_major, r.b, r.b_major, r.m, r.n, r.k, r.cta_group
    );
    let mut flags = Vec::new();
    for (on, name) in [
        (r.negate_a, "negate A"),
        (r.negate_b, "negate B"),
        (r.saturate, "saturate"),
        (r.sparse, "sparse"),
        (r.k96, "K=96"),
    ] {
        if on {
            flags.push(name.to_string());
        }
    }
    if let Some(sf) = r.sf {
        flags.push(format!("scale factors {sf}"));
    }
    let _ = writeln!(
        s,
        "  flags: {}",
        if flags.is_empty() {
            "none".to_string()
        } else {
            flags.join(", ")
        }
    );
    let _ = writeln!(s, "  {:<11} {:<6} {:>4}  meaning", "field", "bits", "raw");
    for f in &r.fields {
        let _ = writeln!(
            s,
            "  {:<11} {:<6} {:>4}  {}",
            f.name, f.bits, f.raw, f.meaning
        );
    }
    if r.problems.is_empty() {
        let _ = writeln!(s, "legal: yes");
    } else {
        let _ = writeln!(s, "problems:");
        for p in &r.problems {
            let _ = writeln!(s, "  - {p}");
        }
    }
    s
}

/// Text form of every reading of `decode --idesc`: how the value was read when that was inferred,
/// then, with several readings, whether they are legal (all of them, or none: [`decode`] keeps only
/// the legal ones when there are any).
pub fn render_all(readings: &[IdescReport]) -> String {
    let mut s = String::new();
    if let Some(note) = readings.first().and_then(|r| r.input.as_ref()) {
        let _ = writeln!(s, "input: {note}\n");
    }
    if let [first, _, ..] = readings {
        let kinds: Vec<&str> = readings.iter().map(|r| r.kind).collect();
        if readings.iter().all(|r| r.problems.is_empty()) {
            let _ = writeln!(
                s,
                "{} reads as a legal descriptor of {} kinds ({}); the kind is part of the opcode, \
                 not of the descriptor: pass --kind to choose\n",
                first.idesc,
                readings.len(),
                kinds.join(", ")
            );
        } else {
            let _ = writeln!(
                s,
                "{} is not a legal descriptor of any kind: it decodes with the tables of {} kinds \
                 ({}), each reading with the problems listed below\n",
                first.idesc,
                readings.len(),
                kinds.join(", ")
            );
        }
    }
    let texts: Vec<String> = readings.iter().map(render_text).collect();
    s.push_str(&texts.join("\n"));
    s
}
