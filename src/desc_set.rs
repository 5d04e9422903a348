//! A per-stage descriptor set: every MMA subtile's descriptor of one stage (all k-steps, all
//! M/N subtiles, i.e. every warpgroup's rows), checked once where it is formed, outside the
//! `wgmma` region, and read inside it without a check or a branch.
//!
//! Why: a checked form (`desc`, `try_desc`, `advance_mn(wg)`) inside the loop between
//! `wgmma.fence` and `wgmma.commit_group` puts its trap path (a divergent branch) in the region,
//! and ptxas serialises every `wgmma` of the kernel (C7518/C7520, issue 43; the CLI chapter of
//! the guide shows the pattern).

use crate::radix::reduce;
use crate::smem::TileAt;
use crate::{Error, Indexed, SmemTile};
use smemdesc_core::access::__cold::{__index_error, __start_result, __unaligned_error};
use smemdesc_core::PlacementModel;

/// The descriptors of one stage of a placed tile, checked once by
/// [`TileAt::stage_descs`]: [`desc`](StageDescs::desc) is then branch-free.
///
/// ```
/// use smemdesc::{prelude::*, smem::TileAt};
/// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
///             mma = m64n256k16, stages = 4)]
/// struct T;
/// let t = TileAt::<T>::new_unvalidated(0x400);
/// let s = t.stage_descs(2).unwrap(); // once per stage, before wgmma.fence
/// for k in 0..T::MMAS_K {
///     assert_eq!(s.desc(1, k), t.desc(1, k, 2)); // in the region: no check, no trap
/// }
/// assert!(t.stage_descs(4).is_err());
/// ```
pub struct StageDescs<T, M = smemdesc_core::Absolute> {
    at: TileAt<T, M>,
    stage: u32,
}

impl<T, M> Clone for StageDescs<T, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, M> Copy for StageDescs<T, M> {}

impl<T, M> core::fmt::Debug for StageDescs<T, M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StageDescs")
            .field("at", &self.at)
            .field("stage", &self.stage)
            .finish()
    }
}

impl<T: SmemTile, M: PlacementModel> TileAt<T, M> {
    /// The descriptor set of stage `stage`: the stage index, the base's alignment and the
    /// descriptors' 18-bit start range checked once (the same errors as
    /// [`try_desc`](TileAt::try_desc) for that stage), so that every `(mn, k)` inside the
    /// tile's subtile grid is legal.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
    /// struct B;
    /// let e = TileAt::<B>::new_unvalidated(0x404).stage_descs(0).unwrap_err();
    /// assert!(matches!(e, Error::UnalignedBase { .. }));
    /// ```
    #[inline(always)]
    pub const fn stage_descs(&self, stage: u32) -> Result<StageDescs<T, M>, Error> {
        // `try_desc(0, 0, stage)`'s checks (subtile (0, 0) always exists), the error built in a
        // cold function: this builds no `Error` and unwraps no `Result`.
        if stage >= T::STAGES {
            return __index_error(Indexed::Stage, stage, T::STAGES);
        }
        if reduce!(self.addr(), T::ACCESS.align) != 0 {
            return __unaligned_error(self.addr(), T::ACCESS.align);
        }
        if self.start_out_of_range() {
            return __start_result(self.addr(), T::ACCESS.last_start, T::ACCESS.align);
        }
        Ok(StageDescs { at: *self, stage })
    }
}

impl<T: SmemTile, M: PlacementModel> StageDescs<T, M> {
    /// The stage.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, stages = 2)]
    /// # struct T;
    /// assert_eq!(TileAt::<T>::new_unvalidated(0).stage_descs(1).unwrap().stage(), 1);
    /// ```
    #[inline(always)]
    pub const fn stage(&self) -> u32 {
        self.stage
    }

    /// The descriptor of MMA subtile `(mn, k)` of this stage, without a check: `mn` and `k`
    /// are taken modulo `MMAS_MN` and `MMAS_K` ([`TileAt::desc_wrapping`]); inside the grid it
    /// is [`TileAt::desc`]'s value. No branch, no trap: safe between `wgmma.fence` and
    /// `wgmma.commit_group`.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K,
    ///             swizzle = 64B, mma = m64n256k32, stages = 3)]
    /// struct A8;
    /// let t = TileAt::<A8>::new_unvalidated(0x800);
    /// let s = t.stage_descs(1).unwrap();
    /// assert_eq!(s.desc(1, 3), t.desc(1, 3, 1));
    /// assert_eq!(s.desc(1, 3 + A8::MMAS_K), s.desc(1, 3)); // wraps, never traps
    /// ```
    #[inline(always)]
    pub const fn desc(&self, mn: u32, k: u32) -> u64 {
        self.at.desc_wrapping(mn, k, self.stage)
    }
}
