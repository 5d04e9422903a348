//! `ldmatrix` operand tiles: the shared-memory layout of an `mma.sync` A or B tile, the per-lane
//! `ldmatrix` row addresses of every fragment of every k-step, the registers they fill, and the
//! bank verdicts for the reader and the writer.
//!
//! Every 32-bit register of an A or B fragment is one 8-row × 16-byte core matrix (see
//! [`MmaSync::coord`]): for A register `j` covers MN rows `8·(j & 1) …` and K values
//! `4p·(j >> 1) …`; for B register `j` covers N `0 … 7` and K values `4p·j …` (`p` elements per
//! register). K-major storage feeds them to plain `ldmatrix` (any element type: it moves 32-bit
//! words); MN-major storage needs `ldmatrix .trans`, which transposes 16-bit elements only (PTX:
//! `.trans` with `.m8n8` requires `.b16`).

use super::{
    bank_report, BankReport, FragOperand, MmaSync, RowLayout, TileError, WarpAccess, Writer,
};
use crate::{Major, SwizzleMode};

/// An `ldmatrix`-read operand tile of an `mma.sync`: the layout, the instructions, their per-lane
/// row addresses and the registers they fill.
///
/// ```
/// use smemdesc_core::{ElementType, Major};
/// use smemdesc_core::fragment::*;
/// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::BF16).unwrap();
/// // A: 64 x 64 bf16, K-major: rows of 128 B, swizzle chosen (128B), ldmatrix.x4.
/// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 64, 64, None, 4).unwrap();
/// assert_eq!(t.layout().swizzle, smemdesc_core::SwizzleMode::B128);
/// assert_eq!(t.instructions(), 4 * 4); // 4 fragments x 4 k-steps
/// assert!(t.check_reader().is_ok());
/// assert_eq!(t.address(0, 9), t.layout().offset(9, 0)); // lane 9: row 1 of matrix 1 (rows 8..15)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LdmatrixTile {
    mma: MmaSync,
    op: FragOperand,
    major: Major,
    mn: u32,
    k: u32,
    num: u32,
    layout: RowLayout,
}

/// The largest tile [`LdmatrixTile::new`] plans on any architecture: 227 KiB, the most shared
/// memory one CTA can have on sm90; each architecture's own bound is
/// [`SyncArch::max_smem_per_block`](super::SyncArch::max_smem_per_block).
///
/// ```
/// assert_eq!(smemdesc_core::fragment::MAX_TILE_BYTES, 232_448);
/// ```
pub const MAX_TILE_BYTES: u32 = 227 * 1024;

/// The largest row padding [`LdmatrixTile::padded`] applies (larger values are clamped to it).
///
/// ```
/// assert_eq!(smemdesc_core::fragment::MAX_PAD_BYTES, 1024);
/// ```
pub const MAX_PAD_BYTES: u32 = 1024;

impl LdmatrixTile {
    /// Plans an A or B tile of `mn × k` elements stored `major`, read with `ldmatrix.x{num}`;
    /// or, for [`FragOperand::C`], an `M × N` tile of 16-bit results (`mn = M`, `k = N`; `K`:
    /// row-major, `MN`: column-major with `.trans`) written from the C/D fragments with
    /// `stmatrix.x{num}` (each 16 × 8 fragment, its f32 values converted to 16-bit pairs
    /// `(c0, c1)`, `(c2, c3)`, is two 8 × 8 matrices).
    /// `swizzle: None` chooses the widest swizzle (128, 64, 32 B) dividing the stored row whose
    /// reads are conflict-free (no swizzle for 16-B rows); `Some(mode)` checks nothing yet (call
    /// [`LdmatrixTile::check_reader`]).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm90, SyncShape::M16N8K32, ElementType::E4M3).unwrap();
    /// let e = LdmatrixTile::new(mma, FragOperand::B, Major::Mn, 32, 64, None, 4).unwrap_err();
    /// assert_eq!(e, TileError::TransNeeds16Bit { bits: 8 });
    /// ```
    #[inline]
    pub const fn new(
        mma: MmaSync,
        op: FragOperand,
        major: Major,
        mn: u32,
        k: u32,
        swizzle: Option<SwizzleMode>,
        num: u32,
    ) -> Result<LdmatrixTile, TileError> {
        let is_c = matches!(op, FragOperand::C);
        if is_c && !mma.arch.has_stmatrix() {
            return Err(TileError::StmatrixArch { arch: mma.arch });
        }
        let bits = if is_c { 16 } else { mma.reg_bits() };
        if matches!(major, Major::Mn) && bits != 16 {
            return Err(TileError::TransNeeds16Bit { bits });
        }
        let mn_multiple = if matches!(op, FragOperand::B) { 8 } else { 16 };
        let k_multiple = if is_c { 8 } else { mma.shape.k() };
        if mn == 0 || k == 0 || mn % mn_multiple != 0 || k % k_multiple != 0 {
            return Err(TileError::Extent {
                mn,
                k,
                mn_multiple,
                k_multiple,
            });
        }
        // The tile must fit one CTA's shared memory on its architecture (at most 227 KiB): this
        // also keeps every offset below in u32. `mn · k · bits / 8` can exceed u64: saturated.
        let wide = mn as u128 * k as u128 * bits as u128 / 8;
        let bytes = if wide > u64::MAX as u128 {
            u64::MAX
        } else {
            wide as u64
        };
        let max = mma.arch.max_smem_per_block();
        if bytes > max as u64 {
            return Err(TileError::TooLarge { bytes, max });
        }
        let regs = if is_c {
            2 * (mn / 16) * (k / 8)
        } else {
            mma.regs(op) * (mn / mn_multiple)
        };
        if !matches!(num, 1 | 2 | 4) || regs % num != 0 {
            return Err(TileError::MatrixCount { num, regs });
        }
        let (rows, row_bytes) = match major {
            Major::K => (mn, k * bits / 8),
            Major::Mn => (k, mn * bits / 8),
        };
        let mut t = LdmatrixTile {
            mma,
            op,
            major,
            mn,
            k,
            num,
            layout: RowLayout {
                rows,
                row_bytes,
                swizzle: SwizzleMode::None,
                pad: 0,
            },
        };
        match swizzle {
            Some(s) => {
                if s.is_swizzled() && row_bytes % s.atom_width() != 0 {
                    return Err(TileError::Swizzle {
                        row_bytes,
                        width: s.atom_width(),
                    });
                }
                t.layout.swizzle = s;
                Ok(t)
            }
            None => {
                let modes = [SwizzleMode::B128, SwizzleMode::B64, SwizzleMode::B32];
                let mut i = 0;
                while i < modes.len() {
                    if row_bytes % modes[i].atom_width() == 0 {
                        t.layout.swizzle = modes[i];
                        if t.check_reader().is_ok() {
                            return Ok(t);
                        }
                    }
                    i += 1;
                }
                t.layout.swizzle = SwizzleMode::None;
                Ok(t)
            }
        }
    }

    /// The same tile with plain rows padded by `pad` bytes (the classic alternative to a
    /// swizzle; not TMA-writable).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major, SwizzleMode};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 16, 64, Some(SwizzleMode::None), 4).unwrap();
    /// assert!(t.check_reader().is_err()); // 128-B pitch: 8-way
    /// assert!(t.padded(16).check_reader().is_ok());
    /// ```
    #[inline]
    pub const fn padded(mut self, pad: u32) -> LdmatrixTile {
        self.layout.swizzle = SwizzleMode::None;
        self.layout.pad = if pad > MAX_PAD_BYTES {
            MAX_PAD_BYTES
        } else {
            pad
        };
        self
    }

    /// The stored layout.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::B, Major::Mn, 64, 32, None, 4).unwrap();
    /// assert_eq!((t.layout().rows, t.layout().row_bytes), (32, 128)); // K rows of 64 halves
    /// ```
    #[inline(always)]
    pub const fn layout(&self) -> RowLayout {
        self.layout
    }

    /// The `mma.sync` form the tile feeds (with the scale vector and type of a block-scaled
    /// kind).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let scale = Some((ScaleVec::X4, ScaleType::Ue4m3));
    /// let mma = MmaSync::with_kind(SyncArch::Sm120, SyncShape::M16N8K64, SyncKind::Mxf4Nvf4,
    ///     ElementType::E2M1, ElementType::E2M1, scale).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 64, 128, None, 4).unwrap();
    /// assert_eq!(t.mma().scale, scale);
    /// ```
    #[inline(always)]
    pub const fn mma(&self) -> MmaSync {
        self.mma
    }

    /// The `ldmatrix` access (`.x{num}`).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::B, Major::K, 16, 16, None, 2).unwrap();
    /// assert_eq!(t.access(), WarpAccess::Matrix { num: 2, store: false });
    /// ```
    #[inline]
    pub const fn access(&self) -> WarpAccess {
        WarpAccess::Matrix {
            num: self.num,
            store: matches!(self.op, FragOperand::C),
        }
    }

    /// Bits per stored element: the operand's register width, 16 for a C/D tile.
    #[inline(always)]
    const fn bits(&self) -> u32 {
        match self.op {
            FragOperand::C => 16,
            _ => self.mma.reg_bits(),
        }
    }

    /// Whether the reads use `.trans` (MN-major storage).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// assert!(LdmatrixTile::new(mma, FragOperand::B, Major::Mn, 8, 16, None, 2).unwrap().trans());
    /// ```
    #[inline(always)]
    pub const fn trans(&self) -> bool {
        matches!(self.major, Major::Mn)
    }

    /// Registers of one k-step over all fragments of the tile's MN extent.
    #[inline(always)]
    const fn regs_per_kstep(&self) -> u32 {
        match self.op {
            FragOperand::A => self.mma.regs(self.op) * (self.mn / 16),
            FragOperand::B => self.mma.regs(self.op) * (self.mn / 8),
            FragOperand::C => 2 * (self.mn / 16) * (self.k / 8),
        }
    }

    /// 32-bit registers of one fragment in this tile (C/D: 2, the 16-bit pairs).
    #[inline(always)]
    const fn frag_regs(&self) -> u32 {
        match self.op {
            FragOperand::C => 2,
            _ => self.mma.regs(self.op),
        }
    }

    /// Number of k-steps (`k / K`).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// assert_eq!(LdmatrixTile::new(mma, FragOperand::A, Major::K, 16, 64, None, 4).unwrap().ksteps(), 4);
    /// ```
    #[inline]
    pub const fn ksteps(&self) -> u32 {
        match self.op {
            FragOperand::C => 1,
            _ => self.k / self.mma.shape.k(),
        }
    }

    /// `ldmatrix` instructions for the whole tile: `ksteps · regs_per_kstep / num`, k-step major.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// assert_eq!(LdmatrixTile::new(mma, FragOperand::B, Major::K, 32, 32, None, 4).unwrap().instructions(), 4);
    /// ```
    #[inline]
    pub const fn instructions(&self) -> u32 {
        self.ksteps() * self.regs_per_kstep() / self.num
    }

    /// Destination register `d` (`0 .. num`) of instruction `instr`: `(kstep, fragment, reg)` —
    /// the fragment's index along MN (16 rows of A, 8 columns of B; for C/D `mi·(N/8) + ni`,
    /// k-step 0) and its 32-bit register (`a{reg·p} … a{reg·p + p − 1}`; C/D: `(c{2reg},
    /// c{2reg+1})` as a 16-bit pair).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::B, Major::K, 16, 16, None, 4).unwrap();
    /// assert_eq!(t.dest(0, 2), (0, 1, 0)); // x4 over B: b0/b1 of n-fragment 0, then of 1
    /// ```
    #[inline(always)]
    pub const fn dest(&self, instr: u32, d: u32) -> (u32, u32, u32) {
        let per = self.regs_per_kstep() / self.num;
        let kstep = instr / per;
        let lin = (instr % per) * self.num + d;
        let regs = self.frag_regs();
        (kstep, lin / regs, lin % regs)
    }

    /// The core matrix register `reg` of fragment `frag` at `kstep` covers: its first
    /// `(mn, k)` element.
    #[inline(always)]
    const fn block(&self, kstep: u32, frag: u32, reg: u32) -> (u32, u32) {
        let p = self.mma.per_reg();
        let kk = kstep * self.mma.shape.k();
        match self.op {
            FragOperand::A => (16 * frag + 8 * (reg & 1), kk + 4 * p * (reg >> 1)),
            FragOperand::B => (8 * frag, kk + 4 * p * reg),
            FragOperand::C => {
                let per_row = self.k / 8;
                (16 * (frag / per_row) + 8 * reg, 8 * (frag % per_row))
            }
        }
    }

    /// Byte offset (within the tile) that lane `lane` passes to instruction `instr`: row
    /// `lane % 8` of matrix `lane / 8` (lanes past `8·num` repeat the used ones).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major, SwizzleMode};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 16, 16, Some(SwizzleMode::None), 4).unwrap();
    /// // rows of 32 B; matrix 2 = a4/a5: rows 0..7, K 8..15 (bytes 16..31)
    /// assert_eq!(t.address(0, 16 + 3), 3 * 32 + 16);
    /// ```
    #[inline(always)]
    pub const fn address(&self, instr: u32, lane: u32) -> u32 {
        let q = (lane / 8) % self.num;
        let r = lane % 8;
        let (kstep, frag, reg) = self.dest(instr, q);
        let (mn, k) = self.block(kstep, frag, reg);
        let bits = self.bits();
        match self.major {
            Major::K => self.layout.offset(mn + r, k * bits / 8),
            Major::Mn => self.layout.offset(k + r, mn * bits / 8),
        }
    }

    /// All 32 lane addresses of instruction `instr`.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 16, 16, None, 4).unwrap();
    /// assert_eq!(t.addresses(0)[9], t.address(0, 9));
    /// ```
    #[inline]
    pub const fn addresses(&self, instr: u32) -> [u32; 32] {
        let mut a = [0u32; 32];
        let mut l = 0;
        while l < 32 {
            a[l as usize] = self.address(instr, l);
            l += 1;
        }
        a
    }

    /// The model's report for instruction `instr`.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 16, 16, None, 4).unwrap();
    /// assert_eq!(t.reader_report(0).wavefronts, 4);
    /// ```
    #[inline]
    pub const fn reader_report(&self, instr: u32) -> BankReport {
        bank_report(self.access(), &self.addresses(instr))
    }

    /// Every `ldmatrix` of the tile conflict-free, or the first conflict.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major, SwizzleMode};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 16, 64, Some(SwizzleMode::None), 4).unwrap();
    /// let e = t.check_reader().unwrap_err();
    /// assert!(e.to_string().contains("8-way"));
    /// ```
    #[inline]
    pub const fn check_reader(&self) -> Result<(), TileError> {
        let mut i = 0;
        while i < self.instructions() {
            let report = self.reader_report(i);
            if !report.is_conflict_free() {
                return Err(TileError::Conflict {
                    writer: false,
                    instr: i,
                    report,
                });
            }
            i += 1;
        }
        Ok(())
    }

    /// Warp issues the writer needs for the tile (`None` for TMA, which is not a warp access).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 64, 64, None, 4).unwrap();
    /// assert_eq!(t.writer_issues(Writer::CpAsync16), Some(16)); // 8 KiB / (32 x 16 B)
    /// ```
    #[inline]
    pub const fn writer_issues(&self, w: Writer) -> Option<u32> {
        match w {
            Writer::Tma => None,
            Writer::StShared { bytes } if !matches!(bytes, 4 | 8 | 16) => None,
            _ => {
                let per_issue = 32 * w.bytes();
                Some((self.layout.rows * self.layout.row_bytes).div_ceil(per_issue))
            }
        }
    }

    /// Lane `lane`'s byte offset in writer issue `issue`: the tile written in row order,
    /// `bytes` per lane (lanes past the tile's end repeat its last unit; `u32::MAX` for an
    /// `st.shared` width other than 4, 8, 16).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major, SwizzleMode};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 16, 64, Some(SwizzleMode::None), 4).unwrap();
    /// assert_eq!(t.writer_address(Writer::CpAsync16, 0, 9), 128 + 16);
    /// ```
    #[inline(always)]
    pub const fn writer_address(&self, w: Writer, issue: u32, lane: u32) -> u32 {
        let b = w.bytes();
        if !matches!(b, 4 | 8 | 16) {
            return u32::MAX; // not a legal st.shared width
        }
        let units = self.layout.rows * self.layout.row_bytes / b;
        let mut u = issue * 32 + lane;
        if u >= units {
            u = units - 1;
        }
        let per_row = self.layout.row_bytes / b;
        self.layout.offset(u / per_row, (u % per_row) * b)
    }

    /// The model's report for writer issue `issue` (`None` for TMA).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 64, 64, None, 4).unwrap();
    /// assert!(t.writer_report(Writer::CpAsync16, 0).unwrap().is_conflict_free());
    /// ```
    #[inline]
    pub const fn writer_report(&self, w: Writer, issue: u32) -> Option<BankReport> {
        if self.writer_issues(w).is_none() {
            return None;
        }
        let mut a = [0u32; 32];
        let mut l = 0;
        while l < 32 {
            a[l as usize] = self.writer_address(w, issue, l);
            l += 1;
        }
        Some(bank_report(WarpAccess::Vector { bytes: w.bytes() }, &a))
    }

    /// The writer conflict-free (TMA: the layout must be a TMA swizzle — 32/64/128 B with
    /// 16-B granules — or unswizzled), or the first conflict.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, Major};
    /// use smemdesc_core::fragment::*;
    /// let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 64, 64, None, 4).unwrap();
    /// assert!(t.check_writer(Writer::Tma).is_ok() && t.check_writer(Writer::StShared { bytes: 4 }).is_ok());
    /// ```
    #[inline]
    pub const fn check_writer(&self, w: Writer) -> Result<(), TileError> {
        match w {
            Writer::Tma => {
                if self.layout.pad != 0 || matches!(self.layout.swizzle, SwizzleMode::B128Base32B) {
                    return Err(TileError::Swizzle {
                        row_bytes: self.layout.row_bytes,
                        width: self.layout.swizzle.atom_width(),
                    });
                }
                // Unswizzled, one box row is one stored row: boxDim[0] <= 256 elements (of at
                // least one byte each: sub-byte values can be moved as bytes).
                let unit = if self.bits() >= 8 { self.bits() / 8 } else { 1 };
                if !self.layout.swizzle.is_swizzled() && self.layout.row_bytes / unit > 256 {
                    return Err(TileError::TmaRowTooWide {
                        row_bytes: self.layout.row_bytes,
                        elems: self.layout.row_bytes / unit,
                    });
                }
                Ok(())
            }
            Writer::StShared { bytes } if !matches!(bytes, 4 | 8 | 16) => {
                Err(TileError::MatrixCount {
                    num: bytes,
                    regs: 0,
                })
            }
            _ => {
                let n = match self.writer_issues(w) {
                    Some(n) => n,
                    None => 0,
                };
                let mut i = 0;
                while i < n {
                    if let Some(report) = self.writer_report(w, i) {
                        if !report.is_conflict_free() {
                            return Err(TileError::Conflict {
                                writer: true,
                                instr: i,
                                report,
                            });
                        }
                    }
                    i += 1;
                }
                Ok(())
            }
        }
    }
}
