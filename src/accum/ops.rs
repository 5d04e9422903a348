//! The whole-fragment operations of [`WgmmaAcc`]: each element visited at a constant index
//! (straight-line code, [`each!`]).

use super::unroll::each;
use super::{AccCols, Cols, Pack, WgmmaAcc};

/// The row and column of element `e` of thread `thread` in the 64 × N accumulator (PTX ISA,
/// "Matrix fragments for wgmma.mma_async.m64nNk*"); `thread` taken modulo 128.
#[inline(always)]
pub(crate) const fn coord(thread: u32, e: usize) -> (u32, u32) {
    let lane = thread & 31;
    let e = e as u32;
    (
        16 * ((thread >> 5) & 3) + (lane >> 2) + 8 * ((e >> 1) & 1),
        8 * (e >> 2) + 2 * (lane & 3) + (e & 1),
    )
}

impl<const N: usize> WgmmaAcc<N>
where
    Cols<N>: AccCols,
{
    /// The `(row, col)` of element `e` of thread `thread` (0..128, taken modulo 128) in the
    /// 64 × N tile: `(16·warp + lane / 4 + 8·((e >> 1) & 1), 8·(e >> 2) + 2·(lane % 4) + (e & 1))`
    /// (PTX ISA, "Matrix fragments for wgmma.mma_async.m64nNk*", D). For a warp's `mma.sync`
    /// strip pass the lane (0..32): rows 0..16, fragment `e / 4` the columns `8·(e / 4) …`.
    ///
    /// ```
    /// use smemdesc::accum::WgmmaAcc;
    /// assert_eq!(WgmmaAcc::<256>::coord(37, 6), (25, 10));
    /// ```
    #[inline(always)]
    pub const fn coord(thread: u32, e: usize) -> (u32, u32) {
        coord(thread, e)
    }

    /// Calls `f(j, &mut frag)` for every 8-column fragment `j` in `0..N / 8` (each at a constant
    /// `j`): `frag` holds elements `4j … 4j + 3`, columns `8j …`; for a warp's strip of
    /// `mma.sync.m16n8k*` accumulators, the C/D fragment of the `j`-th instruction (`c0 … c3`, PTX
    /// ISA "Matrix Fragments for mma.m16n8k16"), what `mma_sync_*` takes on nvptx64. Written
    /// back after `f`.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAcc::<16>::zero();
    /// a.for_each_frag_mut(|j, c| c.fill(j as f32 + 1.0));
    /// assert_eq!(a.regs(), &[1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0]);
    /// ```
    #[inline(always)]
    pub fn for_each_frag_mut(&mut self, mut f: impl FnMut(usize, &mut WgmmaAcc<8>)) {
        let r = self.regs.as_mut();
        each!(64: N / 8, |j| {
            let mut c = WgmmaAcc::<8>::from_regs([r[4 * j], r[4 * j + 1], r[4 * j + 2], r[4 * j + 3]]);
            f(j, &mut c);
            let c = c.into_regs();
            r[4 * j] = c[0];
            r[4 * j + 1] = c[1];
            r[4 * j + 2] = c[2];
            r[4 * j + 3] = c[3];
        });
    }

    /// Calls `f(e, &mut element)` for every element `e` in order, each call at a constant `e`.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAcc::<16>::zero();
    /// a.for_each_mut(|e, x| *x = e as f32);
    /// assert_eq!(a.regs(), &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    /// ```
    #[inline(always)]
    pub fn for_each_mut(&mut self, mut f: impl FnMut(usize, &mut f32)) {
        let r = self.regs.as_mut();
        each!(Self::ELEMS, |e| { f(e, &mut r[e]) });
    }

    /// Every element set to `v`.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAcc::<8>::zero();
    /// a.fill(2.0);
    /// assert_eq!(a.regs(), &[2.0; 4]);
    /// ```
    #[inline(always)]
    pub fn fill(&mut self, v: f32) {
        let r = self.regs.as_mut();
        each!(Self::ELEMS, |e| { r[e] = v });
    }

    /// Each element multiplied by its row's factor: `rows[0]` for the thread's upper row
    /// (`16·warp + lane / 4`), `rows[1]` for the row 8 below (the online softmax's rescale of O).
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAcc::<8>::from_regs([1.0; 4]);
    /// a.scale_rows([2.0, 3.0]);
    /// assert_eq!(a.regs(), &[2.0, 2.0, 3.0, 3.0]); // d2, d3 are the lower row
    /// ```
    #[inline(always)]
    pub fn scale_rows(&mut self, rows: [f32; 2]) {
        let r = self.regs.as_mut();
        each!(Self::ELEMS, |e| { r[e] *= rows[(e >> 1) & 1] });
    }

    /// The thread-local part of a row reduction: `f` folded over the thread's `N / 4` elements of
    /// each of its two rows (`[upper, lower]`), in column order. The other three lanes of the
    /// quad hold the rest of each row: combine with the shuffles of
    /// [`ROW_REDUCE_XOR`](crate::fragment::WgmmaAccum::ROW_REDUCE_XOR) (on nvptx64,
    /// `row_max` and `row_sum` do both).
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAcc::<8>::from_regs([1.0, 5.0, 2.0, 7.0]);
    /// assert_eq!(a.row_reduce_local(f32::max), [5.0, 7.0]);
    /// ```
    #[inline(always)]
    pub fn row_reduce_local(&self, f: impl Fn(f32, f32) -> f32) -> [f32; 2] {
        let r = self.regs.as_ref();
        let mut acc = [r[0], r[2]];
        each!(Self::ELEMS, |e| {
            if e != 0 && e != 2 {
                let h = (e >> 1) & 1;
                acc[h] = f(acc[h], r[e]);
            }
        });
        acc
    }

    /// The thread-local part of a row reduction in `K` chains: the thread's `N / 4` elements of
    /// each row (column order, `j` = 0, 1, …) folded into `K` accumulators (element `j` into
    /// chain `j % K`, the first `K` elements their starting values), then the chains combined
    /// pairwise (`c[i] = f(c[i], c[i + K/2])`, halving `K` until one is left). `K = 1` is
    /// [`row_reduce_local`](Self::row_reduce_local)'s column order; a larger `K` holds `K`
    /// values at once for fewer dependent steps (`K = N / 8`: a pairwise tree over the row). For
    /// `max` the order does not change the result; for a sum it is the rounding order, fixed by
    /// `K`. `K` a power of two, at most `N / 8` (a compile error otherwise).
    ///
    /// ```
    /// use smemdesc::accum::WgmmaAcc;
    /// // m64n32: 8 elements per row; the upper row is elements 0, 1, 4, 5, 8, 9, 12, 13
    /// let mut a = WgmmaAcc::<32>::zero();
    /// a.for_each_mut(|e, x| *x = e as f32);
    /// // K = 4: chains (0 + 8), (1 + 9), (4 + 12), (5 + 13), then (8 + 16) + (10 + 18)
    /// assert_eq!(a.row_reduce_chains::<4>(|x, y| x + y), [52.0, 68.0]);
    /// assert_eq!(a.row_reduce_chains::<2>(f32::max), [13.0, 15.0]);
    /// ```
    #[inline(always)]
    pub fn row_reduce_chains<const K: usize>(&self, f: impl Fn(f32, f32) -> f32) -> [f32; 2] {
        const {
            assert!(
                K.is_power_of_two() && K <= N / 8,
                "row_reduce_chains: K must be a power of two, at most N / 8"
            )
        };
        let r = self.regs.as_ref();
        let row = N / 4;
        let mut out = [0.0f32; 2];
        each!(8: 2, |h| {
            // Element j of row h: 4 (j >> 1) + 2 h + (j & 1) (WgmmaAccum::row_elem).
            let mut c = [0.0f32; K];
            each!(32: K, |k| {
                c[k] = r[4 * (k >> 1) + 2 * h + (k & 1)];
            });
            each!(64: row - K, |i| {
                let j = i + K;
                c[j % K] = f(c[j % K], r[4 * (j >> 1) + 2 * h + (j & 1)]);
            });
            each!(8: K.trailing_zeros() as usize, |level| {
                let w = K >> (level + 1);
                each!(32: K / 2, |i| {
                    if i < w {
                        c[i] = f(c[i], c[i + w]);
                    }
                });
            });
            out[h] = c[0];
        });
        out
    }

    /// Each element replaced by `f(h, x)`, `h` its row half (0: the thread's upper row, 1: the
    /// row 8 below), every call at a constant element index (the softmax's per-row
    /// exponentiation: `f` subtracts row `h`'s maximum).
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAcc::<8>::from_regs([1.0, 2.0, 3.0, 4.0]);
    /// a.map_rows(|h, x| x - [10.0, 20.0][h]);
    /// assert_eq!(a.regs(), &[-9.0, -8.0, -17.0, -16.0]);
    /// ```
    #[inline(always)]
    pub fn map_rows(&mut self, mut f: impl FnMut(usize, f32) -> f32) {
        let r = self.regs.as_mut();
        each!(Self::ELEMS, |e| { r[e] = f((e >> 1) & 1, r[e]) });
    }

    /// The thread-local row maxima `[upper, lower]` (`f32::max`).
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAcc::<8>::from_regs([1.0, 5.0, 2.0, 7.0]);
    /// assert_eq!(a.row_max_local(), [5.0, 7.0]);
    /// ```
    #[inline(always)]
    pub fn row_max_local(&self) -> [f32; 2] {
        self.row_reduce_local(f32::max)
    }

    /// The thread-local row sums `[upper, lower]`, in column order.
    ///
    /// ```
    /// let a = smemdesc::accum::WgmmaAcc::<8>::from_regs([1.0, 5.0, 2.0, 7.0]);
    /// assert_eq!(a.row_sum_local(), [6.0, 9.0]);
    /// ```
    #[inline(always)]
    pub fn row_sum_local(&self) -> [f32; 2] {
        self.row_reduce_local(|a, b| a + b)
    }

    /// Sets to `fill` every element whose absolute position `(m0 + row, n0 + col)` fails
    /// `keep(m, n)`: the mask of a tile at origin `(m0, n0)`, `thread` the thread's index in its
    /// warpgroup (0..128; taken modulo 128). Positions wrap (`u32`) instead of panicking.
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAcc::<8>::from_regs([1.0; 4]);
    /// // thread 0 holds (0, 0), (0, 1), (8, 0), (8, 1) of the tile: keep column 0 only
    /// a.mask_where(0, 100, 40, |_m, n| n < 41, 0.0);
    /// assert_eq!(a.regs(), &[1.0, 0.0, 1.0, 0.0]);
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
        let r = self.regs.as_mut();
        each!(Self::ELEMS, |e| {
            let (m, n) = coord(thread, e);
            if !keep(m0.wrapping_add(m), n0.wrapping_add(n)) {
                r[e] = fill;
            }
        });
    }

    /// The causal mask of attention: element `(q, k)` (query row `q0 + row`, key column
    /// `k0 + col`) becomes `-inf` where `k > q`.
    ///
    /// ```
    /// let mut s = smemdesc::accum::WgmmaAcc::<8>::from_regs([1.0; 4]);
    /// s.mask_causal(0, 0, 0); // thread 0: (0, 0), (0, 1), (8, 0), (8, 1)
    /// assert_eq!(s.regs(), &[1.0, f32::NEG_INFINITY, 1.0, 1.0]);
    /// ```
    #[inline(always)]
    pub fn mask_causal(&mut self, thread: u32, q0: u32, k0: u32) {
        self.mask_where(thread, q0, k0, |q, k| k <= q, f32::NEG_INFINITY);
    }

    /// The bounds mask of a partial tile: elements at or past `rows` (absolute `m`) or `cols`
    /// (absolute `n`) become `fill` (`-inf` for a softmax, `0` for a sum).
    ///
    /// ```
    /// let mut s = smemdesc::accum::WgmmaAcc::<8>::from_regs([1.0; 4]);
    /// s.mask_bounds(0, 0, 0, 8, 1, 0.0); // 8 rows, 1 column: only (0, 0) stays
    /// assert_eq!(s.regs(), &[1.0, 0.0, 0.0, 0.0]);
    /// ```
    #[inline(always)]
    pub fn mask_bounds(&mut self, thread: u32, m0: u32, n0: u32, rows: u32, cols: u32, fill: f32) {
        self.mask_where(thread, m0, n0, |m, n| m < rows && n < cols, fill);
    }

    /// The whole accumulator packed with `P`'s conversion, register `r` holding elements `2r`
    /// (low half) and `2r + 1`: the A registers of every k-step of a chained 16-bit `wgmma`, to
    /// form **before** `wgmma.fence` (a conversion between the `wgmma`s of one region writes
    /// their A registers there, and ptxas serialises the region, C7520).
    ///
    /// ```
    /// use smemdesc::accum::{Bf16x2, WgmmaAcc};
    /// let mut s = WgmmaAcc::<16>::zero();
    /// s.for_each_mut(|e, x| *x = e as f32);
    /// let p = s.pack::<Bf16x2>();
    /// assert_eq!(p.regs()[1], 0x4040_4000); // bf16 3.0 (high), 2.0 (low)
    /// ```
    #[inline(always)]
    pub fn pack<P: Pack>(&self) -> PackedAcc<N> {
        let r = self.regs.as_ref();
        let mut p = <Cols<N> as AccCols>::PACKED_ZERO;
        let out = p.as_mut();
        each!(64: Self::ELEMS / 2, |i| {
            out[i] = P::pack(r[2 * i], r[2 * i + 1]);
        });
        PackedAcc { regs: p }
    }

    /// Calls `f(ks, a)` for every k16 step `ks` in `0..N / 16` (each at a constant `ks`), `a`
    /// the step's four A registers of the chained 16-bit `wgmma` packed with `P`'s conversion
    /// right before the call: register `r` of step `ks` packs elements `8·ks + 2r` (low half)
    /// and `8·ks + 2r + 1` ([`ChainedMma::source`](crate::fragment::ChainedMma::source)`(ks,
    /// r)`). The same registers as [`pack`](Self::pack) then
    /// [`PackedAcc::for_each_kstep`], converted step by step: inside one `wgmma.fence` region
    /// ptxas fences each conversion (C7519); [`pack`](Self::pack) before the fence avoids it.
    ///
    /// ```
    /// use smemdesc::accum::{Bf16x2, WgmmaAcc};
    /// let mut s = WgmmaAcc::<32>::zero();
    /// s.for_each_mut(|e, x| *x = e as f32);
    /// let mut seen = [[0u32; 4]; 2];
    /// s.pack_ksteps::<Bf16x2>(|ks, a| seen[ks] = a);
    /// assert_eq!(seen[1][0], 0x4110_4100); // step 1, register 0: elements 8 (low), 9
    /// let mut whole = [[0u32; 4]; 2];
    /// s.pack::<Bf16x2>().for_each_kstep(|ks, a| whole[ks] = a);
    /// assert_eq!(seen, whole);
    /// ```
    #[inline(always)]
    pub fn pack_ksteps<P: Pack>(&self, mut f: impl FnMut(usize, [u32; 4])) {
        let r = self.regs.as_ref();
        each!(16: N / 16, |ks| {
            let e = 8 * ks;
            f(
                ks,
                [
                    P::pack(r[e], r[e + 1]),
                    P::pack(r[e + 2], r[e + 3]),
                    P::pack(r[e + 4], r[e + 5]),
                    P::pack(r[e + 6], r[e + 7]),
                ],
            );
        });
    }

    /// Calls `f(g, regs)` for every group `g` of `G` (1..=8) consecutive element pairs (`g` in
    /// `0..N / (4·G)`, each at a constant `g`): `regs[q]` packs pair `G·g + q`, i.e. elements
    /// `2(G·g + q)` (low half) and `2(G·g + q) + 1`, with `P`'s conversion. With `G` the
    /// epilogue tile's matrices per writer instruction (4 for `stmatrix.x4`), group `g` is
    /// instruction `g % INSTRUCTIONS` of chunk `g / INSTRUCTIONS`: the registers of
    /// `pair(chunk, instr, q)` (an epilogue tile's register groups, the TMA-store loop's body).
    ///
    /// ```
    /// use smemdesc::accum::{Bf16x2, WgmmaAcc};
    /// let mut d = WgmmaAcc::<32>::zero();
    /// d.for_each_mut(|e, x| *x = e as f32);
    /// let mut seen = 0;
    /// d.for_each_group::<4, Bf16x2>(|g, r| {
    ///     seen += 1;
    ///     if g == 1 { assert_eq!(r[0], 0x4110_4100); } // pair 4: elements 8, 9 (9.0 high, 8.0 low)
    /// });
    /// assert_eq!(seen, 2); // 16 pairs per thread / 4 per group
    /// ```
    #[inline(always)]
    pub fn for_each_group<const G: usize, P: Pack>(&self, mut f: impl FnMut(usize, [u32; G])) {
        let r = self.regs.as_ref();
        const {
            assert!(
                G >= 1 && G <= 8,
                "for_each_group: G (pairs per group) must be in 1..=8"
            )
        };
        let groups = Self::ELEMS / (2 * G);
        each!(64: groups, |g| {
            let mut regs = [0u32; G];
            each!(8: G, |q| {
                let p = G * g + q;
                regs[q] = P::pack(r[2 * p], r[2 * p + 1]);
            });
            f(g, regs);
        });
    }
}

/// A [`WgmmaAcc`] packed to 16-bit pairs ([`WgmmaAcc::pack`]): `N / 4` `.b32` registers.
///
/// ```
/// use smemdesc::accum::{F16x2, WgmmaAcc};
/// let p = WgmmaAcc::<32>::zero().pack::<F16x2>();
/// assert_eq!(p.regs().len(), 8);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PackedAcc<const N: usize>
where
    Cols<N>: AccCols,
{
    pub(crate) regs: <Cols<N> as AccCols>::Packed,
}

impl<const N: usize> PackedAcc<N>
where
    Cols<N>: AccCols,
{
    /// The registers (index them with constants only).
    ///
    /// ```
    /// use smemdesc::accum::{Bf16x2, WgmmaAcc};
    /// assert_eq!(WgmmaAcc::<8>::zero().pack::<Bf16x2>().regs(), &[0, 0]);
    /// ```
    #[inline(always)]
    pub fn regs(&self) -> &[u32] {
        self.regs.as_ref()
    }

    /// Calls `f(ks, a)` for every k16 step `ks` in `0..N / 16`, each at a constant `ks`: `a` the
    /// four A registers of the chained `wgmma` (RS) reading columns `16·ks …`, registers
    /// `4·ks … 4·ks + 3` ([`ChainedMma::source`](crate::fragment::ChainedMma::source)`(ks, r)`
    /// are their elements).
    ///
    /// ```
    /// use smemdesc::accum::{Bf16x2, WgmmaAcc};
    /// let mut s = WgmmaAcc::<32>::zero();
    /// s.for_each_mut(|e, x| *x = e as f32);
    /// let mut firsts = [0u32; 2];
    /// s.pack::<Bf16x2>().for_each_kstep(|ks, a| firsts[ks] = a[0]);
    /// assert_eq!(firsts, [0x3F80_0000, 0x4110_4100]); // (0, 1) and (8, 9)
    /// ```
    #[inline(always)]
    pub fn for_each_kstep(&self, mut f: impl FnMut(usize, [u32; 4])) {
        let r = self.regs.as_ref();
        each!(16: N / 16, |ks| {
            f(ks, [r[4 * ks], r[4 * ks + 1], r[4 * ks + 2], r[4 * ks + 3]]);
        });
    }
}
