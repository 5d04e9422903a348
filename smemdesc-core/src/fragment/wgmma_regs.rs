//! The Hopper `wgmma.mma_async` A operand read from registers (the "RS" form,
//! `wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype d, a, b-desc, ...` with `a` a vector of
//! four `.b32` registers).
//!
//! PTX ISA, "Register Fragments and Shared Memory Matrix Layouts" → "Matrix Fragments for
//! `wgmma.mma_async.m64nNk8` / `k16` / `k32`", multiplicand A in registers: each thread of the
//! warpgroup holds four 32-bit registers of `p` elements (`p` = 1 for tf32, 2 for f16/bf16, 4 for
//! e4m3/e5m2/s8/u8), `a0 … a{4p-1}` low to high. Warp `w = T / 32` holds rows `16w … 16w + 15`, and
//! within its 16 rows the figures place the elements as the warp-level `mma.m16n8kK` A fragment
//! does (CUTLASS writes the same map as `ALayout_64x8`, `ALayout_64x16`, `ALayout_64x32` in
//! `cute/atom/mma_traits_sm90_gmma.hpp`). With `groupID = (T % 32) >> 2`,
//! `threadID_in_group = T % 4`, element `i` in register `j = i / p`:
//!
//! * `m = 16·w + groupID + 8·(j & 1)`;
//! * `k = p·threadID_in_group + i % p + 4p·(j >> 1)`.
//!
//! So register `j` is the 8-row × 16-byte core matrix (rows `+8·(j & 1)`, K bytes `16·(j >> 1)`)
//! of the warp's 16 × 32-byte slab, as for `mma.sync`.

use crate::base::dtype::ElementType;

/// The `wgmma` A operand in registers: `64 × K` (K = 32 bytes: 8 tf32, 16 f16/bf16, 32 8-bit),
/// 128 threads, four `.b32` registers per thread.
///
/// ```
/// use smemdesc_core::ElementType;
/// use smemdesc_core::fragment::WgmmaRegA;
/// const A: WgmmaRegA = match WgmmaRegA::new(ElementType::BF16) {
///     Some(a) => a,
///     None => panic!("no register form"),
/// };
/// assert_eq!((A.k(), A.per_reg(), A.elems()), (16, 2, 8));
/// // thread 37: warp 1, groupID 1, threadID_in_group 1; a5 is register 2, high half.
/// assert_eq!(A.coord(37, 5), Some((17, 11)));
/// assert_eq!(A.locate(17, 11), Some((37, 5)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WgmmaRegA {
    dtype: ElementType,
}

/// The registers of the A fragment per thread (every type: four `.b32`).
///
/// ```
/// assert_eq!(smemdesc_core::fragment::WGMMA_A_REGS, 4);
/// ```
pub const WGMMA_A_REGS: u32 = 4;

impl WgmmaRegA {
    /// The A-in-registers fragment of `dtype`: f16, bf16, tf32 (or f32, read as tf32), e4m3,
    /// e5m2, s8, u8. The 6- and 4-bit types have no `wgmma` (sm90) form: `None`.
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::WgmmaRegA;
    /// assert!(WgmmaRegA::new(ElementType::E4M3).is_some());
    /// assert!(WgmmaRegA::new(ElementType::E2M1).is_none());
    /// ```
    #[inline]
    pub const fn new(dtype: ElementType) -> Option<WgmmaRegA> {
        match dtype {
            ElementType::F16
            | ElementType::BF16
            | ElementType::TF32
            | ElementType::F32
            | ElementType::E4M3
            | ElementType::E5M2
            | ElementType::S8
            | ElementType::U8 => Some(WgmmaRegA { dtype }),
            _ => None,
        }
    }

    /// The element type.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, fragment::WgmmaRegA};
    /// assert_eq!(WgmmaRegA::new(ElementType::S8).unwrap().dtype(), ElementType::S8);
    /// ```
    #[inline]
    pub const fn dtype(&self) -> ElementType {
        self.dtype
    }

    /// Elements per 32-bit register: 1 (tf32), 2 (f16/bf16), 4 (8-bit).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, fragment::WgmmaRegA};
    /// assert_eq!(WgmmaRegA::new(ElementType::E5M2).unwrap().per_reg(), 4);
    /// ```
    #[inline]
    pub const fn per_reg(&self) -> u32 {
        32 / self.dtype.bits()
    }

    /// The instruction's K: `8·per_reg` (32 bytes).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, fragment::WgmmaRegA};
    /// assert_eq!(WgmmaRegA::new(ElementType::TF32).unwrap().k(), 8);
    /// ```
    #[inline]
    pub const fn k(&self) -> u32 {
        8 * self.per_reg()
    }

    /// Elements per thread: `64·K / 128 = 4·per_reg`.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, fragment::WgmmaRegA};
    /// assert_eq!(WgmmaRegA::new(ElementType::U8).unwrap().elems(), 16);
    /// ```
    #[inline]
    pub const fn elems(&self) -> u32 {
        WGMMA_A_REGS * self.per_reg()
    }

    /// Element `elem` (the ISA's `a{elem}`) of thread `thread` (0..128 of the warpgroup): its
    /// `(m, k)` in the `64 × K` A tile; `None` outside.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, fragment::WgmmaRegA};
    /// let a = WgmmaRegA::new(ElementType::TF32).unwrap();
    /// assert_eq!(a.coord(0, 1), Some((8, 0))); // a1: row + 8
    /// assert_eq!(a.coord(0, 2), Some((0, 4))); // a2: k + 4
    /// assert_eq!(a.coord(128, 0), None);
    /// ```
    #[inline]
    pub const fn coord(&self, thread: u32, elem: u32) -> Option<(u32, u32)> {
        if thread >= 128 || elem >= self.elems() {
            return None;
        }
        let p = self.per_reg();
        let lane = thread & 31;
        let j = elem / p;
        Some((
            16 * (thread >> 5) + (lane >> 2) + 8 * (j & 1),
            p * (lane & 3) + elem % p + 4 * p * (j >> 1),
        ))
    }

    /// Slot `slot` (0 = the low bits) of 32-bit register `reg` of thread `thread`: its `(m, k)`.
    /// The same as [`coord`](WgmmaRegA::coord) of element `reg·per_reg + slot`.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, fragment::WgmmaRegA};
    /// let a = WgmmaRegA::new(ElementType::E4M3).unwrap();
    /// assert_eq!(a.reg_coord(1, 3, 2), Some((8, 22))); // byte 2 of register 3 of thread 1
    /// assert_eq!(a.reg_coord(1, 4, 0), None);
    /// ```
    #[inline]
    pub const fn reg_coord(&self, thread: u32, reg: u32, slot: u32) -> Option<(u32, u32)> {
        if reg >= WGMMA_A_REGS || slot >= self.per_reg() {
            return None;
        }
        self.coord(thread, reg * self.per_reg() + slot)
    }

    /// The inverse of [`coord`](WgmmaRegA::coord): the `(thread, elem)` holding `(m, k)`.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, fragment::WgmmaRegA};
    /// let a = WgmmaRegA::new(ElementType::E4M3).unwrap();
    /// assert_eq!(a.locate(8, 22), Some((1, 14)));
    /// assert_eq!(a.locate(64, 0), None);
    /// ```
    #[inline]
    pub const fn locate(&self, m: u32, k: u32) -> Option<(u32, u32)> {
        if m >= 64 || k >= self.k() {
            return None;
        }
        let p = self.per_reg();
        let r = m & 15;
        let j = (r >> 3) + 2 * (k / (4 * p));
        let t = (k % (4 * p)) / p;
        Some((32 * (m >> 4) + 4 * (r & 7) + t, j * p + k % p))
    }

    /// Where element `elem` of thread `thread` would come from if this A fragment were filled
    /// from k-block `kblock` (columns `K·kblock …`) of a `64 × N` accumulator `acc`: the
    /// accumulator's `(thread, elem)`. Where the thread differs, the value must cross lanes
    /// (a shuffle); for f16/bf16 it never does (see [`ChainedMma`](super::ChainedMma)).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, fragment::{WgmmaAccum, WgmmaRegA}};
    /// let acc = WgmmaAccum::new(64).unwrap();
    /// let bf16 = WgmmaRegA::new(ElementType::BF16).unwrap();
    /// assert_eq!(bf16.accum_source(&acc, 1, 5, 3), Some((5, 11))); // same thread
    /// let tf32 = WgmmaRegA::new(ElementType::TF32).unwrap();
    /// assert_eq!(tf32.accum_source(&acc, 0, 1, 0), Some((0, 1))); // k = 1 sits in thread 0
    /// assert_eq!(bf16.accum_source(&acc, 4, 0, 0), None); // k-block 4 is past N = 64
    /// ```
    #[inline]
    pub const fn accum_source(
        &self,
        acc: &super::WgmmaAccum,
        kblock: u32,
        thread: u32,
        elem: u32,
    ) -> Option<(u32, u32)> {
        match self.coord(thread, elem) {
            Some((m, k)) => acc.locate(m, kblock * self.k() + k),
            None => None,
        }
    }
}
