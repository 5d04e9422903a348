//! Typed errors: one variant per reason, carrying the values involved.

use crate::arch::{Arch, Major};
use crate::dtype::ElementType;
use crate::swizzle::SwizzleMode;

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
/// let e = Error::TileNotWholeAtoms { dim: Dim::K, extent: 40, atom_extent: 64, atom_bytes: 128 };
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
        what: &'static str,
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
            Error::UnalignedBase { .. } => "SMEM address not aligned to the swizzle pattern",
            Error::IndexOutOfRange { .. } => "index out of range",
            Error::NotCanonical { .. } => "MMA subtile is not a canonical layout",
            Error::NotDivisible { .. } => "layout extent does not divide evenly",
            Error::LayoutCapacity => "layout needs more sub-modes than supported",
            Error::UnknownLayoutCode { .. } => "unknown descriptor layout-type code",
            Error::ReservedBits { .. } => "descriptor has reserved bits set",
            Error::UnsupportedElement { .. } => "element type not supported in SMEM tiles yet",
        }
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
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
            Error::TileNotWholeAtoms { dim, extent, atom_extent, atom_bytes } => write!(
                f,
                "tile {} extent {extent} is not a whole number of swizzle atoms ({atom_extent} elements along {} per {atom_bytes} B atom); use a multiple of {atom_extent} or a narrower swizzle",
                dim.name(),
                dim.name()
            ),
            Error::TileNotWholeMmas { dim, extent, mma_extent } => write!(
                f,
                "tile {} extent {extent} is not a whole number of MMA subtiles of {mma_extent}; use a multiple of {mma_extent}",
                dim.name()
            ),
            Error::MmaNarrowerThanAtom { mma_mn, atom_mn, swizzle } => write!(
                f,
                "MN-major MMA subtile of {mma_mn} elements along MN is narrower than one {} swizzle atom ({atom_mn} elements); use an MMA M/N that is a multiple of {atom_mn} or a narrower swizzle",
                swizzle.name()
            ),
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
                match arch {
                    Arch::Sm90 => " (sm90 transposes only f16/bf16)",
                    Arch::Sm100 => " (sm100 transposes f16, bf16, tf32 (128B_base32B), e4m3, e5m2, s8, u8)",
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
            Error::SmemBudget { bytes, stage_bytes, stages, limit } => write!(
                f,
                "{stages} stages x {stage_bytes} B = {bytes} B exceed the {limit} B of shared memory per CTA; at most {} stages fit",
                limit / stage_bytes
            ),
            Error::UnalignedBase { addr, align } => write!(
                f,
                "SMEM address {addr:#x} is not aligned to the swizzle pattern's {align} B; place the tile at a multiple of {align}"
            ),
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
                write!(f, "layout needs more than {} sub-modes", crate::layout::MAX_SUBMODES)
            }
            Error::UnknownLayoutCode { arch, code } => write!(
                f,
                "layout-type code {code} is not defined for {}; legal: {}",
                arch.name(),
                match arch {
                    Arch::Sm90 => "0 (none), 1 (128B), 2 (64B), 3 (32B)",
                    Arch::Sm100 => "0 (none), 1 (128B_base32B), 2 (128B), 4 (64B), 6 (32B)",
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
        }
    }
}
