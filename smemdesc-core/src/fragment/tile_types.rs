//! The layout, writer and error types of an `ldmatrix` operand tile.

use super::BankReport;
use crate::SwizzleMode;

/// The byte layout of a stored tile: `rows` rows of `row_bytes` bytes, either cut into
/// swizzle atoms of the mode's width (TMA's layout: atom columns stacked, each `rows × width`,
/// the swizzle applied to the offset, tile base 1024-B aligned) or, with [`SwizzleMode::None`],
/// plain rows `row_bytes + pad` apart.
///
/// ```
/// use smemdesc_core::SwizzleMode;
/// use smemdesc_core::fragment::RowLayout;
/// let l = RowLayout { rows: 64, row_bytes: 128, swizzle: SwizzleMode::B128, pad: 0 };
/// assert_eq!(l.offset(1, 0), 128 + 16);
/// let p = RowLayout { rows: 64, row_bytes: 128, swizzle: SwizzleMode::None, pad: 16 };
/// assert_eq!(p.offset(1, 0), 144);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowLayout {
    /// Stored rows.
    pub rows: u32,
    /// Bytes of one row's data.
    pub row_bytes: u32,
    /// Swizzle (`None`: plain rows).
    pub swizzle: SwizzleMode,
    /// Padding after each row (`None` swizzle only).
    pub pad: u32,
}

impl RowLayout {
    /// Byte offset of byte `byte` of row `row`.
    ///
    /// ```
    /// use smemdesc_core::SwizzleMode;
    /// let l = smemdesc_core::fragment::RowLayout { rows: 8, row_bytes: 128, swizzle: SwizzleMode::B64, pad: 0 };
    /// assert_eq!(l.offset(0, 64), 8 * 64); // the second 64-B atom column
    /// ```
    #[inline(always)]
    pub const fn offset(&self, row: u32, byte: u32) -> u32 {
        if self.swizzle.is_swizzled() {
            let w = self.swizzle.atom_width();
            let col = byte / w;
            col * self.rows * w + self.swizzle.functor().apply(row * w + byte % w)
        } else {
            row * (self.row_bytes + self.pad) + byte
        }
    }

    /// Bytes the layout spans.
    ///
    /// ```
    /// use smemdesc_core::SwizzleMode;
    /// let l = smemdesc_core::fragment::RowLayout { rows: 8, row_bytes: 64, swizzle: SwizzleMode::None, pad: 16 };
    /// assert_eq!(l.bytes(), 8 * 80);
    /// ```
    #[inline]
    pub const fn bytes(&self) -> u32 {
        if self.swizzle.is_swizzled() {
            self.rows * self.row_bytes
        } else {
            self.rows * (self.row_bytes + self.pad)
        }
    }
}

/// Who fills the tile.
///
/// ```
/// use smemdesc_core::fragment::Writer;
/// assert_eq!(Writer::StShared { bytes: 8 }.name(), "st.shared");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Writer {
    /// 16-byte `cp.async`: lane `l` of issue `i` writes 16-B chunk `32·i + l` of the tile in row
    /// order.
    CpAsync16,
    /// A TMA box per atom column (the layout's swizzle must be a TMA swizzle mode; the copy
    /// engine's own writes are not a warp access and are not modelled).
    Tma,
    /// `st.shared` of `bytes` ∈ {4, 8, 16} per lane in row order.
    StShared {
        /// Bytes per lane.
        bytes: u32,
    },
}

impl Writer {
    /// `cp.async`, `tma` or `st.shared`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::Writer::Tma.name(), "tma");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            Writer::CpAsync16 => "cp.async",
            Writer::Tma => "tma",
            Writer::StShared { .. } => "st.shared",
        }
    }

    /// Bytes per lane of the warp access (16 for TMA boxes, for reference).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::Writer::CpAsync16.bytes(), 16);
    /// ```
    #[inline]
    pub const fn bytes(self) -> u32 {
        match self {
            Writer::CpAsync16 | Writer::Tma => 16,
            Writer::StShared { bytes } => bytes,
        }
    }
}

/// Why an `ldmatrix` operand tile cannot be planned, or a bank conflict it would have.
///
/// ```
/// use smemdesc_core::fragment::TileError;
/// let e = TileError::TransNeeds16Bit { bits: 8 };
/// assert!(e.to_string().contains(".b16"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileError {
    /// MN-major storage needs `ldmatrix .trans`, which exists for 16-bit elements only.
    TransNeeds16Bit {
        /// Bits per element of the operand.
        bits: u32,
    },
    /// The tile's MN or K extent is not a whole number of fragments / k-steps.
    Extent {
        /// The tile's MN extent.
        mn: u32,
        /// The tile's K extent.
        k: u32,
        /// Required MN multiple.
        mn_multiple: u32,
        /// Required K multiple.
        k_multiple: u32,
    },
    /// The tile is larger than one CTA's shared memory can be on its architecture.
    TooLarge {
        /// The tile's bytes (`u64::MAX` when they overflow it).
        bytes: u64,
        /// The architecture's most shared memory per block
        /// ([`SyncArch::max_smem_per_block`](super::SyncArch::max_smem_per_block)).
        max: u32,
    },
    /// `stmatrix` (the D tile's writer) needs sm_90 or higher.
    StmatrixArch {
        /// The tile's architecture.
        arch: super::SyncArch,
    },
    /// A TMA writer of an unswizzled tile needs a box as wide as a stored row, and `boxDim[0]`
    /// is at most 256 elements.
    TmaRowTooWide {
        /// Stored row bytes.
        row_bytes: u32,
        /// Elements in the row (bytes for sub-byte types).
        elems: u32,
    },
    /// `.xN` does not divide the registers of one k-step (or is not 1, 2, 4); with `regs` 0, a
    /// `st.shared` writer of `num` bytes (not 4, 8 or 16).
    MatrixCount {
        /// N asked for.
        num: u32,
        /// Registers per k-step.
        regs: u32,
    },
    /// The row bytes are not a multiple of the swizzle width, or TMA was asked with no swizzle
    /// mode fitting.
    Swizzle {
        /// Stored row bytes.
        row_bytes: u32,
        /// The swizzle width in bytes.
        width: u32,
    },
    /// A reader or writer access is not conflict-free.
    Conflict {
        /// `true`: the writer; `false`: the `ldmatrix` reader.
        writer: bool,
        /// Instruction (issue) index.
        instr: u32,
        /// The model's report (degree, bank, lanes).
        report: BankReport,
    },
}

impl TileError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            TileError::TransNeeds16Bit { bits } => write!(
                f,
                "an MN-major tile needs ldmatrix .trans, which on sm80-sm90 exists only for .b16; these elements are {bits}-bit (store the tile K-major)"
            ),
            TileError::Extent { mn, k, mn_multiple, k_multiple } => write!(
                f,
                "tile {mn}x{k} (MN x K) is not a whole number of fragments: MN must be a multiple of {mn_multiple}, K of {k_multiple}"
            ),
            TileError::TooLarge { bytes, max } => {
                if bytes == u64::MAX {
                    write!(f, "the tile's size overflows u64")?;
                } else {
                    write!(f, "the tile takes {bytes} B")?;
                }
                write!(
                    f,
                    "; one CTA's shared memory on this architecture holds at most {max} B (legal: MN x K x element bytes <= {max})"
                )
            }
            TileError::StmatrixArch { arch } => write!(
                f,
                "stmatrix (the D tile's writer) requires sm_90 or higher; this tile is for {} (legal: arch = sm90 | sm120)",
                arch.name()
            ),
            TileError::TmaRowTooWide { row_bytes, elems } => write!(
                f,
                "an unswizzled tile written by TMA needs a box as wide as its {row_bytes}-B row ({elems} elements), but boxDim[0] is at most 256 (legal: rows of at most 256 elements, or swizzle = 32B | 64B | 128B)"
            ),
            TileError::MatrixCount { num, regs: 0 } => write!(
                f,
                "st.shared of {num} B per thread; legal: 4, 8 or 16 B (st.shared.b32, .v2.b32, .v4.b32)"
            ),
            TileError::MatrixCount { num, regs } => {
                write!(
                    f,
                    "ldmatrix .x{num} does not divide the {regs} registers of one k-step (PTX ISA, ldmatrix: .num is .x1, .x2 or .x4, one register per matrix); legal here:"
                )?;
                let mut sep = " ";
                let mut x = 1;
                while x <= 4 {
                    if regs % x == 0 {
                        write!(f, "{sep}.x{x}")?;
                        sep = ", ";
                    }
                    x *= 2;
                }
                Ok(())
            }
            TileError::Swizzle { row_bytes, width } => write!(
                f,
                "stored rows of {row_bytes} B are not a multiple of the {width}-B swizzle width"
            ),
            TileError::Conflict { writer, instr, report } => {
                write!(
                    f,
                    "{} {instr} is a {}-way bank conflict: lanes",
                    if writer { "writer issue" } else { "ldmatrix" },
                    report.degree
                )?;
                let mut l = 0;
                let mut first = true;
                while l < 32 {
                    if report.worst_lanes & (1 << l) != 0 {
                        write!(f, "{}{l}", if first { " " } else { "," })?;
                        first = false;
                    }
                    l += 1;
                }
                write!(f, " all hit bank {}", report.worst_bank)
            }
        }
    }
}
