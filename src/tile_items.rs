//! The fixed part of a `#[smem_tile]` expansion, as a `macro_rules!` macro: the documented
//! inherent items (storage, the four arrays, the `const fn`s), `Default` and the `SmemTile` impl
//! (`PLAN`, `ACCESS`, the slices; the trait provides every other constant), given the numbers the
//! attribute computed. The attribute writes one invocation of it (the numbers) instead of every item's
//! tokens; the compiler expands it, which costs a fraction of passing the same tokens out of a
//! proc-macro (`benches/macro_build_time.sh`). Not an API: its input is whatever the attribute of
//! the same version writes.

/// Items of a `#[smem_tile]` struct (internal to the attribute; not an API).
///
/// ```
/// // What `#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]`
/// // gives, through this macro; its items are documented on every tile.
/// use smemdesc::SmemTile;
/// #[smemdesc::smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
/// struct T;
/// assert_eq!(T::ACCESS, T::PLAN.tile.access());
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __smem_tile_items {
    (
        $name:ident [$arch:ident $operand:ident $dtype:ident $major:ident $swizzle:ident
                     $order:ident $kind:ident]
        [$bytes:tt $desc:tt $mmas_mn:tt $mmas_k:tt $boxes:tt]
        [$($adv_mn:tt)*] [$($adv_k:tt)*] [$($box_offset:tt)*] [$($box_mn:tt $box_k:tt)*]
        [$($literal:tt)*] [$($access:tt)*]
        {$($more:tt)*}
    ) => {
        impl $name {
            /// Zeroed storage (host buffers and tests: a Rust `static` never lands in GPU shared
            /// memory; kernels place tiles in dynamic shared memory, see `smemdesc::smem`).
            pub const ZERO: Self = Self { bytes: [0; $bytes] };
            /// Zeroed storage (same as [`ZERO`](Self::ZERO)).
            #[inline]
            pub const fn new() -> Self {
                Self { bytes: [0; $bytes] }
            }
            /// The raw bytes of all stages.
            #[inline]
            pub const fn as_bytes(&self) -> &[u8; $bytes] {
                &self.bytes
            }
            /// Start-address advance of subtile `(i, 0)`, 16-byte units. Constant indices only:
            /// with a run-time index use `advance_mn(i)` (`SmemTile`), which reads no table.
            pub const ADVANCE_MN: [u16; $mmas_mn] = [$($adv_mn),*];
            /// Start-address advance of subtile `(0, j)`, 16-byte units. Constant indices only
            /// (run-time: `advance_k(j)`).
            pub const ADVANCE_K: [u16; $mmas_k] = [$($adv_k),*];
            /// Byte offset of each TMA box inside one stage. Constant indices only (run-time:
            /// `tma_box_offset(b)`).
            pub const TMA_BOX_OFFSETS: [u32; $boxes] = [$($box_offset),*];
            /// Tile coordinates `[mn0, k0]` (elements) of each TMA box. Constant indices only
            /// (run-time: `tma_box_coord(b)`).
            pub const TMA_BOX_COORDS: [[u32; 2]; $boxes] = [$([$box_mn, $box_k]),*];
            $($more)*
            /// Descriptor of MMA subtile `(mn, k)` of stage `stage` for the tile at shared-memory
            /// address `smem_addr`: [`DESC`](Self::DESC) with the start address moved (equal to
            /// the core's `TileLayout::desc`). The asserting form of `try_desc` (an `SmemTile` method, like `desc_wrapping`):
            /// out of range is a compile error in `const` and a panic naming the argument at run
            /// time (a `trap` in a nvptx64 kernel). base_offset is 0 (the absolute placement TMA
            /// writes, see `smemdesc::Placement`; `PLAN.tile.place::<Relative>(addr)` for the
            /// relative one). For valid arguments `desc(a, mn, k, s) == desc(a, 0, 0, 0) +
            /// ADVANCE_MN[mn] + ADVANCE_K[k] + s * ADVANCE_STAGE`: descriptor loops add constants.
            /// A run-time index reads no table (the advance is computed from the subtile grid).
            #[inline]
            #[track_caller]
            pub const fn desc(smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
                $crate::smem::TileAt::<Self>::new_unvalidated(smem_addr).desc(mn, k, stage)
            }
            /// Swizzled byte offset of logical element `(mn, k)` of stage 0 (for 6/4-bit types the
            /// byte cell: see `value_offset`); the asserting form of
            /// `try_offset` (an `SmemTile` method, like `offset_wrapping`) (compile error in `const`, panic at run time, a
            /// `trap` in a nvptx64 kernel).
            #[inline]
            #[track_caller]
            pub const fn offset(mn: u32, k: u32) -> u32 {
                $crate::smem::TileAt::<Self, $crate::Relative>::element_offset(mn, k)
            }
            /// Byte and bit position of value `(mn, k)` of stage 0, for every SMEM form (the
            /// nibble or 6-bit field of a padded or packed fp4/fp6 value).
            #[inline]
            pub const fn value_offset(mn: u32, k: u32) -> $crate::ValueOffset {
                $crate::smem::TileAt::<Self, $crate::Relative>::value_offset(mn, k)
            }
        }

        impl ::core::default::Default for $name {
            #[inline]
            fn default() -> Self {
                Self { bytes: [0; $bytes] }
            }
        }

        impl $crate::SmemTile for $name {
            const PLAN: $crate::TilePlan = $crate::TilePlan::from_literal(
                $crate::Operand::$operand,
                $crate::ElementType::$dtype,
                $crate::Major::$major,
                $crate::Order::$order,
                $crate::MmaKind::$kind,
                &<Self as $crate::SmemTile>::ACCESS,
                [$($literal),*],
            );
            const ACCESS: $crate::TileAccess = $crate::TileAccess::from_literal(
                $crate::Arch::$arch,
                $crate::SwizzleMode::$swizzle,
                $desc,
                [$($access),*],
            );
            const __SLICES: $crate::__private::TileSlices = $crate::__private::TileSlices {
                advance_mn: &$name::ADVANCE_MN,
                advance_k: &$name::ADVANCE_K,
                box_offsets: &$name::TMA_BOX_OFFSETS,
                box_coords: &$name::TMA_BOX_COORDS,
            };
        }
    };
}

/// The four per-tile slices of [`SmemTile`](crate::SmemTile) as one constant, what
/// `#[smem_tile]` sets (internal to the attribute; not an API).
///
/// ```
/// use smemdesc::SmemTile;
/// #[smemdesc::smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 128), major = K)]
/// struct T;
/// assert_eq!(<T as SmemTile>::__SLICES.advance_k, &T::ADVANCE_K[..]);
/// assert_eq!(<T as SmemTile>::TMA_BOX_COORDS, &T::TMA_BOX_COORDS[..]);
/// ```
///
/// An impl that sets neither it nor the four slices is a compile error where a slice is used:
///
/// ```compile_fail
/// struct Bare;
/// impl smemdesc::SmemTile for Bare {
///     const PLAN: smemdesc::TilePlan = smemdesc::TileDecl::new(
///         smemdesc::Arch::Sm90, smemdesc::Operand::A, smemdesc::ElementType::BF16,
///         smemdesc::Major::K, 64, 64).expect_valid();
/// }
/// const K: &[u16] = <Bare as smemdesc::SmemTile>::ADVANCE_K;
/// ```
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct TileSlices {
    /// `SmemTile::ADVANCE_MN`.
    pub advance_mn: &'static [u16],
    /// `SmemTile::ADVANCE_K`.
    pub advance_k: &'static [u16],
    /// `SmemTile::TMA_BOX_OFFSETS`.
    pub box_offsets: &'static [u32],
    /// `SmemTile::TMA_BOX_COORDS`.
    pub box_coords: &'static [[u32; 2]],
}
