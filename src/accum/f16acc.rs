//! The `.f16` accumulator of `wgmma.mma_async.m64nNk*` ([`WgmmaAccF16`]): `N / 4` `.b32`
//! registers per thread, each two f16 elements of the f32 map (register `r` holds elements `2r`
//! in bits 0..16 and `2r + 1` in bits 16..32; PTX ISA, "Matrix fragments for wgmma.mma_async
//! .m64nNk*", accumulator D with `.dtype = .f16`), and its whole-fragment operations.

use super::convert::unpack_f16x2;
use super::ops::coord;
use super::unroll::each;
use super::{AccCols, Cols, F16x2, Pack, PackedAcc, WgmmaAcc};

/// The f16 accumulator of one `wgmma.mma_async.m64nNk*.f16.*` per thread of a warpgroup (`N`
/// a multiple of 8 in `8..=256`, the `.f16` D of f16, e4m3 and e5m2 inputs): `N / 4` registers,
/// element `e` (of `N / 2`) at [`WgmmaAcc::coord`]`(thread, e)`, in the low half of register
/// `e / 2` for even `e`. Also a warp's strip of `mma.sync.m16n8k*` f16 accumulators (two
/// registers per fragment: `{c0, c1}`, `{c2, c3}`), with the lane as `thread`.
///
/// The element-wise operations work in f32 (exact unpacking, one rounding back to f16).
///
/// ```
/// use smemdesc::accum::WgmmaAccF16;
/// let mut d = WgmmaAccF16::<64>::zero();
/// assert_eq!((WgmmaAccF16::<64>::REGS, WgmmaAccF16::<64>::ELEMS), (16, 32));
/// d.fill(1.5);
/// assert_eq!(d.regs()[0], 0x3E00_3E00); // f16 1.5 in both halves
/// assert_eq!(d.to_f32().regs()[31], 1.5);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct WgmmaAccF16<const N: usize>
where
    Cols<N>: AccCols,
{
    pub(crate) regs: <Cols<N> as AccCols>::Packed,
}

impl<const N: usize> WgmmaAccF16<N>
where
    Cols<N>: AccCols,
{
    /// `.b32` registers per thread: `N / 4`.
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAccF16::<256>::REGS, 64);
    /// ```
    pub const REGS: usize = N / 4;

    /// f16 elements per thread: `N / 2`.
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAccF16::<256>::ELEMS, 128);
    /// ```
    pub const ELEMS: usize = N / 2;

    /// All zero, from a constant (no loop of stores).
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAccF16::<8>::zero().regs(), &[0, 0]);
    /// ```
    #[inline(always)]
    pub const fn zero() -> Self {
        WgmmaAccF16 {
            regs: <Cols<N> as AccCols>::PACKED_ZERO,
        }
    }

    /// An accumulator holding `regs` (f16x2 bits).
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccF16::<8>::from_regs([0x3C00, 0]);
    /// assert_eq!(a.to_f32().regs(), &[1.0, 0.0, 0.0, 0.0]);
    /// ```
    #[inline(always)]
    pub const fn from_regs(regs: <Cols<N> as AccCols>::Packed) -> Self {
        WgmmaAccF16 { regs }
    }

    /// The registers (index them with constants only).
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAccF16::<16>::zero().regs().len(), 4);
    /// ```
    #[inline(always)]
    pub fn regs(&self) -> &[u32] {
        self.regs.as_ref()
    }

    /// The registers, mutable (index them with constants only).
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccF16::<8>::zero();
    /// a.regs_mut()[1] = 0x3C00_0000;
    /// assert_eq!(a.to_f32().regs()[3], 1.0);
    /// ```
    #[inline(always)]
    pub fn regs_mut(&mut self) -> &mut [u32] {
        self.regs.as_mut()
    }

    /// The register array by value (`[u32; N / 4]`).
    ///
    /// ```
    /// let r: [u32; 2] = smemdesc::accum::WgmmaAccF16::<8>::zero().into_regs();
    /// assert_eq!(r, [0, 0]);
    /// ```
    #[inline(always)]
    pub const fn into_regs(self) -> <Cols<N> as AccCols>::Packed {
        self.regs
    }

    /// Every element widened to f32 (exact): the f32 accumulator of the same map.
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccF16::<8>::from_regs([0xC000_3C00, 0x7C00_0001]);
    /// // 1.0, -2.0, the smallest subnormal 2^-24, +inf
    /// assert_eq!(a.to_f32().regs(), &[1.0, -2.0, 5.9604645e-8, f32::INFINITY]);
    /// ```
    #[inline(always)]
    pub fn to_f32(&self) -> WgmmaAcc<N> {
        let r = self.regs.as_ref();
        let mut f = WgmmaAcc::<N>::zero();
        let out = f.regs_mut();
        each!(64: N / 4, |i| {
            let (lo, hi) = unpack_f16x2(r[i]);
            out[2 * i] = lo;
            out[2 * i + 1] = hi;
        });
        f
    }

    /// An f32 accumulator rounded to f16 (nearest even; `cvt.rn.f16x2.f32`).
    ///
    /// ```
    /// use smemdesc::accum::{WgmmaAcc, WgmmaAccF16};
    /// let a = WgmmaAccF16::<8>::from_f32(&WgmmaAcc::from_regs([1.0, -2.0, 0.5, 65504.0]));
    /// assert_eq!(a.regs(), &[0xC000_3C00, 0x7BFF_3800]);
    /// ```
    #[inline(always)]
    pub fn from_f32(f: &WgmmaAcc<N>) -> Self {
        let r = f.regs();
        let mut p = <Cols<N> as AccCols>::PACKED_ZERO;
        let out = p.as_mut();
        each!(64: N / 4, |i| {
            out[i] = F16x2::pack(r[2 * i], r[2 * i + 1]);
        });
        WgmmaAccF16 { regs: p }
    }

    /// Calls `f(e, &mut element)` for every element `e` in order (each at a constant `e`), the
    /// element widened to f32 and rounded back to f16 after `f`.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccF16::<8>::zero();
    /// a.for_each_mut(|e, x| *x = e as f32 + 0.5);
    /// assert_eq!(a.to_f32().regs(), &[0.5, 1.5, 2.5, 3.5]);
    /// ```
    #[inline(always)]
    pub fn for_each_mut(&mut self, mut f: impl FnMut(usize, &mut f32)) {
        let r = self.regs.as_mut();
        each!(64: N / 4, |i| {
            let (mut lo, mut hi) = unpack_f16x2(r[i]);
            f(2 * i, &mut lo);
            f(2 * i + 1, &mut hi);
            r[i] = F16x2::pack(lo, hi);
        });
    }

    /// Every element set to `v` (rounded to f16).
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccF16::<8>::zero();
    /// a.fill(-1.0);
    /// assert_eq!(a.regs(), &[0xBC00_BC00; 2]);
    /// ```
    #[inline(always)]
    pub fn fill(&mut self, v: f32) {
        let b = F16x2::pack(v, v);
        let r = self.regs.as_mut();
        each!(64: N / 4, |i| { r[i] = b });
    }

    /// Each element multiplied by its row's factor (`rows[0]` the upper row, `rows[1]` the row 8
    /// below), in f32 and rounded once to f16.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccF16::<8>::from_regs([0x3C00_3C00; 2]);
    /// a.scale_rows([2.0, 0.5]);
    /// assert_eq!(a.to_f32().regs(), &[2.0, 2.0, 0.5, 0.5]);
    /// ```
    #[inline(always)]
    pub fn scale_rows(&mut self, rows: [f32; 2]) {
        let r = self.regs.as_mut();
        // Register i holds elements 2i and 2i + 1: both of row half i & 1.
        each!(64: N / 4, |i| {
            let (lo, hi) = unpack_f16x2(r[i]);
            let s = rows[i & 1];
            r[i] = F16x2::pack(lo * s, hi * s);
        });
    }

    /// The thread-local row maxima `[upper, lower]` over the thread's elements (in f32).
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccF16::<8>::from_regs([0x4000_3C00, 0xC000_4200]);
    /// assert_eq!(a.row_max_local(), [2.0, 3.0]); // (1, 2) and (3, -2)
    /// ```
    #[inline(always)]
    pub fn row_max_local(&self) -> [f32; 2] {
        self.to_f32().row_max_local()
    }

    /// The thread-local row sums `[upper, lower]`, in f32, in column order.
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccF16::<8>::from_regs([0x4000_3C00, 0xC000_4200]);
    /// assert_eq!(a.row_sum_local(), [3.0, 1.0]);
    /// ```
    #[inline(always)]
    pub fn row_sum_local(&self) -> [f32; 2] {
        self.to_f32().row_sum_local()
    }

    /// Sets to `fill` (rounded to f16) every element whose absolute position `(m0 + row,
    /// n0 + col)` fails `keep`, as [`WgmmaAcc::mask_where`]: the other half of its register
    /// unchanged.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccF16::<8>::from_regs([0x3C00_3C00; 2]);
    /// a.mask_where(0, 0, 0, |_m, n| n == 0, 0.0); // thread 0: columns 0, 1 of rows 0 and 8
    /// assert_eq!(a.regs(), &[0x3C00, 0x3C00]);
    /// ```
    #[inline(always)]
    pub fn mask_where(
        &mut self,
        thread: u32,
        m0: u32,
        n0: u32,
        keep: impl Fn(u32, u32) -> bool,
        fill: f32,
    ) {
        let b = F16x2::pack(fill, 0.0);
        let r = self.regs.as_mut();
        each!(Self::ELEMS, |e| {
            let (m, n) = coord(thread, e);
            if !keep(m0.wrapping_add(m), n0.wrapping_add(n)) {
                let sh = 16 * (e as u32 & 1);
                r[e / 2] = (r[e / 2] & !(0xFFFF << sh)) | (b << sh);
            }
        });
    }

    /// The causal mask (`-inf` where key column `k0 + col` > query row `q0 + row`).
    ///
    /// ```
    /// let mut s = smemdesc::accum::WgmmaAccF16::<8>::from_regs([0x3C00_3C00; 2]);
    /// s.mask_causal(0, 0, 0); // (0, 1) is above the diagonal
    /// assert_eq!(s.regs(), &[0xFC00_3C00, 0x3C00_3C00]);
    /// ```
    #[inline(always)]
    pub fn mask_causal(&mut self, thread: u32, q0: u32, k0: u32) {
        self.mask_where(thread, q0, k0, |q, k| k <= q, f32::NEG_INFINITY);
    }

    /// The bounds mask: elements at or past `rows` / `cols` (absolute) become `fill`.
    ///
    /// ```
    /// let mut s = smemdesc::accum::WgmmaAccF16::<8>::from_regs([0x3C00_3C00; 2]);
    /// s.mask_bounds(0, 0, 0, 8, 2, 0.0); // row 8 is out
    /// assert_eq!(s.regs(), &[0x3C00_3C00, 0]);
    /// ```
    #[inline(always)]
    pub fn mask_bounds(&mut self, thread: u32, m0: u32, n0: u32, rows: u32, cols: u32, fill: f32) {
        self.mask_where(thread, m0, n0, |m, n| m < rows && n < cols, fill);
    }

    /// The registers as the A operand of a chained 16-bit MMA, no conversion: `for_each_kstep`
    /// of the result gives each k16 step's four registers (the RS `wgmma`'s `{a0 … a3}`, or an
    /// `mma.sync.m16n8k16` A fragment).
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccF16::<16>::from_regs([1, 2, 3, 4]);
    /// let mut got = [0u32; 4];
    /// a.as_packed().for_each_kstep(|_ks, r| got = r);
    /// assert_eq!(got, [1, 2, 3, 4]);
    /// ```
    #[inline(always)]
    pub fn as_packed(&self) -> PackedAcc<N> {
        PackedAcc { regs: self.regs }
    }

    /// Calls `f(g, regs)` for every group `g` of `G` (1..=8) consecutive registers, as
    /// [`WgmmaAcc::for_each_group`] but with the f16 pairs as they are (the epilogue's
    /// `stmatrix` registers of an f16 C tile).
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAccF16::<32>::from_regs([0, 1, 2, 3, 4, 5, 6, 7]);
    /// let mut firsts = [0u32; 2];
    /// a.for_each_group::<4>(|g, r| firsts[g] = r[0]);
    /// assert_eq!(firsts, [0, 4]);
    /// ```
    #[inline(always)]
    pub fn for_each_group<const G: usize>(&self, mut f: impl FnMut(usize, [u32; G])) {
        const {
            assert!(
                G >= 1 && G <= 8,
                "for_each_group: G (pairs per group) must be in 1..=8"
            )
        };
        let r = self.regs.as_ref();
        each!(64: N / (4 * G), |g| {
            let mut regs = [0u32; G];
            each!(8: G, |q| { regs[q] = r[G * g + q] });
            f(g, regs);
        });
    }

    /// Calls `f(j, &mut frag)` for every 8-column fragment `j` (registers `2j`, `2j + 1`; a warp's
    /// `mma.sync.m16n8k16` f16 C/D fragment `j`), written back after `f`.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAccF16::<16>::zero();
    /// a.for_each_frag_mut(|j, c| c.regs_mut()[0] = j as u32 + 7);
    /// assert_eq!(a.regs(), &[7, 0, 8, 0]);
    /// ```
    #[inline(always)]
    pub fn for_each_frag_mut(&mut self, mut f: impl FnMut(usize, &mut WgmmaAccF16<8>)) {
        let r = self.regs.as_mut();
        each!(64: N / 8, |j| {
            let mut c = WgmmaAccF16::<8>::from_regs([r[2 * j], r[2 * j + 1]]);
            f(j, &mut c);
            let c = c.into_regs();
            r[2 * j] = c[0];
            r[2 * j + 1] = c[1];
        });
    }
}
