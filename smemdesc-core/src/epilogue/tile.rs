//! The planned C/D tile: layout, writer addresses, TMA store boxes and tensor map.

use super::{CMajor, EpiError, EpiReader, EpiWriter, EpilogueSpec};
use crate::fragment::{bank_report, BankReport, RowLayout, WarpAccess};
use crate::TmaSwizzle;
use crate::{Arch, StorageMember, SwizzleMode, TensorMap, TensorMapSwizzle};

/// A planned C/D tile ([`EpilogueSpec::build`]).
///
/// Warpgroup `wg` (`< m / 64`) writes rows `64·wg ..` of the tile from its `m64n{wgmma_n}`
/// accumulator, `n` columns at a time (chunk `c` = accumulator columns `c·n .. (c+1)·n`). Each
/// warp issues [`instructions`](Self::instructions) writer instructions per chunk.
///
/// ```
/// use smemdesc_core::SwizzleMode;
/// use smemdesc_core::epilogue::*;
/// let e = EpilogueSpec::new(CType::BF16, 64, 64, 256).build().unwrap();
/// assert_eq!((e.chunks(), e.instructions()), (4, 4));
/// // lane 9 of warp 0's first stmatrix.x4: row 1 of matrix 1 (rows 8..16, columns 0..8)
/// assert_eq!(e.writer_offset(0, 0, 0, 9), e.layout().offset(9, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EpilogueTile {
    spec: EpilogueSpec,
    swizzle: SwizzleMode,
}

const TMA_MODES: [SwizzleMode; 4] = [
    SwizzleMode::B128,
    SwizzleMode::B64,
    SwizzleMode::B32,
    SwizzleMode::None,
];

impl EpilogueTile {
    /// Checks `spec` and picks (or checks) its swizzle: the widest of 128B, 64B, 32B, none whose
    /// every writer instruction is conflict-free.
    ///
    /// ```
    /// use smemdesc_core::SwizzleMode;
    /// use smemdesc_core::epilogue::*;
    /// // without a swizzle, 128-B rows put stmatrix's 8 rows in one bank group: 8-way
    /// let e = EpilogueSpec::new(CType::BF16, 64, 64, 64).swizzle(SwizzleMode::None).build();
    /// assert!(matches!(e, Err(EpiError::Conflict { .. })));
    /// ```
    #[inline]
    pub const fn new(spec: EpilogueSpec) -> Result<EpilogueTile, EpiError> {
        let bits = spec.dtype.bits();
        if spec.stages == 0 {
            return Err(EpiError::Stages);
        }
        if let EpiReader::TmaReduce(op) = spec.reader {
            if !op.allows(spec.dtype) {
                return Err(EpiError::ReduceType {
                    op,
                    dtype: spec.dtype,
                });
            }
        }
        if spec.m == 0
            || spec.m % 64 != 0
            || spec.n == 0
            || spec.n % 8 != 0
            || spec.wgmma_n == 0
            || spec.wgmma_n > 256
            || spec.wgmma_n % 8 != 0
            || spec.wgmma_n % spec.n != 0
            || spec.bytes() > EpilogueSpec::MAX_BYTES as u64
        {
            return Err(EpiError::Shape {
                m: spec.m,
                n: spec.n,
                wgmma_n: spec.wgmma_n,
            });
        }
        match spec.writer {
            EpiWriter::Stmatrix { num, trans } => {
                if bits != 16 {
                    return Err(EpiError::StmatrixBits { bits });
                }
                let want = if trans { CMajor::M } else { CMajor::N };
                if !matches!(
                    (want, spec.major),
                    (CMajor::M, CMajor::M) | (CMajor::N, CMajor::N)
                ) {
                    return Err(EpiError::WriterMajor {
                        trans,
                        major: spec.major,
                    });
                }
                // matrices of one warp's chunk: 2 row halves x n / 8 column blocks
                if !matches!(num, 1 | 2 | 4) || (spec.n / 4) % num != 0 {
                    return Err(EpiError::MatrixCount { num });
                }
            }
            EpiWriter::StShared { bytes } => {
                let legal = 2 * bits / 8;
                if bits < 8 || bytes != legal {
                    return Err(EpiError::StWidth { bytes, legal });
                }
                if matches!(spec.major, CMajor::M) {
                    return Err(EpiError::WriterMajor {
                        trans: false,
                        major: spec.major,
                    });
                }
            }
        }
        let row_bytes = EpilogueTile::row_bytes_of(&spec);
        let mut legal = 0u32;
        let mut first_legal: Option<SwizzleMode> = None;
        let mut i = 0;
        while i < TMA_MODES.len() {
            let s = TMA_MODES[i];
            if EpilogueTile::fits(&spec, s, row_bytes) {
                let t = EpilogueTile { spec, swizzle: s };
                if t.first_conflict().is_none() {
                    legal |= 1 << mode_index(s);
                    if first_legal.is_none() {
                        first_legal = Some(s);
                    }
                }
            }
            i += 1;
        }
        let swizzle = match spec.swizzle {
            Some(s) => {
                if !EpilogueTile::fits(&spec, s, row_bytes) {
                    return Err(EpiError::Swizzle {
                        row_bytes,
                        swizzle: s,
                    });
                }
                let t = EpilogueTile { spec, swizzle: s };
                if let Some((instr, report)) = t.first_conflict() {
                    return Err(EpiError::Conflict {
                        swizzle: s,
                        instr,
                        report,
                        legal,
                    });
                }
                s
            }
            None => match first_legal {
                Some(s) => s,
                None => {
                    let t = EpilogueTile {
                        spec,
                        swizzle: SwizzleMode::None,
                    };
                    let (instr, report) = match t.first_conflict() {
                        Some(c) => c,
                        None => (0, bank_report(WarpAccess::Vector { bytes: 4 }, &[0; 32])),
                    };
                    return Err(EpiError::Conflict {
                        swizzle: SwizzleMode::None,
                        instr,
                        report,
                        legal,
                    });
                }
            },
        };
        if let Some(map) = spec.tma_swizzle {
            if !map.is(swizzle) {
                return Err(EpiError::SwizzleMismatch { tile: swizzle, map });
            }
        }
        Ok(EpilogueTile { spec, swizzle })
    }

    /// The tile `#[smem_epilogue_tile]` already built and checked at expansion time, from its
    /// parts, without checking them again (not an API: the checks, and the bank walk behind the
    /// swizzle, ran in the proc macro, in native code, not in the const evaluator).
    ///
    /// ```
    /// use smemdesc_core::{SwizzleMode, epilogue::*};
    /// let spec = EpilogueSpec::new(CType::BF16, 64, 64, 64).swizzle(SwizzleMode::B128);
    /// assert_eq!(EpilogueTile::__checked(spec, SwizzleMode::B128), spec.build().unwrap());
    /// ```
    #[doc(hidden)]
    pub const fn __checked(spec: EpilogueSpec, swizzle: SwizzleMode) -> EpilogueTile {
        EpilogueTile { spec, swizzle }
    }

    #[inline]
    const fn row_bytes_of(spec: &EpilogueSpec) -> u32 {
        let ebytes = spec.dtype.bits() / 8;
        match spec.major {
            CMajor::N => spec.n * ebytes,
            CMajor::M => spec.m * ebytes,
        }
    }

    #[inline]
    const fn fits(spec: &EpilogueSpec, s: SwizzleMode, row_bytes: u32) -> bool {
        match s {
            SwizzleMode::B128Base32B => false,
            SwizzleMode::None => {
                // TMA with no swizzle takes a whole row as the box's inner extent (<= 256 elements).
                row_bytes % 16 == 0
                    && (!spec.reader.is_tma() || row_bytes * 8 / spec.dtype.bits() <= 256)
            }
            _ => row_bytes % s.atom_width() == 0,
        }
    }

    /// The first conflicting writer instruction (warp 0, chunk 0: every warp and chunk has the
    /// same pattern shifted by whole 16-row / atom-column blocks, which are whole swizzle periods).
    #[inline]
    const fn first_conflict(&self) -> Option<(u32, BankReport)> {
        let mut w = 0;
        while w < 4 {
            let mut i = 0;
            while i < self.instructions() {
                let r = bank_report(self.access(), &self.writer_offsets(0, w, i));
                if !r.is_conflict_free() {
                    return Some((i, r));
                }
                i += 1;
            }
            w += 1;
        }
        None
    }

    /// The declaration.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// assert_eq!(EpilogueSpec::new(CType::BF16, 64, 64, 64).expect_valid().spec().m, 64);
    /// ```
    #[inline(always)]
    pub const fn spec(&self) -> EpilogueSpec {
        self.spec
    }

    /// The tile's swizzle (picked or checked).
    ///
    /// ```
    /// # use smemdesc_core::{SwizzleMode, epilogue::*};
    /// let e = EpilogueSpec::new(CType::BF16, 64, 32, 64).expect_valid();
    /// assert_eq!(e.swizzle(), SwizzleMode::B64);
    /// ```
    #[inline]
    pub const fn swizzle(&self) -> SwizzleMode {
        self.swizzle
    }

    /// The byte layout: rows of the contiguous dimension (N-major: `m` rows of `n` elements;
    /// M-major: `n` rows of `m`), in atom columns of the swizzle's width — TMA's layout.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let l = EpilogueSpec::new(CType::BF16, 64, 64, 64).expect_valid().layout();
    /// assert_eq!((l.rows, l.row_bytes), (64, 128));
    /// ```
    #[inline(always)]
    pub const fn layout(&self) -> RowLayout {
        let rows = match self.spec.major {
            CMajor::N => self.spec.m,
            CMajor::M => self.spec.n,
        };
        RowLayout {
            rows,
            row_bytes: EpilogueTile::row_bytes_of(&self.spec),
            swizzle: self.swizzle,
            pad: 0,
        }
    }

    /// Byte offset of element `(row, col)` (tile coordinates, `row < m`, `col < n`).
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let e = EpilogueSpec::new(CType::BF16, 64, 64, 64).expect_valid();
    /// assert_eq!(e.offset(1, 0), 128 + 16); // 128B swizzle: row 1's chunk 0 moves to chunk 1
    /// ```
    #[inline(always)]
    pub const fn offset(&self, row: u32, col: u32) -> u32 {
        let eb = self.spec.dtype.bits() / 8;
        match self.spec.major {
            CMajor::N => self.layout().offset(row, col * eb),
            CMajor::M => self.layout().offset(col, row * eb),
        }
    }

    /// Bytes of one stage (a multiple of the swizzle's 1024-B repeat when swizzled).
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// assert_eq!(EpilogueSpec::new(CType::BF16, 64, 64, 64).expect_valid().stage_bytes(), 8192);
    /// ```
    #[inline]
    pub const fn stage_bytes(&self) -> u32 {
        let b = self.layout().bytes();
        let a = self.align();
        b.div_ceil(a) * a
    }

    /// Alignment of the tile's base: 1024 B when swizzled (the pattern's repeat), else 128 B
    /// (a TMA store's SMEM source).
    ///
    /// ```
    /// # use smemdesc_core::{SwizzleMode, epilogue::*};
    /// assert_eq!(EpilogueSpec::new(CType::BF16, 64, 64, 64).expect_valid().align(), 1024);
    /// ```
    #[inline]
    pub const fn align(&self) -> u32 {
        if self.swizzle.is_swizzled() {
            1024
        } else {
            128
        }
    }

    /// The tile's `#[smem_storage]` member: `stages × stage_bytes`, aligned.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let m = EpilogueSpec::new(CType::BF16, 64, 64, 64).stages(2).expect_valid().storage_member("c");
    /// assert_eq!((m.bytes, m.align), (16384, 1024));
    /// ```
    #[inline]
    pub const fn storage_member(&self, name: &'static str) -> StorageMember {
        StorageMember::new(name, self.spec.stages * self.stage_bytes(), self.align())
    }

    /// Chunks of the accumulator per tile (`wgmma_n / n`).
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// assert_eq!(EpilogueSpec::new(CType::BF16, 64, 32, 256).expect_valid().chunks(), 8);
    /// ```
    #[inline]
    pub const fn chunks(&self) -> u32 {
        self.spec.wgmma_n / self.spec.n
    }

    /// The warp access of one writer instruction.
    ///
    /// ```
    /// # use smemdesc_core::{epilogue::*, fragment::WarpAccess};
    /// let e = EpilogueSpec::new(CType::BF16, 64, 64, 64).expect_valid();
    /// assert_eq!(e.access(), WarpAccess::Matrix { num: 4, store: true });
    /// ```
    #[inline]
    pub const fn access(&self) -> WarpAccess {
        match self.spec.writer {
            EpiWriter::Stmatrix { num, .. } => WarpAccess::Matrix { num, store: true },
            EpiWriter::StShared { bytes } => WarpAccess::Vector { bytes },
        }
    }

    /// Writer instructions per warp per chunk: `(n / 4) / num` for `stmatrix .x{num}` (a warp
    /// holds 16 rows × n columns = n / 4 matrices), `n / 4` for `st.shared` (one per 8-column
    /// block and row half).
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let e = EpilogueSpec::new(CType::BF16, 64, 64, 64).writer(EpiWriter::Stmatrix { num: 2, trans: false });
    /// assert_eq!(e.expect_valid().instructions(), 8);
    /// ```
    #[inline]
    pub const fn instructions(&self) -> u32 {
        match self.spec.writer {
            EpiWriter::Stmatrix { num, .. } => self.spec.n / 4 / num,
            EpiWriter::StShared { .. } => self.spec.n / 4,
        }
    }

    /// The accumulator register pair of matrix `q` of instruction `instr` in chunk `chunk`:
    /// `stmatrix` register `q` holds `cvt(d[2p], d[2p + 1])` for the returned `p` (the fragment's
    /// pair index; `st.shared` instruction `instr` stores pair `p` with `q = 0`).
    /// Constant indices only in a kernel (a run-time chunk loop indexes the accumulator at run
    /// time): `smemdesc::accum::WgmmaAcc::for_each_group` hands out each instruction's registers.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let e = EpilogueSpec::new(CType::BF16, 64, 64, 256).expect_valid();
    /// // chunk 1 = columns 64..128: 8 column blocks x 2 row halves = 16 pairs per chunk before it
    /// assert_eq!(e.pair(1, 0, 3), 16 + 3);
    /// ```
    #[inline(always)]
    pub const fn pair(&self, chunk: u32, instr: u32, q: u32) -> u32 {
        let per = match self.spec.writer {
            EpiWriter::Stmatrix { num, .. } => num,
            EpiWriter::StShared { .. } => 1,
        };
        // pair p covers row half p % 2 of 8-column block p / 2 (WgmmaAccum: d[4j + 2h + {0,1}])
        chunk * (self.spec.n / 4) + instr * per + q
    }

    /// Byte offset (from the tile's stage base) lane `lane` of warp `warp` of warpgroup `wg`
    /// passes to writer instruction `instr` (any chunk: each chunk fills the same tile).
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let e = EpilogueSpec::new(CType::BF16, 64, 64, 64).expect_valid();
    /// // lane 17: matrix 2 = rows 0..8, columns 8..16, row 1
    /// assert_eq!(e.writer_offset(0, 0, 0, 17), e.offset(1, 8));
    /// ```
    #[inline(always)]
    pub const fn writer_offset(&self, wg: u32, warp: u32, instr: u32, lane: u32) -> u32 {
        let row0 = 64 * wg + 16 * warp;
        match self.spec.writer {
            EpiWriter::Stmatrix { num, trans } => {
                let g = instr * num + (lane / 8) % num;
                let (h, jb, r) = (g & 1, g >> 1, lane % 8);
                if trans {
                    // stored row r of the transposed matrix: column 8·jb + r, 8 rows from 8·h
                    self.offset(row0 + 8 * h, 8 * jb + r)
                } else {
                    self.offset(row0 + 8 * h + r, 8 * jb)
                }
            }
            EpiWriter::StShared { .. } => {
                let (h, jb) = (instr & 1, instr >> 1);
                self.offset(row0 + 8 * h + lane / 4, 8 * jb + 2 * (lane % 4))
            }
        }
    }

    /// [`writer_offset`](Self::writer_offset) of all 32 lanes.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let e = EpilogueSpec::new(CType::BF16, 64, 64, 64).expect_valid();
    /// assert_eq!(e.writer_offsets(0, 1, 0)[0], e.offset(16, 0));
    /// ```
    #[inline]
    pub const fn writer_offsets(&self, wg: u32, warp: u32, instr: u32) -> [u32; 32] {
        let mut a = [0u32; 32];
        let mut l = 0;
        while l < 32 {
            a[l] = self.writer_offset(wg, warp, instr, l as u32);
            l += 1;
        }
        a
    }

    /// The bank model's verdict on writer instruction `instr` of warp `warp`.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let e = EpilogueSpec::new(CType::BF16, 64, 64, 64).expect_valid();
    /// assert!(e.writer_report(0, 3, 1).is_conflict_free());
    /// ```
    #[inline]
    pub const fn writer_report(&self, wg: u32, warp: u32, instr: u32) -> BankReport {
        bank_report(self.access(), &self.writer_offsets(wg, warp, instr))
    }

    /// The TMA store's `boxDim`: `[inner, rows]` with `inner` one atom row (a whole row without
    /// swizzle) and `rows` the tile's stored rows when at most 256 (`boxDim` <= 256), else a
    /// divisor of them (halved while the half is a whole number of 8-row swizzle periods, else
    /// the largest multiple of 8 up to 256 dividing them), so that the boxes cover every row.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// assert_eq!(EpilogueSpec::new(CType::BF16, 128, 128, 128).expect_valid().tma_box_dim(), [64, 128]);
    /// ```
    #[inline]
    pub const fn tma_box_dim(&self) -> [u32; 2] {
        let l = self.layout();
        let eb = self.spec.dtype.bits() / 8;
        let inner = if self.swizzle.is_swizzled() {
            self.swizzle.atom_width()
        } else {
            l.row_bytes
        } / eb;
        let mut rows = l.rows;
        while rows > 256 && rows % 16 == 0 {
            rows /= 2;
        }
        if rows > 256 {
            // Stored rows are a multiple of 8 (m of 64, n of 8): 8 always divides. A multiple of
            // 8 rows keeps every box on a whole swizzle period and 128-B aligned.
            let mut d = 256;
            while d > 8 && l.rows % d != 0 {
                d -= 8;
            }
            rows = d;
        }
        [inner, rows]
    }

    /// TMA store boxes per stage.
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// assert_eq!(EpilogueSpec::new(CType::BF16, 64, 128, 128).expect_valid().tma_boxes(), 2);
    /// ```
    #[inline]
    pub const fn tma_boxes(&self) -> u32 {
        let l = self.layout();
        let [inner, rows] = self.tma_box_dim();
        let eb = self.spec.dtype.bits() / 8;
        (l.row_bytes / (inner * eb)) * (l.rows / rows)
    }

    /// Box `b`'s SMEM offset from the stage base and its tile coordinates `(inner0, row0)`
    /// (elements along the contiguous dimension, stored rows): add the tile's global origin in
    /// the tensor map's order (`N-major`: `{n, m}`; `M-major`: `{m, n}`).
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// let e = EpilogueSpec::new(CType::BF16, 64, 128, 128).expect_valid();
    /// assert_eq!(e.tma_box(1), (8192, (64, 0)));
    /// ```
    #[inline(always)]
    pub const fn tma_box(&self, b: u32) -> (u32, (u32, u32)) {
        let l = self.layout();
        let [inner, rows] = self.tma_box_dim();
        let eb = self.spec.dtype.bits() / 8;
        let per_col = l.rows / rows;
        let (c, rb) = (b / per_col, b % per_col);
        (
            c * l.rows * inner * eb + rb * rows * inner * eb,
            (c * inner, rb * rows),
        )
    }

    /// The TMA store's tensor map for a `m_total × n_total` C in global memory (dense, the
    /// declared major), to be [`check`](TensorMap::check)ed like the loads'.
    ///
    /// ```
    /// # use smemdesc_core::{*, epilogue::*};
    /// let e = EpilogueSpec::new(CType::BF16, 64, 64, 256).expect_valid();
    /// let m = e.tensor_map(Arch::Sm90, 8192, 8192).address(0);
    /// assert!(m.check().is_ok());
    /// assert_eq!((m.box_dim[0], m.box_dim[1], m.swizzle), (64, 64, TensorMapSwizzle::B128));
    /// ```
    #[inline]
    pub const fn tensor_map(&self, arch: Arch, m_total: u64, n_total: u64) -> TensorMap {
        let (d0, d1) = match self.spec.major {
            CMajor::N => (n_total, m_total),
            CMajor::M => (m_total, n_total),
        };
        let [inner, rows] = self.tma_box_dim();
        TensorMap::new(arch, self.spec.dtype.tensor_map_data_type(), 2)
            .dim(0, d0)
            .dim(1, d1)
            .box_dim(0, inner)
            .box_dim(1, rows)
            .swizzle(TensorMapSwizzle::of_tma(TmaSwizzle::of(self.swizzle)))
    }

    /// Whether the reader is a TMA (store or reduce).
    ///
    /// ```
    /// # use smemdesc_core::epilogue::*;
    /// assert!(EpilogueSpec::new(CType::BF16, 64, 64, 64).expect_valid().reader_is_tma());
    /// ```
    #[inline]
    pub const fn reader_is_tma(&self) -> bool {
        self.spec.reader.is_tma()
    }
}

#[inline]
const fn mode_index(s: SwizzleMode) -> u32 {
    match s {
        SwizzleMode::None => 0,
        SwizzleMode::B32 => 1,
        SwizzleMode::B64 => 2,
        SwizzleMode::B128 => 3,
        SwizzleMode::B128Base32B => 4,
    }
}
