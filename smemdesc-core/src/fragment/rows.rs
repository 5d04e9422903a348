//! Row ownership of the `wgmma` accumulator, for row reductions (the max and sum of an online
//! softmax over `S = Q·Kᵀ`).
//!
//! From the accumulator map ([`WgmmaAccum`], PTX "Matrix fragments for `wgmma .m64nNk*`"): thread
//! `T` (warp `w = T / 32`, `groupID = (T % 32) >> 2`, `threadID_in_group = T % 4`) holds two rows,
//! `16w + groupID` (elements `d_e` with `(e >> 1) & 1 = 0`) and `16w + groupID + 8` (the others),
//! `N / 4` columns of each: `8b + 2·threadID_in_group + {0, 1}` for `b = 0 … N/8 − 1`. A row's
//! `N` columns are spread over the four lanes `4·groupID … 4·groupID + 3` of one warp (a quad),
//! so a row reduction is a thread-local reduction over the `N / 4` elements, then two butterfly
//! shuffles inside the quad: `shfl.sync.bfly.b32 v, x, 1, 0x1f, mask` and then with lane
//! distance 2 (xor 1, xor 2; never 4 or more, which would mix rows). No shuffle crosses a warp.

use super::WgmmaAccum;

impl WgmmaAccum {
    /// The lane xor distances of a row reduction, in order: `[1, 2]`.
    ///
    /// ```
    /// use smemdesc_core::fragment::WgmmaAccum;
    /// let d = WgmmaAccum::new(128).unwrap();
    /// // After xor 1 and xor 2, thread 5 has combined exactly the threads of its row's quad.
    /// let mut seen = 1u32 << 5;
    /// for x in WgmmaAccum::ROW_REDUCE_XOR {
    ///     seen |= (0..32).filter(|l| seen & (1 << (l ^ x)) != 0).fold(0, |m, l| m | 1 << l);
    /// }
    /// assert_eq!(seen, 0xF0);
    /// assert_eq!(d.row_threads(d.rows(5).unwrap()[0]), Some([4, 5, 6, 7]));
    /// ```
    pub const ROW_REDUCE_XOR: [u32; 2] = [1, 2];

    /// The two rows thread `thread` (0..128) owns: `[16w + groupID, 16w + groupID + 8]`
    /// (its elements with `(e >> 1) & 1` = 0, resp. 1).
    ///
    /// ```
    /// let d = smemdesc_core::fragment::WgmmaAccum::new(64).unwrap();
    /// assert_eq!(d.rows(37), Some([17, 25]));
    /// assert_eq!(d.rows(128), None);
    /// ```
    #[inline]
    pub const fn rows(&self, thread: u32) -> Option<[u32; 2]> {
        if thread >= 128 {
            return None;
        }
        let r = 16 * (thread >> 5) + ((thread & 31) >> 2);
        Some([r, r + 8])
    }

    /// The four threads (one quad of one warp) that hold row `row` (0..64), ascending.
    ///
    /// ```
    /// let d = smemdesc_core::fragment::WgmmaAccum::new(64).unwrap();
    /// assert_eq!(d.row_threads(25), Some([36, 37, 38, 39]));
    /// assert_eq!(d.row_threads(64), None);
    /// ```
    #[inline]
    pub const fn row_threads(&self, row: u32) -> Option<[u32; 4]> {
        if row >= 64 {
            return None;
        }
        let t = 32 * (row >> 4) + 4 * (row & 7);
        Some([t, t + 1, t + 2, t + 3])
    }

    /// Elements of one of its rows a thread holds: `N / 4`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::WgmmaAccum::new(128).unwrap().row_elems(), 32);
    /// ```
    #[inline]
    pub const fn row_elems(&self) -> u32 {
        self.n() / 4
    }

    /// The `j`-th element (in column order, `j < N / 4`) of a thread's row `half` (0: the row
    /// `16w + groupID`, 1: the row 8 below): `4·(j >> 1) + 2·half + (j & 1)`, at column
    /// `8·(j >> 1) + 2·threadID_in_group + (j & 1)`.
    /// Constant indices only in a kernel (a run-time loop of `N / 4` trips is not unrolled, and
    /// the accumulator goes to local memory): `smemdesc::accum::WgmmaAcc::row_max` and friends
    /// reduce whole rows.
    ///
    /// ```
    /// let d = smemdesc_core::fragment::WgmmaAccum::new(16).unwrap();
    /// assert_eq!([0, 1, 2, 3].map(|j| d.row_elem(1, j).unwrap()), [2, 3, 6, 7]);
    /// assert_eq!(d.row_elem(2, 0), None);
    /// ```
    #[inline]
    pub const fn row_elem(&self, half: u32, j: u32) -> Option<u32> {
        if half >= 2 || j >= self.row_elems() {
            return None;
        }
        Some(4 * (j >> 1) + 2 * half + (j & 1))
    }

    /// The `shfl.sync` member mask of the quad that shares thread `thread`'s rows
    /// (`0xF << (lane & !3)`), for a reduction that does not involve the whole warp.
    ///
    /// ```
    /// let d = smemdesc_core::fragment::WgmmaAccum::new(64).unwrap();
    /// assert_eq!(d.quad_mask(38), Some(0xF0));
    /// ```
    #[inline]
    pub const fn quad_mask(&self, thread: u32) -> Option<u32> {
        if thread >= 128 {
            return None;
        }
        Some(0xF << ((thread & 31) & !3))
    }
}
