//! The `.s32` accumulator of the integer `wgmma.mma_async.m64nNk32.s32.{s8,u8}.{s8,u8}`
//! ([`WgmmaAccS32`]): `N / 2` registers per thread in the f32 map (PTX ISA, "Matrix fragments
//! for wgmma.mma_async.m64nNk*", D with `.dtype = .s32`), its whole-fragment operations and the
//! epilogue's conversion to f32 with a scale (dequantisation).

use super::ops::coord;
use super::unroll::each;
use super::{AccCols, Cols, WgmmaAcc};

/// The s32 accumulator of one integer `wgmma` per thread of a warpgroup: `N / 2` `i32`,
/// element `e` at [`WgmmaAcc::coord`]`(thread, e)`. The integer `wgmma` takes `N` in 8, 16, 24
/// and the multiples of 16 in `32..=256` (PTX ISA, `wgmma.mma_async` shapes `.m64nNk32` for
/// `.s8`/`.u8`): its issue functions exist for those only; the type itself takes any multiple
/// of 8 (a warp's strip of `mma.sync.m16n8k32` s32 accumulators, lane as `thread`, any width).
///
/// ```
/// use smemdesc::accum::WgmmaAccS32;
/// let mut d = WgmmaAccS32::<128>::zero();
/// assert_eq!(WgmmaAccS32::<128>::ELEMS, 64);
/// d.for_each_mut(|e, x| *x = e as i32 - 10);
/// let f = d.to_f32(0.5); // dequantise: one scale
/// assert_eq!((f.regs()[0], f.regs()[63]), (-5.0, 26.5));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct WgmmaAccS32<const N: usize>
where
    Cols<N>: AccCols,
{
    pub(crate) regs: <Cols<N> as AccCols>::IRegs,
}

impl<const N: usize> WgmmaAccS32<N>
where
    Cols<N>: AccCols,
{
    /// Elements (registers) per thread: `N / 2`.
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAccS32::<256>::ELEMS, 128);
    /// ```
    pub const ELEMS: usize = N / 2;

    /// All zero, from a constant (no loop of stores).
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAccS32::<8>::zero().regs(), &[0; 4]);
    /// ```
    #[inline(always)]
    pub const fn zero() -> Self {
        WgmmaAccS32 {
            regs: <Cols<N> as AccCols>::IZERO,
        }
    }

    /// An accumulator holding `regs`.
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccS32::<8>::from_regs([1, 2, 3, 4]);
    /// assert_eq!(a.regs()[3], 4);
    /// ```
    #[inline(always)]
    pub const fn from_regs(regs: <Cols<N> as AccCols>::IRegs) -> Self {
        WgmmaAccS32 { regs }
    }

    /// The registers (index them with constants only).
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAccS32::<16>::zero().regs().len(), 8);
    /// ```
    #[inline(always)]
    pub fn regs(&self) -> &[i32] {
        self.regs.as_ref()
    }

    /// The registers, mutable (index them with constants only).
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccS32::<8>::zero();
    /// a.regs_mut()[2] = -7;
    /// assert_eq!(a.regs(), &[0, 0, -7, 0]);
    /// ```
    #[inline(always)]
    pub fn regs_mut(&mut self) -> &mut [i32] {
        self.regs.as_mut()
    }

    /// The register array by value (`[i32; N / 2]`).
    ///
    /// ```
    /// let r: [i32; 4] = smemdesc::accum::WgmmaAccS32::<8>::zero().into_regs();
    /// assert_eq!(r, [0; 4]);
    /// ```
    #[inline(always)]
    pub const fn into_regs(self) -> <Cols<N> as AccCols>::IRegs {
        self.regs
    }

    /// Calls `f(e, &mut element)` for every element in order, each at a constant `e`.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccS32::<8>::zero();
    /// a.for_each_mut(|e, x| *x = 3 * e as i32);
    /// assert_eq!(a.regs(), &[0, 3, 6, 9]);
    /// ```
    #[inline(always)]
    pub fn for_each_mut(&mut self, mut f: impl FnMut(usize, &mut i32)) {
        let r = self.regs.as_mut();
        each!(Self::ELEMS, |e| { f(e, &mut r[e]) });
    }

    /// Every element set to `v`.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccS32::<8>::zero();
    /// a.fill(-3);
    /// assert_eq!(a.regs(), &[-3; 4]);
    /// ```
    #[inline(always)]
    pub fn fill(&mut self, v: i32) {
        let r = self.regs.as_mut();
        each!(Self::ELEMS, |e| { r[e] = v });
    }

    /// The thread-local row sums `[upper, lower]` (wrapping `i32`, as the hardware's).
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccS32::<8>::from_regs([1, 5, -2, 7]);
    /// assert_eq!(a.row_sum_local(), [6, 5]);
    /// ```
    #[inline(always)]
    pub fn row_sum_local(&self) -> [i32; 2] {
        let r = self.regs.as_ref();
        let mut acc = [0i32; 2];
        each!(Self::ELEMS, |e| {
            acc[(e >> 1) & 1] = acc[(e >> 1) & 1].wrapping_add(r[e]);
        });
        acc
    }

    /// The thread-local row maxima `[upper, lower]`.
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccS32::<8>::from_regs([1, 5, -2, -7]);
    /// assert_eq!(a.row_max_local(), [5, -2]);
    /// ```
    #[inline(always)]
    pub fn row_max_local(&self) -> [i32; 2] {
        let r = self.regs.as_ref();
        let mut acc = [i32::MIN; 2];
        each!(Self::ELEMS, |e| {
            acc[(e >> 1) & 1] = acc[(e >> 1) & 1].max(r[e]);
        });
        acc
    }

    /// Sets to `fill` every element whose absolute position `(m0 + row, n0 + col)` fails
    /// `keep` (as [`WgmmaAcc::mask_where`]).
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccS32::<8>::from_regs([1; 4]);
    /// a.mask_where(0, 0, 0, |m, _n| m < 8, 0); // rows 8 of thread 0 go
    /// assert_eq!(a.regs(), &[1, 1, 0, 0]);
    /// ```
    #[inline(always)]
    pub fn mask_where(
        &mut self,
        thread: u32,
        m0: u32,
        n0: u32,
        keep: impl Fn(u32, u32) -> bool,
        fill: i32,
    ) {
        let r = self.regs.as_mut();
        each!(Self::ELEMS, |e| {
            let (m, n) = coord(thread, e);
            if !keep(m0.wrapping_add(m), n0.wrapping_add(n)) {
                r[e] = fill;
            }
        });
    }

    /// The bounds mask of a partial tile: elements at or past `rows` / `cols` become `fill`.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccS32::<8>::from_regs([1; 4]);
    /// a.mask_bounds(0, 0, 0, 16, 1, 0); // column 1 is out
    /// assert_eq!(a.regs(), &[1, 0, 1, 0]);
    /// ```
    #[inline(always)]
    pub fn mask_bounds(&mut self, thread: u32, m0: u32, n0: u32, rows: u32, cols: u32, fill: i32) {
        self.mask_where(thread, m0, n0, |m, n| m < rows && n < cols, fill);
    }

    /// The f32 accumulator `x as f32 · scale` (round to nearest even, `cvt.rn.f32.s32`, then one
    /// multiplication): the dequantised tile, ready for [`WgmmaAcc::pack`] /
    /// [`for_each_group`](WgmmaAcc::for_each_group) in the epilogue.
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccS32::<8>::from_regs([2, -4, 16_777_217, 0]);
    /// assert_eq!(a.to_f32(0.25).regs(), &[0.5, -1.0, 4_194_304.0, 0.0]);
    /// ```
    #[inline(always)]
    pub fn to_f32(&self, scale: f32) -> WgmmaAcc<N> {
        self.map_f32(|_e, x| x as f32 * scale)
    }

    /// The f32 accumulator with one scale per row (`rows[0]` the upper row, `rows[1]` the row 8
    /// below: per-token scales of A).
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccS32::<8>::from_regs([1, 2, 3, 4]);
    /// assert_eq!(a.to_f32_rows([10.0, 0.5]).regs(), &[10.0, 20.0, 1.5, 2.0]);
    /// ```
    #[inline(always)]
    pub fn to_f32_rows(&self, rows: [f32; 2]) -> WgmmaAcc<N> {
        self.map_f32(|e, x| x as f32 * rows[(e >> 1) & 1])
    }

    /// The f32 accumulator `f(e, x)` per element (each at a constant `e`; with
    /// [`WgmmaAcc::coord`] for per-column scales of B).
    ///
    /// ```
    /// use smemdesc::accum::{WgmmaAcc, WgmmaAccS32};
    /// let a = WgmmaAccS32::<8>::from_regs([1, 1, 1, 1]);
    /// let col_scale = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    /// let thread = 1; // columns 2 and 3
    /// let f = a.map_f32(|e, x| x as f32 * col_scale[WgmmaAcc::<8>::coord(thread, e).1 as usize]);
    /// assert_eq!(f.regs(), &[3.0, 4.0, 3.0, 4.0]);
    /// ```
    #[inline(always)]
    pub fn map_f32(&self, f: impl Fn(usize, i32) -> f32) -> WgmmaAcc<N> {
        let r = self.regs.as_ref();
        let mut out = WgmmaAcc::<N>::zero();
        let o = out.regs_mut();
        each!(Self::ELEMS, |e| { o[e] = f(e, r[e]) });
        out
    }

    /// Calls `f(j, &mut frag)` for every 8-column fragment `j` (elements `4j … 4j + 3`; a
    /// warp's `mma.sync.m16n8k32` s32 C/D fragment `j`), written back after `f`.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccS32::<16>::zero();
    /// a.for_each_frag_mut(|j, c| c.fill(j as i32 + 1));
    /// assert_eq!(a.regs(), &[1, 1, 1, 1, 2, 2, 2, 2]);
    /// ```
    #[inline(always)]
    pub fn for_each_frag_mut(&mut self, mut f: impl FnMut(usize, &mut WgmmaAccS32<8>)) {
        let r = self.regs.as_mut();
        each!(64: N / 8, |j| {
            let mut c =
                WgmmaAccS32::<8>::from_regs([r[4 * j], r[4 * j + 1], r[4 * j + 2], r[4 * j + 3]]);
            f(j, &mut c);
            let c = c.into_regs();
            r[4 * j] = c[0];
            r[4 * j + 1] = c[1];
            r[4 * j + 2] = c[2];
            r[4 * j + 3] = c[3];
        });
    }
}
