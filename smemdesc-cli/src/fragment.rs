//! `smemdesc fragment` (an `mma.sync` or `wgmma`-accumulator fragment map, drawn as the PTX ISA
//! figures draw it, or as JSON) and `smemdesc banks` (the bank map of one shared-memory access of
//! an `ldmatrix` operand tile, or of raw lane addresses). Every number comes from
//! `smemdesc_core::fragment`; this module parses flags and formats.

use crate::CliError;
use serde::Serialize;
use smemdesc_core::fragment::{
    bank_of, bank_report, FragOperand, LdmatrixTile, MmaSync, ScaleType, ScaleVec, SyncArch,
    SyncKind, SyncShape, WarpAccess, WgmmaAccum, Writer,
};
use smemdesc_core::{ElementType, Major, SwizzleMode};
use std::fmt::Write as _;

fn parse_sync_arch(s: &str) -> Result<SyncArch, String> {
    SyncArch::from_name(s)
        .ok_or_else(|| format!("unknown arch `{s}`; legal: sm80, sm86, sm89, sm90, sm120"))
}

fn parse_type(s: &str) -> Result<ElementType, String> {
    super::tile::dtype_any_case(s).ok_or_else(|| {
        format!("unknown type `{s}`; legal: f16, bf16, tf32, s8, u8, e4m3, e5m2, e3m2, e2m3, e2m1")
    })
}

fn parse_sync_kind(s: &str) -> Result<SyncKind, String> {
    SyncKind::from_name(s).ok_or_else(|| {
        format!("unknown kind `{s}`; legal: plain, f8f6f4, mxf8f6f4, mxf4, mxf4nvf4")
    })
}

fn parse_scale_vec(s: &str) -> Result<ScaleVec, String> {
    match s.to_ascii_uppercase().trim_start_matches("SCALE_VEC::") {
        "1X" | "1" => Ok(ScaleVec::X1),
        "2X" | "2" => Ok(ScaleVec::X2),
        "4X" | "4" => Ok(ScaleVec::X4),
        _ => Err(format!("unknown scale vector `{s}`; legal: 1X, 2X, 4X")),
    }
}

fn parse_stype(s: &str) -> Result<ScaleType, String> {
    match s {
        "ue8m0" => Ok(ScaleType::Ue8m0),
        "ue4m3" => Ok(ScaleType::Ue4m3),
        _ => Err(format!("unknown scale type `{s}`; legal: ue8m0, ue4m3")),
    }
}

fn parse_operand(s: &str) -> Result<FragOperand, String> {
    FragOperand::from_name(s).ok_or_else(|| format!("unknown operand `{s}`; legal: A, B, C, D"))
}

/// The instruction flags shared by `fragment` and `banks`.
#[derive(clap::Args, Debug)]
pub struct InstrArgs {
    /// Architecture: sm80, sm86, sm89, sm90, sm120.
    #[arg(long, value_parser = parse_sync_arch)]
    pub(crate) arch: SyncArch,
    /// Shape: m16n8k4, m16n8k8, m16n8k16, m16n8k32, m16n8k64; or m64nNk* (sm90 wgmma: operand D,
    /// or A with --regs).
    #[arg(long)]
    pub(crate) mma: String,
    /// Element type of A and B (f16, bf16, tf32, s8, u8, e4m3, e5m2, e3m2, e2m3, e2m1).
    #[arg(long, value_parser = parse_type)]
    pub(crate) dtype: Option<ElementType>,
    /// A's type, where it differs from --dtype.
    #[arg(long, value_parser = parse_type)]
    pub(crate) a_type: Option<ElementType>,
    /// B's type, where it differs from --dtype.
    #[arg(long, value_parser = parse_type)]
    b_type: Option<ElementType>,
    /// sm120 kind: plain (default), f8f6f4, mxf8f6f4, mxf4, mxf4nvf4.
    #[arg(long, value_parser = parse_sync_kind, default_value = "plain")]
    kind: SyncKind,
    /// Block-scaled kinds: scale vector 1X, 2X, 4X (default: the PTX default of the kind).
    #[arg(long, value_parser = parse_scale_vec, requires = "stype")]
    scale_vec: Option<ScaleVec>,
    /// Block-scaled kinds: scale type ue8m0 or ue4m3.
    #[arg(long, value_parser = parse_stype, requires = "scale_vec")]
    stype: Option<ScaleType>,
}

impl InstrArgs {
    fn mma_sync(&self) -> Result<MmaSync, CliError> {
        let shape = SyncShape::from_name(&self.mma).ok_or_else(|| {
            CliError(format!(
                "unknown mma.sync shape `{}`; legal: m16n8k4, m16n8k8, m16n8k16, m16n8k32, m16n8k64 (and m64nNk* for the sm90 wgmma accumulator)",
                self.mma
            ))
        })?;
        let a = self.a_type.or(self.dtype);
        let b = self.b_type.or(self.dtype);
        let (Some(a), Some(b)) = (a, b) else {
            return Err(CliError(
                "give --dtype (or both --a-type and --b-type)".to_string(),
            ));
        };
        let scale = self.scale_vec.zip(self.stype);
        MmaSync::with_kind(self.arch, shape, self.kind, a, b, scale)
            .map_err(|e| CliError(e.to_string()))
    }

    /// `m64nNk*`: the wgmma accumulator's N.
    fn wgmma_n(&self) -> Option<Result<u32, CliError>> {
        let rest = self.mma.strip_prefix("m64n")?;
        let (n, k) = rest.split_once('k')?;
        Some((|| {
            let n: u32 = n
                .parse()
                .map_err(|_| CliError(format!("malformed wgmma shape `{}`", self.mma)))?;
            let k: u32 = k
                .parse()
                .map_err(|_| CliError(format!("malformed wgmma shape `{}`", self.mma)))?;
            if !matches!(self.arch, SyncArch::Sm90) {
                return Err(CliError(format!(
                    "{} is a wgmma shape; wgmma exists on sm90 only (got {})",
                    self.mma,
                    self.arch.name()
                )));
            }
            // K by the core's wgmma shape rules for the operands' type (--dtype), or for some
            // wgmma type without it (an N the accumulator refuses is reported below).
            if WgmmaAccum::new(n).is_some() {
                let check = |t: ElementType| {
                    smemdesc_core::check_mma_shape(
                        smemdesc_core::Arch::Sm90,
                        t,
                        smemdesc_core::MmaKind::of(t),
                        smemdesc_core::MmaShape::new(64, n, k),
                        1,
                        smemdesc_core::Major::K,
                    )
                };
                match self.a_type.or(self.dtype) {
                    Some(t) => check(t).map_err(|e| CliError(format!("{}: {e}", self.mma)))?,
                    None if ElementType::ALL.iter().any(|&t| check(t).is_ok()) => {}
                    None => {
                        return Err(CliError(format!(
                            "{}: K = {k} is no wgmma K for any type (32 bytes of K: 8 for tf32, 16 for f16/bf16, 32 for 8-bit types); give --dtype",
                            self.mma
                        )))
                    }
                }
            }
            WgmmaAccum::new(n).map(|d| d.n()).ok_or_else(|| {
                CliError(format!(
                    "wgmma N = {n} is illegal; legal: multiples of 8 in 8..=256"
                ))
            })
        })())
    }
}

/// The flags of `smemdesc fragment`.
#[derive(clap::Args, Debug)]
pub struct FragmentArgs {
    #[command(flatten)]
    pub(crate) instr: InstrArgs,
    /// Operand: A, B, C or D (C and D share a fragment).
    #[arg(long, value_parser = parse_operand, required_unless_present = "chain")]
    pub(crate) operand: Option<FragOperand>,
    /// One line per thread and 32-bit register; wgmma `--operand A --regs`: A in registers (RS).
    #[arg(long)]
    pub(crate) regs: bool,
    /// wgmma chain: the first m64nNk*, whose accumulator becomes --mma's A in registers.
    #[arg(long, conflicts_with_all = ["operand", "regs"])]
    pub(crate) chain: Option<String>,
    /// --chain: the first instruction's input type (default: --dtype).
    #[arg(long, value_parser = parse_type, requires = "chain")]
    pub(crate) chain_dtype: Option<ElementType>,
    /// --chain: the first instruction's accumulator, f32 (default) or f16.
    #[arg(long, value_parser = super::fragment_regs::parse_accum, requires = "chain")]
    pub(crate) accum: Option<smemdesc_core::AccumType>,
}

#[derive(Serialize)]
pub(crate) struct FragmentReport {
    pub(crate) instruction: String,
    pub(crate) operand: &'static str,
    pub(crate) rows: u32,
    pub(crate) cols: u32,
    /// `[lane, reg, row, col]`, lane-major, `reg` in the ISA's element order.
    pub(crate) map: Vec<[u32; 4]>,
    /// With `--regs`: elements per 32-bit register.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) per_reg: Option<u32>,
}

pub(crate) type Report = (FragmentReport, char, &'static str);

fn fragment_report(args: &FragmentArgs) -> Result<Report, CliError> {
    let operand = args.operand.unwrap_or(FragOperand::A);
    if let Some(n) = args.instr.wgmma_n() {
        let n = n?;
        if matches!(operand, FragOperand::A) && args.regs {
            return super::fragment_regs::wgmma_a(args);
        }
        if !matches!(operand, FragOperand::C) {
            return Err(CliError(
                "for a wgmma shape the register fragments are the accumulator (--operand D) and A read from registers (--operand A --regs); otherwise A and B come from shared memory descriptors (see `smemdesc tile`)".to_string(),
            ));
        }
        let d = WgmmaAccum::new(n).expect("checked");
        let mut map = vec![];
        for t in 0..128 {
            for e in 0..d.elems() {
                let (r, c) = d.coord(t, e).expect("in range");
                map.push([t, e, r, c]);
            }
        }
        return Ok((
            FragmentReport {
                instruction: format!("wgmma.mma_async.{} (accumulator)", args.instr.mma),
                operand: "D",
                rows: 64,
                cols: n,
                map,
                per_reg: args.regs.then_some(1),
            },
            'd',
            "thread",
        ));
    }
    let m = args.instr.mma_sync()?;
    let op = operand;
    let (rows, cols) = m.dims(op);
    let mut map = vec![];
    for lane in 0..32 {
        for e in 0..m.elems(op) {
            let (r, c) = m.coord(op, lane, e).expect("in range");
            map.push([lane, e, r, c]);
        }
    }
    let mut buf = [0u8; 96];
    Ok((
        FragmentReport {
            instruction: format!("{} ({})", m.mnemonic(&mut buf), m.arch.name()),
            operand: op.name(),
            rows,
            cols,
            map,
            per_reg: args.regs.then_some(match op {
                FragOperand::C => 1,
                _ => m.per_reg(),
            }),
        },
        op.letter(),
        "lane",
    ))
}

/// `smemdesc fragment`: the grid (text) or `{"map": …}` (JSON).
pub fn fragment(args: &FragmentArgs, json: bool) -> Result<String, CliError> {
    if let Some(first) = &args.chain {
        return super::fragment_regs::chain(args, first, json);
    }
    let (r, letter, who) = fragment_report(args)?;
    if let (Some(p), false) = (r.per_reg, json) {
        return Ok(super::fragment_regs::reg_table(&r, p, letter, who));
    }
    if json {
        // One line: the map has up to 128 x 128 entries.
        return serde_json::to_string(&r)
            .map(|s| s + "\n")
            .map_err(|e| CliError(format!("JSON encoding failed: {e}")));
    }
    let mut cell = vec![String::new(); (r.rows * r.cols) as usize];
    for &[lane, e, row, col] in &r.map {
        cell[(row * r.cols + col) as usize] = format!("T{lane}:{letter}{e}");
    }
    let w = cell.iter().map(String::len).max().unwrap_or(1).max(3);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} operand {}: {} x {}; cell = T<{who}>:<element> (element order as in the PTX ISA figures)",
        r.instruction, r.operand, r.rows, r.cols
    );
    let _ = write!(s, "{:>4} ", "");
    for c in 0..r.cols {
        let _ = write!(s, " {c:>w$}");
    }
    s.push('\n');
    for row in 0..r.rows {
        let _ = write!(s, "{row:>4} ");
        for col in 0..r.cols {
            let _ = write!(s, " {:>w$}", cell[(row * r.cols + col) as usize]);
        }
        s.push('\n');
    }
    Ok(s)
}

fn parse_major(s: &str) -> Result<Major, String> {
    Major::from_name(s).ok_or_else(|| format!("unknown major `{s}`; legal: K, MN"))
}

/// `--swizzle`: `auto` (smemdesc chooses) or a mode.
#[derive(Clone, Copy, Debug)]
struct SwizzleChoice(Option<SwizzleMode>);

fn parse_swizzle(s: &str) -> Result<SwizzleChoice, String> {
    if s == "auto" {
        return Ok(SwizzleChoice(None));
    }
    match SwizzleMode::from_name(s) {
        Some(m) if !matches!(m, SwizzleMode::B128Base32B) => Ok(SwizzleChoice(Some(m))),
        _ => Err(format!(
            "unknown swizzle `{s}`; legal: auto, none, 32B, 64B, 128B"
        )),
    }
}

fn parse_access(s: &str) -> Result<WarpAccess, String> {
    let a = match s {
        "lds.32" | "sts.32" | "32" => WarpAccess::Vector { bytes: 4 },
        "lds.64" | "sts.64" | "64" => WarpAccess::Vector { bytes: 8 },
        "lds.128" | "sts.128" | "128" | "cp.async" => WarpAccess::Vector { bytes: 16 },
        "ldmatrix.x1" => WarpAccess::Matrix { num: 1, store: false },
        "ldmatrix.x2" => WarpAccess::Matrix { num: 2, store: false },
        "ldmatrix.x4" => WarpAccess::Matrix { num: 4, store: false },
        "stmatrix.x1" => WarpAccess::Matrix { num: 1, store: true },
        "stmatrix.x2" => WarpAccess::Matrix { num: 2, store: true },
        "stmatrix.x4" => WarpAccess::Matrix { num: 4, store: true },
        _ => {
            return Err(format!(
                "unknown access `{s}`; legal: lds.32, lds.64, lds.128, cp.async, ldmatrix.x1/x2/x4, stmatrix.x1/x2/x4"
            ))
        }
    };
    Ok(a)
}

fn parse_writer(s: &str) -> Result<Writer, String> {
    match s {
        "cp.async" => Ok(Writer::CpAsync16),
        "st.shared.4" => Ok(Writer::StShared { bytes: 4 }),
        "st.shared.8" => Ok(Writer::StShared { bytes: 8 }),
        "st.shared.16" => Ok(Writer::StShared { bytes: 16 }),
        _ => Err(format!(
            "unknown writer `{s}`; legal: cp.async, st.shared.4, st.shared.8, st.shared.16 (TMA writes are not a warp access)"
        )),
    }
}

fn parse_tile(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = super::tile::split_pair(s)
        .ok_or_else(|| format!("malformed tile `{s}`; expected MNxK or MN,K, e.g. 64x32"))?;
    let p = |t: &str| {
        t.parse::<u32>()
            .map_err(|e| format!("malformed tile `{s}`: {e}"))
    };
    Ok((p(a)?, p(b)?))
}

/// The flags of `smemdesc banks`: an `ldmatrix` operand tile (instruction flags, --operand,
/// --major, --tile), or raw lane addresses (--access, --addrs).
#[derive(clap::Args, Debug)]
pub struct BanksArgs {
    /// Raw mode: the access (lds.32, lds.64, lds.128, cp.async, ldmatrix.xN, stmatrix.xN).
    #[arg(long, value_parser = parse_access, requires = "addrs")]
    access: Option<WarpAccess>,
    /// Raw mode: 32 comma-separated byte addresses, lane 0 first (0x-hex or decimal).
    #[arg(long, value_delimiter = ',', value_parser = crate::parse_num, requires = "access")]
    addrs: Vec<u64>,
    /// Tile mode: architecture (sm80, sm86, sm89, sm90, sm120).
    #[arg(long, value_parser = parse_sync_arch, conflicts_with = "access")]
    arch: Option<SyncArch>,
    /// Tile mode: mma.sync shape.
    #[arg(long)]
    mma: Option<String>,
    /// Tile mode: element type.
    #[arg(long, value_parser = parse_type)]
    dtype: Option<ElementType>,
    /// Tile mode: sm120 kind (plain, f8f6f4, mxf8f6f4, mxf4, mxf4nvf4).
    #[arg(long, value_parser = parse_sync_kind, default_value = "plain")]
    kind: SyncKind,
    /// Tile mode: A or B.
    #[arg(long, value_parser = parse_operand)]
    operand: Option<FragOperand>,
    /// Tile mode: K or MN (MN reads with ldmatrix .trans, 16-bit only).
    #[arg(long, value_parser = parse_major, default_value = "K")]
    major: Major,
    /// Tile mode: MNxK elements, e.g. 64x32.
    #[arg(long, value_parser = parse_tile)]
    tile: Option<(u32, u32)>,
    /// Tile mode: auto (smemdesc chooses), none, 32B, 64B, 128B.
    #[arg(long, value_parser = parse_swizzle, default_value = "auto")]
    swizzle: SwizzleChoice,
    /// Tile mode: pad each row by this many bytes (unswizzled rows).
    #[arg(long, default_value_t = 0)]
    pad: u32,
    /// Tile mode: ldmatrix .x1, .x2 or .x4 (1, 2, 4).
    #[arg(long, default_value_t = 4)]
    ldmatrix: u32,
    /// Tile mode: which ldmatrix instruction (or writer issue) to draw.
    #[arg(long, default_value_t = 0)]
    instr: u32,
    /// Tile mode: draw an issue of this writer instead (cp.async, st.shared.4/8/16).
    #[arg(long, value_parser = parse_writer)]
    writer: Option<Writer>,
}

#[derive(Serialize)]
struct BankLane {
    lane: u32,
    addr: u32,
    banks: Vec<u32>,
}

#[derive(Serialize)]
struct BanksReport {
    access: String,
    wavefronts: u32,
    phases: u32,
    conflicts: u32,
    degree: u32,
    worst_bank: u32,
    worst_lanes: Vec<u32>,
    lanes: Vec<BankLane>,
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<String>,
}

fn access_name(a: WarpAccess) -> String {
    match a {
        WarpAccess::Vector { bytes } => format!("{}-bit per lane", bytes * 8),
        WarpAccess::Matrix { num, store } => {
            format!("{}.x{num}", if store { "stmatrix" } else { "ldmatrix" })
        }
    }
}

/// Builds the tile of `banks`' tile mode (also what `fragment`-path tests use).
pub(crate) fn banks_tile(a: &BanksArgs) -> Result<LdmatrixTile, CliError> {
    let need = |what: &str| {
        CliError(format!(
            "banks: give --{what} (tile mode) or --access with --addrs (raw mode)"
        ))
    };
    let instr = InstrArgs {
        arch: a.arch.ok_or_else(|| need("arch"))?,
        mma: a.mma.clone().ok_or_else(|| need("mma"))?,
        dtype: Some(a.dtype.ok_or_else(|| need("dtype"))?),
        a_type: None,
        b_type: None,
        kind: a.kind,
        scale_vec: None,
        stype: None,
    };
    let m = instr.mma_sync()?;
    let op = a.operand.ok_or_else(|| need("operand"))?;
    let (mn, k) = a.tile.ok_or_else(|| need("tile"))?;
    let t = LdmatrixTile::new(m, op, a.major, mn, k, a.swizzle.0, a.ldmatrix)
        .map_err(|e| CliError(e.to_string()))?;
    if a.pad % 16 != 0 {
        return Err(CliError(format!(
            "--pad {} is not a multiple of 16 B: ldmatrix (and cp.async 16 B) rows must start 16-B aligned, so such rows fault on hardware",
            a.pad
        )));
    }
    if let (true, Some(sw)) = (a.pad != 0, a.swizzle.0) {
        if sw.is_swizzled() {
            return Err(CliError(format!(
                "--pad pads unswizzled rows; it does not combine with --swizzle {} (give one or the other, or --swizzle none)",
                sw.name()
            )));
        }
    }
    if a.pad > smemdesc_core::fragment::MAX_PAD_BYTES {
        return Err(CliError(format!(
            "--pad {} is larger than {} B",
            a.pad,
            smemdesc_core::fragment::MAX_PAD_BYTES
        )));
    }
    Ok(if a.pad != 0 { t.padded(a.pad) } else { t })
}

/// `smemdesc banks`: the bank map of one access.
pub fn banks(a: &BanksArgs, json: bool) -> Result<String, CliError> {
    let (access, addrs, layout): (WarpAccess, [u32; 32], Option<String>) = match a.access {
        Some(acc) => (acc, super::banks_raw::lane_addresses(acc, &a.addrs)?, None),
        None => {
            let t = banks_tile(a)?;
            let l = t.layout();
            let desc = format!(
                "{} rows x {} B, swizzle {}, pad {} B{}",
                l.rows,
                l.row_bytes,
                l.swizzle.name(),
                l.pad,
                if t.trans() { ", ldmatrix .trans" } else { "" }
            );
            match a.writer {
                Some(w) => {
                    let n = t.writer_issues(w).unwrap_or(0);
                    if a.instr >= n {
                        return Err(CliError(format!(
                            "--instr {} out of range: the writer has {n} issues",
                            a.instr
                        )));
                    }
                    let v = core::array::from_fn(|l| t.writer_address(w, a.instr, l as u32));
                    (WarpAccess::Vector { bytes: w.bytes() }, v, Some(desc))
                }
                None => {
                    if a.instr >= t.instructions() {
                        return Err(CliError(format!(
                            "--instr {} out of range: the tile takes {} ldmatrix instructions",
                            a.instr,
                            t.instructions()
                        )));
                    }
                    (t.access(), t.addresses(a.instr), Some(desc))
                }
            }
        }
    };
    if !access.is_legal() {
        return Err(CliError("illegal access".to_string()));
    }
    let r = bank_report(access, &addrs);
    let used = access.phases() * access.lanes_per_phase();
    let words = (access.bytes_per_lane() / 4).max(1);
    let lanes: Vec<BankLane> = (0..used)
        .map(|l| {
            let base = addrs[l as usize] / access.bytes_per_lane() * access.bytes_per_lane();
            BankLane {
                lane: l,
                addr: addrs[l as usize],
                banks: (0..words).map(|w| bank_of(base + 4 * w)).collect(),
            }
        })
        .collect();
    let rep = BanksReport {
        access: access_name(access),
        wavefronts: r.wavefronts,
        phases: r.phases,
        conflicts: r.conflicts(),
        degree: r.degree,
        worst_bank: r.worst_bank,
        worst_lanes: (0..32).filter(|l| r.worst_lanes & (1 << l) != 0).collect(),
        lanes,
        layout,
    };
    if json {
        return super::to_json(&rep);
    }
    let mut s = String::new();
    if let Some(l) = &rep.layout {
        let _ = writeln!(s, "layout: {l}");
    }
    let _ = writeln!(
        s,
        "{}: {} wavefronts over {} phases, {} conflicts ({}-way at worst)",
        rep.access, rep.wavefronts, rep.phases, rep.conflicts, rep.degree
    );
    let per = access.lanes_per_phase();
    for ph in 0..access.phases() {
        let _ = writeln!(
            s,
            "phase {ph} (lanes {}..{}):",
            ph * per,
            ph * per + per - 1
        );
        let _ = write!(s, "  bank ");
        for b in 0..32 {
            let _ = write!(s, "{b:>3}");
        }
        s.push('\n');
        for l in &rep.lanes[(ph * per) as usize..((ph + 1) * per) as usize] {
            let _ = write!(s, "  L{:<3} ", l.lane);
            for b in 0..32 {
                let _ = write!(s, "{:>3}", if l.banks.contains(&b) { "#" } else { "." });
            }
            let _ = writeln!(s, "  @{:#x}", l.addr);
        }
    }
    if !r.is_conflict_free() {
        let _ = writeln!(
            s,
            "worst: bank {} in phase {}, lanes {:?}",
            r.worst_bank, r.worst_phase, rep.worst_lanes
        );
    }
    Ok(s)
}
