//! An SMEM operand tile: its description ([`TileSpec`]) and everything derived from it ([`TileLayout`]).

use crate::base::arch::{Arch, Major, Order};
use crate::base::dtype::ElementType;
use crate::base::error::{Dim, Error};
use crate::base::swizzle::SwizzleMode;
use crate::tile::smem_form::SmemForm;

pub use crate::tile::layout::TileLayout;

/// What a kernel author declares about one operand tile.
///
/// Extents are in elements. `mma_mn` is the operand's extent along M/N in one MMA instruction (the
/// instruction's M for operand A, N for B); every instruction reads 32 bytes of K. `swizzle: None`
/// means "auto" (the CUTLASS selector, [`select_swizzle`]).
///
/// ```
/// use smemdesc_core::{Arch, ElementType, Major, Order, SwizzleMode, TileSpec};
/// let spec = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64)
///     .swizzle(SwizzleMode::B128)
///     .order(Order::MnFirst)
///     .mma_mn(64)
///     .stages(4);
/// assert_eq!(spec.tile_mn, 128);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileSpec {
    /// Target architecture.
    pub arch: Arch,
    /// Element type.
    pub dtype: ElementType,
    /// Contiguous dimension.
    pub major: Major,
    /// Swizzle mode; `None` selects automatically.
    pub swizzle: Option<SwizzleMode>,
    /// Atom stacking order.
    pub order: Order,
    /// Tile extent along M/N (elements).
    pub tile_mn: u32,
    /// Tile extent along K (elements).
    pub tile_k: u32,
    /// One MMA instruction's extent along M/N (elements); defaults to `tile_mn`.
    pub mma_mn: u32,
    /// Pipeline stages.
    pub stages: u32,
    /// How values sit in SMEM (default: the dense form of `dtype`; see [`SmemForm`]).
    pub form: SmemForm,
    /// Bytes of K one MMA instruction reads (32; 48 for K = 96 packed fp4).
    pub mma_k_bytes: u32,
}

impl TileSpec {
    /// A spec with automatic swizzle, MN-first stacking, `mma_mn = tile_mn` and one stage.
    ///
    /// ```
    /// use smemdesc_core::{Arch, ElementType, Major, TileSpec};
    /// let s = TileSpec::new(Arch::Sm100, ElementType::E4M3, Major::K, 128, 128);
    /// assert_eq!((s.mma_mn, s.stages, s.swizzle), (128, 1, None));
    /// ```
    pub const fn new(
        arch: Arch,
        dtype: ElementType,
        major: Major,
        tile_mn: u32,
        tile_k: u32,
    ) -> TileSpec {
        TileSpec {
            arch,
            dtype,
            major,
            swizzle: None,
            order: Order::MnFirst,
            tile_mn,
            tile_k,
            mma_mn: tile_mn,
            stages: 1,
            form: SmemForm::dense(dtype),
            mma_k_bytes: 32,
        }
    }

    /// Sets the swizzle mode.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).swizzle(SwizzleMode::B64);
    /// assert_eq!(s.swizzle, Some(SwizzleMode::B64));
    /// ```
    pub const fn swizzle(mut self, swizzle: SwizzleMode) -> TileSpec {
        self.swizzle = Some(swizzle);
        self
    }

    /// Sets the stacking order.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).order(Order::KFirst);
    /// assert_eq!(s.order, Order::KFirst);
    /// ```
    pub const fn order(mut self, order: Order) -> TileSpec {
        self.order = order;
        self
    }

    /// Sets the MMA instruction's M/N extent for this operand.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).mma_mn, 64);
    /// ```
    pub const fn mma_mn(mut self, mma_mn: u32) -> TileSpec {
        self.mma_mn = mma_mn;
        self
    }

    /// Sets the number of pipeline stages.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).stages(3).stages, 3);
    /// ```
    pub const fn stages(mut self, stages: u32) -> TileSpec {
        self.stages = stages;
        self
    }

    /// Validates the spec and derives the layout, descriptors and tables.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 128)
    ///     .swizzle(SwizzleMode::B128).mma_mn(64).build().unwrap();
    /// assert_eq!((t.lbo(), t.sbo()), (16, 1024));
    /// ```
    pub const fn build(self) -> Result<TileLayout, Error> {
        TileLayout::new(self)
    }

    /// [`build`](Self::build) for `const` items: a compile-time panic with the error's summary when the
    /// spec is illegal.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// const A: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64)
    ///     .mma_mn(64).stages(4).expect_valid();
    /// assert_eq!(A.swizzle_mode(), SwizzleMode::B128);
    /// ```
    pub const fn expect_valid(self) -> TileLayout {
        match self.build() {
            Ok(t) => t,
            Err(e) => panic!("{}", e.summary()),
        }
    }
}

/// The CUTLASS SMEM selector rule (`ss_smem_selector` for sm90, its sm100 twin): the widest swizzle
/// atom whose width divides the tile's contiguous extent in bytes (K for K-major, M/N for MN-major):
/// a multiple of 128 B → 128B, of 64 B → 64B, of 32 B → 32B, of 16 B → none.
///
/// ```
/// use smemdesc_core::{select_swizzle, ElementType, SwizzleMode};
/// assert_eq!(select_swizzle(ElementType::BF16, 64), Ok(SwizzleMode::B128)); // 128 B
/// assert_eq!(select_swizzle(ElementType::BF16, 96), Ok(SwizzleMode::B64)); // 192 B
/// assert_eq!(select_swizzle(ElementType::E4M3, 48), Ok(SwizzleMode::None)); // 48 B
/// assert!(select_swizzle(ElementType::BF16, 4).is_err()); // 8 B
/// ```
pub const fn select_swizzle(dtype: ElementType, contiguous: u32) -> Result<SwizzleMode, Error> {
    let bytes = contiguous.saturating_mul(dtype.smem_bytes());
    if bytes == 0 || bytes % 16 != 0 {
        return Err(Error::ContiguousNotMultipleOf16B {
            dim: Dim::K,
            extent: contiguous,
            bytes,
            elems_per_16b: dtype.per_16_bytes(),
        });
    }
    Ok(if bytes % 128 == 0 {
        SwizzleMode::B128
    } else if bytes % 64 == 0 {
        SwizzleMode::B64
    } else if bytes % 32 == 0 {
        SwizzleMode::B32
    } else {
        SwizzleMode::None
    })
}

/// Largest stage smemdesc will lay out before it is refused as over budget (16 MiB). Far above any
/// architecture's shared memory, it keeps every intermediate of the algebra inside `u32`, so
/// arbitrary input can never overflow (the macro runs this code with overflow checks on).
const MAX_STAGE_BYTES: u64 = 1 << 24;

/// Refuses, as [`Error::SmemBudget`], a tile whose one stage alone is larger than
/// [`MAX_STAGE_BYTES`]; values saturate so the error itself cannot overflow.
pub(crate) const fn check_size(spec: &TileSpec) -> Result<(), Error> {
    let stage = (spec.tile_mn as u64 * (spec.tile_k / spec.form.values_per_cell()) as u64)
        .saturating_mul(spec.dtype.smem_bytes() as u64);
    if stage > MAX_STAGE_BYTES {
        let total = stage.saturating_mul(spec.stages as u64);
        return Err(Error::SmemBudget {
            bytes: if total > u32::MAX as u64 {
                u32::MAX
            } else {
                total as u32
            },
            stage_bytes: if stage > u32::MAX as u64 {
                u32::MAX
            } else {
                stage as u32
            },
            stages: spec.stages,
            limit: spec.arch.max_smem_per_cta(),
        });
    }
    Ok(())
}
