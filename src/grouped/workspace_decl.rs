//! The declaration of a map workspace: where its slots live, how many per CTA and stage, their
//! alignment and the span the tensormap proxy fences cover.
//!
//! Facts (PTX ISA, `tensormap.replace`, `tensormap.cp_fenceproxy`, `fence.proxy.tensormap`;
//! CUDA driver API, `CUtensorMap`): a tensor map is a 128-B object, 128-B aligned; a rewrite
//! (`tensormap.replace.tile.*`) writes it in `.global` or `.shared::cta` memory; TMA reads it
//! from `.param`, `.const` or `.global` memory only, so a map rewritten in shared memory is
//! copied to its global slot with `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic
//! .release.<scope>.sync.aligned [global], [shared], 128` (the copy and the release in one),
//! where a global rewrite releases with `fence.proxy.tensormap::generic.release.<scope>`; the
//! user of the map acquires with `fence.proxy.tensormap::generic.acquire.<scope> [global], 128`.
//! The fence span, the `size` operand, is 128 bytes: the whole map.
//!
//! `.alloc_class` (named for PTX ISA 9.5 in issue 46): no public source in the stored PTX ISA
//! and CUDA documentation describes it, so the declaration has no such field and
//! [`MapWorkspaceDecl::alloc_class`] says so rather than guess.

/// Where a workspace's slots are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapSpace {
    /// A global array (a kernel parameter; its base is checked when the kernel takes it:
    /// [`MapWorkspace::from_param`](super::MapWorkspace::from_param)).
    Global,
    /// Slots in the CTA's shared memory at `offset` bytes from the storage base (a
    /// `#[smem_storage]` layout's member offset), where the kernel rewrites a map before it
    /// copies it to its global slot with `tensormap.cp_fenceproxy`.
    Shared {
        /// Bytes from the (1024-B aligned) storage base: a multiple of 128.
        offset: u32,
    },
}

/// Why a workspace declaration is refused.
///
/// ```
/// use smemdesc::grouped::{MapSpace, MapWorkspaceDecl, MapWorkspaceError};
/// assert_eq!(MapWorkspaceDecl::new(MapSpace::Shared { offset: 0x1040 }, 2, 1).err(),
///            Some(MapWorkspaceError::SlotMisaligned { offset: 0x1040 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapWorkspaceError {
    /// A shared-memory workspace whose slots are not 128-B aligned.
    SlotMisaligned {
        /// The offset given.
        offset: u32,
    },
    /// No slot per stage, no stage, or more than [`MapWorkspaceDecl::MAX_SLOTS`] slots per CTA.
    SlotCount {
        /// Slots per stage.
        slots: u32,
        /// Stages.
        stages: u32,
    },
}

impl MapWorkspaceError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            MapWorkspaceError::SlotMisaligned { offset } => write!(
                f,
                "map workspace: the shared-memory slots at offset {offset:#x} are not 128-B aligned (PTX ISA, tensormap.replace: the map is a 128-B aligned object); legal: a multiple of 128"
            ),
            MapWorkspaceError::SlotCount { slots, stages } => write!(
                f,
                "map workspace: {slots} slots per stage x {stages} stages per CTA; legal: 1 to {} slots per CTA",
                MapWorkspaceDecl::MAX_SLOTS
            ),
        }
    }
}

impl core::error::Error for MapWorkspaceError {}

/// A map workspace: `slots` 128-B maps per stage, `stages` stages per CTA, CTA-major then
/// stage then slot, in [`MapSpace`].
///
/// ```
/// use smemdesc::grouped::{MapSpace, MapWorkspaceDecl};
/// // One map per consumer warpgroup (2) and pipeline stage (4), staged in shared memory.
/// const WS: MapWorkspaceDecl = MapWorkspaceDecl::declare(MapSpace::Shared { offset: 0x8000 }, 2, 4);
/// assert_eq!(WS.cta_bytes(), 1024);
/// assert_eq!(WS.slot_offset(0, 3, 1), Some(0x8000 + 128 * 7));
/// assert!(WS.release_form().starts_with("tensormap.cp_fenceproxy.global.shared::cta"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MapWorkspaceDecl {
    space: MapSpace,
    slots: u32,
    stages: u32,
}

impl MapWorkspaceDecl {
    /// Bytes of one slot: one `CUtensorMap`.
    pub const SLOT_BYTES: u32 = 128;
    /// The alignment of every slot (and of a global workspace's base).
    pub const ALIGN: u32 = 128;
    /// The most slots per CTA (every stage's): 64 maps, 8 KiB.
    pub const MAX_SLOTS: u32 = 64;

    /// The declaration, or the rule it breaks.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert!(MapWorkspaceDecl::new(MapSpace::Global, 2, 1).is_ok());
    /// assert_eq!(MapWorkspaceDecl::new(MapSpace::Global, 0, 1).err(),
    ///            Some(MapWorkspaceError::SlotCount { slots: 0, stages: 1 }));
    /// ```
    pub const fn new(
        space: MapSpace,
        slots: u32,
        stages: u32,
    ) -> Result<MapWorkspaceDecl, MapWorkspaceError> {
        if slots == 0 || stages == 0 || slots as u64 * stages as u64 > Self::MAX_SLOTS as u64 {
            return Err(MapWorkspaceError::SlotCount { slots, stages });
        }
        if let MapSpace::Shared { offset } = space {
            if offset % Self::ALIGN != 0 {
                return Err(MapWorkspaceError::SlotMisaligned { offset });
            }
        }
        Ok(MapWorkspaceDecl {
            space,
            slots,
            stages,
        })
    }

    /// [`new`](Self::new), or a compile-time panic naming the rule (in a `const`).
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// const WS: MapWorkspaceDecl = MapWorkspaceDecl::declare(MapSpace::Global, 2, 1);
    /// assert_eq!(WS.slots(), 2);
    /// ```
    pub const fn declare(space: MapSpace, slots: u32, stages: u32) -> MapWorkspaceDecl {
        match MapWorkspaceDecl::new(space, slots, stages) {
            Ok(d) => d,
            Err(MapWorkspaceError::SlotMisaligned { .. }) => panic!(
                "map workspace: the shared-memory slots are not 128-B aligned (PTX ISA, tensormap.replace: the map is a 128-B aligned object); legal: an offset that is a multiple of 128"
            ),
            Err(MapWorkspaceError::SlotCount { .. }) => {
                panic!("map workspace: legal: 1 to 64 slots per CTA (slots per stage x stages)")
            }
        }
    }

    /// Where the slots are.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert_eq!(MapWorkspaceDecl::declare(MapSpace::Global, 1, 1).space(), MapSpace::Global);
    /// ```
    pub const fn space(&self) -> MapSpace {
        self.space
    }

    /// Slots per stage.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert_eq!(MapWorkspaceDecl::declare(MapSpace::Global, 3, 2).slots(), 3);
    /// ```
    pub const fn slots(&self) -> u32 {
        self.slots
    }

    /// Stages per CTA.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert_eq!(MapWorkspaceDecl::declare(MapSpace::Global, 3, 2).stages(), 2);
    /// ```
    pub const fn stages(&self) -> u32 {
        self.stages
    }

    /// Bytes of one CTA's slots.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert_eq!(MapWorkspaceDecl::declare(MapSpace::Global, 2, 3).cta_bytes(), 768);
    /// ```
    pub const fn cta_bytes(&self) -> u64 {
        Self::SLOT_BYTES as u64 * self.slots as u64 * self.stages as u64
    }

    /// Bytes of a global workspace for `ctas` CTAs (`None` past `u64`); a shared one's are
    /// [`cta_bytes`](Self::cta_bytes) in each CTA.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert_eq!(MapWorkspaceDecl::declare(MapSpace::Global, 2, 1).bytes(132), Some(132 * 256));
    /// ```
    pub const fn bytes(&self, ctas: u32) -> Option<u64> {
        self.cta_bytes().checked_mul(ctas as u64)
    }

    /// The byte offset of slot `i` of stage `stage` of CTA `cta` (from a global workspace's
    /// base; from the storage base in shared memory, where `cta` is ignored: each CTA has its
    /// own), or `None` for a stage or slot out of range.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// let ws = MapWorkspaceDecl::declare(MapSpace::Global, 2, 1);
    /// assert_eq!(ws.slot_offset(3, 0, 1), Some(256 * 3 + 128)); // the hand-written formula
    /// assert_eq!(ws.slot_offset(3, 0, 2), None);
    /// ```
    pub const fn slot_offset(&self, cta: u32, stage: u32, i: u32) -> Option<u64> {
        if stage >= self.stages || i >= self.slots {
            return None;
        }
        Some(self.slot_offset_wrapping(cta, stage, i))
    }

    /// [`slot_offset`](Self::slot_offset) without the range check, wrapping (the kernel's
    /// pointer arithmetic: a stage and slot the caller keeps in range).
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert_eq!(MapWorkspaceDecl::declare(MapSpace::Global, 2, 2).slot_offset_wrapping(1, 1, 0), 512 + 256);
    /// ```
    #[inline(always)]
    pub const fn slot_offset_wrapping(&self, cta: u32, stage: u32, i: u32) -> u64 {
        let slot = (stage as u64)
            .wrapping_mul(self.slots as u64)
            .wrapping_add(i as u64)
            .wrapping_mul(Self::SLOT_BYTES as u64);
        match self.space {
            MapSpace::Global => (cta as u64)
                .wrapping_mul(self.cta_bytes())
                .wrapping_add(slot),
            MapSpace::Shared { offset } => (offset as u64).wrapping_add(slot),
        }
    }

    /// The bytes the tensormap proxy fences cover for one slot (their `size` operand): the
    /// whole 128-B map.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert_eq!(MapWorkspaceDecl::declare(MapSpace::Global, 1, 1).fence_span(), 128);
    /// ```
    pub const fn fence_span(&self) -> u32 {
        Self::SLOT_BYTES
    }

    /// The instruction that publishes a rewritten slot to the tensormap proxy (GPU scope): a
    /// global slot's release fence, or a shared slot's copy-and-release to its global slot.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert_eq!(MapWorkspaceDecl::declare(MapSpace::Global, 1, 1).release_form(),
    ///            "fence.proxy.tensormap::generic.release.gpu");
    /// ```
    pub const fn release_form(&self) -> &'static str {
        match self.space {
            MapSpace::Global => "fence.proxy.tensormap::generic.release.gpu",
            MapSpace::Shared { .. } => "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [global], [shared], 128",
        }
    }

    /// The acquire a user of the (global) map issues before TMA reads it, either space.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert!(MapWorkspaceDecl::declare(MapSpace::Global, 1, 1).acquire_form().ends_with("[global], 128"));
    /// ```
    pub const fn acquire_form(&self) -> &'static str {
        "fence.proxy.tensormap::generic.acquire.gpu [global], 128"
    }

    /// The `.alloc_class` of the slots: `None`, always. Issue 46 names a PTX 9.5
    /// `.alloc_class` for map slots; no public source in the stored PTX ISA or CUDA
    /// documentation describes it, so the declaration does not model it.
    ///
    /// ```
    /// # use smemdesc::grouped::*;
    /// assert_eq!(MapWorkspaceDecl::declare(MapSpace::Global, 1, 1).alloc_class(), None);
    /// ```
    pub const fn alloc_class(&self) -> Option<&'static str> {
        None
    }
}
