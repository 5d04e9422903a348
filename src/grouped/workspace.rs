//! A device-side map workspace: tensor-map slots per CTA and per stage, in global or shared
//! memory, addressed by the declaration ([`MapWorkspaceDecl`]) instead of by hand
//! (`slots + 256·ctaid + 128·i`).

use super::{GroupedMapDecl, MapSlot, Released};

pub use super::workspace_decl::{MapSpace, MapWorkspaceDecl, MapWorkspaceError};

/// `SLOTS` 128-B tensor-map slots per CTA and stage (`STAGES`, 1 unless given) of a grid,
/// CTA-major, then stage, in global memory ([`LAYOUT`](Self::LAYOUT)): what a grouped kernel
/// rewrites between groups. `#[repr(transparent)]` over the array's address, so
/// it *is* the kernel parameter; the host allocates [`bytes`](Self::bytes) at a 128-B aligned
/// address and writes the template maps into it (`cuda::upload`).
///
/// A slot is taken by a constant index ([`slot`](Self::slot)): no run-time bound, no trap
/// path, and an index past `SLOTS` does not compile. It borrows the workspace mutably, so one
/// handle of a thread's program names one slot at a time.
///
/// ```
/// use smemdesc::grouped::*;
/// # use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType};
/// # struct MapC;
/// # impl GroupedMapDecl for MapC {
/// #     const MAP: GroupedMap = GroupedMap::declare(
/// #         TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 4096).box_dim(0, 64).box_dim(1, 128),
/// #         &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)]);
/// # }
/// // Two slots per CTA (one per consumer warpgroup), 132 CTAs.
/// assert_eq!(MapWorkspace::<2>::bytes(132), Some(132 * 256));
/// let mut ws = MapWorkspace::<2>::from_param(0x7000_0000).unwrap();
/// assert_eq!(ws.slot::<1, MapC>(3).slot(), 0x7000_0000 + 256 * 3 + 128);
/// // A misaligned array is refused, not rounded.
/// assert_eq!(MapWorkspace::<2>::from_param(0x7000_0003).err(), Some(MisalignedWorkspace { address: 0x7000_0003 }));
/// ```
#[repr(transparent)]
pub struct MapWorkspace<const SLOTS: usize, const STAGES: usize = 1> {
    base: u64,
}

/// A workspace address that is not 128-B aligned (`tensormap.replace` and the tensormap proxy
/// fences take a 128-B aligned map: PTX ISA, `tensormap.replace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MisalignedWorkspace {
    /// The address given.
    pub address: u64,
}

impl core::fmt::Display for MisalignedWorkspace {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "map workspace at {:#x}: not 128-B aligned (PTX ISA, tensormap.replace: the map is a 128-B aligned object); legal: a multiple of 128",
            self.address
        )
    }
}

impl core::error::Error for MisalignedWorkspace {}

impl<const SLOTS: usize, const STAGES: usize> MapWorkspace<SLOTS, STAGES> {
    /// The declaration: global memory, `SLOTS` per CTA and stage, `STAGES` stages (a
    /// workspace of no slot, or of more than [`MapWorkspaceDecl::MAX_SLOTS`] per CTA, does not
    /// compile).
    ///
    /// ```
    /// use smemdesc::grouped::{MapSpace, MapWorkspace};
    /// assert_eq!(MapWorkspace::<2, 3>::LAYOUT.space(), MapSpace::Global);
    /// assert_eq!(MapWorkspace::<2, 3>::LAYOUT.cta_bytes(), 768);
    /// ```
    pub const LAYOUT: MapWorkspaceDecl =
        MapWorkspaceDecl::declare(MapSpace::Global, SLOTS as u32, STAGES as u32);

    /// Bytes of one CTA's slots (every stage's).
    pub const CTA_BYTES: u64 = Self::LAYOUT.cta_bytes();

    /// Bytes of the workspace of a grid of `ctas` CTAs (`None` past `u64`).
    ///
    /// ```
    /// assert_eq!(smemdesc::grouped::MapWorkspace::<4>::bytes(1), Some(512));
    /// ```
    pub const fn bytes(ctas: u32) -> Option<u64> {
        Self::LAYOUT.bytes(ctas)
    }

    /// The workspace of a kernel parameter, checked for the slot alignment.
    ///
    /// ```
    /// assert!(smemdesc::grouped::MapWorkspace::<1>::from_param(0x1000).is_ok());
    /// ```
    pub const fn from_param(base: u64) -> Result<Self, MisalignedWorkspace> {
        if base % MapWorkspaceDecl::ALIGN as u64 != 0 {
            return Err(MisalignedWorkspace { address: base });
        }
        Ok(MapWorkspace { base })
    }

    /// Slot `I` of CTA `cta` (its `%ctaid` in the grid the workspace was sized for), as the
    /// host wrote it. `I < SLOTS` is checked when the call is compiled.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// # use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType};
    /// # struct MapC;
    /// # impl GroupedMapDecl for MapC {
    /// #     const MAP: GroupedMap = GroupedMap::declare(
    /// #         TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 4096).box_dim(0, 64).box_dim(1, 128),
    /// #         &[TensorMapArg::GlobalAddress]);
    /// # }
    /// let mut ws = MapWorkspace::<2>::from_param(0).unwrap();
    /// assert_eq!(ws.slot::<0, MapC>(1).slot(), 256);
    /// ```
    #[inline(always)]
    pub fn slot<const I: usize, M: GroupedMapDecl>(
        &mut self,
        cta: u32,
    ) -> MapSlot<'_, M, Released> {
        self.stage_slot::<I, M>(cta, 0)
    }

    /// Slot `I` of stage `stage` of CTA `cta` ([`MapWorkspaceDecl::slot_offset`], wrapping
    /// like the pointer arithmetic it replaces; a stage at or past `STAGES` wraps to
    /// `stage % STAGES`, so no run-time bound and no trap path). `I < SLOTS` is checked when
    /// the call is compiled.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// # use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType};
    /// # struct MapC;
    /// # impl GroupedMapDecl for MapC {
    /// #     const MAP: GroupedMap = GroupedMap::declare(
    /// #         TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 4096).box_dim(0, 64).box_dim(1, 128),
    /// #         &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)]);
    /// # }
    /// // 2 slots per stage, 3 stages: CTA 1's stage 2, slot 1 is 128 * (6 + 2 * 2 + 1) B in.
    /// let mut ws = MapWorkspace::<2, 3>::from_param(0).unwrap();
    /// assert_eq!(ws.stage_slot::<1, MapC>(1, 2).slot(), 128 * 11);
    /// ```
    #[inline(always)]
    pub fn stage_slot<const I: usize, M: GroupedMapDecl>(
        &mut self,
        cta: u32,
        stage: u32,
    ) -> MapSlot<'_, M, Released> {
        const {
            assert!(I < SLOTS, "map workspace: slot index I must be below SLOTS");
        }
        let stage = if STAGES == 1 {
            0
        } else {
            stage % STAGES as u32
        };
        let at = self
            .base
            .wrapping_add(Self::LAYOUT.slot_offset_wrapping(cta, stage, I as u32));
        MapSlot::at_workspace(at)
    }
}
