//! `smemdesc decode`: every field of a raw 64-bit descriptor by name, plus reviewer warnings.
//!
//! All bit positions, codes and swizzle geometry come from `smemdesc_core`
//! ([`SmemDescriptor`], [`SwizzleMode`]); this module only explains them.

use serde::Serialize;
use smemdesc_core::{Arch, SmemDescriptor, SwizzleMode};
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
}

/// Decodes `raw` for `arch` into a report. Never fails: malformed values produce warnings.
pub fn decode(arch: Arch, raw: u64) -> DecodeReport {
    let d = SmemDescriptor::from_raw(arch, raw);
    let layout = d.layout();
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    let mut fields = Vec::new();

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
            Arch::Sm100 => "tcgen05 descriptor version (must be 1)".to_string(),
        },
    });
    fields.push(FieldReport {
        name: "base_offset",
        bits: "49-51",
        raw: d.base_offset() as u64,
        bytes: None,
        meaning: if d.base_offset() == 0 {
            "0: the swizzle pattern starts on its repeat boundary (aligned tile)".to_string()
        } else {
            format!(
                "{}: the swizzle pattern starts {} x 128 B past its repeat boundary",
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
            Arch::Sm100 if d.lbo_absolute() => {
                "absolute LBO (only for the 48-byte K of K=96 mxf4 layouts)".to_string()
            }
            Arch::Sm100 => "relative LBO (the mode of every dense 32-byte-K layout)".to_string(),
        },
    });
    let (layout_bits, layout_legal) = match arch {
        Arch::Sm90 => ("62-63", "0 none, 1 128B, 2 64B, 3 32B"),
        Arch::Sm100 => ("61-63", "0 none, 1 128B_base32B, 2 128B, 4 64B, 6 32B"),
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
        Some(l) => layout_warnings(&d, l, &mut warnings, &mut notes),
    }
    if arch == Arch::Sm100 && d.lbo_absolute() {
        warnings.push(
            "LBO mode is absolute: only K=96 mxf4 layouts need it; every dense 32-byte-K layout uses relative LBO"
                .to_string(),
        );
    }

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
    }
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
    let period = l.functor().period();
    notes.push(format!(
        "LBO ({} B) is ignored if K-major ({} swizzle; CuTe writes 16 B), and unused if MN-major with the MMA spanning one atom along M/N (CuTe writes 0)",
        d.lbo(),
        l.name()
    ));
    if d.sbo() == 0 {
        warnings.push(
            "SBO is 0: consecutive 8-row groups (K-major) or atoms along K (MN-major) would overlap"
                .to_string(),
        );
    }
    if start % 128 != 0 {
        notes.push(format!(
            "start address {start:#x} is not a multiple of 128 B (mod 128 = {}): legal only as a K-major advance inside a swizzle atom row (+32/64/96 B); a tile or atom must start 128-B aligned",
            start % 128
        ));
    }
    if let Some(phase) = d.row_phase() {
        if phase != 0 {
            warnings.push(format!(
                "start address {start:#x} with base_offset {} begins at row {phase} of a swizzle atom ((start >> 7) - base_offset, mod the {} rows of the {period}-B repeat), but every MMA subtile begins on row 0: the tensor core would swizzle with another phase than TMA/stores wrote (aligned tile: base_offset 0 and the tile at a multiple of {period}; a tile placed off that boundary at address P: base_offset (P >> 7) & 7)",
                d.base_offset(),
                period / 128
            ));
        }
    }
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
