//! [`TileLayout`]: a validated tile, with its descriptors, offsets and tables.

use crate::base::arch::Major;
use crate::base::error::{Dim, Error, Field};
use crate::base::swizzle::SwizzleMode;
use crate::layout::algebra::{Layout, SwizzledLayout};
use crate::layout::atom::Atom;
use crate::layout::canonical::CanonicalForm;
use crate::layout::descriptor::{DescriptorFields, SmemDescriptor};
use crate::tile::spec::{check_size, select_swizzle, TileSpec};

/// A validated tile and everything derived from it through the layout algebra.
///
/// Four levels: the tile (one stage) is a grid of swizzle atoms ([`Atom`]) stacked by
/// [`Order`](crate::Order); it is cut into MMA subtiles of `mma_mn × (32 bytes of K)`, each described by one
/// descriptor; each subtile is made of 8-row × 16-byte core matrices.
///
/// The worked example of the spec (§6): bf16 K-major SW128 128×128, MN-first, M = 64:
///
/// ```
/// # use smemdesc_core::*;
/// const T: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 128)
///     .swizzle(SwizzleMode::B128).mma_mn(64).expect_valid();
/// assert_eq!((T.mmas_mn(), T.mmas_k()), (2, 8));
/// // K offsets 0, 32, 64, 96, 16384, ... bytes; M offset 8192 bytes (16-byte units below)
/// assert_eq!(T.advance_k(4), 16384 / 16);
/// assert_eq!(T.advance_mn(1), 8192 / 16);
/// assert_eq!(T.sbo(), 1024);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileLayout {
    pub(super) spec: TileSpec,
    pub(super) swizzle: SwizzleMode,
    pub(super) atom: Atom,
    pub(super) layout: Layout,
    pub(super) grid: Layout,
    pub(super) lbo_units: u32,
    pub(super) sbo_units: u32,
    pub(super) base: SmemDescriptor,
}

impl TileLayout {
    /// Validates `spec` and derives the layout. Same as [`TileSpec::build`].
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let e = TileLayout::new(TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).stages(0));
    /// assert_eq!(e, Err(Error::ZeroStages));
    /// ```
    pub const fn new(spec: TileSpec) -> Result<TileLayout, Error> {
        if spec.stages == 0 {
            return Err(Error::ZeroStages);
        }
        if spec.tile_mn == 0 || spec.mma_mn == 0 {
            return Err(Error::ZeroExtent { dim: Dim::Mn });
        }
        if spec.tile_k == 0 {
            return Err(Error::ZeroExtent { dim: Dim::K });
        }
        tri!(check_size(&spec));
        tri!(crate::tile::smem_form::check_form(&spec));
        let dtype = spec.dtype;
        // Values per cell along K (2 for packed fp4, which is K-major only); the layout algebra
        // below runs on cells, extents in errors are reported in values.
        let vpc = spec.form.values_per_cell();
        let (cdim, contiguous) = match spec.major {
            Major::K => (Dim::K, spec.tile_k),
            Major::Mn => (Dim::Mn, spec.tile_mn),
        };
        let ebytes = dtype.smem_bytes();
        let per16 = spec.form.values_per_16_bytes(dtype);
        if contiguous % per16 != 0 {
            return Err(Error::ContiguousNotMultipleOf16B {
                dim: cdim,
                extent: contiguous,
                bytes: contiguous * ebytes / vpc,
                elems_per_16b: per16,
            });
        }
        let swizzle = match spec.swizzle {
            Some(s) => s,
            // A 48-byte K block fits no swizzle atom row evenly (see `check_form`).
            None if spec.mma_k_bytes == 48 => SwizzleMode::None,
            None => tri!(select_swizzle(dtype, contiguous / vpc)),
        };
        tri!(crate::tile::smem_form::check_k_block(&spec, swizzle));
        if crate::layout::descriptor::layout_type_code(spec.arch, swizzle).is_none() {
            return Err(Error::SwizzleNotOnArch {
                swizzle,
                arch: spec.arch,
            });
        }
        if matches!(swizzle, SwizzleMode::B128Base32B)
            && !(matches!(spec.major, Major::Mn) && ebytes == 4)
        {
            return Err(Error::SwizzleNotForOperand {
                swizzle,
                major: spec.major,
                dtype,
            });
        }
        let atom = tri!(Atom::new(spec.major, swizzle, dtype));
        if spec.tile_mn % atom.mn_extent() != 0 {
            return Err(crate::tile::advice::advise_spec(
                spec,
                swizzle,
                Error::TileNotWholeAtoms {
                    dim: Dim::Mn,
                    extent: spec.tile_mn,
                    atom_extent: atom.mn_extent(),
                    atom_bytes: swizzle.atom_bytes(),
                    narrower: None,
                },
            ));
        }
        if spec.tile_k % (atom.k_extent() * vpc) != 0 {
            return Err(crate::tile::advice::advise_spec(
                spec,
                swizzle,
                Error::TileNotWholeAtoms {
                    dim: Dim::K,
                    extent: spec.tile_k,
                    atom_extent: atom.k_extent() * vpc,
                    atom_bytes: swizzle.atom_bytes(),
                    narrower: None,
                },
            ));
        }
        let mma_k = spec.mma_k();
        if spec.tile_k % mma_k != 0 {
            return Err(Error::TileNotWholeMmas {
                dim: Dim::K,
                extent: spec.tile_k,
                mma_extent: mma_k,
            });
        }
        if spec.tile_mn % spec.mma_mn != 0 {
            return Err(Error::TileNotWholeMmas {
                dim: Dim::Mn,
                extent: spec.tile_mn,
                mma_extent: spec.mma_mn,
            });
        }
        if matches!(spec.major, Major::Mn) && spec.mma_mn % atom.mn_extent() != 0 {
            return Err(crate::tile::advice::advise_spec(
                spec,
                swizzle,
                Error::MmaNarrowerThanAtom {
                    mma_mn: spec.mma_mn,
                    atom_mn: atom.mn_extent(),
                    swizzle,
                    narrower: None,
                },
            ));
        }
        // tile_to_shape -> recast to 16-byte units -> divide into MMA subtiles.
        let tile = tri!(atom
            .layout
            .tile_to_shape(spec.tile_mn, spec.tile_k / vpc, spec.order));
        let t = dtype.per_16_bytes();
        let units = tri!(tile.recast(t));
        let (sub_mn, sub_k) = match spec.major {
            Major::K => (spec.mma_mn, spec.mma_k_bytes / 16),
            Major::Mn => (spec.mma_mn / t, mma_k),
        };
        let (subtile, grid) = tri!(units.divide(sub_mn, sub_k));
        let (lbo_units, sbo_units) = tri!(CanonicalForm::of(spec.major, swizzle).offsets(subtile));
        let mut tl = TileLayout {
            spec,
            swizzle,
            atom,
            layout: tile,
            grid,
            lbo_units,
            sbo_units,
            base: SmemDescriptor::from_raw(spec.arch, 0),
        };
        tri!(tl.check_fields());
        let fields = DescriptorFields::new(0, tl.lbo(), tl.sbo(), swizzle);
        tl.base = tri!(SmemDescriptor::encode(spec.arch, fields));
        Ok(tl)
    }

    const fn check_fields(&self) -> Result<(), Error> {
        let lbo = self.lbo_units * 16;
        if self.lbo_units >= 1 << 14 {
            return Err(Error::FieldOverflow {
                field: Field::Lbo,
                bytes: lbo,
            });
        }
        let sbo = self.sbo_units * 16;
        if self.sbo_units >= 1 << 14 {
            return Err(Error::FieldOverflow {
                field: Field::Sbo,
                bytes: sbo,
            });
        }
        let stage = self.stage_bytes();
        // The budget first: any offset past the 14-bit field (256 KiB) is over the 227 KiB budget too,
        // and the budget is what a kernel author can act on.
        let total = stage as u64 * self.spec.stages as u64;
        let limit = self.spec.arch.max_smem_per_cta();
        if total > limit as u64 {
            return Err(Error::SmemBudget {
                bytes: if total > u32::MAX as u64 {
                    u32::MAX
                } else {
                    total as u32
                },
                stage_bytes: stage,
                stages: self.spec.stages,
                limit,
            });
        }
        let last = self.subtile_offset_bytes(self.mmas_mn() - 1, self.mmas_k() - 1);
        let far = last as u64 + (self.spec.stages as u64 - 1) * stage as u64;
        if far >= 1 << 18 {
            return Err(Error::FieldOverflow {
                field: Field::Advance,
                bytes: far as u32,
            });
        }
        Ok(())
    }

    /// The spec this tile was built from (with the swizzle resolved).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 32).build().unwrap();
    /// assert_eq!(t.spec().swizzle, Some(SwizzleMode::B64));
    /// ```
    #[inline]
    pub const fn spec(&self) -> TileSpec {
        let mut s = self.spec;
        s.swizzle = Some(self.swizzle);
        s
    }

    /// The swizzle mode (resolved if it was `auto`).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::TF32, Major::K, 64, 8).build().unwrap();
    /// assert_eq!(t.swizzle_mode(), SwizzleMode::B32);
    /// ```
    #[inline]
    pub const fn swizzle_mode(&self) -> SwizzleMode {
        self.swizzle
    }

    /// The swizzle atom.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.atom().k_extent(), 64);
    /// ```
    pub const fn atom(&self) -> Atom {
        self.atom
    }

    /// The tile's element-offset layout (one stage, before the swizzle): `tile_to_shape(atom, ...)`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.layout().eval(8, 0), 512);
    /// ```
    pub const fn layout(&self) -> Layout {
        self.layout
    }

    /// The tile as a swizzled byte layout.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.smem_layout().byte_address(0, 1, 0), 128 + 16);
    /// ```
    #[inline]
    pub const fn smem_layout(&self) -> SwizzledLayout {
        SwizzledLayout::new(
            self.swizzle.functor(),
            self.layout,
            self.spec.dtype.smem_bytes(),
        )
    }

    /// Swizzled byte offset of logical element `(mn, k)` from a tile base aligned to
    /// [`align`](Self::align) (what a hand-written `ld.shared`/`st.shared` uses). For sub-byte
    /// forms this is the layout's 1-byte cell (padded: the value's slot; packed: the byte holding
    /// the value); [`value_offset`](Self::value_offset) gives the value's own byte and bits. The
    /// asserting form of [`try_offset`](Self::try_offset): `mn >= TILE_MN` or `k >= TILE_K` is a
    /// compile error in `const` and a panic at run time ([`crate::tile::access`]).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.byte_offset(7, 0), 7 * 128 + 7 * 16);
    /// ```
    #[inline]
    #[track_caller]
    pub const fn byte_offset(&self, mn: u32, k: u32) -> u32 {
        crate::tile::access::TileAccess::unwrap_offset(self.try_offset(mn, k))
    }

    /// Bytes of one stage.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(t.stage_bytes(), 128 * 64 * 2);
    /// ```
    #[inline]
    pub const fn stage_bytes(&self) -> u32 {
        self.layout.cosize() * self.spec.dtype.smem_bytes()
    }

    /// Bytes of all stages.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).stages(4).build().unwrap();
    /// assert_eq!(t.bytes(), 4 * 16384);
    /// ```
    #[inline]
    pub const fn bytes(&self) -> u32 {
        self.stage_bytes() * self.spec.stages
    }

    /// Alignment of the tile's storage: the swizzle atom (its pattern's repeat), at least TMA's 128 B.
    /// At such a base the swizzle on absolute addresses equals the swizzle on offsets, base_offset is 0
    /// and TMA writes exactly this layout.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(t.align(), 1024);
    /// ```
    #[inline]
    pub const fn align(&self) -> u32 {
        let a = self.swizzle.atom_bytes();
        if a < 128 {
            128
        } else {
            a
        }
    }

    /// Number of MMA subtiles along M/N.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).build().unwrap();
    /// assert_eq!(t.mmas_mn(), 2);
    /// ```
    #[inline]
    pub const fn mmas_mn(&self) -> u32 {
        self.spec.tile_mn / self.spec.mma_mn
    }

    /// Number of MMA subtiles along K (32 bytes of K each).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(t.mmas_k(), 4);
    /// ```
    #[inline]
    pub const fn mmas_k(&self) -> u32 {
        self.spec.tile_k / self.spec.mma_k()
    }

    /// The instruction's K in elements (32 bytes).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::E4M3, Major::K, 64, 128).build().unwrap();
    /// assert_eq!(t.mma_k(), 32);
    /// ```
    pub const fn mma_k(&self) -> u32 {
        self.spec.mma_k()
    }

    /// The grid of subtile origins in 16-byte units (`rest` of the zipped divide).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 128).mma_mn(64).build().unwrap();
    /// assert_eq!(t.grid().eval(1, 4), 512 + 1024);
    /// ```
    #[inline]
    pub const fn grid(&self) -> Layout {
        self.grid
    }

    /// Start-address advance of subtile `(i, 0)` from the tile base, in 16-byte units.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).build().unwrap();
    /// assert_eq!(t.advance_mn(1), 512);
    /// ```
    #[inline]
    pub const fn advance_mn(&self, i: u32) -> u32 {
        self.grid.mn.eval(i)
    }

    /// Start-address advance of subtile `(0, j)` from the tile base, in 16-byte units.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(t.advance_k(1), 2); // 32 bytes
    /// ```
    #[inline]
    pub const fn advance_k(&self, j: u32) -> u32 {
        self.grid.k.eval(j)
    }

    /// Advance of one stage in 16-byte units.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(t.advance_stage(), 1024);
    /// ```
    #[inline]
    pub const fn advance_stage(&self) -> u32 {
        self.stage_bytes() / 16
    }

    /// Byte offset of subtile `(i, j)`'s first element from the tile base (unswizzled: the start
    /// address the descriptor takes).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 128).mma_mn(64).build().unwrap();
    /// assert_eq!(t.subtile_offset_bytes(1, 5), 8192 + 16384 + 32);
    /// ```
    #[inline]
    pub const fn subtile_offset_bytes(&self, i: u32, j: u32) -> u32 {
        self.grid.eval(i, j) * 16
    }

    /// LBO in bytes (as written into the descriptor).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.lbo(), 16); // unused for K-major swizzled; CuTe writes 1 (16 B)
    /// ```
    pub const fn lbo(&self) -> u32 {
        self.lbo_units * 16
    }

    /// SBO in bytes.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.sbo(), 1024);
    /// ```
    pub const fn sbo(&self) -> u32 {
        self.sbo_units * 16
    }

    /// The descriptor's layout-type code on this tile's architecture.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm100, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.layout_type(), 2); // sm100 SWIZZLE_128B
    /// ```
    pub const fn layout_type(&self) -> u8 {
        match crate::layout::descriptor::layout_type_code(self.spec.arch, self.swizzle) {
            Some(c) => c,
            None => 0, // unreachable: checked in `new`
        }
    }

    /// The descriptor of subtile (0, 0), stage 0, for a tile at SMEM address 0. Every other
    /// descriptor differs from it only in the start address (and, for a
    /// [`Relative`](crate::Placement::Relative) placement off the repeat, the base offset).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.base_descriptor().raw(), 0x4000_0040_0001_0000);
    /// ```
    #[inline]
    pub const fn base_descriptor(&self) -> SmemDescriptor {
        self.base
    }

    /// The matrix base offset for a tile whose swizzle pattern *restarts* at `smem_addr` (the
    /// [`Relative`](crate::Placement::Relative) placement, see [`Placement`](crate::Placement)): 0 when the pattern starts on its
    /// repeat boundary — 1024/512/256 B for 128B/64B/32B — else `(pattern start >> 7) & 7`; always 0
    /// without swizzle. Every atom of every stage starts at the same phase as the tile base, because
    /// atoms and stages are whole repeats. Bytes written on absolute addresses (TMA) need 0 instead:
    /// [`desc`](Self::desc) and [`try_desc`](Self::try_desc) encode that default.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.base_offset_at(0x2000), 0);
    /// assert_eq!(t.base_offset_at(0x2000 + 3 * 128), 3);
    /// ```
    #[inline]
    pub const fn base_offset_at(&self, smem_addr: u32) -> u8 {
        if !self.swizzle.is_swizzled() || smem_addr % self.swizzle.atom_bytes() == 0 {
            0
        } else {
            ((smem_addr >> 7) & 7) as u8
        }
    }

    /// The descriptor of MMA subtile `(mn, k)` of stage `stage`, for a tile whose element (0, 0)
    /// (stage 0) is at shared-memory address `smem_addr`. Checks every index and field.
    ///
    /// `smem_addr` must be a multiple of 16 B, and when swizzled of 128 B on sm90 (measured on an H100) or of
    /// the pattern's repeat on sm100 ([`Placement::min_align`](crate::Placement::min_align)). The
    /// descriptor follows the [`Absolute`](crate::Placement::Absolute) placement (what TMA writes):
    /// base_offset 0 wherever the tile sits. For the relative model use
    /// [`place::<Relative>`](Self::place).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64)
    ///     .mma_mn(64).stages(2).build().unwrap();
    /// let d = t.try_desc(0x400, 1, 1, 1).unwrap();
    /// assert_eq!(d.start_address(), 0x400 + 8192 + 32 + 16384);
    /// assert_eq!(t.try_desc(0x480, 0, 0, 0).unwrap().base_offset(), 0);
    /// assert!(t.try_desc(0x440, 0, 0, 0).is_err());
    /// ```
    #[inline(always)]
    pub const fn try_desc(
        &self,
        smem_addr: u32,
        mn: u32,
        k: u32,
        stage: u32,
    ) -> Result<SmemDescriptor, Error> {
        self.access().try_desc(smem_addr, mn, k, stage)
    }

    /// The raw descriptor of subtile `(mn, k)`, stage `stage`, for a tile at `smem_addr`: the
    /// asserting form of [`try_desc`](Self::try_desc) (see [`crate::tile::access`] for the contract). An
    /// out-of-range index or address is a compile error when evaluated in `const` and a panic
    /// naming the argument at run time; [`desc_wrapping`](Self::desc_wrapping) is the form without
    /// checks. With indices known only at run time, the advance tables (`#[smem_tile]` emits them)
    /// make this a few adds: `desc(addr, 0, 0, 0) + advance_mn(i) + advance_k(j) + s · advance_stage()`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 128).mma_mn(64).build().unwrap();
    /// assert_eq!(t.desc(0, 1, 4, 0), t.try_desc(0, 1, 4, 0).unwrap().raw());
    /// assert!(std::panic::catch_unwind(|| t.desc(0, 2, 0, 0)).is_err()); // mn out of range
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn desc(&self, smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
        crate::tile::access::TileAccess::unwrap_desc(self.try_desc(smem_addr, mn, k, stage))
    }

    /// The raw base descriptor with its start address moved to `smem_addr` plus `units` 16-byte
    /// units (modulo the 14-bit field), base_offset 0 (the [`Absolute`](crate::Placement::Absolute)
    /// placement, see [`Placement`](crate::Placement)). The one place descriptor fields are filled at
    /// use; [`desc`](Self::desc) and the macro's table-driven `desc` both end here.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).stages(2).build().unwrap();
    /// let units = t.advance_mn(1) + t.advance_k(3) + t.advance_stage();
    /// assert_eq!(t.desc_advanced(0x400, units), t.desc(0x400, 1, 3, 1));
    /// ```
    #[inline]
    pub const fn desc_advanced(&self, smem_addr: u32, units: u32) -> u64 {
        self.access().encode_wrapping(smem_addr, units)
    }
}
