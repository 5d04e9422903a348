//! Typed errors: one variant per reason, carrying the values involved.

use crate::base::arch::{Arch, Major};
use crate::base::arch_limits::ArchGap;
use crate::base::dtype::ElementType;
use crate::base::error_data::{BoxSource, Indexed, Legal};
use crate::base::kind::MmaKind;
use crate::base::kind::ScaleFormat;
use crate::base::smem_form::SmemForm;
use crate::base::swizzle::SwizzleMode;
use crate::base::tma_types::TmaDataType;

/// A tile dimension.
///
/// ```
/// assert_eq!(smemdesc_core::Dim::Mn.name(), "MN");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// The M (operand A) or N (operand B) dimension.
    Mn,
    /// The K dimension.
    K,
}

impl Dim {
    /// `"MN"` or `"K"`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Dim::K.name(), "K");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Dim::Mn => "MN",
            Dim::K => "K",
        }
    }
}

/// A 14-bit descriptor field (or value encoded into one).
///
/// ```
/// assert_eq!(smemdesc_core::Field::Sbo.name(), "SBO");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// Matrix start address.
    StartAddress,
    /// Leading dimension byte offset.
    Lbo,
    /// Stride dimension byte offset.
    Sbo,
    /// A start-address advance (subtile or stage offset).
    Advance,
}

impl Field {
    /// The hardware name of the field.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Field::Lbo.name(), "LBO");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Field::StartAddress => "start address",
            Field::Lbo => "LBO",
            Field::Sbo => "SBO",
            Field::Advance => "advance offset",
        }
    }
}

/// Every way a tile description, descriptor or layout computation can be illegal.
///
/// `Display` gives the full message with values and what would be legal; [`Error::summary`] is a
/// `const` static text for compile-time panics.
///
/// ```
/// use smemdesc_core::{Error, Dim};
/// let e = Error::TileNotWholeAtoms { dim: Dim::K, extent: 40, atom_extent: 64, atom_bytes: 128, narrower: None };
/// assert!(e.to_string().contains("not a whole number of swizzle atoms"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// `stages = 0`.
    ZeroStages,
    /// A tile extent of 0.
    ZeroExtent {
        /// Which extent.
        dim: Dim,
    },
    /// The contiguous extent is not a whole number of 16-byte chunks.
    ContiguousNotMultipleOf16B {
        /// The contiguous dimension.
        dim: Dim,
        /// Its extent in elements.
        extent: u32,
        /// Its extent in bytes.
        bytes: u32,
        /// Elements in 16 bytes (legal extents are multiples of this).
        elems_per_16b: u32,
    },
    /// A tile extent is not a whole number of swizzle atoms.
    TileNotWholeAtoms {
        /// The dimension.
        dim: Dim,
        /// The tile's extent (elements).
        extent: u32,
        /// The atom's extent along that dimension (elements).
        atom_extent: u32,
        /// Bytes in one atom.
        atom_bytes: u32,
        /// The widest narrower swizzle with which the same declaration is legal (checked by
        /// building it), or `None` when no narrower one is.
        narrower: Option<SwizzleMode>,
    },
    /// A tile extent is not a whole number of MMA subtiles.
    TileNotWholeMmas {
        /// The dimension.
        dim: Dim,
        /// The tile's extent (elements).
        extent: u32,
        /// One instruction's extent along that dimension (elements).
        mma_extent: u32,
    },
    /// An MN-major MMA subtile narrower than one swizzle atom along MN: not a canonical layout.
    MmaNarrowerThanAtom {
        /// The instruction's M or N (elements).
        mma_mn: u32,
        /// The atom's MN extent (elements).
        atom_mn: u32,
        /// The swizzle mode.
        swizzle: SwizzleMode,
        /// The widest narrower swizzle with which the same declaration is legal (checked by
        /// building it), or `None` when no narrower one is.
        narrower: Option<SwizzleMode>,
    },
    /// The swizzle mode does not exist on the architecture.
    SwizzleNotOnArch {
        /// The mode.
        swizzle: SwizzleMode,
        /// The architecture.
        arch: Arch,
    },
    /// The swizzle mode is not allowed for this major-ness / element type.
    SwizzleNotForOperand {
        /// The mode.
        swizzle: SwizzleMode,
        /// The major-ness.
        major: Major,
        /// The element type.
        dtype: ElementType,
    },
    /// MN-major operands are not allowed for this element type on this architecture.
    MnMajorForbidden {
        /// The architecture.
        arch: Arch,
        /// The element type.
        dtype: ElementType,
    },
    /// A value does not fit its 14-bit descriptor field (in 16-byte units, i.e. must be < 256 KiB).
    FieldOverflow {
        /// The field.
        field: Field,
        /// The value in bytes.
        bytes: u32,
    },
    /// A descriptor byte value is not a multiple of 16 (its low 4 bits would be dropped).
    FieldMisaligned {
        /// The field.
        field: Field,
        /// The value in bytes.
        bytes: u32,
    },
    /// All stages together exceed the per-CTA shared-memory limit.
    SmemBudget {
        /// Bytes needed for all stages.
        bytes: u32,
        /// Bytes per stage.
        stage_bytes: u32,
        /// Stages requested.
        stages: u32,
        /// The architecture's limit.
        limit: u32,
    },
    /// A tile placed at an SMEM address that is not aligned to its swizzle pattern.
    UnalignedBase {
        /// The address given.
        addr: u32,
        /// The alignment required (bytes).
        align: u32,
    },
    /// A subtile, stage or element index out of range.
    IndexOutOfRange {
        /// What was indexed.
        what: Indexed,
        /// The index.
        index: u32,
        /// The count (legal indices are `0..count`).
        count: u32,
    },
    /// An MMA subtile whose layout is not one of the canonical forms (internal consistency check).
    NotCanonical {
        /// The dimension whose inner part did not match.
        dim: Dim,
    },
    /// A layout extent that does not divide evenly (layout algebra).
    NotDivisible {
        /// The extent.
        extent: u32,
        /// The divisor.
        by: u32,
    },
    /// The layout needs more sub-modes than the algebra holds.
    LayoutCapacity,
    /// A descriptor's layout-type code is not defined for the architecture.
    UnknownLayoutCode {
        /// The architecture.
        arch: Arch,
        /// The raw code.
        code: u8,
    },
    /// A descriptor has bits set that the architecture reserves (must be zero / fixed).
    ReservedBits {
        /// The architecture.
        arch: Arch,
        /// The offending bits (mask of the raw value).
        bits: u64,
    },
    /// The element type cannot be laid out by this version (e.g. packed sub-byte forms).
    UnsupportedElement {
        /// The element type.
        dtype: ElementType,
    },
    /// The architecture cannot carry the declaration: no public source gives its limits
    /// (sm107), or it has no SMEM matrix descriptor (sm120/sm121: no wgmma, no tcgen05).
    ArchRefused {
        /// The architecture.
        arch: Arch,
        /// Why ([`ArchGap::message`] says it, with its sources).
        gap: ArchGap,
    },
    /// The element type has no MMA on this architecture (e.g. fp6/fp4 on sm90).
    DtypeNotOnArch {
        /// The element type.
        dtype: ElementType,
        /// The architecture.
        arch: Arch,
    },
    /// The MMA kind does not exist on this architecture.
    KindNotOnArch {
        /// The kind.
        kind: MmaKind,
        /// The architecture.
        arch: Arch,
    },
    /// The element type is not an input type of the MMA kind.
    DtypeKindMismatch {
        /// The element type.
        dtype: ElementType,
        /// The kind.
        kind: MmaKind,
    },
    /// `cta_group` is not 1 or 2, or 2 on an architecture without CTA pairs.
    CtaGroupInvalid {
        /// The architecture.
        arch: Arch,
        /// The value given.
        cta_group: u32,
    },
    /// The instruction's K is not 32 bytes of the element type.
    MmaKNot32Bytes {
        /// The K given.
        k: u32,
        /// The element type.
        dtype: ElementType,
        /// The K the instruction has for this type (32 bytes).
        expected: u32,
    },
    /// The instruction's M is not legal for the architecture, kind and CTA group.
    IllegalMmaM {
        /// The architecture.
        arch: Arch,
        /// The kind.
        kind: MmaKind,
        /// The CTA group.
        cta_group: u32,
        /// The M given.
        m: u32,
        /// The legal values.
        legal: Legal,
    },
    /// The instruction's N is not legal for the architecture, kind, CTA group and B's major-ness.
    IllegalMmaN {
        /// The architecture.
        arch: Arch,
        /// The kind.
        kind: MmaKind,
        /// The CTA group.
        cta_group: u32,
        /// The N given.
        n: u32,
        /// The legal values.
        legal: Legal,
    },
    /// The TMA box's inner extent is not exactly one swizzle atom wide.
    TmaBoxWidth {
        /// Inner extent requested (elements).
        inner: u32,
        /// Its width in bytes.
        inner_bytes: u32,
        /// The swizzle mode.
        swizzle: SwizzleMode,
        /// The one legal inner extent (elements).
        legal_inner: u32,
        /// The largest legal box's rows.
        max_rows: u32,
    },
    /// The TMA box has more than 256 rows (driver limit `boxDim[i] <= 256`).
    TmaBoxRowsOver256 {
        /// Rows requested.
        rows: u32,
        /// The largest legal box's rows.
        max_rows: u32,
        /// The legal inner extent (elements).
        inner: u32,
    },
    /// The TMA box's rows are not whole atoms, do not divide the tile, or span atoms that are not
    /// contiguous in shared memory.
    TmaBoxRowsIllegal {
        /// Rows requested.
        rows: u32,
        /// Rows in one atom (legal rows are multiples of this).
        atom_rows: u32,
        /// The largest legal box's rows.
        max_rows: u32,
        /// The legal inner extent (elements).
        inner: u32,
    },
    /// The element type cannot take this SMEM form (e.g. packed fp6, padded bf16).
    FormNotForElement {
        /// The form.
        form: SmemForm,
        /// The element type.
        dtype: ElementType,
    },
    /// The instruction K is not one the kind / SMEM form has.
    IllegalMmaK {
        /// The K given (values).
        k: u32,
        /// The element type.
        dtype: ElementType,
        /// Its SMEM form.
        form: SmemForm,
        /// The legal values.
        legal: Legal,
    },
    /// A 48-byte K block (K = 96 packed fp4) with a swizzle: some instruction's K block would cross
    /// a swizzle atom, which only the absolute-LBO descriptor mode (sm_103a) can address.
    KBlockCrossesAtom {
        /// The swizzle.
        swizzle: SwizzleMode,
    },
    /// A padded-form TMA data type (`16U4_ALIGN16B`, `16U6_ALIGN16B`) with a box whose inner
    /// extent is not exactly 128 elements (CUDA driver API, `cuTensorMapEncodeTiled`).
    TmaPaddedBoxInner {
        /// The data type.
        data_type: TmaDataType,
        /// The inner extent requested, or imposed by the swizzle atom (elements).
        inner: u32,
        /// Whether the box was requested (`tma_box`) or implied by the swizzle.
        source: BoxSource,
        /// The swizzle.
        swizzle: SwizzleMode,
    },
    /// A scale-factor tile whose kind, factor type and vector size do not go together.
    ScaleFormatIllegal {
        /// The MMA kind.
        kind: MmaKind,
        /// The factor type.
        format: ScaleFormat,
        /// K-values per factor.
        vec: u32,
        /// The legal combinations.
        legal: Legal,
    },
    /// A scale-factor tile that is not whole 512-byte atoms (128 rows of A; 4 factors along K).
    ScaleTileNotWholeAtoms {
        /// The dimension.
        dim: Dim,
        /// The operand tile's extent (values).
        extent: u32,
        /// The atom's extent along `dim` (values).
        atom_extent: u32,
    },
    /// The tile fits one descriptor, but at this SMEM address a subtile would start past the 256 KiB
    /// the 14-bit start-address field can address: the base is too high.
    BaseTooHigh {
        /// The SMEM address given.
        base: u32,
        /// The subtile's start, bytes into the tile.
        offset: u32,
        /// The highest (aligned) base at which every subtile of every stage is in range.
        highest_base: u32,
    },
}

/// The declaration argument an error is about (for pointing a compile error at it).
///
/// ```
/// use smemdesc_core::{Argument, Error};
/// assert_eq!(Error::ZeroStages.argument(), Argument::Stages);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Argument {
    /// `arch`
    Arch,
    /// `operand`
    Operand,
    /// `dtype`
    Dtype,
    /// `tile` as a whole (a layout too large for a descriptor field)
    Tile,
    /// `tile`, its MN extent
    TileMn,
    /// `tile`, its K extent
    TileK,
    /// `major`
    Major,
    /// `swizzle`
    Swizzle,
    /// `order`
    Order,
    /// `mma`
    Mma,
    /// `kind`
    Kind,
    /// `stages`
    Stages,
    /// `tma_box`
    TmaBox,
    /// `cta_group`
    CtaGroup,
    /// An SMEM address or index given at use, not in the declaration.
    Use,
}

impl Error {
    /// A static one-line summary, usable in `const` panics.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Error::ZeroStages.summary(), "stages must be at least 1");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            Error::ZeroStages => "stages must be at least 1",
            Error::ZeroExtent { .. } => "tile extents must be positive",
            Error::ContiguousNotMultipleOf16B { .. } => {
                "the contiguous extent is not a multiple of 16 bytes"
            }
            Error::TileNotWholeAtoms { .. } => "tile is not a whole number of swizzle atoms",
            Error::TileNotWholeMmas { .. } => "tile is not a whole number of MMA subtiles",
            Error::MmaNarrowerThanAtom { .. } => {
                "MN-major MMA subtile is narrower than one swizzle atom"
            }
            Error::SwizzleNotOnArch { .. } => "swizzle mode does not exist on this architecture",
            Error::SwizzleNotForOperand { .. } => {
                "swizzle mode not allowed for this major-ness and element type"
            }
            Error::MnMajorForbidden { .. } => "MN-major not allowed for this element type",
            Error::FieldOverflow { .. } => "descriptor offset overflows its 14-bit field",
            Error::FieldMisaligned { .. } => "descriptor offset is not a multiple of 16 bytes",
            Error::SmemBudget { .. } => "tile stages exceed the shared-memory limit per CTA",
            Error::UnalignedBase { .. } => "SMEM address not aligned for a descriptor start",
            Error::IndexOutOfRange { .. } => "index out of range",
            Error::NotCanonical { .. } => "MMA subtile is not a canonical layout",
            Error::NotDivisible { .. } => "layout extent does not divide evenly",
            Error::LayoutCapacity => "layout needs more sub-modes than supported",
            Error::UnknownLayoutCode { .. } => "unknown descriptor layout-type code",
            Error::ReservedBits { .. } => "descriptor has reserved bits set",
            Error::UnsupportedElement { .. } => "element type not supported in SMEM tiles yet",
            Error::ArchRefused { gap, .. } => match gap {
                ArchGap::NoPublicLimits => "no public source gives this architecture's limits",
                ArchGap::NoSmemDescriptor => "this architecture has no SMEM matrix descriptor",
            },
            Error::DtypeNotOnArch { .. } => "element type has no MMA on this architecture",
            Error::KindNotOnArch { .. } => "MMA kind does not exist on this architecture",
            Error::DtypeKindMismatch { .. } => "element type is not an input of this MMA kind",
            Error::CtaGroupInvalid { .. } => "cta_group must be 1, or 2 on sm100",
            Error::MmaKNot32Bytes { .. } => "MMA K must be 32 bytes of the element type",
            Error::IllegalMmaM { .. } => "MMA M is not a legal instruction shape",
            Error::IllegalMmaN { .. } => "MMA N is not a legal instruction shape",
            Error::TmaBoxWidth { .. } => "TMA box must be exactly one swizzle atom wide",
            Error::TmaBoxRowsOver256 { .. } => "TMA box has more than 256 rows",
            Error::TmaBoxRowsIllegal { .. } => {
                "TMA box rows must be whole, contiguous atoms of the tile"
            }
            Error::FormNotForElement { .. } => "element type cannot take this SMEM form",
            Error::IllegalMmaK { .. } => "MMA K is not legal for this kind and SMEM form",
            Error::KBlockCrossesAtom { .. } => "a 48-byte K block needs swizzle = none",
            Error::TmaPaddedBoxInner { .. } => {
                "a 16U4_ALIGN16B/16U6_ALIGN16B TMA box must be exactly 128 elements wide"
            }
            Error::ScaleFormatIllegal { .. } => {
                "scale-factor type or vector size not legal for this MMA kind"
            }
            Error::ScaleTileNotWholeAtoms { .. } => {
                "scale-factor tile is not a whole number of 512-byte atoms"
            }
            Error::BaseTooHigh { .. } => "SMEM address too high for the descriptor's start address",
        }
    }

    /// Which declaration argument is at fault.
    ///
    /// ```
    /// use smemdesc_core::{Argument, Dim, Error};
    /// let e = Error::TileNotWholeAtoms { dim: Dim::K, extent: 40, atom_extent: 64, atom_bytes: 1024, narrower: None };
    /// assert_eq!(e.argument(), Argument::TileK);
    /// ```
    pub const fn argument(&self) -> Argument {
        match self {
            Error::ZeroStages => Argument::Stages,
            Error::SmemBudget {
                stage_bytes, limit, ..
            } => {
                if *stage_bytes > *limit {
                    Argument::Tile
                } else {
                    Argument::Stages
                }
            }
            Error::ZeroExtent { dim }
            | Error::ContiguousNotMultipleOf16B { dim, .. }
            | Error::TileNotWholeAtoms { dim, .. }
            | Error::TileNotWholeMmas { dim, .. }
            | Error::NotCanonical { dim } => match dim {
                Dim::Mn => Argument::TileMn,
                Dim::K => Argument::TileK,
            },
            Error::MmaNarrowerThanAtom { .. }
            | Error::MmaKNot32Bytes { .. }
            | Error::IllegalMmaM { .. }
            | Error::IllegalMmaN { .. } => Argument::Mma,
            Error::SwizzleNotOnArch { .. } | Error::SwizzleNotForOperand { .. } => {
                Argument::Swizzle
            }
            Error::MnMajorForbidden { .. } => Argument::Major,
            Error::FieldOverflow { field, .. } => match field {
                Field::StartAddress => Argument::Use,
                _ => Argument::Tile,
            },
            Error::FieldMisaligned { .. }
            | Error::UnalignedBase { .. }
            | Error::IndexOutOfRange { .. }
            | Error::ReservedBits { .. }
            | Error::UnknownLayoutCode { .. } => Argument::Use,
            Error::NotDivisible { .. } | Error::LayoutCapacity => Argument::Tile,
            Error::UnsupportedElement { .. } | Error::DtypeNotOnArch { .. } => Argument::Dtype,
            Error::KindNotOnArch { .. } | Error::DtypeKindMismatch { .. } => Argument::Kind,
            Error::CtaGroupInvalid { .. } => Argument::CtaGroup,
            Error::ArchRefused { .. } => Argument::Arch,
            Error::TmaBoxWidth { .. }
            | Error::TmaBoxRowsOver256 { .. }
            | Error::TmaBoxRowsIllegal { .. } => Argument::TmaBox,
            Error::FormNotForElement { .. } => Argument::Kind,
            Error::IllegalMmaK { .. } => Argument::Mma,
            Error::KBlockCrossesAtom { .. } => Argument::Swizzle,
            Error::TmaPaddedBoxInner { source, .. } => match source {
                BoxSource::Requested => Argument::TmaBox,
                BoxSource::Swizzle => Argument::Swizzle,
            },
            Error::ScaleFormatIllegal { .. } => Argument::Kind,
            Error::ScaleTileNotWholeAtoms { dim, .. } => match dim {
                Dim::Mn => Argument::TileMn,
                Dim::K => Argument::TileK,
            },
            Error::BaseTooHigh { .. } => Argument::Use,
        }
    }
}
