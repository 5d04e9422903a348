//! Shared-memory placement and storage: placement models, the storage layout of several tiles, the emulator of how the hardware reads a descriptor.

pub(crate) mod emulator;
pub(crate) mod placement;
pub(crate) mod storage;

pub use emulator::{emulate_address, emulate_store, emulate_value};
#[doc(hidden)]
pub use placement::__place_check;
pub use placement::{Absolute, PlacedTile, Placement, PlacementModel, Relative};
pub use storage::{
    Mbarrier, MemberTile, StorageLayout, StorageMember, StorageProblem, DYNAMIC_SMEM_BASE_ALIGN,
};
