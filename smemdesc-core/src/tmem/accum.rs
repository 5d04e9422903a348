//! Where the accumulator D of one `tcgen05.mma` sits in Tensor Memory: `D[m][n]` <-> (lane, column).
//!
//! Facts (PTX ISA, `tcgen05` "Data path layout organization"; the same placements are in the
//! golden rows CuTe's `make_fragment_C` gives, `tests/data/golden-tmem/`): a 32-bit accumulator
//! element takes one 32-bit column of one lane, and a CTA's rows (M, or M/2 of a `cta_group::2`
//! pair) are placed in one of three ways ([`DataPath`]):
//!
//! | M, `cta_group` | rows per CTA | `D[m][n]` at | columns |
//! |---|---|---|---|
//! | 128, 1 and 256, 2 | 128 | lane `m`, column `n` | N |
//! | 64, 1 | 64 | lane `32·⌊m/16⌋ + m mod 16`, column `n` (lanes 0-15 of each subpartition) | N |
//! | 128, 2 | 64 | lane `m + 64·⌊n/(N/2)⌋`, column `n mod N/2` (the N halves side by side in lanes) | N/2 |
//!
//! These rest on the PTX documents and CuTe alone: no Blackwell GPU was available to check them.
//!
//! ```
//! use smemdesc_core::*;
//! const D: TmemAccum = TmemAccum::expect_new(128, 128, 2, AccumType::F32);
//! assert_eq!((D.rows(), D.cols(), D.path), (64, 64, DataPath::SplitN));
//! assert_eq!(D.address_wrapping(5, 70), (69, 6));
//! assert_eq!(D.try_element(69, 6), Ok((5, 70)));
//! ```

use super::error::TmemError;
use crate::base::error_data::Indexed;
use crate::mma::idesc::AccumType;

/// How a CTA's accumulator rows are spread over the 128 lanes (see the [module](self) docs).
///
/// ```
/// use smemdesc_core::*;
/// assert_eq!(TmemAccum::new(64, 64, 1, AccumType::F32).unwrap().path, DataPath::HalfLanes);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataPath {
    /// 128 rows, row `m` in lane `m` (M = 128 `cta_group::1`, M = 256 `cta_group::2`).
    Full,
    /// 64 rows in lanes 0-15 of each 32-lane subpartition (M = 64 `cta_group::1`).
    HalfLanes,
    /// 64 rows, the two N halves in lanes 0-63 and 64-127 (M = 128 `cta_group::2`).
    SplitN,
}

impl DataPath {
    /// Lanes of each 32-lane subpartition that hold elements (32, or 16 for
    /// [`DataPath::HalfLanes`]).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::DataPath::HalfLanes.lanes_per_warp(), 16);
    /// ```
    #[inline(always)]
    pub const fn lanes_per_warp(self) -> u32 {
        match self {
            DataPath::HalfLanes => 16,
            _ => 32,
        }
    }
}

/// One CTA's accumulator of a `tcgen05.mma` with instruction shape `m × n` (M is the pair's for
/// `cta_group::2`), for one stage, relative to its first column.
///
/// ```
/// use smemdesc_core::*;
/// let d = TmemAccum::new(64, 32, 1, AccumType::F32).unwrap();
/// assert_eq!(d.address_wrapping(17, 3), (33, 3)); // row 17 in the second subpartition
/// assert_eq!(d.try_element(20, 0), Err(TmemError::NotAnElement { lane: 20, col: 0 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmemAccum {
    /// The instruction's M.
    pub m: u32,
    /// The instruction's N.
    pub n: u32,
    /// 1 or 2.
    pub cta_group: u32,
    /// The accumulator type (f32 or s32: one column per element).
    pub accum: AccumType,
    /// The placement.
    pub path: DataPath,
}

impl TmemAccum {
    /// Validates the shape (PTX `tcgen05.mma` shapes of the dense kinds: M 64/128 with
    /// `cta_group::1`, 128/256 with `cta_group::2`; N a multiple of 8 for M = 64, of 32 for
    /// M = 128 with `cta_group::2`, else of 16, up to 256) and places it.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// assert!(TmemAccum::new(128, 256, 1, AccumType::S32).is_ok());
    /// assert_eq!(TmemAccum::new(128, 48, 2, AccumType::F32), Err(TmemError::IllegalN { n: 48, step: 32, m: 128, cta_group: 2 }));
    /// assert!(TmemAccum::new(128, 64, 1, AccumType::F16).is_err());
    /// ```
    #[inline]
    pub const fn new(
        m: u32,
        n: u32,
        cta_group: u32,
        accum: AccumType,
    ) -> Result<TmemAccum, TmemError> {
        let path = match (cta_group, m) {
            (1, 128) | (2, 256) => DataPath::Full,
            (1, 64) => DataPath::HalfLanes,
            (2, 128) => DataPath::SplitN,
            (1, _) | (2, _) => return Err(TmemError::IllegalM { m, cta_group }),
            _ => return Err(TmemError::CtaGroup { cta_group }),
        };
        let step = match path {
            DataPath::HalfLanes => 8,
            DataPath::SplitN => 32,
            DataPath::Full => 16,
        };
        if n == 0 || n > 256 || n % step != 0 {
            // m is 64, 128 or 256 and cta_group 1 or 2 here (the data path matched).
            return Err(TmemError::IllegalN {
                n,
                step,
                m: m as u16,
                cta_group: cta_group as u8,
            });
        }
        if let AccumType::F16 = accum {
            return Err(TmemError::AccumNotModeled { accum });
        }
        Ok(TmemAccum {
            m,
            n,
            cta_group,
            accum,
            path,
        })
    }

    /// [`new`](Self::new), panicking (a compile error in a `const` item) when illegal.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// const D: TmemAccum = TmemAccum::expect_new(256, 64, 2, AccumType::F32);
    /// assert_eq!(D.rows(), 128);
    /// ```
    #[inline]
    pub const fn expect_new(m: u32, n: u32, cta_group: u32, accum: AccumType) -> TmemAccum {
        match TmemAccum::new(m, n, cta_group, accum) {
            Ok(d) => d,
            Err(e) => panic!("{}", e.message().as_str()),
        }
    }

    /// Rows of D this CTA holds (M, or M/2 for `cta_group::2`).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TmemAccum::new(128, 64, 2, AccumType::F32).unwrap().rows(), 64);
    /// ```
    #[inline]
    pub const fn rows(&self) -> u32 {
        self.m / self.cta_group
    }

    /// Columns one stage occupies (N, or N/2 for [`DataPath::SplitN`]).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TmemAccum::new(128, 256, 1, AccumType::F32).unwrap().cols(), 256);
    /// ```
    #[inline]
    pub const fn cols(&self) -> u32 {
        match self.path {
            DataPath::SplitN => self.n / 2,
            _ => self.n,
        }
    }

    /// Elements of D this CTA holds (`rows · n`).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TmemAccum::new(64, 64, 1, AccumType::F32).unwrap().elements(), 4096);
    /// ```
    #[inline]
    pub const fn elements(&self) -> u32 {
        self.rows() * self.n
    }

    /// (lane, column) of `D[m][n]` (CTA-local `m`), unchecked: meaningful for `m < rows()`,
    /// `n < n`; integer code only.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let d = TmemAccum::new(128, 64, 1, AccumType::F32).unwrap();
    /// assert_eq!(d.address_wrapping(100, 7), (100, 7));
    /// ```
    #[inline(always)]
    pub const fn address_wrapping(&self, m: u32, n: u32) -> (u32, u32) {
        // out-of-range arguments wrap (never an overflow panic)
        match self.path {
            DataPath::Full => (m, n),
            DataPath::HalfLanes => (((m >> 4) << 5) | (m & 15), n),
            DataPath::SplitN => {
                let h = self.n / 2;
                let upper = (n >= h) as u32;
                (m.wrapping_add(64 * upper), n.wrapping_sub(h * upper))
            }
        }
    }

    /// Former name of [`address_wrapping`](Self::address_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `address_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline(always)]
    pub const fn address_unchecked(&self, m: u32, n: u32) -> (u32, u32) {
        self.address_wrapping(m, n)
    }

    /// (lane, column) of `D[m][n]`, checked.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let d = TmemAccum::new(128, 64, 1, AccumType::F32).unwrap();
    /// assert_eq!(d.try_address(128, 0), Err(TmemError::OutOfRange { what: Indexed::Row, index: 128, count: 128 }));
    /// ```
    #[inline]
    pub const fn try_address(&self, m: u32, n: u32) -> Result<(u32, u32), TmemError> {
        if m >= self.rows() {
            return Err(TmemError::OutOfRange {
                what: Indexed::Row,
                index: m,
                count: self.rows(),
            });
        }
        if n >= self.n {
            return Err(TmemError::OutOfRange {
                what: Indexed::ColumnOfD,
                index: n,
                count: self.n,
            });
        }
        Ok(self.address_wrapping(m, n))
    }

    /// `D[m][n]` held at (lane, column), unchecked: meaningful when [`try_element`](Self::try_element)
    /// is `Ok`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let d = TmemAccum::new(64, 64, 1, AccumType::F32).unwrap();
    /// assert_eq!(d.element_wrapping(97, 5), (49, 5));
    /// ```
    #[inline(always)]
    pub const fn element_wrapping(&self, lane: u32, col: u32) -> (u32, u32) {
        match self.path {
            DataPath::Full => (lane, col),
            DataPath::HalfLanes => (((lane >> 5) << 4) | (lane & 15), col),
            DataPath::SplitN => (
                lane & 63,
                col.wrapping_add((self.n / 2) * ((lane >> 6) & 1)),
            ),
        }
    }

    /// Former name of [`element_wrapping`](Self::element_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `element_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline(always)]
    pub const fn element_unchecked(&self, lane: u32, col: u32) -> (u32, u32) {
        self.element_wrapping(lane, col)
    }

    /// `D[m][n]` held at (lane, column), or why none is.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let d = TmemAccum::new(128, 64, 2, AccumType::F32).unwrap();
    /// assert_eq!(d.try_element(64, 0), Ok((0, 32)));
    /// assert!(d.try_element(0, 32).is_err());
    /// ```
    #[inline]
    pub const fn try_element(&self, lane: u32, col: u32) -> Result<(u32, u32), TmemError> {
        let lane_ok = lane < 128 && (lane & 31) < self.path.lanes_per_warp();
        if !lane_ok || col >= self.cols() {
            return Err(TmemError::NotAnElement { lane, col });
        }
        Ok(self.element_wrapping(lane, col))
    }

    /// The 32-bit TMEM address of (lane, column) from the allocation's base address (lane in
    /// bits 16-31, column in bits 0-15, as `tcgen05.alloc` returns them).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TmemAccum::taddr(0x0000_0040, 32, 8), 0x0020_0048);
    /// ```
    #[inline(always)]
    pub const fn taddr(base: u32, lane: u32, col: u32) -> u32 {
        base.wrapping_add((lane << 16) | col)
    }
}
