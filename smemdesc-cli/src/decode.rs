//! `smemdesc decode`: every field of a raw 64-bit descriptor by name, plus reviewer warnings.
//!
//! All bit positions, codes and swizzle geometry come from `smemdesc_core`
//! ([`SmemDescriptor`], [`SwizzleMode`]); this module only explains them.

use serde::Serialize;
use smemdesc_core::{Arch, Idesc, MmaKind, SmemDescriptor, SwizzleMode};
use std::fmt::Write as _;

/// One descriptor field: its raw value (as stored in the bits) and its meaning.
#[derive(Debug, Serialize)]
pub struct FieldReport {
    /// Field name (`start_address`, `lbo`, ...).
    pub name: &'static str,
    /// Bit range in the 64-bit value, e.g. `"0-13"`.
    pub bits: &'static str,
    /// The raw field value as stored (16-byte units for the offsets).
    pub raw: u64,
    /// The value in bytes, for the byte-offset fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u32>,
    /// What the value means.
    pub meaning: String,
}

/// Everything `decode` reports about one descriptor.
#[derive(Debug, Serialize)]
pub struct DecodeReport {
    /// Architecture the value was decoded for.
    pub arch: &'static str,
    /// The raw descriptor, as `0x` + 16 hex digits.
    pub raw: String,
    /// Start address in bytes.
    pub start_address: u32,
    /// Leading dimension byte offset in bytes.
    pub lbo: u32,
    /// Stride dimension byte offset in bytes.
    pub sbo: u32,
    /// Matrix base offset (3 bits).
    pub base_offset: u8,
    /// Layout-type code as stored.
    pub layout_code: u8,
    /// Layout (swizzle) name, or `null` for a code the architecture does not define.
    pub layout: Option<&'static str>,
    /// sm100 version field (always reported; must be 1 on sm100, 0 on sm90).
    pub version: u8,
    /// sm100 LBO mode (`relative` or `absolute`).
    pub lbo_mode: &'static str,
    /// Every field with raw value and meaning.
    pub fields: Vec<FieldReport>,
    /// Things that are wrong or very likely wrong.
    pub warnings: Vec<String>,
    /// Things a reviewer should know (ignored fields, legal-but-unusual values).
    pub notes: Vec<String>,
    /// For a swizzled layout: whether each placement model reads this descriptor right.
    pub placements: Vec<PlacementVerdict>,
}

/// What a swizzled descriptor means under one placement model (measured on an H100).
#[derive(Debug, Serialize)]
pub struct PlacementVerdict {
    /// `absolute` (bytes written on absolute addresses: TMA, CuTe) or `relative` (pattern restarts
    /// at the tile start).
    pub model: &'static str,
    /// Whether the tensor core reads such bytes correctly with this descriptor.
    pub reads_correctly: bool,
    /// The base_offset values (0..8) that would read them correctly at this start address.
    pub base_offsets: Vec<u8>,
}

/// The architecture a descriptor given without `--arch` is read as: sm100 when bit 46 is set
/// (the sm100 version field, bits 46-48, is `0b001`), else sm90 (bits 46-48 are reserved, 0).
pub fn infer_arch(raw: u64) -> Arch {
    if (raw >> 46) & 1 == 1 {
        Arch::Sm100
    } else {
        Arch::Sm90
    }
}

/// The report's note for an architecture read from bit 46.
pub fn inferred_note(arch: Arch) -> String {
    match arch.generation() {
        Arch::Sm90 => "--arch not given: read as sm90 (bit 46, the sm100 version bit, is clear; give --arch sm100 to read it as sm100)".to_string(),
        _ => "--arch not given: read as sm100 (bit 46, the sm100 version bit, is set; give --arch sm90 to read it as sm90)".to_string(),
    }
}

/// Decodes `raw` for `arch` into a report. Never fails: malformed values produce warnings.
pub fn decode(arch: Arch, raw: u64) -> DecodeReport {
    // Every tcgen05 arch (sm100f, sm103, sm110) reads the sm100 descriptor.
    let arch = arch.generation();
    let d = SmemDescriptor::from_raw(arch, raw);
    let layout = d.layout();
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    let mut fields = Vec::new();
    let mut placements = Vec::new();

    fields.push(FieldReport {
        name: "start_address",
        bits: "0-13",
        raw: (d.start_address() >> 4) as u64,
        bytes: Some(d.start_address()),
        meaning: format!(
            "shared-memory byte address {:#x} of the MMA subtile's first element (field holds address >> 4)",
            d.start_address()
        ),
    });
    fields.push(FieldReport {
        name: "lbo",
        bits: "16-29",
        raw: (d.lbo() >> 4) as u64,
        bytes: Some(d.lbo()),
        meaning: format!(
            "{} B leading dimension byte offset: {}",
            d.lbo(),
            lbo_meaning(layout)
        ),
    });
    fields.push(FieldReport {
        name: "sbo",
        bits: "32-45",
        raw: (d.sbo() >> 4) as u64,
        bytes: Some(d.sbo()),
        meaning: format!(
            "{} B stride dimension byte offset: {}",
            d.sbo(),
            sbo_meaning(layout)
        ),
    });
    fields.push(FieldReport {
        name: "version",
        bits: "46-48",
        raw: d.version() as u64,
        bytes: None,
        meaning: match arch {
            Arch::Sm90 => "reserved on sm90 (must be 0)".to_string(),
            _ => "tcgen05 descriptor version (must be 1)".to_string(),
        },
    });
    fields.push(FieldReport {
        name: "base_offset",
        bits: "49-51",
        raw: d.base_offset() as u64,
        bytes: None,
        meaning: if d.base_offset() == 0 {
            "0: the swizzle phase of the absolute address (TMA/CuTe data anywhere; any data on the repeat)".to_string()
        } else {
            format!(
                "{}: the swizzle phase shifted by {} rows (data whose pattern restarts {} x 128 B past a repeat boundary)",
                d.base_offset(),
                d.base_offset(),
                d.base_offset()
            )
        },
    });
    fields.push(FieldReport {
        name: "lbo_mode",
        bits: "52",
        raw: d.lbo_absolute() as u64,
        bytes: None,
        meaning: match arch {
            Arch::Sm90 => "reserved on sm90 (must be 0)".to_string(),
            _ if d.lbo_absolute() => {
                "absolute LBO (only for the 48-byte K of K=96 mxf4 layouts)".to_string()
            }
            _ => "relative LBO (the mode of every dense 32-byte-K layout)".to_string(),
        },
    });
    let (layout_bits, layout_legal) = match arch {
        Arch::Sm90 => ("62-63", "0 none, 1 128B, 2 64B, 3 32B"),
        _ => ("61-63", "0 none, 1 128B_base32B, 2 128B, 4 64B, 6 32B"),
    };
    fields.push(FieldReport {
        name: "layout_type",
        bits: layout_bits,
        raw: d.layout_code() as u64,
        bytes: None,
        meaning: match layout {
            Some(l) => format!("{} ({})", l.name(), layout_meaning(l)),
            None => format!("unknown code; legal on {}: {layout_legal}", arch.name()),
        },
    });

    // Warnings.
    let reserved = d.reserved_bits();
    if reserved != 0 {
        warnings.push(format!(
            "reserved/fixed bits hold the wrong value: mask {reserved:#018x} (bits {}); the hardware may reject or misread this descriptor",
            bit_list(reserved)
        ));
    }
    if arch == Arch::Sm100 && d.version() != 1 {
        warnings.push(format!(
            "sm100 version field is {} but must be 1 (bit 46 set, bits 47-48 clear)",
            d.version()
        ));
    }
    match layout {
        None => warnings.push(format!(
            "layout-type code {} is not defined on {}; legal: {layout_legal}",
            d.layout_code(),
            arch.name()
        )),
        Some(l) => {
            layout_warnings(&d, l, &mut warnings, &mut notes);
            canonical_warnings(&d, l, &mut warnings);
            placements = placement_warnings(&d, l, &mut warnings, &mut notes);
        }
    }
    if arch == Arch::Sm100 && d.lbo_absolute() {
        warnings.push(
            "LBO mode is absolute: only K=96 mxf4 layouts need it; every dense 32-byte-K layout uses relative LBO"
                .to_string(),
        );
    }
    // What else the value looks like comes first: it explains the warnings above.
    let (mut first_warnings, mut first_notes) = (Vec::new(), Vec::new());
    lookalike_hints(arch, raw, &mut first_warnings, &mut first_notes);
    first_warnings.append(&mut warnings);
    first_notes.append(&mut notes);
    let (warnings, notes) = (first_warnings, first_notes);

    DecodeReport {
        arch: arch.name(),
        raw: format!("{raw:#018x}"),
        start_address: d.start_address(),
        lbo: d.lbo(),
        sbo: d.sbo(),
        base_offset: d.base_offset(),
        layout_code: d.layout_code(),
        layout: layout.map(|l| l.name()),
        version: d.version(),
        lbo_mode: if d.lbo_absolute() {
            "absolute"
        } else {
            "relative"
        },
        fields,
        warnings,
        notes,
        placements,
    }
}

/// What else `raw` looks like: a tcgen05 instruction descriptor (32-bit, or its 64-bit run-time
/// form `idesc << 32`), or a descriptor of the other architecture.
fn lookalike_hints(arch: Arch, raw: u64, warnings: &mut Vec<String>, notes: &mut Vec<String>) {
    let (hi, lo) = ((raw >> 32) as u32, raw as u32);
    if raw != 0 && hi == 0 {
        warnings.push(format!(
            "the value fits in 32 bits (bits 32-63, SBO and layout among them, are all 0): it looks like a tcgen05 instruction descriptor{}; to read it as one: smemdesc decode --idesc {raw:#010x}",
            legal_idesc_kinds(lo)
                .map(|k| format!(" (a legal one for kind::{k})"))
                .unwrap_or_default()
        ));
        return;
    }
    if lo == 0 && hi != 0 {
        if let Some(kinds) = legal_idesc_kinds(hi) {
            notes.push(format!(
                "the low 32 bits are 0 and the high half {hi:#010x} is a legal tcgen05 instruction descriptor (kind::{kinds}): if this is its 64-bit run-time form (idesc << 32), read it with smemdesc decode --idesc {hi:#010x}"
            ));
        }
    }
    let other = match arch.generation() {
        Arch::Sm90 => Arch::Sm100,
        _ => Arch::Sm90,
    };
    let (here, there) = (
        SmemDescriptor::from_raw(arch, raw),
        SmemDescriptor::from_raw(other, raw),
    );
    let clean = |d: &SmemDescriptor| d.reserved_bits() == 0 && d.layout().is_some();
    if !clean(&here) && clean(&there) {
        let why = match other {
            Arch::Sm90 => "bit 46 is clear, and every sm100 descriptor sets it",
            _ => "bit 46, the tcgen05 descriptor version, is set",
        };
        warnings.push(format!(
            "this looks like an {o} descriptor ({why}): read as {o}, every fixed and reserved bit is right and the layout is {l}; decode it with --arch {o}",
            o = other.name(),
            l = there.layout().map(|l| l.name()).unwrap_or_default()
        ));
    }
}

/// The kinds (comma-separated) whose table reads `raw` as a legal instruction descriptor.
fn legal_idesc_kinds(raw: u32) -> Option<String> {
    let kinds: Vec<&str> = MmaKind::ALL
        .iter()
        .filter(|&&k| matches!(Idesc::new(raw, k).decode(), Ok(d) if d.validate().is_ok()))
        .map(|k| k.name())
        .collect();
    (!kinds.is_empty()).then(|| kinds.join(", kind::"))
}

fn layout_meaning(l: SwizzleMode) -> String {
    let f = l.functor();
    if l.is_swizzled() {
        format!(
            "atom {} rows x {} B = {} B, Swizzle<{},{},{}> on byte addresses, repeats every {} B",
            l.atom_rows(),
            l.atom_width(),
            l.atom_bytes(),
            f.bits,
            f.base,
            f.shift,
            f.period()
        )
    } else {
        "no swizzle: 8 x 16 B core matrices, 128 contiguous bytes each".to_string()
    }
}

fn lbo_meaning(layout: Option<SwizzleMode>) -> &'static str {
    match layout {
        Some(SwizzleMode::None) => "distance between core matrices along K (both K- and MN-major)",
        Some(_) => "MN-major: distance between swizzle atoms along M/N (unused if the MMA spans one atom along M/N); ignored if K-major",
        None => "unknown layout",
    }
}

fn sbo_meaning(layout: Option<SwizzleMode>) -> &'static str {
    match layout {
        Some(SwizzleMode::None) => {
            "distance between core matrices along M/N (both K- and MN-major)"
        }
        Some(_) => "K-major: distance between 8-row groups along M/N; MN-major: distance between swizzle atoms along K",
        None => "unknown layout",
    }
}

fn layout_warnings(
    d: &SmemDescriptor,
    l: SwizzleMode,
    warnings: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    let start = d.start_address();
    if !l.is_swizzled() {
        if d.base_offset() != 0 {
            warnings.push(format!(
                "base_offset = {} has no effect without swizzle (layout none); CuTe writes 0",
                d.base_offset()
            ));
        }
        if d.lbo() == 0 || d.sbo() == 0 {
            warnings.push(format!(
                "without swizzle both LBO ({} B) and SBO ({} B) are used; a 0 makes core matrices overlap",
                d.lbo(),
                d.sbo()
            ));
        }
        return;
    }
    notes.push(format!(
        "LBO ({} B) is ignored if K-major ({} swizzle; CuTe writes 16 B), and unused if MN-major with the MMA spanning one atom along M/N (CuTe writes 0)",
        d.lbo(),
        l.name()
    ));
    if start % 128 != 0 {
        notes.push(format!(
            "start address {start:#x} is not a multiple of 128 B (mod 128 = {}): legal only as a K-major advance inside a swizzle atom row (+32/64/96 B); a tile or atom must start 128-B aligned",
            start % 128
        ));
    }
}

/// LBO/SBO values no canonical layout (PTX "Shared Memory Matrix Layout" table) has:
/// swizzled, SBO steps between 8-row groups (K-major) or atoms along K (MN-major) and LBO between
/// atoms along M/N (MN-major; ignored if K-major, where CuTe writes 16 B): whole atoms. Without
/// swizzle both step between 128-B core matrices: whole core matrices.
fn canonical_warnings(d: &SmemDescriptor, l: SwizzleMode, warnings: &mut Vec<String>) {
    let (lbo, sbo) = (d.lbo(), d.sbo());
    if !l.is_swizzled() {
        for (name, v) in [("LBO", lbo), ("SBO", sbo)] {
            if v != 0 && v % 128 != 0 {
                warnings.push(format!(
                    "{name} = {v} B is not a whole number of 128-B core matrices (8 rows x 16 B): no canonical layout without swizzle has it"
                ));
            }
        }
        return;
    }
    let atom = l.atom_bytes();
    let what = format!(
        "one {} atom is {} rows x {} B = {atom} B",
        l.name(),
        l.atom_rows(),
        l.atom_width()
    );
    if sbo < atom {
        warnings.push(format!(
            "SBO = {sbo} B is smaller than one atom ({what}): K-major needs {atom} B or more between 8-row groups, MN-major between atoms along K; the groups would overlap"
        ));
    } else if sbo % atom != 0 {
        warnings.push(format!(
            "SBO = {sbo} B is not a whole number of atoms ({what}): no canonical layout steps 8-row groups (K-major) or atoms along K (MN-major) by it"
        ));
    }
    if lbo != 0 && lbo != 16 && lbo % atom != 0 {
        warnings.push(format!(
            "LBO = {lbo} B is not a whole number of atoms ({what}): MN-major steps atoms along M/N by whole atoms (0 when the MMA spans one atom), and K-major ignores LBO (CuTe writes 16 B)"
        ));
    }
}

/// What the base_offset means under each placement model (measured on an H100 for sm90):
/// the tensor core swizzles the absolute address with its row phase shifted by base_offset (modulo
/// the pattern's rows). An MMA subtile starts on an atom's first row, so `(start >> 7) mod rows` is
/// where the tile sits in its pattern. Bytes written on absolute addresses (TMA) read right with
/// base_offset ≡ 0; bytes written relative to the tile start with base_offset ≡ that row.
fn placement_warnings(
    d: &SmemDescriptor,
    l: SwizzleMode,
    warnings: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Vec<PlacementVerdict> {
    if !l.is_swizzled() {
        return Vec::new();
    }
    let start = d.start_address();
    let period = l.functor().period();
    let rows = period / 128;
    let tile_row = (start >> 7) % rows;
    let bo = d.base_offset() as u32;
    let ok = |want: u32| {
        (0u8..8)
            .filter(|&b| b as u32 % rows == want)
            .collect::<Vec<u8>>()
    };
    let absolute = ok(0);
    let relative = ok(tile_row);
    let (abs_ok, rel_ok) = (bo % rows == 0, bo % rows == tile_row);
    let list = |v: &[u8]| {
        v.iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let unmeasured = if d.arch() == Arch::Sm100 {
        " (measured on sm90; smemdesc keeps sm100 tiles on the repeat)"
    } else {
        ""
    };
    if !abs_ok && !rel_ok {
        warnings.push(format!(
            "base_offset {bo} matches no placement at start address {start:#x} ({} of its {period}-B repeat): bytes written on absolute addresses (TMA, CuTe) need base_offset {}; bytes written relative to a tile start there need {}{unmeasured}",
            if tile_row == 0 {
                "on a boundary".to_string()
            } else {
                format!("{tile_row} x 128 B past a boundary")
            },
            list(&absolute),
            list(&relative)
        ));
    } else if tile_row != 0 {
        let (right, other) = if abs_ok {
            (
                "right for bytes written on absolute addresses (TMA, CuTe)",
                format!(
                    "a tile written relative to its start at this placement would need base_offset {}",
                    list(&relative)
                ),
            )
        } else {
            (
                "right for bytes written relative to a tile start at this placement",
                format!(
                    "TMA-written (absolute) bytes would need base_offset {}",
                    list(&absolute)
                ),
            )
        };
        notes.push(format!(
            "start address {start:#x} is {tile_row} x 128 B past the {period}-B repeat: base_offset {bo} is {right}; {other}{unmeasured}"
        ));
    } else if bo != 0 {
        notes.push(format!(
            "base_offset {bo} acts as {} ({} swizzle uses it modulo its {rows} rows)",
            bo % rows,
            l.name()
        ));
    }
    vec![
        PlacementVerdict {
            model: "absolute",
            reads_correctly: abs_ok,
            base_offsets: absolute,
        },
        PlacementVerdict {
            model: "relative",
            reads_correctly: rel_ok,
            base_offsets: relative,
        },
    ]
}

fn bit_list(mask: u64) -> String {
    let bits: Vec<String> = (0..64)
        .filter(|b| mask >> b & 1 == 1)
        .map(|b| b.to_string())
        .collect();
    bits.join(",")
}

/// Renders the report as human-readable text.
pub fn render_text(r: &DecodeReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} descriptor {}", r.arch, r.raw);
    let _ = writeln!(
        s,
        "  {:<14} {:<6} {:>8} {:>8}  meaning",
        "field", "bits", "raw", "bytes"
    );
    for f in &r.fields {
        let bytes = f.bytes.map(|b| b.to_string()).unwrap_or_default();
        let _ = writeln!(
            s,
            "  {:<14} {:<6} {:>8} {:>8}  {}",
            f.name,
            f.bits,
            format!("{:#x}", f.raw),
            bytes,
            f.meaning
        );
    }
    if r.warnings.is_empty() {
        let _ = writeln!(s, "warnings: none");
    } else {
        let _ = writeln!(s, "warnings:");
        for w in &r.warnings {
            let _ = writeln!(s, "  - {w}");
        }
    }
    if !r.notes.is_empty() {
        let _ = writeln!(s, "notes:");
        for n in &r.notes {
            let _ = writeln!(s, "  - {n}");
        }
    }
    s
}
