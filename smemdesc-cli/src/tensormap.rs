//! `smemdesc tensormap check --im2col FILE` / `--tiled FILE`: judges tensor-map parameter sets in
//! bulk, one per row, by the core's rules (`Im2colMap::check` and `TensorMap::check`), and prints
//! `id<TAB>ok` or `id<TAB>refused<TAB>reason` per row, so any toolchain can check its maps.

use crate::CliError;
use smemdesc_core::{
    Arch, Im2colError, Im2colMap, TensorMap, TensorMapDataType, TensorMapError,
    TensorMapInterleave, TensorMapL2Promotion, TensorMapOobFill, TensorMapSwizzle,
};
use std::fmt::Write as _;
use std::path::PathBuf;

/// The 256-byte aligned base every row's `addr_off` is added to: `globalAddress = BASE +
/// addr_off` (the address is only checked for alignment, never read).
pub const ADDRESS_BASE: u64 = 0x7f00_0000_0000;

/// The columns of an im2col row, in order.
pub const IM2COL_COLUMNS: [&str; 15] = [
    "id",
    "dtype",
    "rank",
    "addr_off",
    "dims",
    "strides",
    "lower",
    "upper",
    "channels",
    "pixels",
    "element_strides",
    "interleave",
    "swizzle",
    "l2",
    "oob",
];

/// The columns of a tiled row, in order.
pub const TILED_COLUMNS: [&str; 12] = [
    "id",
    "dtype",
    "rank",
    "addr_off",
    "dims",
    "strides",
    "box",
    "element_strides",
    "interleave",
    "swizzle",
    "l2",
    "oob",
];

/// `smemdesc tensormap ...`.
#[derive(clap::Subcommand, Debug)]
pub enum TensormapCommand {
    /// Judge tensor-map parameter sets, one per row of a TSV file, by every documented rule of
    /// cuTensorMapEncodeIm2col (--im2col) or cuTensorMapEncodeTiled (--tiled), and the rules
    /// measured on an H100. Prints `id<TAB>ok` or `id<TAB>refused<TAB>reason` per row.
    ///
    /// Rows are tab-separated; empty lines, lines starting with `#` and a header line whose first
    /// field is `id` are skipped. Columns:
    ///
    /// --im2col: id dtype rank addr_off dims strides lower upper channels pixels element_strides
    /// interleave swizzle l2 oob
    ///
    /// --tiled: id dtype rank addr_off dims strides box element_strides interleave swizzle l2 oob
    ///
    /// `id` is any text without a tab. Lists are comma-separated, innermost first (`-` for an
    /// empty list): dims (elements; im2col: C, W, H, D, N) as many as rank; strides in bytes,
    /// rank - 1 of them (the stride of dims 1, 2, ...); lower and upper the pixel-box corners,
    /// rank - 2 of them, W first (signed); box the boxDim values, as many as rank;
    /// element_strides as many as rank. `addr_off`: the global address is 0x7f0000000000 (256-byte
    /// aligned) + addr_off. `channels` and `pixels`: channelsPerPixel and pixelsPerColumn. The
    /// enumerations are the driver's integer codes: dtype a CUtensorMapDataType (0 UINT8 ... 9
    /// BFLOAT16 ... 15 16U6_ALIGN16B), interleave a CUtensorMapInterleave (0 NONE, 1 16B, 2 32B),
    /// swizzle a CUtensorMapSwizzle (0 NONE, 1 32B, 2 64B, 3 128B, 4-6 the 128B_ATOM modes), l2 a
    /// CUtensorMapL2promotion (0 NONE, 1 64B, 2 128B, 3 256B), oob a CUtensorMapFloatOOBfill (0
    /// NONE, 1 NAN_REQUEST_ZERO_FMA). Numbers are decimal, or hex with 0x (not the corners).
    ///
    /// A code outside its enumeration, or a rank the encoder refuses, is a refused row. A row that
    /// cannot be read (a column missing, a malformed number, a list longer than its array or, for
    /// a rank of 1 to 5, a list whose length does not match the rank) stops the command with exit
    /// status 2, naming the line.
    Check {
        /// Judge im2col rows (cuTensorMapEncodeIm2col) from this file (`-`: standard input).
        #[arg(
            long,
            value_name = "FILE",
            conflicts_with = "tiled",
            required_unless_present = "tiled"
        )]
        im2col: Option<PathBuf>,
        /// Judge tiled rows (cuTensorMapEncodeTiled) from this file (`-`: standard input).
        #[arg(long, value_name = "FILE")]
        tiled: Option<PathBuf>,
        /// The architecture of the context that would encode the maps: sm90 or sm100.
        #[arg(long, default_value = "sm90", value_parser = parse_arch)]
        arch: Arch,
        /// Lint each legal tiled row as a map in the Blackwell out-of-bounds address generation
        /// mode OOB_ADDR_GEN_MODE_BASE_128kB (TensorRT-LLM #18133): its buffer, taken to be the
        /// tensor's own span from its address, must start 128 KiB-aligned and own at least
        /// 128 KiB. A row that breaks it prints `id<TAB>ok<TAB>lint: reason`.
        #[arg(long)]
        oob_base_128kb: bool,
    },
}

/// `--arch`: sm90 or sm100 (the names `Arch::from_name` reads).
fn parse_arch(s: &str) -> Result<Arch, String> {
    Arch::from_name(s).ok_or_else(|| format!("unknown arch `{s}`; legal: {}", Arch::NAMES))
}

/// Runs `smemdesc tensormap ...`: the report.
pub fn run(cmd: &TensormapCommand) -> Result<String, CliError> {
    let TensormapCommand::Check {
        im2col,
        tiled,
        arch,
        oob_base_128kb,
    } = cmd;
    let (path, im2col) = match (im2col, tiled) {
        (Some(p), None) => (p, true),
        (None, Some(p)) => (p, false),
        _ => {
            return Err(CliError(
                "tensormap check needs exactly one of --im2col FILE and --tiled FILE".into(),
            ))
        }
    };
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| CliError(format!("cannot read standard input: {e}")))?
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?
    };
    if *oob_base_128kb && im2col {
        return Err(CliError(
            "--oob-base-128kb lints tiled maps (--tiled FILE)".into(),
        ));
    }
    if *oob_base_128kb {
        check_text_lint(&text, im2col, *arch, true)
    } else {
        check_text(&text, im2col, *arch)
    }
    .map_err(|e| CliError(format!("{}: {e}", path.display())))
}

/// Judges every row of `text`: the report, or the first unreadable row's line and reason.
pub fn check_text(text: &str, im2col: bool, arch: Arch) -> Result<String, String> {
    check_text_lint(text, im2col, arch, false)
}

/// [`check_text`], with `oob_128kb` the lint of `--oob-base-128kb` on every legal tiled row.
pub fn check_text_lint(
    text: &str,
    im2col: bool,
    arch: Arch,
    oob_128kb: bool,
) -> Result<String, String> {
    let mut out = String::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() || line.starts_with('#') || line.split('\t').next() == Some("id")
        {
            continue;
        }
        let (id, verdict) =
            check_row(line, im2col, arch).map_err(|e| format!("line {}: {e}", n + 1))?;
        let lint = match (&verdict, oob_128kb && !im2col) {
            (Ok(()), true) => lint_oob_128kb(&parse_row(line, false)?, arch),
            _ => None,
        };
        match (verdict, lint) {
            (Ok(()), Some(l)) => writeln!(out, "{id}\tok\tlint: {l}"),
            (Ok(()), None) => writeln!(out, "{id}\tok"),
            (Err(reason), _) => writeln!(out, "{id}\trefused\t{reason}"),
        }
        .expect("writing to a String");
    }
    Ok(out)
}

/// The 128 KiB out-of-bounds window's rule on a legal tiled row (`None`: it holds): the
/// buffer is the tensor's span from the row's address (`smemdesc_core::tma::tensor_span_bytes`).
pub fn lint_oob_128kb(row: &Row, arch: Arch) -> Option<String> {
    let o = row.options().ok()?;
    let a = row.tiled_map(arch, &o).try_args().ok()?;
    let span = smemdesc_core::tma::tensor_span_bytes(&a);
    smemdesc_core::tma::check_oob_base_128kb(a.global_address, span)
        .err()
        .map(|e| e.to_string())
}

/// One row: its id and verdict (`Err(reason)` for a refused map), or why it cannot be read.
pub fn check_row(
    line: &str,
    im2col: bool,
    arch: Arch,
) -> Result<(String, Result<(), String>), String> {
    let row = parse_row(line, im2col)?;
    let verdict = row.verdict(im2col, arch).map_err(|r| r.to_string());
    Ok((row.id, verdict))
}

/// One row as read: the values as given (lists as long as the row has them), the enumerations
/// as their integer codes.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The row's `id`.
    pub id: String,
    /// `tensorRank`.
    pub rank: u32,
    /// `globalAddress`: [`ADDRESS_BASE`] + `addr_off`.
    pub address: u64,
    /// `globalDim`.
    pub dims: Vec<u64>,
    /// `globalStrides`.
    pub strides: Vec<u64>,
    /// `pixelBoxLowerCorner` (im2col rows).
    pub lower: Vec<i32>,
    /// `pixelBoxUpperCorner` (im2col rows).
    pub upper: Vec<i32>,
    /// `channelsPerPixel` (im2col rows).
    pub channels: u32,
    /// `pixelsPerColumn` (im2col rows).
    pub pixels: u32,
    /// `boxDim` (tiled rows).
    pub box_dim: Vec<u32>,
    /// `elementStrides`.
    pub element_strides: Vec<u32>,
    /// The codes of dtype, interleave, swizzle, l2 and oob.
    pub codes: [u64; 5],
}

/// The enumerations of a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// `tensorDataType`.
    pub data_type: TensorMapDataType,
    /// `interleave`.
    pub interleave: TensorMapInterleave,
    /// `swizzle`.
    pub swizzle: TensorMapSwizzle,
    /// `l2Promotion`.
    pub l2: TensorMapL2Promotion,
    /// `oobFill`.
    pub oob: TensorMapOobFill,
}

/// Why a row's map is refused: a code outside its enumeration, or a rule of the core.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// An enumeration code that is not one of the driver's values.
    Code(String),
    /// A rule of `cuTensorMapEncodeIm2col`.
    Im2col(Im2colError),
    /// A rule of `cuTensorMapEncodeTiled`.
    Tiled(TensorMapError),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Code(s) => f.write_str(s),
            Refusal::Im2col(e) => e.fmt(f),
            Refusal::Tiled(e) => e.fmt(f),
        }
    }
}

/// Reads one row (`im2col`: the im2col columns, else the tiled ones).
pub fn parse_row(line: &str, im2col: bool) -> Result<Row, String> {
    let cols: Vec<&str> = line.split('\t').collect();
    let names: &[&str] = if im2col {
        &IM2COL_COLUMNS
    } else {
        &TILED_COLUMNS
    };
    if cols.len() != names.len() {
        return Err(format!(
            "{} columns, expected {} ({})",
            cols.len(),
            names.len(),
            names.join(" ")
        ));
    }
    let col = |name: &str| cols[names.iter().position(|n| *n == name).expect("a column")];
    let code = |name: &str| -> Result<u64, String> {
        crate::parse_num(col(name)).map_err(|e| format!("{name}: {e}"))
    };
    let small = |name: &str| -> Result<u32, String> {
        u32::try_from(code(name)?).map_err(|_| format!("{name}: does not fit in 32 bits"))
    };
    let rank = small("rank")?;
    let expect = |what: &str, len: usize, want: u32| -> Result<(), String> {
        if (1..=5).contains(&rank) && len != want as usize {
            return Err(format!(
                "{what} has {len} entries; rank {rank} needs {want}"
            ));
        }
        Ok(())
    };
    let dims = list_u64(col("dims"), "dims", 5)?;
    expect("dims", dims.len(), rank)?;
    let strides = list_u64(col("strides"), "strides", 4)?;
    expect("strides", strides.len(), rank.saturating_sub(1))?;
    let element_strides = list_u32(col("element_strides"), "element_strides", 5)?;
    expect("element_strides", element_strides.len(), rank)?;
    let address = ADDRESS_BASE
        .checked_add(code("addr_off")?)
        .ok_or("addr_off: the address overflows 64 bits")?;
    let codes = [
        code("dtype")?,
        code("interleave")?,
        code("swizzle")?,
        code("l2")?,
        code("oob")?,
    ];
    let mut row = Row {
        id: cols[0].to_string(),
        rank,
        address,
        dims,
        strides,
        lower: Vec::new(),
        upper: Vec::new(),
        channels: 0,
        pixels: 0,
        box_dim: Vec::new(),
        element_strides,
        codes,
    };
    if im2col {
        row.lower = list_i32(col("lower"), "lower")?;
        expect("lower", row.lower.len(), rank.saturating_sub(2))?;
        row.upper = list_i32(col("upper"), "upper")?;
        expect("upper", row.upper.len(), rank.saturating_sub(2))?;
        if row.lower.len() != row.upper.len() {
            return Err("lower and upper have different lengths".into());
        }
        row.channels = small("channels")?;
        row.pixels = small("pixels")?;
    } else {
        row.box_dim = list_u32(col("box"), "box", 5)?;
        expect("box", row.box_dim.len(), rank)?;
    }
    Ok(row)
}

impl Row {
    /// The enumerations, or the refusal of the first code outside its enumeration.
    pub fn options(&self) -> Result<Options, Refusal> {
        let [dtype, il, sw, l2, oob] = self.codes;
        let bad = |name: &str, ty: &str, v: u64, max: usize| {
            Refusal::Code(format!(
                "{name} = {v} is not a {ty} value; legal: 0 to {max}"
            ))
        };
        Ok(Options {
            data_type: u32::try_from(dtype)
                .ok()
                .and_then(TensorMapDataType::from_value)
                .ok_or_else(|| bad("tensorDataType", "CUtensorMapDataType", dtype, 15))?,
            interleave: *TensorMapInterleave::ALL
                .get(il as usize)
                .ok_or_else(|| bad("interleave", "CUtensorMapInterleave", il, 2))?,
            swizzle: u32::try_from(sw)
                .ok()
                .and_then(TensorMapSwizzle::from_value)
                .ok_or_else(|| bad("swizzle", "CUtensorMapSwizzle", sw, 6))?,
            l2: *TensorMapL2Promotion::ALL
                .get(l2 as usize)
                .ok_or_else(|| bad("l2Promotion", "CUtensorMapL2promotion", l2, 3))?,
            oob: *TensorMapOobFill::ALL
                .get(oob as usize)
                .ok_or_else(|| bad("oobFill", "CUtensorMapFloatOOBfill", oob, 1))?,
        })
    }

    /// The row's im2col map for a context of `arch`.
    pub fn im2col_map(&self, arch: Arch, o: &Options) -> Im2colMap {
        let mut m = Im2colMap::new(arch, o.data_type, self.rank)
            .address(self.address)
            .channels_per_pixel(self.channels)
            .pixels_per_column(self.pixels)
            .interleave(o.interleave)
            .swizzle(o.swizzle)
            .l2_promotion(o.l2)
            .oob_fill(o.oob);
        for (i, &d) in self.dims.iter().enumerate() {
            m = m.dim(i as u32, d);
        }
        for (i, &s) in self.strides.iter().enumerate() {
            m = m.stride(i as u32, s);
        }
        for (i, (&l, &u)) in self.lower.iter().zip(&self.upper).enumerate() {
            m = m.lower(i as u32, l).upper(i as u32, u);
        }
        for (i, &e) in self.element_strides.iter().enumerate() {
            m = m.element_stride(i as u32, e);
        }
        m
    }

    /// The row's tiled map for a context of `arch`.
    pub fn tiled_map(&self, arch: Arch, o: &Options) -> TensorMap {
        let mut m = TensorMap::new(arch, o.data_type, self.rank)
            .address(self.address)
            .interleave(o.interleave)
            .swizzle(o.swizzle)
            .l2_promotion(o.l2)
            .oob_fill(o.oob);
        for (i, &d) in self.dims.iter().enumerate() {
            m = m.dim(i as u32, d);
        }
        for (i, &s) in self.strides.iter().enumerate() {
            m = m.stride(i as u32, s);
        }
        for (i, (&b, &e)) in self.box_dim.iter().zip(&self.element_strides).enumerate() {
            m = m.box_dim(i as u32, b).element_stride(i as u32, e);
        }
        m
    }

    /// The verdict on the row's map (`im2col`: an im2col map, else a tiled one).
    pub fn verdict(&self, im2col: bool, arch: Arch) -> Result<(), Refusal> {
        let o = self.options()?;
        if im2col {
            self.im2col_map(arch, &o)
                .try_args()
                .map(|_| ())
                .map_err(Refusal::Im2col)
        } else {
            self.tiled_map(arch, &o)
                .try_args()
                .map(|_| ())
                .map_err(Refusal::Tiled)
        }
    }
}

/// The entries of a comma-separated list (`-` or nothing: none).
fn entries(s: &str) -> impl Iterator<Item = &str> {
    let s = s.trim();
    let none = s.is_empty() || s == "-";
    s.split(',').filter(move |_| !none).map(str::trim)
}

fn list_u64(s: &str, name: &str, max: usize) -> Result<Vec<u64>, String> {
    let v = entries(s)
        .map(|e| crate::parse_num(e).map_err(|err| format!("{name}: {err}")))
        .collect::<Result<Vec<u64>, String>>()?;
    if v.len() > max {
        return Err(format!("{name} has {} entries; at most {max}", v.len()));
    }
    Ok(v)
}

fn list_u32(s: &str, name: &str, max: usize) -> Result<Vec<u32>, String> {
    list_u64(s, name, max)?
        .into_iter()
        .map(|x| u32::try_from(x).map_err(|_| format!("{name}: {x} does not fit in 32 bits")))
        .collect()
}

fn list_i32(s: &str, name: &str) -> Result<Vec<i32>, String> {
    let v = entries(s)
        .map(|e| {
            e.parse::<i32>().map_err(|err| {
                format!("{name}: malformed offset `{e}` ({err}); expected a signed 32-bit decimal")
            })
        })
        .collect::<Result<Vec<i32>, String>>()?;
    if v.len() > 3 {
        return Err(format!("{name} has {} entries; at most 3", v.len()));
    }
    Ok(v)
}
