//! `TilePlan::from_literal` and `TileAccess::from_literal` (what `#[smem_tile]` writes for `PLAN`
//! and `ACCESS`) rebuild exactly the plan `TileDecl::build` derived and its access numbers, for
//! every accepted declaration of a grid over every architecture, element type, kind, major,
//! swizzle, order, operand, extent, stage count, CTA group, TMA box request and instruction
//! extent.

use smemdesc_core::*;

/// `None` (the default, derived) and every value of an optional key.
fn default_and_all<T: Copy>(all: &[T]) -> impl Iterator<Item = Option<T>> + '_ {
    core::iter::once(None).chain(all.iter().copied().map(Some))
}

/// Every variant of `d` the grid adds below its shape: order, stages, CTA group, box request,
/// instruction extent, K = 96.
fn variants(d: TileDecl, out: &mut Vec<TileDecl>) {
    for order in [None, Some(Order::MnFirst), Some(Order::KFirst)] {
        let mut v = d;
        v.order = order;
        out.push(v);
    }
    out.push(d.stages(3));
    out.push(d.cta_group(2));
    out.push(d.mma_mn(64));
    out.push(d.mma(MmaShape::new(128, 256, 96)));
    // A box of the atom's rows (8) and the widest inner extent of each swizzle, in elements.
    let inner = 128 / d.dtype.smem_bytes().max(1);
    for div in [1, 2, 4, 8] {
        out.push(d.tma_box(8, inner / div));
    }
}

#[test]
fn every_literal_plan_equals_the_built_one() {
    let mut decls = Vec::new();
    for arch in Arch::ALL {
        for dtype in ElementType::ALL {
            for kind in default_and_all(&MmaKind::ALL) {
                for major in [Major::K, Major::Mn] {
                    for swizzle in default_and_all(&SwizzleMode::ALL) {
                        for operand in [Operand::A, Operand::B] {
                            for (mn, k) in [(64, 64), (128, 128), (256, 64), (64, 256)] {
                                let mut d = TileDecl::new(arch, operand, dtype, major, mn, k);
                                d.kind = kind;
                                d.swizzle = swizzle;
                                variants(d, &mut decls);
                            }
                        }
                    }
                }
            }
        }
    }
    let (mut accepted, mut packed, mut boxes, mut given) = (0, 0, 0, [0; 3]);
    for d in &decls {
        let Ok(p) = d.build() else { continue };
        accepted += 1;
        packed += usize::from(p.tile.spec().form == SmemForm::Packed);
        boxes += usize::from(p.tma.boxes > 1);
        given[0] += usize::from(p.decl.mma_mn.is_some());
        given[1] += usize::from(p.decl.tma_box.is_some());
        given[2] += usize::from(p.decl.cta_group == 2);
        let order = p.decl.order.expect("a built plan has its order");
        let (a, n) = (&p.tile.access(), p.literal_numbers());
        let lit = TilePlan::from_literal(d.operand, d.dtype, d.major, order, p.kind, a, n);
        assert_eq!(lit, p, "{d:?}");
        let access = TileAccess::from_literal(a.arch, a.swizzle, a.desc, a.literal_numbers());
        assert_eq!(access, *a, "{d:?}");
    }
    println!("{} declarations, {accepted} accepted", decls.len());
    assert!(accepted >= 2000, "grid too small: {accepted}");
    assert!(
        packed > 0 && boxes > 0,
        "grid misses packed fp4 or multi-box tiles"
    );
}
