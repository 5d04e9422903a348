//! A [`TilePlan`] from the numbers [`TileDecl::build`] derived, without deriving them again, and a
//! [`TileAccess`] from its numbers: what `#[smem_tile]` writes for its `PLAN` and `ACCESS`, so
//! that evaluating them costs the compiler a few field stores instead of the whole validation
//! (the macro ran it at expansion time), and the expansion is one call with an array of literals
//! (a smaller body to type-check than nested struct literals). Not an API: the numbers' order is
//! whatever this version of the core writes and reads.

use crate::base::arch::{Arch, Major, Order};
use crate::base::dtype::ElementType;
use crate::base::smem_form::SmemForm;
use crate::base::swizzle::{Swizzle, SwizzleMode};
use crate::layout::algebra::{Layout, Mode, SwizzledLayout, MAX_SUBMODES};
use crate::layout::atom::Atom;
use crate::layout::descriptor::SmemDescriptor;
use crate::mma::shape::{MmaKind, MmaShape, Operand};
use crate::tile::access::TileAccess;
use crate::tile::decl::{TileDecl, TilePlan};
use crate::tile::spec::{TileLayout, TileSpec};
use crate::tile::tma_plan::{TmaPlan, TmaSwizzle};

/// How many numbers [`TilePlan::literal_numbers`] writes.
#[doc(hidden)]
pub const LITERAL_NUMBERS: usize = 21;

/// How many numbers [`TileAccess::literal_numbers`] writes.
#[doc(hidden)]
pub const ACCESS_NUMBERS: usize = HEAD_NUMBERS + 4 * MODE_NUMBERS;

/// The scalar fields [`TileAccess::literal_numbers`] writes before the four layout modes.
const HEAD_NUMBERS: usize = 13;

/// Numbers per layout mode: its rank, then every shape slot, then every stride slot.
const MODE_NUMBERS: usize = 1 + 2 * MAX_SUBMODES;

impl TilePlan {
    /// The numbers of this plan that [`TilePlan::from_literal`] takes as given (internal to
    /// `#[smem_tile]`; not an API): the instruction shape, the spec's instruction extents, the
    /// canonical offsets, the TMA box plan and the declaration's CTA group, `mma_mn` and
    /// `tma_box` (as declared: `0` for none, else `1` and the value).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64);
    /// let p = d.build().unwrap();
    /// let (a, o, k) = (&p.tile.access(), Order::MnFirst, MmaKind::F16);
    /// let same = TilePlan::from_literal(Operand::A, ElementType::BF16, Major::K, o, k, a, p.literal_numbers());
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
            self.decl.cta_group,
            self.decl.mma_mn.is_some() as u32,
            match self.decl.mma_mn {
                Some(v) => v,
                None => 0,
            },
            self.decl.tma_box.is_some() as u32,
            match self.decl.tma_box {
                Some((rows, _)) => rows,
                None => 0,
            },
            match self.decl.tma_box {
                Some((_, inner)) => inner,
                None => 0,
            },
        ]
    }

    /// The plan `TileDecl::build()` returned, assembled from what it derived (internal to
    /// `#[smem_tile]`; not an API): the declaration's operand, element type and major, the
    /// resolved order and kind, the plan's [`TileLayout::access`] (architecture, swizzle, extents,
    /// stages, layouts, base descriptor) and its [`literal_numbers`](Self::literal_numbers).
    /// Nothing is checked: the macro calls it only with the numbers of a plan the core validated,
    /// and `generated/tests/cases/macro_consts.rs` compares every emitted `PLAN` with `build()`.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = TileDecl::new(Arch::Sm100, Operand::B, ElementType::E4M3, Major::Mn, 256, 128).stages(2);
    /// let p = d.build().unwrap();
    /// let (o, k, a) = (p.decl.order.unwrap(), p.kind, &p.tile.access());
    /// let same = TilePlan::from_literal(Operand::B, ElementType::E4M3, Major::Mn, o, k, a, p.literal_numbers());
    /// assert_eq!(same, p);
    /// ```
    #[doc(hidden)]
    pub const fn from_literal(
        operand: Operand,
        dtype: ElementType,
        major: Major,
        order: Order,
        kind: MmaKind,
        access: &TileAccess,
        n: [u32; LITERAL_NUMBERS],
    ) -> TilePlan {
        let swizzle = access.swizzle;
        let mma = MmaShape::new(n[0], n[1], n[2]);
        let d = TileDecl {
            arch: access.arch,
            operand,
            dtype,
            major,
            tile_mn: access.tile_mn,
            tile_k: access.tile_k,
            swizzle: Some(swizzle),
            order: Some(order),
            mma: Some(mma),
            mma_mn: if n[16] != 0 { Some(n[17]) } else { None },
            kind: Some(kind),
            stages: access.stages,
            tma_box: if n[18] != 0 {
                Some((n[19], n[20]))
            } else {
                None
            },
            cta_group: n[15],
        };
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
        TilePlan {
            decl: d,
            tile,
            tma,
            mma,
            kind,
        }
    }
}

impl TileAccess {
    /// The numbers of this access that [`TileAccess::from_literal`] reads (internal to
    /// `#[smem_tile]`; not an API): every field but `arch`, `swizzle` and `desc`, the layouts'
    /// modes slot by slot.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).expect_valid().access();
    /// assert_eq!(TileAccess::from_literal(a.arch, a.swizzle, a.desc, a.literal_numbers()), a);
    /// ```
    #[doc(hidden)]
    pub const fn literal_numbers(&self) -> [u32; ACCESS_NUMBERS] {
        let sl = &self.layout;
        let mut n = [0; ACCESS_NUMBERS];
        let head: [u32; HEAD_NUMBERS] = [
            self.align,
            self.mmas_mn,
            self.mmas_k,
            self.stages,
            self.advance_stage,
            self.tile_mn,
            self.tile_k,
            self.values_per_cell,
            self.last_start,
            sl.swizzle.bits,
            sl.swizzle.base,
            sl.swizzle.shift,
            sl.elem_bytes,
        ];
        let mut i = 0;
        while i < HEAD_NUMBERS {
            n[i] = head[i];
            i += 1;
        }
        let modes = [&sl.layout.mn, &sl.layout.k, &self.grid.mn, &self.grid.k];
        let mut m = 0;
        while m < modes.len() {
            let at = HEAD_NUMBERS + m * MODE_NUMBERS;
            n[at] = modes[m].rank() as u32;
            let mut j = 0;
            while j < MAX_SUBMODES {
                n[at + 1 + j] = modes[m].shape(j);
                n[at + 1 + MAX_SUBMODES + j] = modes[m].stride(j);
                j += 1;
            }
            m += 1;
        }
        n
    }

    /// The access whose [`literal_numbers`](Self::literal_numbers) are `n` (internal to
    /// `#[smem_tile]`; not an API). Nothing is checked: the macro calls it only with the numbers
    /// of an access the core derived, and `generated/tests/cases/macro_consts.rs` compares every emitted
    /// `ACCESS` with `TileLayout::access`.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm100, ElementType::E4M3, Major::Mn, 256, 128).expect_valid().access();
    /// assert_eq!(TileAccess::from_literal(a.arch, a.swizzle, a.desc, a.literal_numbers()), a);
    /// ```
    #[doc(hidden)]
    pub const fn from_literal(
        arch: Arch,
        swizzle: SwizzleMode,
        desc: u64,
        n: [u32; ACCESS_NUMBERS],
    ) -> TileAccess {
        TileAccess {
            arch,
            desc,
            swizzle,
            align: n[0],
            mmas_mn: n[1],
            mmas_k: n[2],
            stages: n[3],
            advance_stage: n[4],
            tile_mn: n[5],
            tile_k: n[6],
            values_per_cell: n[7],
            last_start: n[8],
            layout: SwizzledLayout {
                swizzle: Swizzle {
                    bits: n[9],
                    base: n[10],
                    shift: n[11],
                },
                layout: Layout {
                    mn: mode(&n, HEAD_NUMBERS),
                    k: mode(&n, HEAD_NUMBERS + MODE_NUMBERS),
                },
                elem_bytes: n[12],
            },
            grid: Layout {
                mn: mode(&n, HEAD_NUMBERS + 2 * MODE_NUMBERS),
                k: mode(&n, HEAD_NUMBERS + 3 * MODE_NUMBERS),
            },
        }
    }
}

/// The mode whose numbers start at `n[at]` (rank, shapes, strides). Written out slot by slot
/// (not a loop): the compiler evaluates it for every tile whose `ACCESS` is used.
const fn mode(n: &[u32; ACCESS_NUMBERS], at: usize) -> Mode {
    let (s, t) = (at + 1, at + 1 + MAX_SUBMODES);
    Mode::from_parts(
        n[at] as usize,
        [n[s], n[s + 1], n[s + 2], n[s + 3]],
        [n[t], n[t + 1], n[t + 2], n[t + 3]],
    )
}
