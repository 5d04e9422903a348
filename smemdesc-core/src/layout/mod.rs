//! Layout algebra and the SMEM matrix descriptor: layouts, swizzle atoms, canonical forms, descriptor fields.

pub(crate) mod algebra;
pub(crate) mod atom;
pub(crate) mod canonical;
pub(crate) mod descriptor;
pub(crate) mod radix;

pub use algebra::{Layout, Mode, SwizzledLayout, MAX_SUBMODES};
pub use atom::Atom;
pub use canonical::{CanonicalForm, Slot};
pub use descriptor::{layout_type_code, layout_type_from_code, DescriptorFields, SmemDescriptor};
pub use radix::Radix;
