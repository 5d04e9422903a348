//! A small `const` layout algebra: shapes/strides, evaluation, coalesce, divide, product and recast.
//!
//! It covers what CuTe does for SMEM operand tiles and no more. A [`Layout`] is rank 2 — an `MN` mode
//! and a `K` mode — and each mode is a flat list of up to [`MAX_SUBMODES`] (shape, stride) pairs read
//! colexicographically (first sub-mode fastest), i.e. CuTe's `(s0,s1,..):(d0,d1,..)` for that mode.
//! That nesting depth is enough for a tile built from swizzle atoms (`((atom, rest), (atom, rest))`)
//! and for the fixed-slot divide that exposes a descriptor's LBO and SBO.

use crate::base::error::Error;

pub use crate::base::MAX_SUBMODES;

/// One mode of a layout: sub-modes `(shape[i], stride[i])`, first fastest.
///
/// ```
/// use smemdesc_core::Mode;
/// // (8, 2):(8, 64)
/// let m = Mode::new(8, 8).push(2, 64).unwrap();
/// assert_eq!(m.size(), 16);
/// assert_eq!(m.eval(9), 8 + 64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mode {
    len: usize,
    shape: [u32; MAX_SUBMODES],
    stride: [u32; MAX_SUBMODES],
}

impl Mode {
    /// The empty mode (size 1, every coordinate maps to 0).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Mode::EMPTY.size(), 1);
    /// ```
    pub const EMPTY: Mode = Mode {
        len: 0,
        shape: [1; MAX_SUBMODES],
        stride: [0; MAX_SUBMODES],
    };

    /// A mode with one sub-mode `shape:stride`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Mode::new(4, 3).eval(2), 6);
    /// ```
    pub const fn new(shape: u32, stride: u32) -> Mode {
        let mut m = Mode::EMPTY;
        m.shape[0] = shape;
        m.stride[0] = stride;
        m.len = 1;
        m
    }

    /// A mode from its raw parts: `len` sub-modes, then the unused slots as stored. What
    /// `#[smem_tile]` writes for a layout it computed at expansion time, so that the compiler
    /// does not evaluate the plan again (`len` above [`MAX_SUBMODES`] is a `const` panic).
    ///
    /// ```
    /// use smemdesc_core::Mode;
    /// let m = Mode::new(8, 8).push(2, 64).unwrap();
    /// assert_eq!(Mode::from_parts(2, [8, 2, 1, 1], [8, 64, 0, 0]), m);
    /// ```
    #[doc(hidden)]
    pub const fn from_parts(
        len: usize,
        shape: [u32; MAX_SUBMODES],
        stride: [u32; MAX_SUBMODES],
    ) -> Mode {
        assert!(
            len <= MAX_SUBMODES,
            "smemdesc: a mode holds at most 4 sub-modes"
        );
        Mode { len, shape, stride }
    }

    /// Appends a slower sub-mode.
    ///
    /// ```
    /// assert!(smemdesc_core::Mode::new(2, 1).push(2, 2).is_ok());
    /// ```
    pub const fn push(self, shape: u32, stride: u32) -> Result<Mode, Error> {
        if self.len == MAX_SUBMODES {
            return Err(Error::LayoutCapacity);
        }
        let mut m = self;
        m.shape[m.len] = shape;
        m.stride[m.len] = stride;
        m.len += 1;
        Ok(m)
    }

    /// Number of sub-modes.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Mode::new(8, 1).rank(), 1);
    /// ```
    pub const fn rank(&self) -> usize {
        self.len
    }

    /// Shape of sub-mode `i`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Mode::new(8, 1).shape(0), 8);
    /// ```
    pub const fn shape(&self, i: usize) -> u32 {
        self.shape[i]
    }

    /// Stride of sub-mode `i`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Mode::new(8, 3).stride(0), 3);
    /// ```
    pub const fn stride(&self, i: usize) -> u32 {
        self.stride[i]
    }

    /// Number of coordinates (product of the shapes).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Mode::new(8, 1).push(3, 8).unwrap().size(), 24);
    /// ```
    #[inline]
    pub const fn size(&self) -> u32 {
        let mut s = 1;
        let mut i = 0;
        while i < self.len {
            s *= self.shape[i];
            i += 1;
        }
        s
    }

    /// Offset of coordinate `c` (colexicographic: the first sub-mode varies fastest).
    ///
    /// ```
    /// let m = smemdesc_core::Mode::new(2, 10).push(3, 1).unwrap();
    /// assert_eq!(m.eval(5), 10 + 2); // c = 1 + 2*2
    /// ```
    ///
    /// Straight-line code over the [`MAX_SUBMODES`] slots (no loop, no indexing by a run-time
    /// counter): once inlined on a constant mode, every shape and stride is a constant.
    #[inline(always)]
    pub const fn eval(&self, c: u32) -> u32 {
        let (d0, c) = self.digit(0, c);
        let (d1, c) = self.digit(1, c);
        let (d2, c) = self.digit(2, c);
        let (d3, _) = self.digit(3, c);
        d0 + d1 + d2 + d3
    }

    /// Sub-mode `i`'s term of [`eval`](Self::eval) and the coordinate left for the slower ones.
    #[inline(always)]
    const fn digit(&self, i: usize, c: u32) -> (u32, u32) {
        let s = self.shape[i];
        if i < self.len && s > 0 {
            ((c % s) * self.stride[i], c / s)
        } else {
            (0, c)
        }
    }

    /// Product of the shapes of sub-modes `0..i` (1 for `i == 0`): coordinate `c`'s digit `i` is
    /// `c / prefix_size(i) % shape(i)`. Zero shapes count as 1, as in [`eval`](Self::eval).
    ///
    /// ```
    /// let m = smemdesc_core::Mode::new(8, 1).push(3, 8).unwrap().push(2, 99).unwrap();
    /// assert_eq!((m.prefix_size(0), m.prefix_size(1), m.prefix_size(2)), (1, 8, 24));
    /// assert_eq!(m.eval(8 * 2 + 5), 5 + 2 * 8);
    /// ```
    pub const fn prefix_size(&self, i: usize) -> u32 {
        let mut p = 1u32;
        let mut j = 0;
        while j < i && j < self.len {
            if self.shape[j] > 0 {
                p = p.saturating_mul(self.shape[j]);
            }
            j += 1;
        }
        p
    }

    /// Largest offset plus one (`cosize`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Mode::new(8, 4).cosize(), 29);
    /// ```
    #[inline]
    pub const fn cosize(&self) -> u32 {
        match self.size() {
            0 => 0,
            n => self.eval(n - 1) + 1,
        }
    }

    /// CuTe `coalesce`: drops size-1 sub-modes and merges `(s0:d0, s1:d1)` when `d1 == s0·d0`.
    ///
    /// ```
    /// use smemdesc_core::Mode;
    /// let m = Mode::new(8, 1).push(1, 99).unwrap().push(4, 8).unwrap().coalesce();
    /// assert_eq!(m, Mode::new(32, 1));
    /// ```
    pub const fn coalesce(self) -> Mode {
        let mut out = Mode::EMPTY;
        let mut i = 0;
        while i < self.len {
            let (s, d) = (self.shape[i], self.stride[i]);
            i += 1;
            if s == 1 {
                continue;
            }
            if out.len > 0 {
                let j = out.len - 1;
                if d == out.shape[j] * out.stride[j] {
                    out.shape[j] *= s;
                    continue;
                }
            }
            // `out` never holds more sub-modes than `self`, so this stays within capacity.
            out.shape[out.len] = s;
            out.stride[out.len] = d;
            out.len += 1;
        }
        out
    }

    /// Multiplies every stride by `f`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Mode::new(8, 2).scale(3), smemdesc_core::Mode::new(8, 6));
    /// ```
    pub const fn scale(self, f: u32) -> Mode {
        let mut m = self;
        let mut i = 0;
        while i < m.len {
            m.stride[i] *= f;
            i += 1;
        }
        m
    }

    /// Logical divide by `n`: `(inner, outer)` where `inner` holds the first `n` coordinates and `outer`
    /// the rest, so `eval(c) == inner.eval(c % n) + outer.eval(c / n)`.
    ///
    /// Fails with [`Error::NotDivisible`] when `n` does not split the sub-modes evenly.
    ///
    /// ```
    /// use smemdesc_core::Mode;
    /// let (inner, outer) = Mode::new(8, 8).push(4, 1024).unwrap().split(16).unwrap();
    /// assert_eq!(inner, Mode::new(8, 8).push(2, 1024).unwrap());
    /// assert_eq!(outer, Mode::new(2, 2048));
    /// ```
    pub const fn split(self, n: u32) -> Result<(Mode, Mode), Error> {
        if n == 0 || self.size() % n != 0 {
            return Err(Error::NotDivisible {
                extent: self.size(),
                by: n,
            });
        }
        let mut inner = Mode::EMPTY;
        let mut outer = Mode::EMPTY;
        let mut rem = n;
        let mut i = 0;
        while i < self.len {
            let (s, d) = (self.shape[i], self.stride[i]);
            i += 1;
            if rem == 1 {
                outer = tri!(outer.push(s, d));
            } else if rem >= s {
                if rem % s != 0 {
                    return Err(Error::NotDivisible { extent: s, by: rem });
                }
                inner = tri!(inner.push(s, d));
                rem /= s;
            } else {
                if s % rem != 0 {
                    return Err(Error::NotDivisible { extent: s, by: rem });
                }
                inner = tri!(inner.push(rem, d));
                outer = tri!(outer.push(s / rem, d * rem));
                rem = 1;
            }
        }
        Ok((inner, outer))
    }

    /// If the coalesced mode is a single `shape:stride` (or empty), returns `(shape, stride)`;
    /// an empty mode gives `(1, 0)`.
    ///
    /// ```
    /// use smemdesc_core::Mode;
    /// assert_eq!(Mode::new(4, 2).push(2, 8).unwrap().as_single(), Some((8, 2)));
    /// assert_eq!(Mode::new(4, 2).push(2, 64).unwrap().as_single(), None);
    /// ```
    pub const fn as_single(self) -> Option<(u32, u32)> {
        let c = self.coalesce();
        match c.len {
            0 => Some((1, 0)),
            1 => Some((c.shape[0], c.stride[0])),
            _ => None,
        }
    }
}

/// A rank-2 layout `(MN, K) -> offset`, each mode hierarchical (see [`Mode`]).
///
/// ```
/// use smemdesc_core::{Layout, Mode};
/// // a row-major 8x64 bf16 block: (8, 64):(64, 1)
/// let l = Layout::new(Mode::new(8, 64), Mode::new(64, 1));
/// assert_eq!(l.eval(2, 5), 133);
/// assert_eq!(l.cosize(), 512);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The M (or N) mode.
    pub mn: Mode,
    /// The K mode.
    pub k: Mode,
}

impl Layout {
    /// A layout from its two modes.
    ///
    /// ```
    /// let l = smemdesc_core::Layout::new(smemdesc_core::Mode::new(2, 1), smemdesc_core::Mode::new(2, 2));
    /// assert_eq!(l.size(), 4);
    /// ```
    pub const fn new(mn: Mode, k: Mode) -> Layout {
        Layout { mn, k }
    }

    /// Offset of logical element `(mn, k)`.
    ///
    /// ```
    /// let l = smemdesc_core::Layout::new(smemdesc_core::Mode::new(4, 1), smemdesc_core::Mode::new(4, 4));
    /// assert_eq!(l.eval(1, 2), 9);
    /// ```
    #[inline]
    pub const fn eval(&self, mn: u32, k: u32) -> u32 {
        self.mn.eval(mn) + self.k.eval(k)
    }

    /// Number of elements.
    ///
    /// ```
    /// let l = smemdesc_core::Layout::new(smemdesc_core::Mode::new(4, 1), smemdesc_core::Mode::new(3, 4));
    /// assert_eq!(l.size(), 12);
    /// ```
    #[inline]
    pub const fn size(&self) -> u32 {
        self.mn.size() * self.k.size()
    }

    /// Largest offset plus one.
    ///
    /// ```
    /// let l = smemdesc_core::Layout::new(smemdesc_core::Mode::new(4, 1), smemdesc_core::Mode::new(3, 4));
    /// assert_eq!(l.cosize(), 12);
    /// ```
    // `always`: a kernel's run-time layout copy (`PlacedTile`) and `TileLayout::try_desc` both
    // reach it; with two callers `#[inline]` alone left it out of line on x86-64.
    #[inline(always)]
    pub const fn cosize(&self) -> u32 {
        if self.size() == 0 {
            0
        } else {
            self.mn.cosize() + self.k.cosize() - 1
        }
    }

    /// CuTe `tile_to_shape(atom, (mn, k), order)`: repeats `self` (an atom) over an `mn × k` grid,
    /// consecutive atoms along MN first ([`Order::MnFirst`](crate::Order::MnFirst), `Step<_1,_2>`) or
    /// along K first (`Step<_2,_1>`). Each atom copy occupies `cosize(atom)` offsets.
    ///
    /// ```
    /// use smemdesc_core::{Layout, Mode, Order};
    /// let atom = Layout::new(Mode::new(8, 64), Mode::new(64, 1)); // 8 rows x 128 B of bf16
    /// let t = atom.tile_to_shape(128, 128, Order::MnFirst).unwrap();
    /// assert_eq!(t.eval(8, 0), 512); // next atom along M
    /// assert_eq!(t.eval(0, 64), 512 * 16); // first atom of the second K column
    /// ```
    pub const fn tile_to_shape(
        self,
        mn: u32,
        k: u32,
        order: crate::Order,
    ) -> Result<Layout, Error> {
        let (am, ak) = (self.mn.size(), self.k.size());
        if mn == 0 || mn % am != 0 {
            return Err(Error::NotDivisible { extent: mn, by: am });
        }
        if k == 0 || k % ak != 0 {
            return Err(Error::NotDivisible { extent: k, by: ak });
        }
        let (gm, gk) = (mn / am, k / ak);
        let c = self.cosize();
        let (dm, dk) = match order {
            crate::Order::MnFirst => (c, c * gm),
            crate::Order::KFirst => (c * gk, c),
        };
        let m = tri!(self.mn.push(gm, dm));
        let kk = tri!(self.k.push(gk, dk));
        Ok(Layout::new(m, kk))
    }

    /// CuTe `zipped_divide(layout, (bm, bk))`: `(tile, rest)` where `tile` is the layout of one
    /// `bm × bk` block and `rest` the offsets of the blocks, so
    /// `eval(i·bm + a, j·bk + b) == tile.eval(a, b) + rest.eval(i, j)`.
    ///
    /// ```
    /// use smemdesc_core::{Layout, Mode};
    /// let l = Layout::new(Mode::new(16, 16), Mode::new(16, 1));
    /// let (tile, rest) = l.divide(8, 4).unwrap();
    /// assert_eq!(tile.eval(1, 1), 17);
    /// assert_eq!(rest.eval(1, 1), 8 * 16 + 4);
    /// ```
    pub const fn divide(self, bm: u32, bk: u32) -> Result<(Layout, Layout), Error> {
        let (mi, mo) = tri!(self.mn.split(bm));
        let (ki, ko) = tri!(self.k.split(bk));
        Ok((Layout::new(mi, ki), Layout::new(mo, ko)))
    }

    /// CuTe `recast`: re-expresses a layout over elements of `elems_per_unit` contiguous elements
    /// as a layout over those units. The stride-1 sub-mode must hold whole units and every other stride
    /// must be a whole number of units; the contiguous dimension's coordinate is then in units.
    ///
    /// ```
    /// use smemdesc_core::{Layout, Mode};
    /// // 8 rows x 64 bf16 (128 B rows) -> 8 rows x 8 16-byte units
    /// let l = Layout::new(Mode::new(8, 64), Mode::new(64, 1));
    /// let u = l.recast(8).unwrap();
    /// assert_eq!(u, Layout::new(Mode::new(8, 8), Mode::new(8, 1)));
    /// ```
    pub const fn recast(self, elems_per_unit: u32) -> Result<Layout, Error> {
        let e = elems_per_unit;
        let mut found = false;
        let mut dims = [self.mn, self.k];
        let mut d = 0;
        while d < 2 {
            let mut i = 0;
            while i < dims[d].len {
                let (s, st) = (dims[d].shape[i], dims[d].stride[i]);
                if st == 1 && s > 1 && !found {
                    if s % e != 0 {
                        return Err(Error::NotDivisible { extent: s, by: e });
                    }
                    dims[d].shape[i] = s / e;
                    found = true;
                } else if s > 1 {
                    if st % e != 0 {
                        return Err(Error::NotDivisible { extent: st, by: e });
                    }
                    dims[d].stride[i] = st / e;
                }
                i += 1;
            }
            d += 1;
        }
        if !found && e != 1 {
            return Err(Error::NotDivisible { extent: 1, by: e });
        }
        Ok(Layout::new(dims[0], dims[1]))
    }
}

/// A layout composed with a swizzle on byte offsets: CuTe's `ComposedLayout<Swizzle, 0, Layout>`
/// over a byte pointer. Element `(mn, k)` of a tile whose swizzle pattern starts at `base` lives at
/// `base + swizzle(layout(mn, k) · bytes)`.
///
/// When `base` is a multiple of the swizzle's period (smemdesc storage always is) this equals
/// `swizzle(base + offset)`: the swizzle on the **absolute** address, as TMA and the tensor core apply it.
///
/// ```
/// use smemdesc_core::{Layout, Mode, Swizzle, SwizzledLayout};
/// let atom = Layout::new(Mode::new(8, 64), Mode::new(64, 1)); // bf16, 128 B rows
/// let s = SwizzledLayout::new(Swizzle::new(3, 4, 3), atom, 2);
/// assert_eq!(s.byte_address(0, 1, 0), 128 + 16); // row 1, chunk 0 -> chunk 1
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwizzledLayout {
    /// The swizzle applied to byte addresses.
    pub swizzle: Swizzle,
    /// Element-offset layout (before the swizzle).
    pub layout: Layout,
    /// Bytes per element.
    pub elem_bytes: u32,
}

use crate::base::swizzle::Swizzle;

impl SwizzledLayout {
    /// Composes `swizzle ∘ (bytes · layout)`.
    ///
    /// ```
    /// use smemdesc_core::{Layout, Mode, Swizzle, SwizzledLayout};
    /// let s = SwizzledLayout::new(Swizzle::new(0, 4, 3), Layout::new(Mode::new(4, 1), Mode::new(4, 4)), 4);
    /// assert_eq!(s.byte_address(0, 3, 1), 28);
    /// ```
    pub const fn new(swizzle: Swizzle, layout: Layout, elem_bytes: u32) -> SwizzledLayout {
        SwizzledLayout {
            swizzle,
            layout,
            elem_bytes,
        }
    }

    /// Absolute byte address of element `(mn, k)` of a tile whose element `(0, 0)` sits at `base`.
    ///
    /// ```
    /// use smemdesc_core::{Layout, Mode, Swizzle, SwizzledLayout};
    /// let s = SwizzledLayout::new(Swizzle::new(1, 4, 3), Layout::new(Mode::new(8, 16), Mode::new(16, 1)), 2);
    /// assert_eq!(s.byte_address(1024, 4, 0), 1024 + 128 + 16);
    /// ```
    #[inline]
    pub const fn byte_address(&self, base: u32, mn: u32, k: u32) -> u32 {
        base + self
            .swizzle
            .apply(self.layout.eval(mn, k) * self.elem_bytes)
    }
}
