//! Block-scale-factor tiles: the SMEM tiles of the A and B scale factors of the block-scaled
//! `tcgen05.mma` kinds, in the layout `tcgen05.cp` copies into Tensor Memory.
//!
//! Facts (PTX ISA, `tcgen05.mma` "block scaling" and `tcgen05.cp`; CUTLASS
//! `Sm1xxBlkScaledConfig` and the sm100 block-scaled collective builder):
//!
//! * one scale factor per `vec` K-values of a row: `vec` = 32 (`.block32`: `.scale_vec::1X` for
//!   `mxf8f6f4`, `2X` for `mxf4`/`mxf4nvf4`) with `ue8m0`, or 16 (`.block16` = `.scale_vec::4X`,
//!   `mxf4nvf4` only) with `ue4m3` or `ue8m0` (PTX table "Valid combinations of
//!   scale_vectorsize with types and MMA-Kind": `ue4m3` goes with `.block16` only); factors are
//!   one byte;
//! * the SMEM **atom** holds 128 rows × 4 factors = 512 bytes, stored as 32 rows of 16 bytes:
//!   row `r` holds the 4 factors of tile rows `r`, `r + 32`, `r + 64`, `r + 96` (4 bytes each):
//!   factor `j` (0..4) of row `m` is at byte `16·(m mod 32) + 4·⌊m/32⌋ + j`. That 32 × 128-bit
//!   block is exactly one `tcgen05.cp.cta_group::N.32x128b.warpx4`, which copies 32 lanes of 128
//!   bits and multicasts them to the four 32-lane quarters, so lane `m` receives row `m`'s factors;
//! * atoms are stacked along M/N first (stride 512 B), then along K (stride `mn_blocks · 512`),
//!   as CUTLASS's `SmemLayoutAtomSFA/SFB` do; B's N is padded up to a multiple of 128;
//! * the `tcgen05.cp` source descriptor of an atom: no swizzle, K-major canonical layout of 8-row
//!   × 16-byte core matrices, SBO = 128 B between 8-row groups, LBO unused (one 16-byte column;
//!   16 B written, as for other unused LBOs).
//!
//! ```
//! use smemdesc_core::*;
//! // nvf4: ue4m3 factors, one per 16 values; A tile 128 x 256 values -> 16 factors per row
//! let s = ScaleDecl::new(MmaKind::Mxf4nvf4, Operand::A, 128, 256).build().unwrap();
//! assert_eq!((s.format, s.vec, s.sf_k(), s.stage_bytes()), (ScaleFormat::Ue4m3, 16, 16, 2048));
//! assert_eq!(s.offset(33, 16 * 5), 16 + 4 + 512 + 1); // row 33, factor 5: K-block 1, j = 1
//! ```

use crate::base::arch::Arch;
use crate::base::error::{Dim, Error, Field};
use crate::base::error_data::{Indexed, Legal};
use crate::base::swizzle::SwizzleMode;
use crate::layout::descriptor::{DescriptorFields, SmemDescriptor};
use crate::mma::idesc::ScaleFormat;
use crate::mma::shape::{MmaKind, Operand};

/// Rows (M or N) of one scale-factor atom.
pub const SCALE_ATOM_ROWS: u32 = 128;
/// Factors along K in one scale-factor atom.
pub const SCALE_ATOM_FACTORS: u32 = 4;
/// Bytes of one scale-factor atom (one `tcgen05.cp .32x128b.warpx4`).
pub const SCALE_ATOM_BYTES: u32 = 512;

/// The declaration of a scale-factor tile (the arguments of `#[smem_scale_tile]`): one pipeline
/// stage holds the factors of a `tile_mn × tile_k` operand tile (`tile_k` counted in the
/// operand's values). [`build`](Self::build) validates it into a [`ScaleTile`].
///
/// ```
/// use smemdesc_core::*;
/// // mxf8f6f4 B tile of N = 64: padded to one 128-row atom; K = 128 -> 4 factors
/// let s = ScaleDecl::new(MmaKind::Mxf8f6f4, Operand::B, 64, 128).stages(2).build().unwrap();
/// assert_eq!((s.mn_blocks(), s.k_blocks(), s.bytes()), (1, 1, 1024));
/// assert_eq!(s.factors_per_mma(), 1); // K = 32 per instruction, one ue8m0 per 32 values
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScaleDecl {
    /// The MMA kind the factors scale.
    pub kind: MmaKind,
    /// A or B.
    pub operand: Operand,
    /// Factor type.
    pub format: ScaleFormat,
    /// K-values per factor (16 or 32).
    pub vec: u32,
    /// Operand tile extent along M/N (values).
    pub tile_mn: u32,
    /// Operand tile extent along K (values).
    pub tile_k: u32,
    /// Pipeline stages.
    pub stages: u32,
    /// CTA group of the copy instruction.
    pub cta_group: u32,
    /// Whether `vec` was given (else the format's default follows the format).
    vec_given: bool,
}

/// A validated scale-factor tile ([`ScaleDecl::build`]): its layout, copy descriptors and TMA
/// plan. The fields are the declaration with every default resolved.
///
/// ```
/// use smemdesc_core::*;
/// let s = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 256, 256).build().unwrap();
/// assert_eq!((s.format, s.vec, s.mn_blocks(), s.k_blocks()), (ScaleFormat::Ue8m0, 32, 2, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive] // only `ScaleDecl::build` makes one
pub struct ScaleTile {
    /// The MMA kind the factors scale.
    pub kind: MmaKind,
    /// A or B.
    pub operand: Operand,
    /// Factor type.
    pub format: ScaleFormat,
    /// K-values per factor (16 or 32).
    pub vec: u32,
    /// Operand tile extent along M/N (values).
    pub tile_mn: u32,
    /// Operand tile extent along K (values).
    pub tile_k: u32,
    /// Pipeline stages.
    pub stages: u32,
    /// CTA group of the copy instruction.
    pub cta_group: u32,
}

impl ScaleDecl {
    /// A declaration with the kind's default format (`ue4m3` for `mxf4nvf4`, else `ue8m0`) and
    /// vector size (16 for `ue4m3`, 32 for `ue8m0`), one stage, `cta_group` 1.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let s = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128);
    /// assert_eq!((s.format, s.vec), (ScaleFormat::Ue8m0, 32));
    /// ```
    #[inline]
    pub const fn new(kind: MmaKind, operand: Operand, tile_mn: u32, tile_k: u32) -> ScaleDecl {
        let format = match kind {
            MmaKind::Mxf4nvf4 => ScaleFormat::Ue4m3,
            _ => ScaleFormat::Ue8m0,
        };
        ScaleDecl {
            kind,
            operand,
            format,
            vec: default_vec(format),
            tile_mn,
            tile_k,
            stages: 1,
            cta_group: 1,
            vec_given: false,
        }
    }

    /// Sets the factor type (and, unless [`vec`](Self::vec) was given, its default vector size).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let s = ScaleDecl::new(MmaKind::Mxf4nvf4, Operand::A, 128, 128).format(ScaleFormat::Ue8m0);
    /// assert_eq!(s.vec, 32);
    /// ```
    #[inline]
    pub const fn format(mut self, format: ScaleFormat) -> ScaleDecl {
        self.format = format;
        if !self.vec_given {
            self.vec = default_vec(format);
        }
        self
    }

    /// Sets the K-values per factor (16 or 32).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let s = ScaleDecl::new(MmaKind::Mxf4nvf4, Operand::B, 128, 128).format(ScaleFormat::Ue8m0)
    ///     .vec(16).build().unwrap();
    /// assert_eq!((s.format, s.sf_k()), (ScaleFormat::Ue8m0, 8));
    /// // ue4m3 factors are one per 16 values only (`.block16`)
    /// assert!(ScaleDecl::new(MmaKind::Mxf4nvf4, Operand::B, 128, 128).vec(32).build().is_err());
    /// ```
    #[inline]
    pub const fn vec(mut self, vec: u32) -> ScaleDecl {
        self.vec = vec;
        self.vec_given = true;
        self
    }

    /// Sets the number of pipeline stages.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128).stages(3).stages, 3);
    /// ```
    #[inline]
    pub const fn stages(mut self, stages: u32) -> ScaleDecl {
        self.stages = stages;
        self
    }

    /// Sets the CTA group of the `tcgen05.cp` (1 or 2).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128).cta_group(2).build().unwrap();
    /// assert_eq!(s.copy_instruction(), "tcgen05.cp.cta_group::2.32x128b.warpx4");
    /// ```
    #[inline]
    pub const fn cta_group(mut self, cta_group: u32) -> ScaleDecl {
        self.cta_group = cta_group;
        self
    }

    /// Validates the declaration: a block-scaled kind, a format and vector size the kind has,
    /// whole atoms along K (and along M for A), at least one stage, within the SMEM budget.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let e = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 64).build().unwrap_err();
    /// assert_eq!(e.argument(), Argument::TileK); // 64 values = 2 factors, an atom holds 4
    /// assert!(ScaleDecl::new(MmaKind::F16, Operand::A, 128, 128).build().is_err());
    /// ```
    #[inline]
    pub const fn build(self) -> Result<ScaleTile, Error> {
        let legal = match (self.kind, self.format, self.vec) {
            (MmaKind::Mxf8f6f4 | MmaKind::Mxf4, ScaleFormat::Ue8m0, 32) => Ok(()),
            (MmaKind::Mxf8f6f4 | MmaKind::Mxf4, _, _) => Err(Legal::ScaleUe8m0Vec32),
            // PTX Table "Valid combinations of scale_vectorsize with types and MMA-Kind":
            // mxf4nvf4 takes UE8M0 with block32 (2X) or block16 (4X), UE4M3 with block16 only.
            (MmaKind::Mxf4nvf4, ScaleFormat::Ue8m0, 16 | 32) => Ok(()),
            (MmaKind::Mxf4nvf4, ScaleFormat::Ue4m3, 16) => Ok(()),
            (MmaKind::Mxf4nvf4, _, _) => Err(Legal::ScaleMxf4nvf4),
            _ => Err(Legal::ScaleNone),
        };
        if let Err(legal) = legal {
            return Err(Error::ScaleFormatIllegal {
                kind: self.kind,
                format: self.format,
                vec: self.vec,
                legal,
            });
        }
        if self.stages == 0 {
            return Err(Error::ZeroStages);
        }
        if self.cta_group == 0 || self.cta_group > 2 {
            return Err(Error::CtaGroupInvalid {
                arch: Arch::Sm100,
                cta_group: self.cta_group,
            });
        }
        if self.tile_mn == 0 {
            return Err(Error::ZeroExtent { dim: Dim::Mn });
        }
        if self.tile_k == 0 {
            return Err(Error::ZeroExtent { dim: Dim::K });
        }
        // A's M is whole 128-row blocks; B's N is padded up to them (CUTLASS pads SFB's N).
        if matches!(self.operand, Operand::A) && self.tile_mn % SCALE_ATOM_ROWS != 0 {
            return Err(Error::ScaleTileNotWholeAtoms {
                dim: Dim::Mn,
                extent: self.tile_mn,
                atom_extent: SCALE_ATOM_ROWS,
            });
        }
        let k_atom = SCALE_ATOM_FACTORS * self.vec;
        if self.tile_k % k_atom != 0 {
            return Err(Error::ScaleTileNotWholeAtoms {
                dim: Dim::K,
                extent: self.tile_k,
                atom_extent: k_atom,
            });
        }
        let mn_blocks = self.tile_mn.div_ceil(SCALE_ATOM_ROWS) as u64;
        let k_blocks = (self.tile_k / k_atom) as u64;
        let stage = mn_blocks * k_blocks * SCALE_ATOM_BYTES as u64;
        let total = stage * self.stages as u64;
        let limit = Arch::Sm100.max_smem_per_cta();
        if total > limit as u64 {
            return Err(Error::SmemBudget {
                bytes: sat(total),
                stage_bytes: sat(stage),
                stages: self.stages,
                limit,
            });
        }
        Ok(ScaleTile {
            kind: self.kind,
            operand: self.operand,
            format: self.format,
            vec: self.vec,
            tile_mn: self.tile_mn,
            tile_k: self.tile_k,
            stages: self.stages,
            cta_group: self.cta_group,
        })
    }

    /// [`build`](Self::build) for `const` items: a compile-time panic with the error's summary.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// const S: ScaleTile = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 256, 256).stages(4).expect_valid();
    /// assert_eq!(S.bytes(), 4 * 2 * 2 * 512);
    /// ```
    #[inline]
    pub const fn expect_valid(self) -> ScaleTile {
        match self.build() {
            Ok(t) => t,
            Err(e) => panic!("{}", e.summary()),
        }
    }
}

impl ScaleTile {
    /// 128-row atom blocks along M/N (B's N rounded up).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(ScaleDecl::new(MmaKind::Mxf4, Operand::B, 192, 128).build().unwrap().mn_blocks(), 2);
    /// ```
    #[inline]
    pub const fn mn_blocks(&self) -> u32 {
        self.tile_mn.div_ceil(SCALE_ATOM_ROWS)
    }

    /// Atom blocks along K (4 factors each).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 512).build().unwrap().k_blocks(), 4);
    /// ```
    #[inline]
    pub const fn k_blocks(&self) -> u32 {
        self.sf_k() / SCALE_ATOM_FACTORS
    }

    /// Factors per row of the tile (`tile_k / vec`).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(ScaleDecl::new(MmaKind::Mxf4nvf4, Operand::A, 128, 128).build().unwrap().sf_k(), 8);
    /// ```
    #[inline]
    pub const fn sf_k(&self) -> u32 {
        self.tile_k / self.vec
    }

    /// Factors one instruction consumes per row: its K (32 for `mxf8f6f4`, 64 for the fp4
    /// kinds) over `vec` (CUTLASS's `MMA_NSF`). K = 96 instructions (3 or 6 factors per row) are
    /// not modeled; [`MmaPair::check_scale_tile`](crate::MmaPair::check_scale_tile) refuses them.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(ScaleDecl::new(MmaKind::Mxf4nvf4, Operand::A, 128, 128).build().unwrap().factors_per_mma(), 4);
    /// ```
    #[inline]
    pub const fn factors_per_mma(&self) -> u32 {
        let k = match self.kind {
            MmaKind::Mxf8f6f4 => 32,
            _ => 64,
        };
        k / self.vec
    }

    /// Bytes of one stage (whole atoms).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(ScaleDecl::new(MmaKind::Mxf4, Operand::A, 256, 128).build().unwrap().stage_bytes(), 1024);
    /// ```
    #[inline]
    pub const fn stage_bytes(&self) -> u32 {
        self.mn_blocks() * self.k_blocks() * SCALE_ATOM_BYTES
    }

    /// Bytes of all stages.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128).stages(2).build().unwrap().bytes(), 1024);
    /// ```
    #[inline]
    pub const fn bytes(&self) -> u32 {
        self.stage_bytes() * self.stages
    }

    /// Alignment of the storage: 128 B (TMA's SMEM destination; `tcgen05.cp` needs 16 B).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128).build().unwrap().align(), 128);
    /// ```
    #[inline]
    pub const fn align(&self) -> u32 {
        128
    }

    /// Byte offset (stage 0) of factor `j` (0 ≤ j < [`sf_k`](Self::sf_k)) of row `mn`. Like
    /// [`TileLayout::desc_wrapping`](crate::TileLayout::desc_wrapping), indices wrap into range
    /// (`mn` modulo the padded rows, `j` modulo `sf_k`), so the result is always inside the stage.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 256, 256).build().unwrap();
    /// assert_eq!(s.factor_offset(0, 0), 0);
    /// assert_eq!(s.factor_offset(127, 3), 16 * 31 + 4 * 3 + 3);
    /// assert_eq!(s.factor_offset(128, 0), 512); // next M block: next atom
    /// assert_eq!(s.factor_offset(0, 4), 1024); // next K block: after both M blocks
    /// ```
    #[inline]
    pub const fn factor_offset(&self, mn: u32, j: u32) -> u32 {
        let mn = mn % (self.mn_blocks() * SCALE_ATOM_ROWS);
        let j = j % self.sf_k();
        let atom = mn / SCALE_ATOM_ROWS + self.mn_blocks() * (j / SCALE_ATOM_FACTORS);
        let r = mn % SCALE_ATOM_ROWS;
        atom * SCALE_ATOM_BYTES + 16 * (r % 32) + 4 * (r / 32) + j % SCALE_ATOM_FACTORS
    }

    /// Byte offset (stage 0) of the factor that scales operand value `(mn, k)` (indices wrap as
    /// in [`factor_offset`](Self::factor_offset)).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = ScaleDecl::new(MmaKind::Mxf8f6f4, Operand::A, 128, 128).build().unwrap();
    /// assert_eq!(s.offset(1, 31), 16);
    /// assert_eq!(s.offset(1, 32), 17);
    /// ```
    #[inline]
    pub const fn offset(&self, mn: u32, k: u32) -> u32 {
        self.factor_offset(mn, k / self.vec)
    }

    /// The `tcgen05.cp` that moves one atom (32 rows × 128 bits, multicast to the 4 lane
    /// quarters).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128).build().unwrap();
    /// assert_eq!(s.copy_instruction(), "tcgen05.cp.cta_group::1.32x128b.warpx4");
    /// ```
    #[inline]
    pub const fn copy_instruction(&self) -> &'static str {
        if self.cta_group == 2 {
            "tcgen05.cp.cta_group::2.32x128b.warpx4"
        } else {
            "tcgen05.cp.cta_group::1.32x128b.warpx4"
        }
    }

    /// The `tcgen05.cp` source descriptor of atom `(i, j)` (M/N block `i`, K block `j`) of stage
    /// `stage`, for a tile at `smem_addr` (16-byte aligned).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 256, 256).stages(2).build().unwrap();
    /// let d = s.copy_desc(0x1000, 1, 1, 1).unwrap();
    /// assert_eq!(d.start_address(), 0x1000 + 2048 + 512 * (1 + 2 * 1));
    /// assert_eq!((d.sbo(), d.layout()), (128, Some(SwizzleMode::None)));
    /// ```
    #[inline]
    pub const fn copy_desc(
        &self,
        smem_addr: u32,
        i: u32,
        j: u32,
        stage: u32,
    ) -> Result<SmemDescriptor, Error> {
        if smem_addr % 16 != 0 {
            return Err(Error::UnalignedBase {
                addr: smem_addr,
                align: 16,
            });
        }
        if i >= self.mn_blocks() {
            return Err(Error::IndexOutOfRange {
                what: Indexed::ScaleAtomMn,
                index: i,
                count: self.mn_blocks(),
            });
        }
        if j >= self.k_blocks() {
            return Err(Error::IndexOutOfRange {
                what: Indexed::ScaleAtomK,
                index: j,
                count: self.k_blocks(),
            });
        }
        if stage >= self.stages {
            return Err(Error::IndexOutOfRange {
                what: Indexed::Stage,
                index: stage,
                count: self.stages,
            });
        }
        let start = smem_addr as u64
            + stage as u64 * self.stage_bytes() as u64
            + self.factor_offset(i * SCALE_ATOM_ROWS, j * SCALE_ATOM_FACTORS) as u64;
        if start >= 1 << 18 {
            return Err(Error::FieldOverflow {
                field: Field::StartAddress,
                bytes: if start > u32::MAX as u64 {
                    u32::MAX
                } else {
                    start as u32
                },
            });
        }
        SmemDescriptor::encode(
            Arch::Sm100,
            DescriptorFields::new(start as u32, 16, 128, SwizzleMode::None),
        )
    }

    /// [`copy_desc`](Self::copy_desc)'s raw descriptor, asserting: out of range is a compile error
    /// in `const` and a panic at run time (a `trap` on nvptx64, with no call). What
    /// `#[smem_scale_tile]`'s `copy_desc` calls.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 256, 256).stages(2).build().unwrap();
    /// assert_eq!(s.copy_desc_asserting(0x1000, 1, 1, 1), s.copy_desc(0x1000, 1, 1, 1).unwrap().raw());
    /// ```
    #[doc(hidden)]
    #[track_caller]
    #[inline]
    pub const fn copy_desc_asserting(&self, smem_addr: u32, i: u32, j: u32, stage: u32) -> u64 {
        match self.copy_desc(smem_addr, i, j, stage) {
            Ok(d) => d.raw(),
            Err(e) => crate::tile::access::fail(&e),
        }
    }

    /// The TMA box (`boxDim`, innermost first) that loads one K block of every M/N block of a
    /// stage, for a `UINT8` tensor map of rank 4 over CUTLASS's global scale-factor layout
    /// (atoms of 512 B, K blocks contiguous): `globalDim = [256, 2, K/(4·vec), MN/128]`,
    /// `globalStrides = [256, 512, 512 · K/(4·vec)]` bytes. The box writes `mn_blocks` atoms
    /// contiguously, which is this tile's M/N-first stacking.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 256, 256).build().unwrap();
    /// assert_eq!((s.tma_box(), s.tma_boxes(), s.tma_box_offset(1)), ([256, 2, 1, 2], 2, 1024));
    /// ```
    #[inline]
    pub const fn tma_box(&self) -> [u32; 4] {
        [256, 2, 1, self.mn_blocks()]
    }

    /// TMA boxes per stage (one per K block).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(ScaleDecl::new(MmaKind::Mxf4nvf4, Operand::A, 128, 256).build().unwrap().tma_boxes(), 4);
    /// ```
    #[inline]
    pub const fn tma_boxes(&self) -> u32 {
        self.k_blocks()
    }

    /// SMEM byte offset (in its stage) of TMA box `b` (modulo the box count); its coordinates are
    /// K block `b` and M/N block 0 of the tile.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 256).build().unwrap().tma_box_offset(1), 512);
    /// ```
    #[inline]
    pub const fn tma_box_offset(&self, b: u32) -> u32 {
        (b % self.tma_boxes()) * self.mn_blocks() * SCALE_ATOM_BYTES
    }
}

#[inline]
const fn sat(v: u64) -> u32 {
    if v > u32::MAX as u64 {
        u32::MAX
    } else {
        v as u32
    }
}

#[inline]
const fn default_vec(format: ScaleFormat) -> u32 {
    match format {
        ScaleFormat::Ue8m0 => 32,
        ScaleFormat::Ue4m3 => 16,
    }
}
