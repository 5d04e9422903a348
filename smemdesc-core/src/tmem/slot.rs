//! The shared-memory word `tcgen05.alloc` writes the allocation's TMEM address to.

/// The 4-byte shared-memory slot `tcgen05.alloc.shared::cta.b32 [slot], ncols` writes the TMEM
/// base address to (PTX: a 32-bit `.shared::cta` location). As a member of `#[smem_storage]` it
/// gets its own 4-byte-aligned offset, so it never overlaps a tile a TMA writes into.
///
/// ```
/// use smemdesc_core::TmemSlot;
/// assert_eq!((core::mem::size_of::<TmemSlot>(), core::mem::align_of::<TmemSlot>()), (4, 4));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C, align(4))]
pub struct TmemSlot {
    /// The TMEM address (lane in bits 16-31, column in bits 0-15).
    pub addr: u32,
}
