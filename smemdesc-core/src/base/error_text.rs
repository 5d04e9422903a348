//! The messages of [`Error`] (`Display`, in `rules`, adds the rule's id and source).

use crate::base::arch::Arch;
use crate::base::error::Error;
use crate::base::smem_form::SmemForm;
use crate::base::swizzle::SwizzleMode;

impl Error {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Error::ZeroStages => write!(f, "stages = 0: a tile needs at least 1 pipeline stage"),
            Error::ZeroExtent { dim } => {
                write!(f, "tile {} extent is 0; extents must be positive", dim.name())
            }
            Error::ContiguousNotMultipleOf16B { dim, extent, bytes, elems_per_16b } => write!(
                f,
                "{} extent {extent} ({bytes} B) is not a multiple of the 16 B chunk; legal {} extents are multiples of {elems_per_16b} elements",
                dim.name(),
                dim.name()
            ),
            Error::TileNotWholeAtoms { dim, extent, atom_extent, atom_bytes, narrower } => {
                write!(
                    f,
                    "tile {} extent {extent} is not a whole number of swizzle atoms ({atom_extent} elements along {} per {atom_bytes} B atom); use a multiple of {atom_extent}",
                    dim.name(),
                    dim.name()
                )?;
                narrower_advice(f, narrower)
            }
            Error::TileNotWholeMmas { dim, extent, mma_extent } => write!(
                f,
                "tile {} extent {extent} is not a whole number of MMA subtiles of {mma_extent}; use a multiple of {mma_extent}",
                dim.name()
            ),
            Error::MmaNarrowerThanAtom { mma_mn, atom_mn, swizzle, narrower } => {
                write!(
                    f,
                    "MN-major MMA subtile of {mma_mn} elements along MN is narrower than one {} swizzle atom ({atom_mn} elements); use an MMA M/N that is a multiple of {atom_mn}",
                    swizzle.name()
                )?;
                narrower_advice(f, narrower)
            }
            Error::SwizzleNotOnArch { swizzle, arch } => write!(
                f,
                "swizzle {} does not exist on {}; legal there: none, 32B, 64B, 128B",
                swizzle.name(),
                arch.name()
            ),
            Error::SwizzleNotForOperand { swizzle, major, dtype } => write!(
                f,
                "swizzle {} is not allowed for a {}-major {} operand{}",
                swizzle.name(),
                major.name(),
                dtype.name(),
                match swizzle {
                    SwizzleMode::B128Base32B => "; 128B_base32B is for MN-major tf32 only",
                    _ => "; MN-major tf32 on sm100 must use 128B_base32B",
                }
            ),
            Error::MnMajorForbidden { arch, dtype } => write!(
                f,
                "{} does not allow MN-major (transposed) {} operands; use major = K{}",
                arch.name(),
                dtype.name(),
                match arch.generation() {
                    Arch::Sm90 => " (sm90 transposes only f16/bf16)",
                    _ => " (sm100 transposes f16, bf16, tf32 (128B_base32B), e4m3, e5m2, s8, u8)",
                }
            ),
            Error::FieldOverflow { field, bytes } => write!(
                f,
                "{} of {bytes} B does not fit the descriptor's 14-bit field (max {} B); the layout is too large for one descriptor",
                field.name(),
                ((1u32 << 14) - 1) * 16
            ),
            Error::FieldMisaligned { field, bytes } => write!(
                f,
                "{} of {bytes} B is not a multiple of 16 B; descriptor fields hold 16-byte units",
                field.name()
            ),
            Error::SmemBudget { stage_bytes, stages, limit, .. } => {
                if stage_bytes > limit {
                    write!(
                        f,
                        "one stage of this tile alone needs {}{stage_bytes} B but a CTA has {limit} B of shared memory; use a smaller tile",
                        if stage_bytes == u32::MAX { "over " } else { "" }
                    )
                } else {
                    write!(
                        f,
                        "{stages} stages x {stage_bytes} B = {} B exceed the {limit} B of shared memory per CTA; at most {} stages fit",
                        // In u64: the product of two u32 values fits (the field saturates).
                        stages as u64 * stage_bytes as u64,
                        limit / stage_bytes
                    )
                }
            }
            Error::UnalignedBase { addr, align } => {
                if align == 16 {
                    write!(f, "SMEM address {addr:#x} is not a multiple of 16 B, the descriptor's start-address unit; place the tile at a multiple of 16")
                } else {
                    write!(f, "SMEM address {addr:#x} is not a multiple of {align} B: a swizzled tile starts on a {align}-byte row of the swizzle pattern (TMA refuses a destination that is not {align}-B aligned; the pattern itself repeats every 256 to 1024 B, and a start between repeats is what base_offset encodes); place the tile at a multiple of {align}")
                }
            }
            Error::IndexOutOfRange { what, index, count } => {
                write!(f, "{what} index {index} out of range; legal indices are 0..{count}")
            }
            Error::NotCanonical { dim } => write!(
                f,
                "the MMA subtile's {} mode is not in the canonical layout the tensor core reads",
                dim.name()
            ),
            Error::NotDivisible { extent, by } => {
                write!(f, "layout extent {extent} is not divisible by {by}")
            }
            Error::LayoutCapacity => {
                write!(f, "layout needs more than {} sub-modes", crate::base::MAX_SUBMODES)
            }
            Error::UnknownLayoutCode { arch, code } => write!(
                f,
                "layout-type code {code} is not defined for {}; legal: {}",
                arch.name(),
                match arch.generation() {
                    Arch::Sm90 => "0 (none), 1 (128B), 2 (64B), 3 (32B)",
                    _ => "0 (none), 1 (128B_base32B), 2 (128B), 4 (64B), 6 (32B)",
                }
            ),
            Error::ReservedBits { arch, bits } => write!(
                f,
                "{} descriptor has reserved/fixed bits wrong: {bits:#018x}",
                arch.name()
            ),
            Error::UnsupportedElement { dtype } => write!(
                f,
                "{} tiles are not supported yet; use an 8-, 16- or 32-bit element type",
                dtype.name()
            ),
            Error::DtypeNotOnArch { dtype, arch } => write!(
                f,
                "{} has no {} MMA; sm90 wgmma takes f16, bf16, tf32, f32, e4m3, e5m2, s8, u8",
                arch.name(),
                dtype.name()
            ),
            Error::ArchRefused { arch, gap } => {
                write!(f, "arch = {} is refused: {}", arch.name(), gap.message())
            }
            Error::KindNotOnArch { kind, arch } => write!(
                f,
                "MMA kind {} does not exist on {}; sm90 kinds follow the element type (f16, tf32, f8f6f4 for e4m3/e5m2, i8)",
                kind.name(),
                arch.name()
            ),
            Error::DtypeKindMismatch { dtype, kind } => write!(
                f,
                "{} is not an input type of kind::{}; it takes {}",
                dtype.name(),
                kind.name(),
                kind.inputs()
            ),
            Error::CtaGroupInvalid { arch, cta_group } => write!(
                f,
                "cta_group = {cta_group} is not legal on {}; legal: {}",
                arch.name(),
                match arch.generation() {
                    Arch::Sm90 => "1",
                    _ => "1 or 2",
                }
            ),
            Error::MmaKNot32Bytes { k, dtype, expected } => write!(
                f,
                "MMA K = {k} is {} B of {}, but one MMA instruction reads 32 B of K; use K = {expected}",
                // In u64: the product of two u32 values fits, so the bytes are the ones written.
                k as u64 * dtype.smem_bytes() as u64,
                dtype.name()
            ),
            Error::IllegalMmaM { arch, kind, cta_group, m, legal } => write!(
                f,
                "MMA M = {m} is not legal for {} kind::{} cta_group {cta_group}; legal M: {legal}",
                arch.name(),
                kind.name()
            ),
            Error::IllegalMmaN { arch, kind, cta_group, n, legal } => write!(
                f,
                "MMA N = {n} is not legal for {} kind::{} cta_group {cta_group}; legal N: {legal}",
                arch.name(),
                kind.name()
            ),
            Error::TmaBoxWidth { inner: 0, legal_inner, max_rows, .. } => write!(
                f,
                "TMA box width 0 is not allowed (boxDim[0] is at least 1); a box spans exactly one swizzle atom: {legal_inner} elements (largest legal box: {max_rows} x {legal_inner})"
            ),
            Error::TmaBoxWidth { inner, legal_inner, max_rows, .. } if inner > 256 => write!(
                f,
                "TMA box is {inner} elements wide; boxDim[0] is at most 256 and a box spans exactly one swizzle atom: {legal_inner} elements (largest legal box: {max_rows} x {legal_inner})"
            ),
            Error::TmaBoxWidth { inner, inner_bytes, swizzle, legal_inner, max_rows } => write!(
                f,
                "TMA box is {inner} elements ({inner_bytes} B) wide but the {} swizzle atom is {} B; a box spans exactly one atom: {legal_inner} elements (largest legal box: {max_rows} x {legal_inner})",
                swizzle.name(),
                swizzle.atom_width()
            ),
            Error::TmaBoxRowsOver256 { rows, max_rows, inner } => write!(
                f,
                "TMA box has {rows} rows; boxDim is at most 256 (largest legal box here: {max_rows} x {inner})"
            ),
            Error::TmaBoxRowsIllegal { rows: 0, atom_rows, max_rows, inner } => write!(
                f,
                "TMA box of 0 rows is not allowed (boxDim is at least 1); legal rows are multiples of {atom_rows} that divide the tile, up to {max_rows} (largest legal box: {max_rows} x {inner})"
            ),
            Error::TmaBoxRowsIllegal { rows, atom_rows, max_rows, inner } => write!(
                f,
                "TMA box of {rows} rows does not cover whole atoms that are contiguous in shared memory; legal rows are multiples of {atom_rows} that divide the tile, up to {max_rows} (largest legal box: {max_rows} x {inner})"
            ),
            Error::FormNotForElement { form, dtype } => write!(
                f,
                "{} cannot be stored in the {} SMEM form; {}",
                dtype.name(),
                form.name(),
                match form {
                    SmemForm::Whole => "6- and 4-bit types are padded (kind f8f6f4, mxf8f6f4) or packed (kind mxf4, mxf4nvf4)",
                    SmemForm::Padded16 => "only e2m3, e3m2 and e2m1 are padded",
                    SmemForm::Packed => "only e2m1 is packed (kind mxf4, mxf4nvf4)",
                }
            ),
            Error::IllegalMmaK { k, dtype, form, legal } => write!(
                f,
                "MMA K = {k} is not legal for {} {}; legal K: {legal}",
                form.name(),
                dtype.name()
            ),
            Error::KBlockCrossesAtom { swizzle } => write!(
                f,
                "K = 96 reads 48 B of K per instruction, so some instruction's K block crosses a {} swizzle atom; addressing the next atom needs the descriptor's absolute-LBO mode (bit 52), which PTX supports only on sm_103a; use swizzle = none (the relative LBO then steps the K core matrices) or K = 64",
                swizzle.name()
            ),
            Error::TmaPaddedBoxInner { data_type, inner, source, swizzle } => {
                if source.is_requested() {
                    write!(
                        f,
                        "TMA box is {inner} elements wide, but {} needs boxDim[0] = 128 exactly (cuTensorMapEncodeTiled); use tma_box = (rows, 128)",
                        data_type.name()
                    )
                } else {
                    write!(
                        f,
                        "the {} swizzle atom holds {inner} elements per row, but a {} TMA box must be 128 elements wide (cuTensorMapEncodeTiled: boxDim[0] = 128); use swizzle = 128B with a K extent that is a multiple of 128",
                        swizzle.name(),
                        data_type.name()
                    )
                }
            }
            Error::ScaleFormatIllegal { kind, format, vec, legal } => write!(
                f,
                "{} scale factors with one factor per {vec} values are not legal for kind::{}; legal: {legal}",
                format.name(),
                kind.name()
            ),
            Error::ScaleTileNotWholeAtoms { dim, extent, atom_extent } => write!(
                f,
                "scale factors of a tile {} extent {extent} are not whole 512 B scale atoms (128 rows x 4 factors: {atom_extent} values along {}); use a multiple of {atom_extent}",
                dim.name(),
                dim.name()
            ),
            Error::BaseTooHigh { base, offset, highest_base } => write!(
                f,
                "SMEM address {base:#x} is too high: a subtile {offset} B into the tile would start at {:#x}, past the 256 KiB the descriptor's 14-bit start-address field addresses (max 0x3fff0); place the tile at or below {highest_base:#x}",
                base as u64 + offset as u64
            ),
        }
    }
}

/// The end of a message that may suggest a narrower swizzle: the one checked legal, or that none is.
fn narrower_advice(
    f: &mut core::fmt::Formatter<'_>,
    narrower: Option<SwizzleMode>,
) -> core::fmt::Result {
    match narrower {
        Some(s) => write!(f, ", or the narrower swizzle {}", s.name()),
        None => write!(f, " (no narrower swizzle is legal here)"),
    }
}
