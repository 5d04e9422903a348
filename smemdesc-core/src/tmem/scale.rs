//! Scale factors in Tensor Memory: the columns SFA / SFB of a block-scaled `tcgen05.mma` occupy,
//! the `tcgen05.cp` that fills them from the SMEM scale-factor tiles ([`ScaleTile`]), and the
//! scale-factor ids of the instruction descriptor.
//!
//! Facts and choices (PTX ISA `tcgen05.cp` shape `32x128b.warpx4`, `tcgen05.mma` block scaling
//! and "Scale factor A/B layout"; CUTLASS's sm100 block-scaled collective): one SMEM atom (128
//! rows × 4 one-byte factors, stored as 32 rows of 16 bytes, see [`ScaleTile`]) is one
//! `32x128b.warpx4` copy: 32 lanes × 4 columns, multicast to the four subpartitions, so an atom
//! takes **4 columns**. Atom `(i, kb)` (M/N block `i`, K block `kb`) goes to columns
//! `4·(kb·mn_blocks + i)` of the stage, the order the atoms have in SMEM. The MMA of K step `s`
//! starts at factor `j = s · factors_per_mma` of the row: K block `⌊j/4⌋`, byte `j mod 4` of the
//! 32-bit column, and that byte is the descriptor's scale-factor id (bits 30-31 of the TMEM
//! address passed as `[tsfa]`/`[tsfb]`, as [`Idesc::try_with_sf_tmem`](crate::Idesc::try_with_sf_tmem)
//! reads them). These rest on documents and CuTe alone (no Blackwell GPU here).
//!
//! ```
//! use smemdesc_core::*;
//! // mxf4 (K = 64 per MMA, one ue8m0 per 32 values: 2 factors per MMA), A tile 128 x 256
//! let sfa = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 256).build().unwrap();
//! let s = TmemScale::of(&sfa);
//! assert_eq!((s.cols_per_stage, s.copies_per_stage(), s.ksteps), (8, 2, 4));
//! assert_eq!(s.kstep_column(3), (4, 2)); // factors 6,7: K block 1 (columns 4..8), byte 2
//! ```

use crate::scale::tile::ScaleTile;

/// The Tensor Memory side of one scale-factor tile (see the [module](self) docs).
///
/// ```
/// use smemdesc_core::*;
/// let sfb = ScaleDecl::new(MmaKind::Mxf8f6f4, Operand::B, 256, 128).build().unwrap();
/// let s = TmemScale::of(&sfb);
/// assert_eq!((s.mn_blocks, s.k_blocks, s.cols_per_stage), (2, 1, 8));
/// assert_eq!(s.copy_column(1, 0), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmemScale {
    /// 128-row atom blocks along M/N.
    pub mn_blocks: u32,
    /// 4-factor atom blocks along K.
    pub k_blocks: u32,
    /// Columns one stage takes (`4 · mn_blocks · k_blocks`).
    pub cols_per_stage: u32,
    /// Stages (those of the SMEM tile: one TMEM copy per SMEM stage).
    pub stages: u32,
    /// Factors one MMA consumes per row (1, 2 or 4: `.scale_vec::1X/2X/4X`).
    pub factors_per_mma: u32,
    /// MMA K steps per stage.
    pub ksteps: u32,
    /// The CTA group of the copy.
    pub cta_group: u32,
}

impl TmemScale {
    /// The TMEM footprint of `tile`.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let t = ScaleDecl::new(MmaKind::Mxf4nvf4, Operand::A, 128, 128).format(ScaleFormat::Ue4m3).stages(3).build().unwrap();
    /// let s = TmemScale::of(&t);
    /// assert_eq!((s.cols_per_stage, s.stages, s.factors_per_mma), (8, 3, 4));
    /// ```
    #[inline]
    pub const fn of(tile: &ScaleTile) -> TmemScale {
        let mn_blocks = tile.mn_blocks();
        let k_blocks = tile.sf_k().div_ceil(4);
        let fpm = tile.factors_per_mma();
        TmemScale {
            mn_blocks,
            k_blocks,
            cols_per_stage: 4 * mn_blocks * k_blocks,
            stages: tile.stages,
            factors_per_mma: fpm,
            ksteps: tile.sf_k() / fpm,
            cta_group: tile.cta_group,
        }
    }

    /// Columns all stages take.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 256).stages(4).build().unwrap();
    /// assert_eq!(TmemScale::of(&t).cols(), 32);
    /// ```
    #[inline]
    pub const fn cols(&self) -> u32 {
        // saturating: an absurd stage count is refused by the plan (over 512), never a panic
        self.cols_per_stage.saturating_mul(self.stages)
    }

    /// `tcgen05.cp` copies per stage (one per SMEM atom).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = ScaleDecl::new(MmaKind::Mxf4, Operand::B, 256, 512).build().unwrap();
    /// assert_eq!(TmemScale::of(&t).copies_per_stage(), 8);
    /// ```
    #[inline]
    pub const fn copies_per_stage(&self) -> u32 {
        self.mn_blocks * self.k_blocks
    }

    /// The copy instruction (`tcgen05.cp.cta_group::N.32x128b.warpx4`).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128).build().unwrap();
    /// assert_eq!(TmemScale::of(&t).copy_instruction(), "tcgen05.cp.cta_group::1.32x128b.warpx4");
    /// ```
    #[inline]
    pub const fn copy_instruction(&self) -> &'static str {
        if self.cta_group == 2 {
            "tcgen05.cp.cta_group::2.32x128b.warpx4"
        } else {
            "tcgen05.cp.cta_group::1.32x128b.warpx4"
        }
    }

    /// Column (relative to the stage) the copy of atom `(i, kb)` writes to. Unchecked.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = ScaleDecl::new(MmaKind::Mxf4, Operand::B, 256, 512).build().unwrap();
    /// assert_eq!(TmemScale::of(&t).copy_column(1, 3), 4 * (3 * 2 + 1));
    /// ```
    #[inline]
    pub const fn copy_column(&self, i: u32, kb: u32) -> u32 {
        kb.wrapping_mul(self.mn_blocks)
            .wrapping_add(i)
            .wrapping_mul(4)
    }

    /// (column relative to the stage, scale-factor id) the MMA of K step `s` reads. Unchecked.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = ScaleDecl::new(MmaKind::Mxf8f6f4, Operand::A, 128, 256).build().unwrap();
    /// assert_eq!(TmemScale::of(&t).kstep_column(5), (4, 1)); // factor 5: K block 1, byte 1
    /// ```
    #[inline]
    pub const fn kstep_column(&self, s: u32) -> (u32, u32) {
        let j = s.wrapping_mul(self.factors_per_mma);
        ((4 * self.mn_blocks).wrapping_mul(j / 4), j % 4)
    }
}
