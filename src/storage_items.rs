//! What a `#[smem_storage]` expansion calls instead of spelling out (internal to the attribute;
//! not an API): each helper is the body a generated item had, written once here so that every
//! storage declaration costs the compiler less (`benches/decl_build_time.sh`).

use crate::smem::{Placement, StorageLayout, StorageMember};
use crate::SmemTile;

/// The storage member of tile type `T`: [`StorageMember::tile`] over `T::PLAN.tile`, read
/// through the tile's own constants (`BYTES`, `ALIGN`, `ARCH`, evaluated once per tile type),
/// so that a storage does not copy and walk the tile's layout for every member.
///
/// ```
/// use smemdesc::{smem::{Placement, StorageMember}, smem_tile, SmemTile};
/// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 3)]
/// struct T;
/// for p in [None, Some(Placement::Absolute), Some(Placement::Relative)] {
///     let m = smemdesc::__private::tile_member::<T>("a", p);
///     assert_eq!(m, StorageMember::tile("a", T::PLAN.tile, p));
/// }
/// ```
#[inline]
pub const fn tile_member<T: SmemTile>(
    name: &'static str,
    placement: Option<Placement>,
) -> StorageMember {
    let mut m = StorageMember::new(name, T::BYTES, T::ALIGN);
    if let Some(p) = placement {
        m.align = p.min_align(&T::PLAN.tile);
    }
    m.tile = Some(smemdesc_core::MemberTile {
        arch: T::ARCH,
        align: T::ALIGN,
    });
    m.placement = placement;
    m
}

/// `base + offset` as a pointer to a member of type `T` (a storage's `*_ptr` accessors).
///
/// ```
/// let mut buf = [0u8; 64];
/// let p: *mut u64 = smemdesc::__private::member_ptr(buf.as_mut_ptr(), 16);
/// assert_eq!(p as usize, buf.as_ptr() as usize + 16);
/// ```
#[inline(always)]
pub fn member_ptr<T>(base: *mut u8, offset: u32) -> *mut T {
    base.wrapping_add(offset as usize).cast()
}

/// `(offset, bytes, align)` of every member of `layout`: what a storage's `__SMEM_NUMBERS`
/// constant holds, so that each member constant reads a tuple field.
///
/// ```
/// use smemdesc::smem::{StorageLayout, StorageMember};
/// use smemdesc::prelude::Arch;
/// let l = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 4), StorageMember::new("y", 8, 128)]);
/// assert_eq!(smemdesc::__private::member_numbers(&l), [(0, 4, 4), (128, 8, 128)]);
/// ```
pub const fn member_numbers<const N: usize>(layout: &StorageLayout<N>) -> [(u32, u32, u32); N] {
    let mut r = [(0, 0, 0); N];
    let mut i = 0;
    while i < N {
        r[i] = (
            layout.offset(i),
            layout.member_bytes(i),
            layout.member_align(i),
        );
        i += 1;
    }
    r
}
