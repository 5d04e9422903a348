//! A block-scaled pair meets its scale-factor tiles: which factor type and vector size the
//! instruction reads, and whether a [`ScaleTile`] holds the factors of one of the pair's operand
//! tiles.
//!
//! Sources (PTX ISA, tcgen05 "Block Scaling"): the table "Valid combinations of
//! scale_vectorsize with types and MMA-Kind" (`mxf8f6f4`, `mxf4`: ue8m0, `.block32`;
//! `mxf4nvf4`: ue8m0 with `.block32` or `.block16`, ue4m3 with `.block16`); `tcgen05.mma` syntax
//! (the mnemonic of [`MmaPair::mnemonic`] names the vector the pair reads: `.block16` /
//! `.scale_vec::4X` for ue4m3 or for ue8m0 with `vec = 16`, else `.block32` / `1X` / `2X`);
//! the tcgen05 rule that every tcgen05 instruction of a kernel uses one `.cta_group`.

use crate::mma::format::is_block_scaled;
use crate::mma::idesc::ScaleFormat;
use crate::mma::idesc_error::IdescError;
use crate::mma::shape::Operand;
use crate::pairing::pair::MmaPair;
use crate::scale::tile::ScaleTile;
use crate::tile::decl::TilePlan;

impl MmaPair {
    /// The factor type and values per factor the instruction reads (`None` for dense kinds):
    /// ue8m0 per 32 values (`.block32`: `.scale_vec::1X` for `mxf8f6f4`, `2X` for the fp4 kinds)
    /// unless the pair was given ue4m3 (`mxf4nvf4`, per 16 values, `.block16`) or
    /// [`PairOptions::scale_vec`](crate::PairOptions::scale_vec) 16 (`mxf4nvf4` with ue8m0, `.scale_vec::4X`).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let t = |op| TileDecl::new(Arch::Sm100, op, ElementType::E2M1, Major::K, 128, 256)
    ///     .kind(MmaKind::Mxf4nvf4).build().unwrap();
    /// let o = PairOptions::new(AccumType::F32);
    /// let p = MmaPair::pair(&t(Operand::A), &t(Operand::B), o.scale_format(ScaleFormat::Ue4m3)).unwrap();
    /// assert_eq!(p.scale_vec(), Some((ScaleFormat::Ue4m3, 16)));
    /// let p = MmaPair::pair(&t(Operand::A), &t(Operand::B), o.scale_format(ScaleFormat::Ue8m0)).unwrap();
    /// assert_eq!(p.scale_vec(), Some((ScaleFormat::Ue8m0, 32)));
    /// let o16 = o.scale_format(ScaleFormat::Ue8m0).scale_vec(16);
    /// let p = MmaPair::pair(&t(Operand::A), &t(Operand::B), o16).unwrap();
    /// assert_eq!(p.scale_vec(), Some((ScaleFormat::Ue8m0, 16)));
    /// // mxf4nvf4 names its scale vector explicitly (PTX): no default
    /// assert!(MmaPair::pair(&t(Operand::A), &t(Operand::B), o).is_err());
    /// ```
    pub const fn scale_vec(&self) -> Option<(ScaleFormat, u32)> {
        if !is_block_scaled(self.kind) {
            return None;
        }
        match (self.options.sf, self.options.vec) {
            (Some(ScaleFormat::Ue4m3), _) => Some((ScaleFormat::Ue4m3, 16)),
            (_, Some(16)) => Some((ScaleFormat::Ue8m0, 16)),
            _ => Some((ScaleFormat::Ue8m0, 32)),
        }
    }

    /// Checks that `sf` holds the scale factors of `tile`, this pair's A or B operand tile: the
    /// same operand and kind, the factor type and vector size of [`scale_vec`](Self::scale_vec),
    /// the same `(MN, K)` extent (only K for B of a CTA pair, whose factor split is not modeled)
    /// and the same CTA group. Scale factors of K = 96 instructions are not modeled
    /// ([`IdescError::ScaleTileK96`]).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let t = |op| TileDecl::new(Arch::Sm100, op, ElementType::E2M1, Major::K, 128, 256)
    ///     .kind(MmaKind::Mxf4).build().unwrap();
    /// let (a, b) = (t(Operand::A), t(Operand::B));
    /// let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// let sfa = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 256).build().unwrap();
    /// assert_eq!(p.check_scale_tile(&a, &sfa), Ok(()));
    /// let half = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128).build().unwrap();
    /// assert!(matches!(p.check_scale_tile(&a, &half), Err(IdescError::ScaleTileExtent { dim: 'K', .. })));
    /// assert!(matches!(p.check_scale_tile(&b, &sfa), Err(IdescError::ScaleTileFor { .. })));
    /// ```
    pub const fn check_scale_tile(
        &self,
        tile: &TilePlan,
        sf: &ScaleTile,
    ) -> Result<(), IdescError> {
        let operand = tile.decl.operand;
        let same = sf.operand as u8 == operand as u8 && sf.kind as u8 == self.kind as u8;
        // (A dense pair has no scale factors; a scale tile's kind is always block-scaled.)
        let (format, vec) = match (same, self.scale_vec()) {
            (true, Some(fv)) => fv,
            _ => {
                return Err(IdescError::ScaleTileFor {
                    operand,
                    sf_operand: sf.operand,
                    kind: sf.kind,
                    pair: self.kind,
                })
            }
        };
        if sf.format as u8 != format as u8 || sf.vec != vec {
            return Err(IdescError::ScaleTileFormat {
                operand,
                format: sf.format,
                vec: sf.vec,
                pair: format,
                pair_vec: vec,
            });
        }
        let mn = match operand {
            Operand::A => 'M',
            Operand::B => 'N',
        };
        // B of a CTA pair: each CTA holds N / 2 of B, but its accumulator spans all N columns;
        // how a pair splits B's factors is not settled here, so only K is compared.
        let split_b = matches!(operand, Operand::B) && self.cta_group == 2;
        if !split_b && sf.tile_mn != tile.decl.tile_mn {
            return Err(IdescError::ScaleTileExtent {
                operand,
                dim: mn,
                sf: sf.tile_mn,
                tile: tile.decl.tile_mn,
            });
        }
        if sf.tile_k != tile.decl.tile_k {
            return Err(IdescError::ScaleTileExtent {
                operand,
                dim: 'K',
                sf: sf.tile_k,
                tile: tile.decl.tile_k,
            });
        }
        if sf.cta_group != self.cta_group {
            return Err(IdescError::ScaleTileCtaGroup {
                operand,
                sf: sf.cta_group,
                pair: self.cta_group,
            });
        }
        if self.shape.k == 96 {
            return Err(IdescError::ScaleTileK96 { operand });
        }
        Ok(())
    }
}
