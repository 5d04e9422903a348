//! The epilogue's register map: which thread (0..128, warp `w` = subpartition `w mod 4`) and
//! register receives which accumulator element when a warpgroup reads a whole [`TmemAccum`]
//! with repeated [`TmemLoad`]s.
//!
//! Warp `w` reads lanes `32w..32w+32` (the only lanes `warpid mod 4 = w` may access). Its loads
//! are numbered `i = chunk · halves + half`: `chunk` steps through the accumulator's columns in
//! blocks of [`TmemLoad::cols`], and `half` (0 or 1) picks lanes `+0` / `+16` when a 16-lane shape
//! reads an accumulator that fills all 32 lanes of the subpartition (`halves` = 2; 1 otherwise).
//! Register `r` of a thread is register `r mod regs()` of load `⌊r / regs()⌋`. This is the
//! order of CuTe's `make_tmem_copy` over its repeated loads: the golden rows match it register
//! for register.
//!
//! A shape fits an accumulator when its lanes fit the data path and its column block divides the
//! accumulator's columns. `32x32b` does not fit M = 64 `cta_group::1` ([`DataPath::HalfLanes`](super::accum::DataPath::HalfLanes)):
//! that accumulator holds elements only in lanes 0-15 of each subpartition, and a 32-lane read
//! would hand threads 16-31 of every warp lanes with no element (CuTe refuses it for the same
//! reason: its 32 data paths do not tile the 16 the accumulator uses).
//!
//! ```
//! use smemdesc_core::*;
//! const D: TmemAccum = TmemAccum::expect_new(128, 64, 1, AccumType::F32);
//! const M: TmemLoadMap = D.expect_load_map(TmemLoad::expect_new(LoadShape::S16x64b, 1));
//! assert_eq!((M.loads(), M.regs_per_thread()), (64, 64));
//! assert_eq!(M.reg_element_wrapping(1, 1), (24, 0)); // lane 8 + 16 (second half), column 0
//! assert_eq!(M.element_reg_wrapping(24, 0), (1, 1));
//! let load = TmemLoadMap::load_offset(&M, 1, 3); // warp 1's 4th load: half 1 of column block 1
//! assert_eq!(load, ((32 + 16) << 16) | 2);
//! ```

use super::accum::TmemAccum;

use super::error::TmemError;
use super::load::{LoadShape, TmemLoad};
use crate::base::error_data::Indexed;

/// A whole accumulator read by a warpgroup with one load shape (see the [module](self) docs).
///
/// ```
/// use smemdesc_core::*;
/// let d = TmemAccum::new(64, 64, 1, AccumType::F32).unwrap();
/// let e = d.load_map(TmemLoad::parse("32x32b.x16").unwrap()).unwrap_err();
/// assert_eq!(e, TmemError::LoadLanes { shape_lanes: 32, accum_lanes: 16 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmemLoadMap {
    /// The accumulator.
    pub accum: TmemAccum,
    /// The instruction each load is.
    pub load: TmemLoad,
    /// 2 when a 16-lane shape reads a 32-lane data path (two loads per column block), else 1.
    pub halves: u32,
    /// Column blocks (accumulator columns / load columns).
    pub chunks: u32,
}

impl TmemAccum {
    /// The map of reading this accumulator with `load` (see [`TmemLoadMap`]).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = TmemAccum::new(128, 64, 1, AccumType::F32).unwrap();
    /// assert_eq!(d.load_map(TmemLoad::parse("32x32b.x128").unwrap()), Err(TmemError::LoadColumns { load_cols: 128, accum_cols: 64 }));
    /// assert_eq!(d.load_map(TmemLoad::parse("16x256b.x4").unwrap()).unwrap().loads(), 4);
    /// ```
    #[inline]
    pub const fn load_map(&self, load: TmemLoad) -> Result<TmemLoadMap, TmemError> {
        let path_lanes = self.path.lanes_per_warp();
        if load.lanes() > path_lanes {
            return Err(TmemError::LoadLanes {
                shape_lanes: load.lanes(),
                accum_lanes: path_lanes,
            });
        }
        if load.pack16 {
            // f32 and s32 accumulators are 32-bit per column
            return Err(TmemError::PackNot16Bit);
        }
        let cols = self.cols();
        if cols % load.cols() != 0 {
            return Err(TmemError::LoadColumns {
                load_cols: load.cols(),
                accum_cols: cols,
            });
        }
        Ok(TmemLoadMap {
            accum: *self,
            load,
            halves: path_lanes / load.lanes(),
            chunks: cols / load.cols(),
        })
    }

    /// Whether `shape` can read this accumulator at all (some `.num` fits): its lanes per warp
    /// must not exceed the data path's. `32x32b` cannot read M = 64 `cta_group::1` (see the
    /// [module](self) docs); every 16-lane shape reads every data path.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = TmemAccum::new(64, 128, 1, AccumType::F32).unwrap();
    /// let ok: Vec<_> = LoadShape::ALL.into_iter().filter(|s| d.can_load(*s)).map(|s| s.name()).collect();
    /// assert_eq!(ok, ["16x64b", "16x128b", "16x256b", "16x32bx2"]);
    /// assert!(TmemAccum::new(128, 128, 2, AccumType::F32).unwrap().can_load(LoadShape::S32x32b));
    /// ```
    #[inline]
    pub const fn can_load(&self, shape: LoadShape) -> bool {
        shape.lanes() <= self.path.lanes_per_warp()
    }

    /// [`load_map`](Self::load_map), panicking (a compile error in a `const` item) when the
    /// shape cannot read this accumulator.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// const M: TmemLoadMap = TmemAccum::expect_new(256, 64, 2, AccumType::F32)
    ///     .expect_load_map(TmemLoad::expect_new(LoadShape::S32x32b, 64));
    /// assert_eq!(M.loads(), 1);
    /// ```
    #[inline]
    pub const fn expect_load_map(&self, load: TmemLoad) -> TmemLoadMap {
        match self.load_map(load) {
            Ok(m) => m,
            Err(e) => panic!("{}", e.summary()),
        }
    }
}

impl TmemLoadMap {
    /// Loads each warp issues.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TmemAccum::new(128, 128, 2, AccumType::F32).unwrap().load_map(TmemLoad::parse("16x128b.x1").unwrap()).unwrap();
    /// assert_eq!(m.loads(), 32);
    /// ```
    #[inline]
    pub const fn loads(&self) -> u32 {
        self.chunks * self.halves
    }

    /// Registers each thread ends with.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TmemAccum::new(64, 64, 1, AccumType::F32).unwrap().load_map(TmemLoad::parse("16x64b.x16").unwrap()).unwrap();
    /// assert_eq!(m.regs_per_thread(), 32);
    /// ```
    #[inline]
    pub const fn regs_per_thread(&self) -> u32 {
        self.loads() * self.load.regs()
    }

    /// The TMEM address offset (lane in bits 16-31, column in bits 0-15; add the allocation's
    /// base and the stage's column) of load `i` of warp `warp` (`warpid mod 4`). Unchecked.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TmemAccum::new(128, 64, 1, AccumType::F32).unwrap().load_map(TmemLoad::parse("32x32b.x16").unwrap()).unwrap();
    /// assert_eq!(m.load_offset(2, 3), (64 << 16) | 48);
    /// ```
    #[inline(always)]
    pub const fn load_offset(&self, warp: u32, i: u32) -> u32 {
        // halves is 1 or 2: a shift and a mask (no division, no division-by-zero panic path);
        // out-of-range arguments wrap
        let chunk = i >> (self.halves >> 1);
        let half = i & (self.halves - 1);
        let lane = 32 * (warp & 3) + 16 * half;
        (lane << 16) | chunk.wrapping_mul(self.load.cols())
    }

    /// (lane, column) of register `reg` of thread `thread` (0..128), unchecked: meaningful for
    /// `thread < 128`, `reg < regs_per_thread()`; integer code only.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TmemAccum::new(128, 64, 1, AccumType::F32).unwrap().load_map(TmemLoad::parse("16x256b.x1").unwrap()).unwrap();
    /// assert_eq!(m.reg_address_wrapping(37, 6), (32 + 16 + 1 + 8, 2)); // load 1 = lanes +16
    /// ```
    #[inline(always)]
    pub const fn reg_address_wrapping(&self, thread: u32, reg: u32) -> (u32, u32) {
        // regs() and cols() are powers of two, halves is 1 or 2: shifts and masks only;
        // `thread` is taken modulo 128, out-of-range registers wrap
        let per = self.load.regs();
        let i = reg >> per.trailing_zeros();
        let (l, c) = self.load.fragment(thread & 31, reg & (per - 1));
        let chunk = i >> (self.halves >> 1);
        let half = i & (self.halves - 1);
        (
            32 * ((thread >> 5) & 3) + 16 * half + l,
            (chunk << self.load.cols().trailing_zeros()).wrapping_add(c),
        )
    }

    /// Former name of [`reg_address_wrapping`](Self::reg_address_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `reg_address_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline(always)]
    pub const fn reg_address_unchecked(&self, thread: u32, reg: u32) -> (u32, u32) {
        self.reg_address_wrapping(thread, reg)
    }

    /// `D[m][n]` (CTA-local) in register `reg` of thread `thread`, unchecked.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TmemAccum::new(128, 128, 2, AccumType::F32).unwrap().load_map(TmemLoad::parse("32x32b.x16").unwrap()).unwrap();
    /// assert_eq!(m.reg_element_wrapping(64, 0), (0, 64));
    /// ```
    #[inline(always)]
    pub const fn reg_element_wrapping(&self, thread: u32, reg: u32) -> (u32, u32) {
        let (lane, col) = self.reg_address_wrapping(thread, reg);
        self.accum.element_wrapping(lane, col)
    }

    /// Former name of [`reg_element_wrapping`](Self::reg_element_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `reg_element_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline(always)]
    pub const fn reg_element_unchecked(&self, thread: u32, reg: u32) -> (u32, u32) {
        self.reg_element_wrapping(thread, reg)
    }

    /// `D[m][n]` in register `reg` of thread `thread`, checked.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TmemAccum::new(128, 64, 1, AccumType::F32).unwrap().load_map(TmemLoad::parse("32x32b.x16").unwrap()).unwrap();
    /// assert_eq!(m.try_reg_element(0, 64), Err(TmemError::OutOfRange { what: Indexed::Register, index: 64, count: 64 }));
    /// ```
    #[inline]
    pub const fn try_reg_element(&self, thread: u32, reg: u32) -> Result<(u32, u32), TmemError> {
        if thread >= 128 {
            return Err(TmemError::OutOfRange {
                what: Indexed::Thread,
                index: thread,
                count: 128,
            });
        }
        if reg >= self.regs_per_thread() {
            return Err(TmemError::OutOfRange {
                what: Indexed::Register,
                index: reg,
                count: self.regs_per_thread(),
            });
        }
        Ok(self.reg_element_wrapping(thread, reg))
    }

    /// (thread, register) holding `D[m][n]` (CTA-local), unchecked: meaningful for in-range
    /// `m`, `n`; integer code only.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TmemAccum::new(64, 64, 1, AccumType::F32).unwrap().load_map(TmemLoad::parse("16x32bx2.x16").unwrap()).unwrap();
    /// assert_eq!(m.element_reg_wrapping(17, 20), (33 + 16, 4));
    /// ```
    #[inline(always)]
    pub const fn element_reg_wrapping(&self, m: u32, n: u32) -> (u32, u32) {
        let (lane, col) = self.accum.address_wrapping(m, n);
        let within = lane & 31;
        // two halves: lanes +0 / +16 of the subpartition; one: the load's 16 or 32 lanes
        let (half, l) = if self.halves == 2 {
            (within >> 4, within & 15)
        } else {
            (0, within)
        };
        let cols = self.load.cols();
        let chunk = col >> cols.trailing_zeros();
        let (t, j) = self.load.register_of(l, col & (cols - 1));
        let i = chunk.wrapping_mul(self.halves).wrapping_add(half);
        (
            32 * ((lane >> 5) & 3) + t,
            i.wrapping_mul(self.load.regs()).wrapping_add(j),
        )
    }

    /// Former name of [`element_reg_wrapping`](Self::element_reg_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `element_reg_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline(always)]
    pub const fn element_reg_unchecked(&self, m: u32, n: u32) -> (u32, u32) {
        self.element_reg_wrapping(m, n)
    }

    /// (thread, register) holding `D[m][n]`, checked.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let m = TmemAccum::new(128, 64, 1, AccumType::F32).unwrap().load_map(TmemLoad::parse("32x32b.x16").unwrap()).unwrap();
    /// assert_eq!(m.try_element_reg(127, 63), Ok((127, 63)));
    /// assert!(m.try_element_reg(128, 0).is_err());
    /// ```
    #[inline]
    pub const fn try_element_reg(&self, m: u32, n: u32) -> Result<(u32, u32), TmemError> {
        tri!(self.accum.try_address(m, n));
        Ok(self.element_reg_wrapping(m, n))
    }
}
