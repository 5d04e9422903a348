//! A device-side map workspace: `SLOTS` tensor-map slots per CTA in one global array, addressed
//! by the declaration instead of by hand (`slots + 256·ctaid + 128·i`).

use super::{GroupedMapDecl, MapSlot, Released};

/// `SLOTS` 128-B tensor-map slots per CTA of a grid, CTA-major, in global memory: what a
/// grouped kernel rewrites between groups. `#[repr(transparent)]` over the array's address, so
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
pub struct MapWorkspace<const SLOTS: usize> {
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

impl<const SLOTS: usize> MapWorkspace<SLOTS> {
    /// Bytes of one CTA's slots.
    pub const CTA_BYTES: u64 = 128 * SLOTS as u64;

    /// Bytes of the workspace of a grid of `ctas` CTAs (`None` past `u64`).
    ///
    /// ```
    /// assert_eq!(smemdesc::grouped::MapWorkspace::<4>::bytes(1), Some(512));
    /// ```
    pub const fn bytes(ctas: u32) -> Option<u64> {
        Self::CTA_BYTES.checked_mul(ctas as u64)
    }

    /// The workspace of a kernel parameter, checked for the slot alignment.
    ///
    /// ```
    /// assert!(smemdesc::grouped::MapWorkspace::<1>::from_param(0x1000).is_ok());
    /// ```
    pub const fn from_param(base: u64) -> Result<Self, MisalignedWorkspace> {
        if base % 128 != 0 {
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
        const {
            assert!(I < SLOTS, "map workspace: slot index I must be below SLOTS");
        }
        let at = self
            .base
            .wrapping_add((cta as u64).wrapping_mul(Self::CTA_BYTES))
            .wrapping_add(128 * I as u64);
        MapSlot::at_workspace(at)
    }
}
