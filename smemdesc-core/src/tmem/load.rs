//! One `tcgen05.ld` / `tcgen05.st` instruction: its shape, `.num`, and which TMEM (lane, column)
//! each thread's register holds, relative to the warp's address.
//!
//! Facts (PTX ISA, `tcgen05` "Data movement shape" and its "Matrix fragments" figures): a warp
//! reads 32 lanes (`32x32b`) or 16 lanes (the others); per lane, `.num` times 32, 64, 128 or 256
//! bits (`16x32bx2`: two 16-lane blocks of `32·.num` bits, the second at the immediate column
//! offset), one 32-bit register per 32 bits read per thread. Within one repeat (`.x1`), thread
//! `t` of the warp (`t` = lane id) holds:
//!
//! | shape | registers per repeat | register `j` of thread `t`: (lane, column) |
//! |---|---|---|
//! | `32x32b` | 1 | (`t`, 0) |
//! | `16x64b` | 1 | (`⌊t/4⌋ + 8·(t mod 2)`, `⌊(t mod 4)/2⌋`) |
//! | `16x128b` | 2 | (`⌊t/4⌋ + 8j`, `t mod 4`) |
//! | `16x256b` | 4 | (`⌊t/4⌋ + 8·⌊j/2⌋`, `2·(t mod 4) + j mod 2`) |
//! | `16x32bx2` | 1 | (`t mod 16`, `⌊t/16⌋ · imm`) |
//!
//! and repeat `i` adds `i ·` (columns per repeat) to the column, its registers following the
//! previous repeat's. `.pack::16b` (loads) / `.unpack::16b` (stores) put two 16-bit values of
//! adjacent columns in one register: column `c` above becomes columns `2c` (low half) and `2c + 1`
//! (high half). These rest on the PTX documents and CuTe alone (no Blackwell GPU here).
//!
//! ```
//! use smemdesc_core::*;
//! const L: TmemLoad = TmemLoad::expect_new(LoadShape::S16x256b, 2);
//! assert_eq!((L.regs(), L.lanes(), L.cols()), (8, 16, 16));
//! assert_eq!(L.fragment(5, 6), (9, 8 + 2)); // repeat 1, register 2 of the repeat
//! assert_eq!(L.register_of(9, 10), (5, 6));
//! ```

use super::error::TmemError;
use crate::base::text::ConstText;

/// A `tcgen05.ld` / `tcgen05.st` data-movement shape.
///
/// ```
/// use smemdesc_core::LoadShape;
/// assert_eq!(LoadShape::from_name("16x32bx2"), Some(LoadShape::S16x32bx2));
/// assert_eq!(LoadShape::S16x128b.name(), "16x128b");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoadShape {
    /// 32 lanes × 32 bits.
    S32x32b,
    /// 16 lanes × 64 bits.
    S16x64b,
    /// 16 lanes × 128 bits.
    S16x128b,
    /// 16 lanes × 256 bits.
    S16x256b,
    /// Two blocks of 16 lanes × 32 bits, the second at an immediate column offset.
    S16x32bx2,
}

impl LoadShape {
    /// Every shape.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::LoadShape::ALL.len(), 5);
    /// ```
    pub const ALL: [LoadShape; 5] = [
        LoadShape::S32x32b,
        LoadShape::S16x64b,
        LoadShape::S16x128b,
        LoadShape::S16x256b,
        LoadShape::S16x32bx2,
    ];

    /// The PTX spelling.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::LoadShape::S32x32b.name(), "32x32b");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            LoadShape::S32x32b => "32x32b",
            LoadShape::S16x64b => "16x64b",
            LoadShape::S16x128b => "16x128b",
            LoadShape::S16x256b => "16x256b",
            LoadShape::S16x32bx2 => "16x32bx2",
        }
    }

    /// The shape of a PTX spelling.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::LoadShape::from_name("32x32b"), Some(smemdesc_core::LoadShape::S32x32b));
    /// ```
    pub fn from_name(name: &str) -> Option<LoadShape> {
        LoadShape::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Lanes one instruction reads per warp (32 or 16).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::LoadShape::S16x64b.lanes(), 16);
    /// ```
    #[inline]
    pub const fn lanes(self) -> u32 {
        match self {
            LoadShape::S32x32b => 32,
            _ => 16,
        }
    }

    /// 32-bit registers per thread per repeat (`.x1`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::LoadShape::S16x256b.regs_per_repeat(), 4);
    /// ```
    #[inline]
    pub const fn regs_per_repeat(self) -> u32 {
        match self {
            LoadShape::S16x128b => 2,
            LoadShape::S16x256b => 4,
            _ => 1,
        }
    }

    /// The largest `.num` (128 registers per thread at most).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::LoadShape::S16x256b.max_num(), 32);
    /// ```
    #[inline]
    pub const fn max_num(self) -> u32 {
        128 / self.regs_per_repeat()
    }
}

/// One `tcgen05.ld` (or `.st`): shape, `.num`, `.pack::16b` (`.unpack::16b` for stores). The
/// `16x32bx2` immediate half-split offset is `.num` columns (the two halves side by side, as
/// CuTe issues it).
///
/// ```
/// use smemdesc_core::*;
/// let l = TmemLoad::parse("16x32bx2.x16").unwrap();
/// assert_eq!((l.regs(), l.cols(), l.half_split()), (16, 32, 16));
/// assert_eq!(l.mnemonic().as_str(), "tcgen05.ld.sync.aligned.16x32bx2.x16.b32");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmemLoad {
    /// The shape.
    pub shape: LoadShape,
    /// `.num` (1, 2, 4, ..., 128).
    pub num: u32,
    /// `.pack::16b` / `.unpack::16b`.
    pub pack16: bool,
}

impl TmemLoad {
    /// Validates `.num` for the shape.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// assert!(TmemLoad::new(LoadShape::S32x32b, 128).is_ok());
    /// assert_eq!(TmemLoad::new(LoadShape::S16x128b, 128), Err(TmemError::IllegalNum { num: 128, max: 64 }));
    /// ```
    #[inline]
    pub const fn new(shape: LoadShape, num: u32) -> Result<TmemLoad, TmemError> {
        if !num.is_power_of_two() || num > shape.max_num() {
            return Err(TmemError::IllegalNum {
                num,
                max: shape.max_num(),
            });
        }
        Ok(TmemLoad {
            shape,
            num,
            pack16: false,
        })
    }

    /// [`new`](Self::new), panicking (a compile error in a `const` item) when illegal.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// const L: TmemLoad = TmemLoad::expect_new(LoadShape::S32x32b, 16);
    /// assert_eq!(L.regs(), 16);
    /// ```
    #[inline]
    pub const fn expect_new(shape: LoadShape, num: u32) -> TmemLoad {
        match TmemLoad::new(shape, num) {
            Ok(l) => l,
            Err(e) => panic!("{}", e.message().as_str()),
        }
    }

    /// With `.pack::16b` (two 16-bit values of adjacent columns per register).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let l = TmemLoad::expect_new(LoadShape::S32x32b, 4).pack(true);
    /// assert_eq!((l.regs(), l.cols()), (4, 8));
    /// ```
    #[inline]
    pub const fn pack(mut self, on: bool) -> TmemLoad {
        self.pack16 = on;
        self
    }

    /// Parses the PTX spelling `SHAPE.xNUM` with an optional `.pack::16b`.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// assert_eq!(TmemLoad::parse("32x32b.x16"), Ok(TmemLoad::expect_new(LoadShape::S32x32b, 16)));
    /// assert_eq!(TmemLoad::parse("16x64b.x2.pack::16b").map(|l| l.pack16), Ok(true));
    /// assert_eq!(TmemLoad::parse("32x32b"), Err(TmemError::BadLoadText));
    /// ```
    pub fn parse(text: &str) -> Result<TmemLoad, TmemError> {
        let (body, pack) = match text.strip_suffix(".pack::16b") {
            Some(b) => (b, true),
            None => (text, false),
        };
        let (shape, num) = body.split_once(".x").ok_or(TmemError::BadLoadText)?;
        let shape = LoadShape::from_name(shape).ok_or(TmemError::BadLoadText)?;
        if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) || num.len() > 4 {
            return Err(TmemError::BadLoadText);
        }
        let num: u32 = num.parse().map_err(|_| TmemError::BadLoadText)?;
        Ok(TmemLoad::new(shape, num)?.pack(pack))
    }

    /// 32-bit registers per thread.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TmemLoad::expect_new(LoadShape::S16x128b, 8).regs(), 16);
    /// ```
    #[inline]
    pub const fn regs(&self) -> u32 {
        self.shape.regs_per_repeat() * self.num
    }

    /// Lanes read per warp (32 or 16).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TmemLoad::expect_new(LoadShape::S16x128b, 8).lanes(), 16);
    /// ```
    #[inline]
    pub const fn lanes(&self) -> u32 {
        self.shape.lanes()
    }

    /// 32-bit columns one repeat covers (doubled by `.pack::16b`).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TmemLoad::expect_new(LoadShape::S16x256b, 1).cols_per_repeat(), 8);
    /// ```
    #[inline]
    pub const fn cols_per_repeat(&self) -> u32 {
        let c = match self.shape {
            LoadShape::S32x32b => 1,
            LoadShape::S16x64b => 2,
            LoadShape::S16x128b => 4,
            LoadShape::S16x256b => 8,
            LoadShape::S16x32bx2 => 1,
        };
        c << (self.pack16 as u32)
    }

    /// Columns the whole instruction covers (for `16x32bx2`: both halves).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TmemLoad::expect_new(LoadShape::S16x32bx2, 4).cols(), 8);
    /// ```
    #[inline]
    pub const fn cols(&self) -> u32 {
        let per_half = self.cols_per_repeat() * self.num;
        match self.shape {
            LoadShape::S16x32bx2 => 2 * per_half,
            _ => per_half,
        }
    }

    /// The `16x32bx2` immediate (columns between the two halves; `.num`, doubled by pack), 0 for
    /// the other shapes.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TmemLoad::expect_new(LoadShape::S16x32bx2, 4).half_split(), 4);
    /// ```
    #[inline]
    pub const fn half_split(&self) -> u32 {
        match self.shape {
            LoadShape::S16x32bx2 => self.num << (self.pack16 as u32),
            _ => 0,
        }
    }

    /// (lane, column) of register `j` of warp thread `t` (0..32), relative to the instruction's
    /// address; with `.pack::16b` the column of the low half. Unchecked (`t < 32`,
    /// `j < regs()`), integer code only.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let l = TmemLoad::expect_new(LoadShape::S16x64b, 1);
    /// assert_eq!([l.fragment(0, 0), l.fragment(1, 0), l.fragment(2, 0)], [(0, 0), (8, 0), (0, 1)]);
    /// ```
    #[inline]
    pub const fn fragment(&self, t: u32, j: u32) -> (u32, u32) {
        // out-of-range arguments wrap (never an overflow panic); `t` is taken modulo 32
        let t = t & 31;
        let (lane, col) = match self.shape {
            LoadShape::S32x32b => (t, j),
            LoadShape::S16x64b => ((t >> 2) + 8 * (t & 1), (j << 1) | ((t >> 1) & 1)),
            LoadShape::S16x128b => ((t >> 2) + 8 * (j & 1), ((j >> 1) << 2) | (t & 3)),
            LoadShape::S16x256b => (
                (t >> 2) + 8 * ((j >> 1) & 1),
                ((j >> 2) << 3) | (2 * (t & 3) + (j & 1)),
            ),
            LoadShape::S16x32bx2 => (t & 15, j.wrapping_add((t >> 4) * self.num)),
        };
        (lane, col << (self.pack16 as u32))
    }

    /// The inverse of [`fragment`](Self::fragment): (thread, register) holding (lane, column)
    /// of the instruction's block (`lane < lanes()`, `col < cols()`; with `.pack::16b` either
    /// column of the pair). Unchecked, integer code only.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let l = TmemLoad::expect_new(LoadShape::S16x32bx2, 2);
    /// assert_eq!(l.register_of(3, 2), (19, 0));
    /// ```
    #[inline]
    pub const fn register_of(&self, lane: u32, col: u32) -> (u32, u32) {
        // out-of-range arguments wrap (never an overflow panic); `lane` is taken modulo 16
        // (32 for 32x32b)
        let c = col >> (self.pack16 as u32);
        match self.shape {
            LoadShape::S32x32b => (lane & 31, c),
            LoadShape::S16x64b => (4 * (lane & 7) + 2 * (c & 1) + ((lane >> 3) & 1), c >> 1),
            LoadShape::S16x128b => (
                4 * (lane & 7) + (c & 3),
                ((c >> 2) << 1) | ((lane >> 3) & 1),
            ),
            LoadShape::S16x256b => (
                4 * (lane & 7) + ((c & 7) >> 1),
                ((c >> 3) << 2) | (2 * ((lane >> 3) & 1) + (c & 1)),
            ),
            LoadShape::S16x32bx2 => {
                let half = (c >= self.num) as u32;
                ((lane & 15) + 16 * half, c.wrapping_sub(half * self.num))
            }
        }
    }

    /// The PTX load instruction (`tcgen05.ld.sync.aligned.SHAPE.xNUM[.pack::16b].b32`).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TmemLoad::expect_new(LoadShape::S32x32b, 8).mnemonic().as_str(), "tcgen05.ld.sync.aligned.32x32b.x8.b32");
    /// ```
    #[inline]
    pub const fn mnemonic(&self) -> ConstText<64> {
        let t = ConstText::new()
            .str("tcgen05.ld.sync.aligned.")
            .str(self.shape.name())
            .str(".x")
            .num(self.num);
        let t = if self.pack16 { t.str(".pack::16b") } else { t };
        t.str(".b32")
    }
}
