//! The C/D tile's declaration and its errors.

use super::{CType, ReduceOp};
use crate::fragment::BankReport;
use crate::SwizzleMode;

/// Which C dimension is contiguous in the tile (and in global memory).
///
/// ```
/// assert_eq!(smemdesc_core::epilogue::CMajor::N.name(), "n");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CMajor {
    /// Row-major C: N contiguous (rows of N elements).
    N,
    /// Column-major C: M contiguous (written with `stmatrix .trans`).
    M,
}

impl CMajor {
    /// `"n"` or `"m"`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::epilogue::CMajor::M.name(), "m");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            CMajor::N => "n",
            CMajor::M => "m",
        }
    }
}

/// The warp instruction that writes the accumulator into the tile.
///
/// ```
/// use smemdesc_core::epilogue::EpiWriter;
/// assert_eq!(EpiWriter::Stmatrix { num: 4, trans: true }.name(), "stmatrix");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EpiWriter {
    /// `stmatrix.sync.aligned.m8n8.x{num}[.trans].shared.b16`.
    Stmatrix {
        /// 1, 2 or 4 matrices.
        num: u32,
        /// `.trans` (column-major C).
        trans: bool,
    },
    /// `st.shared` of `bytes` per lane: the fragment's two adjacent N elements.
    StShared {
        /// Bytes per lane.
        bytes: u32,
    },
}

impl EpiWriter {
    /// `"stmatrix"` or `"st.shared"`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::epilogue::EpiWriter::StShared { bytes: 4 }.name(), "st.shared");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            EpiWriter::Stmatrix { .. } => "stmatrix",
            EpiWriter::StShared { .. } => "st.shared",
        }
    }
}

/// Who reads the tile back out.
///
/// ```
/// use smemdesc_core::epilogue::{EpiReader, ReduceOp};
/// assert!(EpiReader::TmaReduce(ReduceOp::Add).is_tma());
/// assert_eq!(EpiReader::from_name("tma_reduce_max"), Some(EpiReader::TmaReduce(ReduceOp::Max)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EpiReader {
    /// `cp.async.bulk.tensor` shared → global.
    TmaStore,
    /// `cp.reduce.async.bulk.tensor.{op}` shared → global: the tile is reduced into the global
    /// tensor (the element type must be one the PTX ISA allows `op` on, [`ReduceOp::allows`]).
    TmaReduce(ReduceOp),
    /// Plain `ld.shared` by the threads.
    Loads,
}

impl EpiReader {
    /// Whether the reader is a TMA (its tensor map's swizzle must be the tile's).
    ///
    /// ```
    /// assert!(!smemdesc_core::epilogue::EpiReader::Loads.is_tma());
    /// ```
    #[inline]
    pub const fn is_tma(self) -> bool {
        !matches!(self, EpiReader::Loads)
    }

    /// The declaration's spelling: `tma_store`, `tma_reduce_add`, `tma_reduce_min`, …, `loads`.
    ///
    /// ```
    /// use smemdesc_core::epilogue::{EpiReader, ReduceOp};
    /// assert_eq!(EpiReader::TmaReduce(ReduceOp::Xor).name(), "tma_reduce_xor");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            EpiReader::TmaStore => "tma_store",
            EpiReader::Loads => "loads",
            EpiReader::TmaReduce(op) => match op {
                ReduceOp::Add => "tma_reduce_add",
                ReduceOp::Min => "tma_reduce_min",
                ReduceOp::Max => "tma_reduce_max",
                ReduceOp::Inc => "tma_reduce_inc",
                ReduceOp::Dec => "tma_reduce_dec",
                ReduceOp::And => "tma_reduce_and",
                ReduceOp::Or => "tma_reduce_or",
                ReduceOp::Xor => "tma_reduce_xor",
            },
        }
    }

    /// Parses a declaration spelling ([`name`](Self::name)).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::epilogue::EpiReader::from_name("tma_reduce_mul"), None);
    /// ```
    pub fn from_name(s: &str) -> Option<EpiReader> {
        match s {
            "tma_store" => Some(EpiReader::TmaStore),
            "loads" => Some(EpiReader::Loads),
            _ => ReduceOp::from_name(s.strip_prefix("tma_reduce_")?).map(EpiReader::TmaReduce),
        }
    }
}

/// A C/D tile declaration: `m × n` elements of `dtype` (`m` a multiple of 64: one warpgroup's
/// accumulator rows per 64; `n` dividing the accumulator's `wgmma_n`, the tile takes the
/// accumulator in `wgmma_n / n` chunks), `stages` buffers, a writer and a reader. `swizzle: None`
/// lets smemdesc pick the widest conflict-free one; `tma_swizzle` is the tensor map's, checked
/// against the tile's.
///
/// ```
/// use smemdesc_core::SwizzleMode;
/// use smemdesc_core::epilogue::*;
/// let e = EpilogueSpec::new(CType::BF16, 64, 64, 256).swizzle(SwizzleMode::B128).build().unwrap();
/// assert_eq!(e.stage_bytes(), 8192);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EpilogueSpec {
    /// Element type stored.
    pub dtype: CType,
    /// Rows (M extent) of the tile.
    pub m: u32,
    /// Columns (N extent) of the tile.
    pub n: u32,
    /// The accumulator's N (`m64nNk*`).
    pub wgmma_n: u32,
    /// Contiguous dimension.
    pub major: CMajor,
    /// Buffers.
    pub stages: u32,
    /// Writer.
    pub writer: EpiWriter,
    /// Reader.
    pub reader: EpiReader,
    /// Swizzle (`None`: pick).
    pub swizzle: Option<SwizzleMode>,
    /// The TMA store's tensor-map swizzle, when declared separately (checked equal).
    pub tma_swizzle: Option<SwizzleMode>,
}

impl EpilogueSpec {
    /// Row-major, 1 stage, `stmatrix.x4`, TMA store, swizzle picked.
    ///
    /// ```
    /// let s = smemdesc_core::epilogue::EpilogueSpec::new(smemdesc_core::epilogue::CType::F16, 64, 32, 128);
    /// assert_eq!(s.stages, 1);
    /// ```
    #[inline]
    pub const fn new(dtype: CType, m: u32, n: u32, wgmma_n: u32) -> EpilogueSpec {
        EpilogueSpec {
            dtype,
            m,
            n,
            wgmma_n,
            major: CMajor::N,
            stages: 1,
            writer: EpiWriter::Stmatrix {
                num: 4,
                trans: false,
            },
            reader: EpiReader::TmaStore,
            swizzle: None,
            tma_swizzle: None,
        }
    }

    /// Sets the contiguous dimension.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let s = EpilogueSpec::new(CType::BF16, 64, 64, 64).major(CMajor::M);
    /// assert_eq!(s.major, CMajor::M);
    /// ```
    #[inline]
    pub const fn major(mut self, major: CMajor) -> EpilogueSpec {
        self.major = major;
        self
    }

    /// Sets the stages.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// assert_eq!(EpilogueSpec::new(CType::BF16, 64, 64, 64).stages(2).stages, 2);
    /// ```
    #[inline]
    pub const fn stages(mut self, stages: u32) -> EpilogueSpec {
        self.stages = stages;
        self
    }

    /// Sets the writer.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let s = EpilogueSpec::new(CType::BF16, 64, 64, 64).writer(EpiWriter::StShared { bytes: 4 });
    /// assert_eq!(s.writer.name(), "st.shared");
    /// ```
    #[inline]
    pub const fn writer(mut self, writer: EpiWriter) -> EpilogueSpec {
        self.writer = writer;
        self
    }

    /// Sets the reader.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let s = EpilogueSpec::new(CType::BF16, 64, 64, 64).reader(EpiReader::Loads);
    /// assert_eq!(s.reader, EpiReader::Loads);
    /// ```
    #[inline]
    pub const fn reader(mut self, reader: EpiReader) -> EpilogueSpec {
        self.reader = reader;
        self
    }

    /// Fixes the tile's swizzle (checked, not picked).
    ///
    /// ```
    /// # use smemdesc_core::{SwizzleMode, epilogue::*};
    /// let s = EpilogueSpec::new(CType::BF16, 64, 64, 64).swizzle(SwizzleMode::B64);
    /// assert_eq!(s.swizzle, Some(SwizzleMode::B64));
    /// ```
    #[inline]
    pub const fn swizzle(mut self, swizzle: SwizzleMode) -> EpilogueSpec {
        self.swizzle = Some(swizzle);
        self
    }

    /// Declares the TMA store tensor map's swizzle (must equal the tile's).
    ///
    /// ```
    /// # use smemdesc_core::{SwizzleMode, epilogue::*};
    /// let e = EpilogueSpec::new(CType::BF16, 64, 64, 64).tma_swizzle(SwizzleMode::B64).build();
    /// assert!(matches!(e, Err(EpiError::SwizzleMismatch { .. })));
    /// ```
    #[inline]
    pub const fn tma_swizzle(mut self, swizzle: SwizzleMode) -> EpilogueSpec {
        self.tma_swizzle = Some(swizzle);
        self
    }

    /// Bytes of all stages, `m · n · element bytes · stages`, computed without overflow
    /// (saturating at `u64::MAX`): [`build`](Self::build) refuses a tile above
    /// [`MAX_BYTES`](Self::MAX_BYTES).
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// assert_eq!(EpilogueSpec::new(CType::BF16, 64, 64, 64).stages(2).bytes(), 16384);
    /// assert_eq!(EpilogueSpec::new(CType::F32, u32::MAX, u32::MAX, 64).stages(u32::MAX).bytes(), u64::MAX);
    /// ```
    #[inline]
    pub const fn bytes(&self) -> u64 {
        let eb = (self.dtype.bits() / 8) as u64;
        (self.m as u64)
            .saturating_mul(self.n as u64)
            .saturating_mul(eb)
            .saturating_mul(self.stages as u64)
    }

    /// The most bytes a C tile (all stages) may take: the 227 KiB of shared memory one sm90 CTA
    /// can have (CUDA C++ Programming Guide, compute capability 9.0).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::epilogue::EpilogueSpec::MAX_BYTES, 232_448);
    /// ```
    pub const MAX_BYTES: u32 = crate::Arch::Sm90.max_smem_per_cta();

    /// Plans the tile ([`EpilogueTile::new`](super::EpilogueTile::new)).
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// assert!(EpilogueSpec::new(CType::BF16, 64, 64, 256).build().is_ok());
    /// ```
    #[inline]
    pub const fn build(self) -> Result<super::EpilogueTile, EpiError> {
        super::EpilogueTile::new(self)
    }

    /// [`build`](Self::build), panicking (a compile error in a `const`) on an illegal tile.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// const E: EpilogueTile = EpilogueSpec::new(CType::BF16, 64, 32, 64).expect_valid();
    /// assert_eq!(E.spec().n, 32);
    /// ```
    #[inline]
    pub const fn expect_valid(self) -> super::EpilogueTile {
        match self.build() {
            Ok(t) => t,
            Err(_) => panic!("illegal epilogue tile (call build() for the reason)"),
        }
    }
}

/// Why a C/D tile cannot be planned.
///
/// ```
/// use smemdesc_core::epilogue::EpiError;
/// let e = EpiError::Shape { m: 32, n: 64, wgmma_n: 256 };
/// assert!(e.to_string().contains("multiple of 64"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpiError {
    /// `m` not a multiple of 64, `n` not a multiple of 8 dividing `wgmma_n`, `wgmma_n` illegal,
    /// or the tile's stages larger than [`EpilogueSpec::MAX_BYTES`].
    Shape {
        /// Rows.
        m: u32,
        /// Columns.
        n: u32,
        /// Accumulator N.
        wgmma_n: u32,
    },
    /// 0 stages.
    Stages,
    /// `stmatrix` (sm90) stores 16-bit elements only.
    StmatrixBits {
        /// Bits of the element type.
        bits: u32,
    },
    /// `.trans` writes column-major C, plain `stmatrix` and `st.shared` row-major.
    WriterMajor {
        /// The writer's `.trans`.
        trans: bool,
        /// The declared major.
        major: CMajor,
    },
    /// `.xN` not 1, 2, 4 or not dividing the matrices of one chunk.
    MatrixCount {
        /// N.
        num: u32,
    },
    /// `st.shared` width other than the fragment pair's (2 elements).
    StWidth {
        /// Asked.
        bytes: u32,
        /// Legal.
        legal: u32,
    },
    /// The tile's rows are not a whole number of the swizzle's width, or the swizzle is not a
    /// sm90 TMA mode.
    Swizzle {
        /// Stored row bytes.
        row_bytes: u32,
        /// The swizzle mode asked for.
        swizzle: SwizzleMode,
    },
    /// A writer instruction conflicts under the chosen (or every) swizzle.
    Conflict {
        /// The swizzle checked.
        swizzle: SwizzleMode,
        /// Instruction index (within one warp's chunk).
        instr: u32,
        /// The bank model's verdict.
        report: BankReport,
        /// Bit `i` set: mode `SwizzleMode::ALL[i]` would be conflict-free (0: none).
        legal: u32,
    },
    /// The TMA reduce's `.redOp` is not allowed on the tile's element type (PTX ISA,
    /// `cp.reduce.async.bulk.tensor`: [`ReduceOp::legal_types`]).
    ReduceType {
        /// The reduction.
        op: ReduceOp,
        /// The tile's element type.
        dtype: CType,
    },
    /// The TMA store's tensor-map swizzle disagrees with the tile's.
    SwizzleMismatch {
        /// The tile's.
        tile: SwizzleMode,
        /// The tensor map's.
        map: SwizzleMode,
    },
}

impl EpiError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            EpiError::Shape { m, n, wgmma_n } => write!(
                f,
                "C tile {m}x{n} of an m64n{wgmma_n} accumulator: m must be a multiple of 64, n a multiple of 8 dividing {wgmma_n}, N a multiple of 8 in 8..=256, and all stages at most {} B (sm90's shared memory per CTA)",
                EpilogueSpec::MAX_BYTES
            ),
            EpiError::Stages => write!(f, "a C tile needs at least 1 stage"),
            EpiError::StmatrixBits { bits } => write!(
                f,
                "stmatrix on sm90 stores .b16 only; these elements are {bits}-bit (use st.shared)"
            ),
            EpiError::WriterMajor { trans, major } => write!(
                f,
                "a {} writer stores {} C, but the tile is declared major = {} (legal: {})",
                if trans { "stmatrix .trans" } else { "stmatrix/st.shared" },
                if trans { "column-major (M-contiguous)" } else { "row-major (N-contiguous)" },
                major.name(),
                if trans { "major = m" } else { "major = n" }
            ),
            EpiError::MatrixCount { num } => {
                write!(f, "stmatrix .x{num}: legal .x1, .x2, .x4 dividing the tile's matrices")
            }
            EpiError::StWidth { bytes, legal } => write!(
                f,
                "st.shared of {bytes} B: the accumulator fragment holds 2 adjacent elements per row, so the legal width is {legal} B"
            ),
            EpiError::Swizzle { row_bytes, swizzle } => write!(
                f,
                "swizzle {} does not fit stored rows of {row_bytes} B (the row must be a whole number of {}-B atom rows, and the mode an sm90 TMA swizzle)",
                swizzle.name(),
                swizzle.atom_width()
            ),
            EpiError::Conflict { swizzle, instr, report, legal } => {
                write!(
                    f,
                    "with swizzle {} the C tile's writer instruction {instr} is {} {}-way bank conflict (bank {}); conflict-free swizzles:",
                    swizzle.name(),
                    if matches!(report.degree, 8 | 11 | 18) { "an" } else { "a" },
                    report.degree,
                    report.worst_bank
                )?;
                let mut i = 0;
                let mut any = false;
                while i < SwizzleMode::ALL.len() {
                    if legal & (1 << i) != 0 {
                        write!(f, " {}", SwizzleMode::ALL[i].name())?;
                        any = true;
                    }
                    i += 1;
                }
                if !any {
                    write!(f, " none (change the writer)")?;
                }
                Ok(())
            }
            EpiError::ReduceType { op, dtype } => {
                // The ISA's table gives the bitwise kinds .b64; s64 is refused for them by
                // measurement (commit 58a2da3), not by the ISA.
                let bitwise = matches!(op, ReduceOp::And | ReduceOp::Or | ReduceOp::Xor);
                let source = if bitwise && dtype.is(CType::S64) {
                    "measured, not the PTX ISA (whose table gives .b64): on an H200, driver 13.0, .and/.or/.xor through an INT64 tensor map stop the kernel with an illegal instruction and through UINT64 are exact; record gpu/device-logs/2026-11-27-reduce"
                } else {
                    "PTX ISA"
                };
                write!(
                    f,
                    "cp.reduce.async.bulk.tensor .{} does not take .{} elements ({source}); legal: ",
                    op.name(),
                    dtype.name()
                )?;
                let legal = op.legal_types();
                let mut i = 0;
                while i < legal.len() {
                    let sep = if i == 0 { "" } else { " | " };
                    write!(f, "{sep}dtype = {}", legal[i].name())?;
                    i += 1;
                }
                write!(f, " for reader = {}, or another reader: ", EpiReader::TmaReduce(op).name())?;
                let mut any = false;
                let mut j = 0;
                while j < ReduceOp::ALL.len() {
                    if ReduceOp::ALL[j].allows(dtype) {
                        let sep = if any { " | " } else { "" };
                        write!(f, "{sep}{}", EpiReader::TmaReduce(ReduceOp::ALL[j]).name())?;
                        any = true;
                    }
                    j += 1;
                }
                if !any {
                    write!(f, "no TMA reduce takes {}", dtype.name())?;
                }
                write!(f, ", tma_store, loads")
            }
            EpiError::SwizzleMismatch { tile, map } => write!(
                f,
                "the TMA store's tensor map uses swizzle {} but the C tile is laid out with swizzle {}; legal: tma_swizzle = {}",
                map.name(),
                tile.name(),
                tile.name()
            ),
        }
    }
}
