//! The Tensor Memory allocation plan of one CTA: accumulator stages and scale-factor columns, the
//! `tcgen05.alloc` column count and how many CTAs can share an SM.
//!
//! Facts (PTX ISA `tcgen05.alloc`): the column count is a power of two from 32 to 512; an SM has
//! 512 columns, and an allocation that does not fit blocks until earlier allocations on the SM
//! are freed — CTAs resident on one SM whose allocations add up to more than 512 wait on each
//! other (a deadlock when each waits for the other to finish). Regions are laid out from column
//! 0: the accumulator stages, then the SFA stages, then the SFB stages.
//!
//! ```
//! use smemdesc_core::*;
//! const A: TilePlan = TileDecl::new(Arch::Sm100, Operand::A, ElementType::BF16, Major::K, 128, 64).expect_valid();
//! const B: TilePlan = TileDecl::new(Arch::Sm100, Operand::B, ElementType::BF16, Major::K, 256, 64).expect_valid();
//! const P: MmaPair = MmaPair::new(&A, &B, PairOptions::new(AccumType::F32)).expect_valid();
//! const T: TmemPlan = TmemPlanDecl::new(&P).stages(2).expect_valid();
//! assert_eq!((T.cols_used, T.alloc_columns, T.ctas_per_sm()), (512, 512, 1));
//! assert_eq!(T.accum_column(1), 256);
//! ```

use super::accum::TmemAccum;
use super::error::TmemError;
use super::scale::TmemScale;
use crate::base::text::ConstText;
use crate::mma::format::is_block_scaled;
use crate::mma::idesc_codec::Idesc;
use crate::mma::idesc_error::IdescError;
use crate::mma::shape::Operand;
use crate::pairing::pair::MmaPair;
use crate::scale::tile::ScaleTile;

/// Columns of Tensor Memory per SM: the limits table's number for every tcgen05 arch (sm100,
/// sm100f, sm103, sm110 all have 512; `Arch::tmem_columns`, with its source).
pub const TMEM_COLUMNS: u32 = crate::base::arch::Arch::Sm100.tmem_columns();

/// The smallest `tcgen05.alloc` column count (a power of two, at least 32) holding `cols`
/// columns.
///
/// ```
/// use smemdesc_core::*;
/// assert_eq!(tmem::plan::alloc_columns_for(0), Ok(32));
/// assert_eq!(tmem::plan::alloc_columns_for(288), Ok(512));
/// assert_eq!(tmem::plan::alloc_columns_for(513), Err(TmemError::OverCapacity { cols: 513 }));
/// ```
#[inline]
pub const fn alloc_columns_for(cols: u32) -> Result<u32, TmemError> {
    if cols > TMEM_COLUMNS {
        return Err(TmemError::OverCapacity { cols });
    }
    let a = cols.next_power_of_two();
    Ok(if a < 32 { 32 } else { a })
}

/// The declaration of a plan: a pairing, accumulator stages, the scale-factor tiles of a
/// block-scaled kind and optionally an explicit allocation.
///
/// ```
/// use smemdesc_core::*;
/// let t = |op, n| TileDecl::new(Arch::Sm100, op, ElementType::E2M1, Major::K, n, 256).kind(MmaKind::Mxf4).build().unwrap();
/// let p = MmaPair::pair(&t(Operand::A, 128), &t(Operand::B, 256), PairOptions::new(AccumType::F32)).unwrap();
/// let sfa = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 256).stages(4).build().unwrap();
/// let sfb = ScaleDecl::new(MmaKind::Mxf4, Operand::B, 256, 256).stages(4).build().unwrap();
/// let plan = TmemPlanDecl::new(&p).scale(&sfa, &sfb).build().unwrap();
/// assert_eq!((plan.sfa_col, plan.sfb_col, plan.cols_used, plan.alloc_columns), (256, 288, 352, 512));
/// assert_eq!(TmemPlanDecl::new(&p).build(), Err(TmemError::ScaleTiles));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmemPlanDecl {
    /// The pairing (sm100).
    pub pair: MmaPair,
    /// Accumulator stages.
    pub stages: u32,
    /// SFA tile (block-scaled kinds).
    pub sfa: Option<ScaleTile>,
    /// SFB tile (block-scaled kinds).
    pub sfb: Option<ScaleTile>,
    /// An explicit `tcgen05.alloc` column count (0: the smallest that fits).
    pub alloc: u32,
}

impl TmemPlanDecl {
    /// One accumulator stage, no scale factors, automatic allocation.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::F16, Major::K, 128, 64).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// assert_eq!(TmemPlanDecl::new(&p).build().unwrap().alloc_columns, 64);
    /// ```
    #[inline]
    pub const fn new(pair: &MmaPair) -> TmemPlanDecl {
        TmemPlanDecl {
            pair: *pair,
            stages: 1,
            sfa: None,
            sfb: None,
            alloc: 0,
        }
    }

    /// Accumulator stages.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::F16, Major::K, 128, 64).build().unwrap();
    /// # let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// # let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// assert_eq!(TmemPlanDecl::new(&p).stages(3).build().unwrap().alloc_columns, 256);
    /// ```
    #[inline]
    pub const fn stages(mut self, stages: u32) -> TmemPlanDecl {
        self.stages = stages;
        self
    }

    /// The SFA and SFB tiles of a block-scaled kind.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let sfa = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 256).build().unwrap();
    /// # let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::F16, Major::K, 128, 64).build().unwrap();
    /// # let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// # let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// assert_eq!(TmemPlanDecl::new(&p).scale(&sfa, &sfa).build(), Err(TmemError::ScaleTiles)); // f16 is dense
    /// ```
    #[inline]
    pub const fn scale(mut self, sfa: &ScaleTile, sfb: &ScaleTile) -> TmemPlanDecl {
        self.sfa = Some(*sfa);
        self.sfb = Some(*sfb);
        self
    }

    /// An explicit allocation (a power of two from 32 to 512, at least the columns used).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::F16, Major::K, 128, 64).build().unwrap();
    /// # let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// # let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// assert_eq!(TmemPlanDecl::new(&p).alloc(96).build(), Err(TmemError::AllocNotPow2 { alloc: 96 }));
    /// assert_eq!(TmemPlanDecl::new(&p).alloc(256).build().unwrap().ctas_per_sm(), 2);
    /// ```
    #[inline]
    pub const fn alloc(mut self, cols: u32) -> TmemPlanDecl {
        self.alloc = cols;
        self
    }

    /// Validates and lays out the plan.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::F16, Major::K, 128, 64).build().unwrap();
    /// # let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::F16, Major::K, 256, 64).build().unwrap();
    /// # let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// assert_eq!(TmemPlanDecl::new(&p).stages(3).build(), Err(TmemError::OverCapacity { cols: 768 }));
    /// ```
    #[inline]
    pub const fn build(&self) -> Result<TmemPlan, TmemError> {
        let p = &self.pair;
        if !p.arch.has_tcgen05() {
            return Err(TmemError::NotSm100);
        }
        if self.stages == 0 {
            return Err(TmemError::NoStages);
        }
        let accum = tri!(TmemAccum::new(
            p.shape.m,
            p.shape.n,
            p.cta_group,
            p.options.accum
        ));
        let (sfa, sfb) = match (self.sfa, self.sfb, is_block_scaled(p.kind)) {
            (None, None, false) => (None, None),
            (Some(a), Some(b), true) => {
                if !scale_fits(p, &a, Operand::A) || !scale_fits(p, &b, Operand::B) {
                    return Err(TmemError::ScaleTiles);
                }
                (Some(TmemScale::of(&a)), Some(TmemScale::of(&b)))
            }
            _ => return Err(TmemError::ScaleTiles),
        };
        // saturating: absurd stage counts end as OverCapacity, never an overflow panic
        let acc_cols = accum.cols().saturating_mul(self.stages);
        let sfa_cols = match sfa {
            Some(s) => s.cols(),
            None => 0,
        };
        let sfb_cols = match sfb {
            Some(s) => s.cols(),
            None => 0,
        };
        let used = acc_cols.saturating_add(sfa_cols).saturating_add(sfb_cols);
        if used > TMEM_COLUMNS {
            return Err(TmemError::OverCapacity { cols: used });
        }
        let alloc = if self.alloc == 0 {
            tri!(alloc_columns_for(used))
        } else {
            let a = self.alloc;
            if !a.is_power_of_two() || a < 32 || a > TMEM_COLUMNS {
                return Err(TmemError::AllocNotPow2 { alloc: a });
            }
            if a < used {
                return Err(TmemError::AllocTooSmall {
                    alloc: a,
                    cols: used,
                });
            }
            a
        };
        Ok(TmemPlan {
            pair: *p,
            accum,
            stages: self.stages,
            sfa,
            sfb,
            sfa_col: acc_cols,
            sfb_col: acc_cols + sfa_cols,
            cols_used: used,
            alloc_columns: alloc,
        })
    }

    /// [`build`](Self::build), panicking (a compile error in a `const` item) with the regions
    /// listed when the plan does not fit.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::F16, Major::K, 128, 64).build().unwrap();
    /// # let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::F16, Major::K, 256, 64).build().unwrap();
    /// # let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// let d = TmemPlanDecl::new(&p).stages(3);
    /// assert_eq!(d.message().as_str(), "Tensor Memory plan needs 768 columns, over the 512 of an SM: accumulator 3 x 256 at column 0");
    /// ```
    #[inline]
    pub const fn expect_valid(&self) -> TmemPlan {
        match self.build() {
            Ok(p) => p,
            Err(_) => panic!("{}", self.message().as_str()),
        }
    }

    /// The message of a refused plan (the regions listed when it is over capacity).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::F16, Major::K, 128, 64).build().unwrap();
    /// # let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// # let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// assert_eq!(TmemPlanDecl::new(&p).message().as_str(), "");
    /// ```
    pub const fn message(&self) -> ConstText<512> {
        let e = match self.build() {
            Ok(_) => return ConstText::new(),
            Err(e) => e,
        };
        let TmemError::OverCapacity { cols } = e else {
            return e.message();
        };
        let p = &self.pair;
        let acc = match TmemAccum::new(p.shape.m, p.shape.n, p.cta_group, p.options.accum) {
            Ok(a) => a.cols(),
            Err(_) => 0,
        };
        let mut t = ConstText::new()
            .str("Tensor Memory plan needs ")
            .num(cols)
            .str(" columns, over the 512 of an SM: accumulator ")
            .num(self.stages)
            .str(" x ")
            .num(acc)
            .str(" at column 0");
        let mut at = acc.saturating_mul(self.stages);
        if let (Some(a), Some(b)) = (self.sfa, self.sfb) {
            let (sa, sb) = (TmemScale::of(&a), TmemScale::of(&b));
            t = t
                .str(", SFA ")
                .num(sa.stages)
                .str(" x ")
                .num(sa.cols_per_stage)
                .str(" at column ")
                .num(at);
            at = at.saturating_add(sa.cols());
            t = t
                .str(", SFB ")
                .num(sb.stages)
                .str(" x ")
                .num(sb.cols_per_stage)
                .str(" at column ")
                .num(at);
        }
        t
    }
}

/// Whether `tile` is the `op` scale-factor tile this pairing reads.
#[inline]
const fn scale_fits(p: &MmaPair, tile: &ScaleTile, op: Operand) -> bool {
    let Some((format, vec)) = p.scale_vec() else {
        return false;
    };
    tile.operand as u32 == op as u32
        && tile.kind as u32 == p.kind as u32
        && tile.format as u32 == format as u32
        && tile.vec == vec
        && tile.cta_group == p.cta_group
        && tile.tile_k % p.shape.k == 0
}

/// A validated Tensor Memory plan (see the [module](self) docs).
///
/// ```
/// use smemdesc_core::*;
/// let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::BF16, Major::K, 128, 64).build().unwrap();
/// let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::BF16, Major::K, 96, 64).build().unwrap();
/// let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
/// let t = TmemPlanDecl::new(&p).stages(2).build().unwrap();
/// assert_eq!((t.cols_used, t.alloc_columns, t.ctas_per_sm()), (192, 256, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmemPlan {
    /// The pairing.
    pub pair: MmaPair,
    /// One stage's accumulator.
    pub accum: TmemAccum,
    /// Accumulator stages (at columns `s · accum.cols()`).
    pub stages: u32,
    /// SFA columns (block-scaled kinds).
    pub sfa: Option<TmemScale>,
    /// SFB columns (block-scaled kinds).
    pub sfb: Option<TmemScale>,
    /// First SFA column.
    pub sfa_col: u32,
    /// First SFB column.
    pub sfb_col: u32,
    /// Columns the regions use.
    pub cols_used: u32,
    /// The `tcgen05.alloc` column count.
    pub alloc_columns: u32,
}

impl TmemPlan {
    /// CTAs that can hold their allocation on one SM at once (`512 / alloc_columns`): with at
    /// most this many CTAs resident per SM no `tcgen05.alloc` waits on another CTA.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::F16, Major::K, 128, 64).build().unwrap();
    /// # let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::F16, Major::K, 32, 64).build().unwrap();
    /// # let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// assert_eq!(TmemPlanDecl::new(&p).build().unwrap().ctas_per_sm(), 16);
    /// ```
    #[inline]
    pub const fn ctas_per_sm(&self) -> u32 {
        TMEM_COLUMNS / self.alloc_columns
    }

    /// First column of accumulator stage `s`. Unchecked.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::F16, Major::K, 128, 64).build().unwrap();
    /// # let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::F16, Major::K, 32, 64).build().unwrap();
    /// # let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// assert_eq!(TmemPlanDecl::new(&p).stages(2).build().unwrap().accum_column(1), 32);
    /// ```
    #[inline(always)]
    pub const fn accum_column(&self, s: u32) -> u32 {
        s.wrapping_mul(self.accum.cols())
    }

    /// TMEM addresses `[tsfa]`, `[tsfb]` of the MMA of K step `kstep` in scale stage `stage`,
    /// from the allocation's base: column plus the scale-factor id in bits 30-31. `(0, 0)` for
    /// dense kinds. Unchecked.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = |op, n| TileDecl::new(Arch::Sm100, op, ElementType::E2M1, Major::K, n, 256).kind(MmaKind::Mxf4).build().unwrap();
    /// let p = MmaPair::pair(&t(Operand::A, 128), &t(Operand::B, 128), PairOptions::new(AccumType::F32)).unwrap();
    /// let sf = |op| ScaleDecl::new(MmaKind::Mxf4, op, 128, 256).build().unwrap();
    /// let plan = TmemPlanDecl::new(&p).scale(&sf(Operand::A), &sf(Operand::B)).build().unwrap();
    /// assert_eq!(plan.sf_taddr(0, 0, 1), (128 | (2 << 30), 136 | (2 << 30)));
    /// ```
    #[inline(always)]
    pub const fn sf_taddr(&self, base: u32, stage: u32, kstep: u32) -> (u32, u32) {
        let (Some(a), Some(b)) = (self.sfa, self.sfb) else {
            return (0, 0);
        };
        let (ca, ia) = a.kstep_column(kstep);
        let (cb, ib) = b.kstep_column(kstep);
        // wrapping: out-of-range arguments give meaningless addresses, never an overflow panic
        let ta = base
            .wrapping_add(self.sfa_col)
            .wrapping_add(stage.wrapping_mul(a.cols_per_stage))
            .wrapping_add(ca);
        let tb = base
            .wrapping_add(self.sfb_col)
            .wrapping_add(stage.wrapping_mul(b.cols_per_stage))
            .wrapping_add(cb);
        (
            (ta & 0x3fff_ffff) | (ia << 30),
            (tb & 0x3fff_ffff) | (ib << 30),
        )
    }

    /// The instruction descriptor of K step `kstep`, its scale-factor ids derived from the
    /// columns (dense kinds: the pairing's descriptor).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = |op| TileDecl::new(Arch::Sm100, op, ElementType::E4M3, Major::K, 128, 128).kind(MmaKind::Mxf8f6f4).build().unwrap();
    /// let p = MmaPair::pair(&t(Operand::A), &t(Operand::B), PairOptions::new(AccumType::F32)).unwrap();
    /// let sf = |op| ScaleDecl::new(MmaKind::Mxf8f6f4, op, 128, 128).build().unwrap();
    /// let plan = TmemPlanDecl::new(&p).scale(&sf(Operand::A), &sf(Operand::B)).build().unwrap();
    /// let d = plan.idesc(3).unwrap().raw();
    /// assert_eq!(((d >> 29) & 3, (d >> 4) & 3), (3, 3));
    /// ```
    #[inline]
    pub const fn idesc(&self, kstep: u32) -> Result<Idesc, IdescError> {
        let d = tri!(self.pair.idesc());
        if self.sfa.is_none() {
            return Ok(d);
        }
        let (ta, tb) = self.sf_taddr(0, 0, kstep);
        d.try_with_sf_tmem(ta, tb)
    }

    /// Checks that `idesc`'s scale-factor ids are those the plan's columns give for K step
    /// `kstep`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = |op| TileDecl::new(Arch::Sm100, op, ElementType::E4M3, Major::K, 128, 128).kind(MmaKind::Mxf8f6f4).build().unwrap();
    /// let p = MmaPair::pair(&t(Operand::A), &t(Operand::B), PairOptions::new(AccumType::F32)).unwrap();
    /// let sf = |op| ScaleDecl::new(MmaKind::Mxf8f6f4, op, 128, 128).build().unwrap();
    /// let plan = TmemPlanDecl::new(&p).scale(&sf(Operand::A), &sf(Operand::B)).build().unwrap();
    /// let d = p.idesc().unwrap(); // ids 0
    /// assert_eq!(plan.check_idesc(d, 0), Ok(()));
    /// assert_eq!(plan.check_idesc(d, 1), Err(TmemError::ScaleIdMismatch { operand: Operand::A, id: 0, expected: 1 }));
    /// ```
    #[inline]
    pub const fn check_idesc(&self, idesc: Idesc, kstep: u32) -> Result<(), TmemError> {
        let (ta, tb) = self.sf_taddr(0, 0, kstep);
        let raw = idesc.raw();
        let (ia, ib) = ((raw >> 29) & 3, (raw >> 4) & 3);
        if self.sfa.is_some() {
            if ia != ta >> 30 {
                return Err(TmemError::ScaleIdMismatch {
                    operand: Operand::A,
                    id: ia,
                    expected: ta >> 30,
                });
            }
            if ib != tb >> 30 {
                return Err(TmemError::ScaleIdMismatch {
                    operand: Operand::B,
                    id: ib,
                    expected: tb >> 30,
                });
            }
        }
        Ok(())
    }

    /// [`check_idesc`](Self::check_idesc), panicking (a compile error in a `const` item).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # let t = |op| TileDecl::new(Arch::Sm100, op, ElementType::E4M3, Major::K, 128, 128).kind(MmaKind::Mxf8f6f4).build().unwrap();
    /// # let p = MmaPair::pair(&t(Operand::A), &t(Operand::B), PairOptions::new(AccumType::F32)).unwrap();
    /// # let sf = |op| ScaleDecl::new(MmaKind::Mxf8f6f4, op, 128, 128).build().unwrap();
    /// # let plan = TmemPlanDecl::new(&p).scale(&sf(Operand::A), &sf(Operand::B)).build().unwrap();
    /// plan.expect_idesc(plan.idesc(2).unwrap(), 2);
    /// ```
    #[inline]
    pub const fn expect_idesc(&self, idesc: Idesc, kstep: u32) {
        if let Err(e) = self.check_idesc(idesc, kstep) {
            panic!("{}", e.message().as_str());
        }
    }
}
