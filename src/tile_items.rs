//! The fixed part of a `#[smem_tile]` expansion, as a `macro_rules!` macro: the documented
//! inherent items, `Default` and the `SmemTile` impl of a tile, given the numbers the attribute
//! computed. The attribute writes one invocation of it (the numbers) instead of every item's
//! tokens; the compiler expands it, which costs a fraction of passing the same tokens out of a
//! proc-macro (`benches/macro_build_time.sh`). Not an API: its input is whatever the attribute of
//! the same version writes.

/// Items of a `#[smem_tile]` struct (internal to the attribute; not an API).
///
/// ```
/// // What `#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]`
/// // gives, through this macro; its items are documented on every tile.
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
        [$bytes:tt $cta_group:tt $tile_mn:tt $tile_k:tt $desc:tt $lbo:tt $sbo:tt $layout_type:tt
         $mma_m:tt $mma_n:tt $mma_k:tt $mmas_mn:tt $mmas_k:tt $adv_stage:tt $stages:tt
         $stage_bytes:tt $align:tt $box_inner:tt $box_rows:tt $boxes:tt $box_bytes:tt
         $tma_swizzle:tt $tma_dtype:tt]
        [$tma_swizzle_name:tt $tma_dtype_name:tt]
        [$($adv_mn:tt)*] [$($adv_k:tt)*] [$($box_offset:tt)*] [$($box_mn:tt $box_k:tt)*]
        [$($literal:tt)*] [$($access:tt)*]
        {$($more:tt)*}
    ) => {
        impl $name {
            /// The validated core plan this tile was generated from (`TileDecl::build()` of the
            /// declaration; the other items are literals the attribute computed from it).
            pub const PLAN: $crate::TilePlan = $crate::TilePlan::from_literal(
                Self::OPERAND,
                Self::DTYPE,
                Self::MAJOR,
                Self::ORDER,
                Self::KIND,
                &Self::ACCESS,
                [$($literal),*],
            );
            /// Zeroed storage (host buffers and tests: a Rust `static` never lands in GPU shared
            /// memory; kernels place tiles in dynamic shared memory, see `smemdesc::smem`).
            pub const ZERO: Self = Self { bytes: [0; $bytes] };
            /// Zeroed storage (same as [`ZERO`](Self::ZERO)).
            #[inline]
            pub const fn new() -> Self {
                Self::ZERO
            }
            /// Address of the first byte (element (0, 0) of stage 0).
            #[inline]
            pub const fn as_ptr(&self) -> *const u8 {
                self.bytes.as_ptr()
            }
            /// Mutable address of the first byte.
            #[inline]
            pub fn as_mut_ptr(&mut self) -> *mut u8 {
                self.bytes.as_mut_ptr()
            }
            /// The raw bytes of all stages.
            #[inline]
            pub const fn as_bytes(&self) -> &[u8; $bytes] {
                &self.bytes
            }

            /// Target architecture.
            pub const ARCH: $crate::Arch = $crate::Arch::$arch;
            /// Operand (A or B).
            pub const OPERAND: $crate::Operand = $crate::Operand::$operand;
            /// Element type.
            pub const DTYPE: $crate::ElementType = $crate::ElementType::$dtype;
            /// Contiguous dimension.
            pub const MAJOR: $crate::Major = $crate::Major::$major;
            /// Swizzle mode (resolved when `auto`).
            pub const SWIZZLE: $crate::SwizzleMode = $crate::SwizzleMode::$swizzle;
            /// Atom stacking order (resolved when defaulted).
            pub const ORDER: $crate::Order = $crate::Order::$order;
            /// MMA kind.
            pub const KIND: $crate::MmaKind = $crate::MmaKind::$kind;
            /// CTA group (sm100: 1 or 2).
            pub const CTA_GROUP: u32 = $cta_group;
            /// Tile extent along M (A) or N (B), elements.
            pub const TILE_MN: u32 = $tile_mn;
            /// Tile extent along K, elements.
            pub const TILE_K: u32 = $tile_k;
            /// Base descriptor: subtile (0, 0), stage 0, start address 0.
            pub const DESC: u64 = $desc;
            /// Leading dimension byte offset, bytes (as encoded).
            pub const LBO: u32 = $lbo;
            /// Stride dimension byte offset, bytes.
            pub const SBO: u32 = $sbo;
            /// Descriptor layout-type code on this architecture.
            pub const LAYOUT_TYPE: u8 = $layout_type;
            /// Instruction M.
            pub const MMA_M: u32 = $mma_m;
            /// Instruction N.
            pub const MMA_N: u32 = $mma_n;
            /// Instruction K (elements; 32 bytes).
            pub const MMA_K: u32 = $mma_k;
            /// MMA subtiles along M/N.
            pub const MMAS_MN: u32 = $mmas_mn;
            /// MMA subtiles along K.
            pub const MMAS_K: u32 = $mmas_k;
            /// Start-address advance of subtile `(i, 0)`, 16-byte units.
            pub const ADVANCE_MN: [u16; $mmas_mn] = [$($adv_mn),*];
            /// Start-address advance of subtile `(0, j)`, 16-byte units.
            pub const ADVANCE_K: [u16; $mmas_k] = [$($adv_k),*];
            /// Start-address advance of one stage, 16-byte units.
            pub const ADVANCE_STAGE: u32 = $adv_stage;
            /// Pipeline stages.
            pub const STAGES: u32 = $stages;
            /// Bytes of one stage.
            pub const STAGE_BYTES: u32 = $stage_bytes;
            /// Bytes of all stages (the struct's size).
            pub const BYTES: u32 = $bytes;
            /// Alignment of the storage, bytes.
            pub const ALIGN: u32 = $align;
            /// `boxDim` of `cuTensorMapEncodeTiled`, in the driver's order (innermost first):
            /// `[inner, rows]` (the key `tma_box = (rows, inner)` is in tile order).
            pub const TMA_BOX_DIM: [u32; 2] = [$box_inner, $box_rows];
            /// Former name of `TMA_BOX_DIM`.
            #[doc(hidden)]
            #[deprecated(since = "0.2.0", note = "renamed to `TMA_BOX_DIM` (the driver's `boxDim`, innermost first; user-facing shapes are (rows, inner))")]
            pub const TMA_BOX: [u32; 2] = Self::TMA_BOX_DIM;
            /// TMA boxes per stage.
            pub const TMA_BOXES: u32 = $boxes;
            /// Bytes of one TMA box.
            pub const TMA_BOX_BYTES: u32 = $box_bytes;
            /// `CUtensorMapSwizzle` value.
            pub const TMA_SWIZZLE: u32 = $tma_swizzle;
            /// `CUtensorMapSwizzle` enumerator name.
            pub const TMA_SWIZZLE_NAME: &'static str = $tma_swizzle_name;
            /// `CUtensorMapDataType` value.
            pub const TMA_DATA_TYPE: u32 = $tma_dtype;
            /// `CUtensorMapDataType` enumerator name.
            pub const TMA_DATA_TYPE_NAME: &'static str = $tma_dtype_name;
            /// Byte offset of each TMA box inside one stage.
            pub const TMA_BOX_OFFSETS: [u32; $boxes] = [$($box_offset),*];
            /// Tile coordinates `[mn0, k0]` (elements) of each TMA box.
            pub const TMA_BOX_COORDS: [[u32; 2]; $boxes] = [$([$box_mn, $box_k]),*];
            $($more)*

            /// Run-time access numbers (literals, with the plan's subtile grid and swizzled layout)
            /// and the checks of the one contract (`smemdesc::access`): what `desc`, `try_desc`,
            /// `offset`, … evaluate.
            pub const ACCESS: $crate::TileAccess = $crate::TileAccess::from_literal(
                Self::ARCH,
                Self::SWIZZLE,
                Self::DESC,
                [$($access),*],
            );

            /// Descriptor of MMA subtile `(mn, k)` of stage `stage` for the tile at shared-memory
            /// address `smem_addr`, checked: an index out of range (`mn < MMAS_MN`, `k < MMAS_K`,
            /// `stage < STAGES`), an address off 128 B (16 B unswizzled) or a tile reaching past
            /// the 14-bit start-address field is the core's typed error.
            #[inline]
            pub const fn try_desc(
                smem_addr: u32,
                mn: u32,
                k: u32,
                stage: u32,
            ) -> ::core::result::Result<$crate::SmemDescriptor, $crate::Error> {
                Self::ACCESS.try_desc(smem_addr, mn, k, stage)
            }
            /// Descriptor of MMA subtile `(mn, k)` of stage `stage` for the tile at shared-memory
            /// address `smem_addr`: [`DESC`](Self::DESC) with the start address moved (equal to
            /// the core's `TileLayout::desc`). The asserting form of [`try_desc`](Self::try_desc):
            /// out of range is a compile error in `const` and a panic naming the argument at run
            /// time (a `trap` in a nvptx64 kernel). base_offset is 0 (the absolute placement TMA
            /// writes, see `smemdesc::Placement`; `PLAN.tile.place::<Relative>(addr)` for the
            /// relative one). For valid arguments `desc(a, mn, k, s) == desc(a, 0, 0, 0) +
            /// ADVANCE_MN[mn] + ADVANCE_K[k] + s * ADVANCE_STAGE`: descriptor loops add constants.
            /// A run-time index reads no table (the advance is computed from the subtile grid).
            #[inline]
            #[track_caller]
            pub const fn desc(smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
                Self::ACCESS.desc(smem_addr, mn, k, stage)
            }
            /// [`desc`](Self::desc) without checks, never a panic: `mn`, `k` are taken modulo
            /// `MMAS_MN`, `MMAS_K`, the stage advance wraps, the start address is taken modulo
            /// the 14-bit field. Meaningful only for `mn < MMAS_MN`, `k < MMAS_K`,
            /// `stage < STAGES` and `smem_addr` a 128-B-aligned shared-window address (tile below
            /// 256 KiB): shifts, adds and an `and` in a kernel.
            #[inline]
            pub const fn desc_wrapping(smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
                Self::ACCESS.desc_wrapping(smem_addr, mn, k, stage)
            }
            /// Former name of [`desc_wrapping`](Self::desc_wrapping), kept for one release.
            #[doc(hidden)]
            #[deprecated(since = "0.2.0", note = "renamed to `desc_wrapping` (a safe function; `_unchecked` suggested `unsafe`)")]
            #[inline]
            pub const fn desc_unchecked(smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
                Self::desc_wrapping(smem_addr, mn, k, stage)
            }
            /// Swizzled byte offset of logical element `(mn, k)` of stage 0, checked
            /// (`mn < TILE_MN`, `k < TILE_K`).
            #[inline]
            pub const fn try_offset(mn: u32, k: u32) -> ::core::result::Result<u32, $crate::Error> {
                Self::ACCESS.try_offset(mn, k)
            }
            /// Swizzled byte offset of logical element `(mn, k)` of stage 0 (for 6/4-bit types the
            /// byte cell: see `value_offset`); the asserting form of
            /// [`try_offset`](Self::try_offset) (compile error in `const`, panic at run time, a
            /// `trap` in a nvptx64 kernel).
            #[inline]
            #[track_caller]
            pub const fn offset(mn: u32, k: u32) -> u32 {
                Self::ACCESS.offset(mn, k)
            }
            /// [`offset`](Self::offset) without checks: `(mn % TILE_MN, k % TILE_K)`.
            #[inline]
            pub const fn offset_wrapping(mn: u32, k: u32) -> u32 {
                Self::ACCESS.offset_wrapping(mn, k)
            }
            /// Former name of [`offset_wrapping`](Self::offset_wrapping), kept for one release.
            #[doc(hidden)]
            #[deprecated(since = "0.2.0", note = "renamed to `offset_wrapping` (a safe function; `_unchecked` suggested `unsafe`)")]
            #[inline]
            pub const fn offset_unchecked(mn: u32, k: u32) -> u32 {
                Self::offset_wrapping(mn, k)
            }
            /// Byte and bit position of value `(mn, k)` of stage 0, for every SMEM form (the
            /// nibble or 6-bit field of a padded or packed fp4/fp6 value).
            #[inline]
            pub const fn value_offset(mn: u32, k: u32) -> $crate::ValueOffset {
                Self::PLAN.tile.value_offset(mn, k)
            }
        }

        impl ::core::default::Default for $name {
            #[inline]
            fn default() -> Self {
                Self::ZERO
            }
        }

        // The trait provides its other constants from `PLAN` and the slices (evaluated only where
        // used): two items per declaration keep it cheap to build.
        impl $crate::SmemTile for $name {
            const PLAN: $crate::TilePlan = $name::PLAN;
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
