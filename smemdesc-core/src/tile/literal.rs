//! A [`TilePlan`] from the numbers [`TileDecl::build`] derived, without deriving them again: what
//! `#[smem_tile]` writes for its `PLAN`, so that evaluating the constant costs the compiler a few
//! field stores instead of the whole validation (the macro ran it at expansion time). Not an API:
//! the numbers' order is whatever this version of the core writes and reads.

use crate::base::arch::Order;
use crate::base::smem_form::SmemForm;
use crate::layout::atom::Atom;
use crate::layout::descriptor::SmemDescriptor;
use crate::mma::shape::{MmaKind, MmaShape};
use crate::tile::access::TileAccess;
use crate::tile::decl::{TileDecl, TilePlan};
use crate::tile::spec::{TileLayout, TileSpec};
use crate::tile::tma_plan::{TmaPlan, TmaSwizzle};

/// How many numbers [`TilePlan::literal_numbers`] writes.
#[doc(hidden)]
pub const LITERAL_NUMBERS: usize = 15;

impl TilePlan {
    /// The numbers of this plan that [`TilePlan::from_literal`] takes as given (internal to
    /// `#[smem_tile]`; not an API): the instruction shape, the spec's instruction extents, the
    /// canonical offsets and the TMA box plan.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64);
    /// let p = d.build().unwrap();
    /// let same = TilePlan::from_literal(d, &p.tile.access(), Order::MnFirst, MmaKind::F16, p.literal_numbers());
    /// assert_eq!(same, p);
    /// ```
    #[doc(hidden)]
    pub const fn literal_numbers(&self) -> [u32; LITERAL_NUMBERS] {
        let (t, x) = (&self.tile, &self.tma);
        [
            self.mma.m,
            self.mma.n,
            self.mma.k,
            t.spec.mma_mn,
            t.spec.mma_k_bytes,
            t.lbo_units,
            t.sbo_units,
            x.box_rows,
            x.box_inner,
            x.boxes,
            x.box_bytes,
            x.smem_align,
            x.boxes_strided,
            x.boxes_contig,
            x.strided_first as u32,
        ]
    }

    /// The plan `decl.build()` returns, assembled from what it derived (internal to
    /// `#[smem_tile]`; not an API): `access` is the plan's [`TileLayout::access`], `order` and
    /// `kind` the resolved ones, `n` its [`literal_numbers`](Self::literal_numbers). Nothing is
    /// checked: the macro calls it only with the numbers of a plan the core validated, and
    /// `tests/macro_consts.rs` compares every emitted `PLAN` with `build()`.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = TileDecl::new(Arch::Sm100, Operand::B, ElementType::E4M3, Major::Mn, 256, 128).stages(2);
    /// let p = d.build().unwrap();
    /// let (o, k) = (p.decl.order.unwrap(), p.kind);
    /// assert_eq!(TilePlan::from_literal(d, &p.tile.access(), o, k, p.literal_numbers()), p);
    /// ```
    #[doc(hidden)]
    pub const fn from_literal(
        decl: TileDecl,
        access: &TileAccess,
        order: Order,
        kind: MmaKind,
        n: [u32; LITERAL_NUMBERS],
    ) -> TilePlan {
        let mut d = decl;
        let swizzle = access.swizzle;
        let mma = MmaShape::new(n[0], n[1], n[2]);
        let form = SmemForm::of(d.dtype, kind);
        let spec = TileSpec {
            arch: d.arch,
            dtype: d.dtype,
            major: d.major,
            swizzle: Some(swizzle),
            order,
            tile_mn: d.tile_mn,
            tile_k: d.tile_k,
            mma_mn: n[3],
            stages: d.stages,
            form,
            mma_k_bytes: n[4],
        };
        let atom = match Atom::new(d.major, swizzle, d.dtype) {
            Ok(a) => a,
            Err(_) => panic!("TilePlan::from_literal: not the numbers of a validated plan"),
        };
        let tile = TileLayout {
            spec,
            swizzle,
            atom,
            layout: access.layout.layout,
            grid: access.grid,
            lbo_units: n[5],
            sbo_units: n[6],
            base: SmemDescriptor::from_raw(d.arch, access.desc),
        };
        let tma = TmaPlan {
            box_rows: n[7],
            box_inner: n[8],
            boxes: n[9],
            box_bytes: n[10],
            swizzle: TmaSwizzle::of(swizzle),
            data_type: form.tma_data_type(d.dtype),
            smem_align: n[11],
            boxes_strided: n[12],
            boxes_contig: n[13],
            strided_first: n[14] != 0,
            major: d.major,
        };
        d.swizzle = Some(swizzle);
        d.order = Some(order);
        d.mma = Some(mma);
        d.kind = Some(kind);
        TilePlan {
            decl: d,
            tile,
            tma,
            mma,
            kind,
        }
    }
}
