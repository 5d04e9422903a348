//! The vocabulary every other group uses: architectures, element types, swizzle modes, the error type, const text. Imports nothing from the other groups.

pub(crate) mod arch;
pub(crate) mod arch_limits;
pub(crate) mod base_range;
pub(crate) mod dtype;
pub(crate) mod error;
pub(crate) mod error_data;
pub(crate) mod error_text;
pub(crate) mod kind;
pub(crate) mod smem_form;
pub(crate) mod swizzle;
pub(crate) mod text;
pub(crate) mod tile_keys;
pub(crate) mod tma_types;

pub use arch::{Arch, Major, Order};
pub use arch_limits::{ArchGap, ArchLimits, Fact, ARCH_LIMITS};
pub use dtype::ElementType;
pub use error::{Argument, Dim, Error, Field};
pub use error_data::{BoxSource, Indexed, Legal};
pub use kind::{AccumType, MmaKind, Operand, ScaleFormat};
pub use smem_form::{SmemForm, ValueOffset};
pub use swizzle::{Swizzle, SwizzleMode};
pub use text::ConstText;
pub use tile_keys::{EPI_KEYS, FRAG_KEYS, MMA_KEYS, TILE_KEYS};
pub use tma_types::{TmaDataType, TmaSwizzle};

/// The most (shape, stride) pairs one mode of a [`Layout`](crate::Layout) holds.
///
/// ```
/// assert_eq!(smemdesc_core::MAX_SUBMODES, 4);
/// ```
pub const MAX_SUBMODES: usize = 4;
