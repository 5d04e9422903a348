//! Whole-fragment operations on the `wgmma` and `mma.sync` accumulators: a typed accumulator per
//! `m64nN` shape and D type — [`WgmmaAcc`] (f32; on nvptx64 its `wgmma` issue functions
//! `wgmma_m64n{N}k{K}_{type}` for every sm90 N of f16, bf16, tf32, e4m3 and e5m2),
//! [`WgmmaAccF16`] (`.f16` D: `wgmma_m64n{N}k16_f16[_rs]_f16acc`, `…k32_{e4m3,e5m2}_f16acc`) and
//! [`WgmmaAccS32`] (`.s32` D: `wgmma_m64n{N}k32_{s8,u8,s8u8,u8s8}`, `_s8_rs`) — and a warp's
//! `mma.sync` strips ([`MmaAcc`], [`MmaAccF16`], [`MmaAccS32`]: the same types with the lane as
//! thread, `mma_sync_m16n8k*` per fragment), zeroed without a loop (`#[smem_mma]`'s `Acc` names
//! the declared one), with row reductions, masks, the chained-MMA packing of S into the A
//! registers of the next MMA, dequantisation, and the epilogue's register groups.
//!
//! Every operation is `#[inline(always)]` and expands to straight-line code with constant
//! indices (each element named by a constant), so the accumulator stays in registers in an
//! ordinary run-time loop of a kernel. The index functions of [`crate::fragment`]
//! ([`WgmmaAccum::coord`](crate::fragment::WgmmaAccum::coord),
//! [`row_elem`](crate::fragment::WgmmaAccum::row_elem),
//! [`ChainedMma::source`](crate::fragment::ChainedMma::source), an epilogue tile's `pair`)
//! describe the same map for those who index by hand: with constant indices only. LLVM unrolls
//! loops of 8 trips, not of 32 or 64, so a run-time loop over them demotes the accumulator to
//! local memory (issue 43; `smemdesc check-ptx` names such a depot).
//!
//! ```
//! use smemdesc::accum::{Bf16x2, WgmmaAcc};
//! use smemdesc::fragment::WgmmaAccum;
//! let mut s = WgmmaAcc::<64>::zero(); // m64n64: 32 f32 per thread, typed once by N
//! assert_eq!(WgmmaAcc::<64>::ELEMS, 32);
//! let thread = 37;
//! // fill each element with its column (the independent map: WgmmaAccum::coord)
//! let map = WgmmaAccum::new(64).unwrap();
//! s.for_each_mut(|e, x| *x = map.coord(thread, e as u32).unwrap().1 as f32);
//! // causal mask for a query tile at row 0, key tile at column 0: col > row gets -inf
//! s.mask_causal(thread, 0, 0);
//! let (row0, _) = map.coord(thread, 0).unwrap();
//! assert_eq!(row0, 17);
//! // its columns are 8b + 2 and 8b + 3: the largest kept (at or below 17) is 11
//! assert_eq!(s.row_max_local()[0], 11.0);
//! let mut n = 0;
//! s.pack::<Bf16x2>().for_each_kstep(|_ks, a| n += a.len()); // 4 A registers per k16 step
//! assert_eq!(n, 4 * 4);
//! ```

mod convert;
mod f16acc;
#[cfg(target_arch = "nvptx64")]
#[macro_use]
mod wgmma_fn;
#[cfg(target_arch = "nvptx64")]
mod math;
#[cfg(target_arch = "nvptx64")]
mod nvptx;
#[cfg(target_arch = "nvptx64")]
mod nvptx_e4m3;
#[cfg(target_arch = "nvptx64")]
mod nvptx_f16;
#[cfg(target_arch = "nvptx64")]
mod nvptx_s32;
#[cfg(target_arch = "nvptx64")]
mod nvptx_sync;
mod ops;
mod s32acc;
mod unroll;

pub use convert::{Bf16x2, F16x2, Pack};
pub use f16acc::WgmmaAccF16;
#[cfg(target_arch = "nvptx64")]
pub use math::*;
#[cfg(target_arch = "nvptx64")]
pub use nvptx::*;
#[cfg(target_arch = "nvptx64")]
pub use nvptx_e4m3::*;
#[cfg(target_arch = "nvptx64")]
pub use nvptx_f16::*;
#[cfg(target_arch = "nvptx64")]
pub use nvptx_s32::*;
#[cfg(target_arch = "nvptx64")]
pub use nvptx_sync::*;
pub use ops::PackedAcc;
pub use s32acc::WgmmaAccS32;

/// A warp's strip of `mma.sync.m16n8k*` f32 accumulators, 16 × N (`N / 8` fragments of four
/// f32 side by side, fragment `j` in elements `4j … 4j + 3`): the rows 0..16 of the `m64nN` map,
/// so the same type and operations as [`WgmmaAcc`] with the lane (0..32) as `thread`
/// ([`WgmmaAcc::coord`]; `tests/accum_types.rs` checks it against the PTX ISA's C/D figure and
/// [`MmaSync::coord`](crate::fragment::MmaSync::coord)). [`WgmmaAcc::for_each_frag_mut`] hands
/// each fragment (a `WgmmaAcc<8>`) to the `mma_sync_*` issue on nvptx64; the quad shuffles of
/// `row_max`/`row_sum` are the `mma.sync` row reductions; [`WgmmaAcc::pack`] then
/// [`PackedAcc::for_each_kstep`] gives the A fragments of the next `m16n8k16` (a k16 step of
/// P from two C fragments, flash-attention style).
///
/// ```
/// use smemdesc::accum::MmaAcc;
/// let mut s = MmaAcc::<64>::zero(); // 16 x 64 per warp: 8 fragments, 32 f32 per lane
/// assert_eq!(MmaAcc::<64>::ELEMS, 32);
/// assert_eq!(MmaAcc::<64>::coord(5, 6), (9, 10)); // lane 5, c2 of fragment 1
/// s.mask_causal(5, 0, 0);
/// assert_eq!(s.regs()[6], f32::NEG_INFINITY); // key 10 > query 9: masked
/// ```
pub type MmaAcc<const N: usize> = WgmmaAcc<N>;

/// A warp's strip of `mma.sync.m16n8k16` f16 accumulators (two f16x2 registers per fragment):
/// [`WgmmaAccF16`] with the lane as `thread`.
///
/// ```
/// assert_eq!(smemdesc::accum::MmaAccF16::<16>::REGS, 4);
/// ```
pub type MmaAccF16<const N: usize> = WgmmaAccF16<N>;

/// A warp's strip of `mma.sync.m16n8k32` s32 accumulators: [`WgmmaAccS32`] with the lane as
/// `thread` (any multiple of 8 for `N`).
///
/// ```
/// assert_eq!(smemdesc::accum::MmaAccS32::<40>::ELEMS, 20);
/// ```
pub type MmaAccS32<const N: usize> = WgmmaAccS32<N>;

/// The A fragment of one `mma.sync.m16n8k16` (16-bit), `m16n8k32` (8-bit) or `m16n8k8` (tf32):
/// four `.b32` registers, `a0 …` packed in register order (PTX ISA figures; the element map is
/// [`MmaSync::coord`](crate::fragment::MmaSync::coord)`(FragOperand::A, lane, e)`).
///
/// ```
/// let a: smemdesc::accum::MmaA = [0; 4];
/// assert_eq!(a.len(), 4);
/// ```
pub type MmaA = [u32; 4];

/// The B fragment of one `mma.sync.m16n8k16` / `m16n8k32` / `m16n8k8`: two `.b32` registers
/// (the element map is [`MmaSync::coord`](crate::fragment::MmaSync::coord)`(FragOperand::B, lane, e)`).
///
/// ```
/// let b: smemdesc::accum::MmaB = [0; 2];
/// assert_eq!(b.len(), 2);
/// ```
pub type MmaB = [u32; 2];

/// The `wgmma` accumulator widths: implemented for `Cols<N>` with `N` a multiple of 8 in
/// `8..=256` (PTX ISA, "Matrix Shape" of `wgmma.mma_async`: `m64nNk*`), its register array
/// `[f32; N / 2]`. Any other `N` is refused in `cargo check`.
///
/// ```
/// use smemdesc::accum::{AccCols, Cols};
/// assert_eq!(<Cols<128> as AccCols>::ELEMS, 64);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is no wgmma accumulator width: `WgmmaAcc<N>` takes N a multiple of 8 in 8..=256",
    label = "no m64nN accumulator of this N",
    note = "N must be a multiple of 8 in 8..=256 (PTX ISA, wgmma.mma_async, Matrix Shape: m64nNk*); the accumulator holds N / 2 f32 per thread"
)]
pub trait AccCols {
    /// The per-thread registers, `[f32; N / 2]`.
    type Regs: Copy + core::fmt::Debug + AsRef<[f32]> + AsMut<[f32]>;
    /// `N / 2`.
    const ELEMS: usize;
    /// All zero (a constant: no loop of stores).
    const ZERO: Self::Regs;
    /// The accumulator packed two values to a `.b32` register, `[u32; N / 4]`.
    type Packed: Copy + core::fmt::Debug + AsRef<[u32]> + AsMut<[u32]>;
    /// All zero.
    const PACKED_ZERO: Self::Packed;
    /// The `.s32` accumulator's registers, `[i32; N / 2]` ([`WgmmaAccS32`]).
    type IRegs: Copy + core::fmt::Debug + AsRef<[i32]> + AsMut<[i32]>;
    /// All zero.
    const IZERO: Self::IRegs;
}

/// The width `N` of an `m64nN` accumulator, as a type ([`AccCols`]).
///
/// ```
/// let _ = smemdesc::accum::Cols::<256>;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cols<const N: usize>;

macro_rules! cols {
    ($($n:literal)*) => {$(
        impl AccCols for Cols<$n> {
            type Regs = [f32; $n / 2];
            const ELEMS: usize = $n / 2;
            const ZERO: [f32; $n / 2] = [0.0; $n / 2];
            type Packed = [u32; $n / 4];
            const PACKED_ZERO: [u32; $n / 4] = [0; $n / 4];
            type IRegs = [i32; $n / 2];
            const IZERO: [i32; $n / 2] = [0; $n / 2];
        }
    )*};
}
cols!(8 16 24 32 40 48 56 64 72 80 88 96 104 112 120 128 136 144 152 160 168 176 184 192 200 208 216 224 232 240 248 256);

/// The f32 accumulator of one `wgmma.mma_async.m64nNk*` per thread of a warpgroup: `N / 2`
/// registers, element `e` at `(16·warp + lane / 4 + 8·((e >> 1) & 1), 8·(e >> 2) + 2·(lane % 4) +
/// (e & 1))` of the 64 × N tile (PTX ISA, "Matrix fragments for wgmma.mma_async.m64nNk*", the
/// accumulator D; the same map as [`WgmmaAccum`](crate::fragment::WgmmaAccum)).
///
/// The same type holds a warp's `mma.sync` accumulators: `N / 8` C/D fragments of
/// `mma.sync.m16n8k*` (4 f32 per lane: `c0, c1` at row `lane / 4`, `c2, c3` 8 rows below,
/// columns `2·(lane % 4) + {0, 1}`, PTX ISA "Matrix Fragments for mma.m16n8k16") side by side,
/// fragment `j` in elements `4j … 4j + 3`, are the rows 0..16 of the `m64nN` map: pass the lane
/// (0..32) as `thread` to the masks (`tests/accum.rs` checks it against
/// [`MmaSync::coord`](crate::fragment::MmaSync::coord)).
///
/// ```
/// use smemdesc::accum::WgmmaAcc;
/// let acc = WgmmaAcc::<256>::zero();
/// assert_eq!(acc.regs().len(), 128);
/// assert!(acc.regs().iter().all(|&x| x == 0.0));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct WgmmaAcc<const N: usize>
where
    Cols<N>: AccCols,
{
    regs: <Cols<N> as AccCols>::Regs,
}

impl<const N: usize> WgmmaAcc<N>
where
    Cols<N>: AccCols,
{
    /// Elements (f32 registers) per thread: `N / 2`.
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAcc::<128>::ELEMS, 64);
    /// ```
    pub const ELEMS: usize = <Cols<N> as AccCols>::ELEMS;

    /// The k16 steps of a chained 16-bit `wgmma` this accumulator feeds: `N / 16` (a k-step
    /// packs 8 elements into 4 A registers; [`ChainedMma::ksteps`](crate::fragment::ChainedMma::ksteps)).
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAcc::<256>::KSTEPS, 16);
    /// ```
    pub const KSTEPS: usize = N / 16;

    /// An all-zero accumulator, from a constant (no loop of stores; a `[0f32; 128]` written in a
    /// kernel becomes a `st.local` loop, issue 43).
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAcc::<8>::zero().regs(), &[0.0; 4]);
    /// ```
    #[inline(always)]
    pub const fn zero() -> Self {
        WgmmaAcc {
            regs: <Cols<N> as AccCols>::ZERO,
        }
    }

    /// An accumulator holding `regs` (element `e` = `regs[e]`).
    ///
    /// ```
    /// use smemdesc::accum::WgmmaAcc;
    /// let a = WgmmaAcc::<8>::from_regs([1.0, 2.0, 3.0, 4.0]);
    /// assert_eq!(a.regs()[2], 3.0);
    /// ```
    #[inline(always)]
    pub const fn from_regs(regs: <Cols<N> as AccCols>::Regs) -> Self {
        WgmmaAcc { regs }
    }

    /// The registers, element order (index them with constants only).
    ///
    /// ```
    /// assert_eq!(smemdesc::accum::WgmmaAcc::<16>::zero().regs().len(), 8);
    /// ```
    #[inline(always)]
    pub fn regs(&self) -> &[f32] {
        self.regs.as_ref()
    }

    /// The registers, mutable (index them with constants only).
    ///
    /// ```
    /// let mut a = smemdesc::accum::WgmmaAcc::<8>::zero();
    /// a.regs_mut()[3] = 1.5;
    /// assert_eq!(a.regs()[3], 1.5);
    /// ```
    #[inline(always)]
    pub fn regs_mut(&mut self) -> &mut [f32] {
        self.regs.as_mut()
    }

    /// The register array by value (`[f32; N / 2]`).
    ///
    /// ```
    /// let r: [f32; 4] = smemdesc::accum::WgmmaAcc::<8>::zero().into_regs();
    /// assert_eq!(r, [0.0; 4]);
    /// ```
    #[inline(always)]
    pub const fn into_regs(self) -> <Cols<N> as AccCols>::Regs {
        self.regs
    }
}
