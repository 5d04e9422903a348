//! TMA box contiguity is decided from the tile's layout, not from the stacking order's name
//! (issue 11): a tile one swizzle atom wide along its contiguous dimension has the same layout in
//! both orders, so it takes the same boxes. Independent check: a model of how TMA writes a box
//! (row `r` of a box lands `r × inner` elements after the box's first element, spec §9 / CUDA
//! driver `cuTensorMapEncodeTiled`) must put every element where the tile's layout puts it.

use smemdesc::core::*;

fn tile(major: Major, mn: u32, k: u32, order: Order) -> TileLayout {
    TileSpec::new(Arch::Sm90, ElementType::BF16, major, mn, k)
        .swizzle(SwizzleMode::B128)
        .order(order)
        .build()
        .unwrap()
}

/// Every element of every box, written row by row from the box's offset, lands where the layout
/// puts it, and the boxes cover the stage exactly once.
fn assert_tma_model(t: &TileLayout, p: &TmaPlan) {
    let s = t.spec();
    let mut seen = vec![false; (s.tile_mn * s.tile_k) as usize];
    for b in 0..p.boxes {
        let (mn0, k0) = p.box_coord(b);
        let base = p.box_offset(t, b) / 2;
        for r in 0..p.box_rows {
            for i in 0..p.box_inner {
                let (mn, k) = match s.major {
                    Major::K => (mn0 + r, k0 + i),
                    Major::Mn => (mn0 + i, k0 + r),
                };
                assert_eq!(
                    t.layout().eval(mn, k),
                    base + r * p.box_inner + i,
                    "box {b} row {r} element {i}"
                );
                let e = &mut seen[(mn * s.tile_k + k) as usize];
                assert!(!*e, "({mn}, {k}) written twice");
                *e = true;
            }
        }
    }
    assert!(seen.iter().all(|&e| e), "stage not covered");
}

/// The model's verdict for boxes of `rows × inner` without a plan: each box (at multiples of its
/// extents) written row by row from the layout's offset of its first element lands on the layout.
fn boxes_are_dense(t: &TileLayout, rows: u32, inner: u32) -> bool {
    let s = t.spec();
    let at = |st: u32, c: u32| match s.major {
        Major::K => t.layout().eval(st, c),
        Major::Mn => t.layout().eval(c, st),
    };
    let (strided, contig) = match s.major {
        Major::K => (s.tile_mn, s.tile_k),
        Major::Mn => (s.tile_k, s.tile_mn),
    };
    (0..strided).step_by(rows as usize).all(|s0| {
        (0..contig).step_by(inner as usize).all(|c0| {
            (0..rows).all(|r| (0..inner).all(|i| at(s0 + r, c0 + i) == at(s0, c0) + r * inner + i))
        })
    })
}

fn same_layout(a: &TileLayout, b: &TileLayout) -> bool {
    let s = a.spec();
    (0..s.tile_mn).all(|mn| (0..s.tile_k).all(|k| a.layout().eval(mn, k) == b.layout().eval(mn, k)))
}

#[test]
fn k_major_one_atom_wide_k_first_takes_the_128_row_box() {
    // `smemdesc tile --arch sm90 --dtype bf16 --tile 128x64 --major K --swizzle 128B
    //  --order k_first --tma-box 128x64` was refused ("... up to 8").
    let kf = tile(Major::K, 128, 64, Order::KFirst);
    let mf = tile(Major::K, 128, 64, Order::MnFirst);
    assert!(same_layout(&kf, &mf));
    let p = TmaPlan::new(&kf, Some((128, 64))).unwrap();
    assert_eq!((p.boxes, p.box_rows, p.box_inner), (1, 128, 64));
    assert_tma_model(&kf, &p);
    // The default plan is the same one box, not 16 boxes of 8 rows.
    assert_eq!(
        TmaPlan::new(&kf, None).unwrap(),
        TmaPlan::new(&mf, None).unwrap()
    );
    assert_eq!(TmaPlan::new(&kf, None).unwrap().boxes, 1);
}

#[test]
fn mn_major_one_atom_wide_mn_first_takes_the_64_row_box() {
    // The MN-major mirror: `--tile 64x64 --major MN --order mn_first --tma-box 64x64`.
    let mf = tile(Major::Mn, 64, 64, Order::MnFirst);
    let kf = tile(Major::Mn, 64, 64, Order::KFirst);
    assert!(same_layout(&kf, &mf));
    let p = TmaPlan::new(&mf, Some((64, 64))).unwrap();
    assert_eq!((p.boxes, p.box_rows, p.box_inner), (1, 64, 64));
    assert_tma_model(&mf, &p);
    assert_eq!(
        TmaPlan::new(&mf, None).unwrap(),
        TmaPlan::new(&kf, None).unwrap()
    );
}

#[test]
fn two_atoms_wide_k_first_still_refuses_a_box_over_one_atom() {
    // 128 x 128 bf16 K-major SW128 k_first: the second atom along K follows the first in SMEM, so
    // a box of 16 rows would cross into the next K atom: only 8 rows are contiguous.
    let kf = tile(Major::K, 128, 128, Order::KFirst);
    let e = TmaPlan::new(&kf, Some((16, 64))).unwrap_err();
    assert!(
        matches!(e, Error::TmaBoxRowsIllegal { max_rows: 8, .. }),
        "{e}"
    );
    let p = TmaPlan::new(&kf, None).unwrap();
    assert_eq!((p.boxes, p.box_rows), (32, 8));
    assert_tma_model(&kf, &p);
    // ... while mn_first stacks the rows densely: one box per K atom.
    let mf = tile(Major::K, 128, 128, Order::MnFirst);
    let p = TmaPlan::new(&mf, None).unwrap();
    assert_eq!((p.boxes, p.box_rows), (2, 128));
    assert_tma_model(&mf, &p);
}

#[test]
fn every_small_tile_plan_matches_the_tma_model() {
    // Both majors, both orders, every swizzle, extents 1..4 atoms each way: the default plan and
    // every legal box height agree with the model, and a height is accepted exactly when the model
    // finds its boxes dense.
    for major in [Major::K, Major::Mn] {
        for order in [Order::MnFirst, Order::KFirst] {
            for sw in [SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128] {
                let inner = sw.atom_width() / 2;
                for a_s in 1..=4u32 {
                    for a_c in 1..=4u32 {
                        let (strided, contig) = (8 * a_s * 8, inner * a_c);
                        let (mn, k) = match major {
                            Major::K => (strided, contig),
                            Major::Mn => (contig, strided),
                        };
                        let Ok(t) = TileSpec::new(Arch::Sm90, ElementType::BF16, major, mn, k)
                            .swizzle(sw)
                            .order(order)
                            .build()
                        else {
                            continue;
                        };
                        assert_tma_model(&t, &TmaPlan::new(&t, None).unwrap());
                        for rows in (8..=strided.min(256)).step_by(8) {
                            if strided % rows != 0 {
                                continue;
                            }
                            let plan = TmaPlan::new(&t, Some((rows, inner)));
                            assert_eq!(
                                plan.is_ok(),
                                boxes_are_dense(&t, rows, inner),
                                "{mn}x{k} {major:?} {order:?} {sw:?} rows {rows}"
                            );
                            if let Ok(p) = plan {
                                assert_tma_model(&t, &p);
                            }
                        }
                    }
                }
            }
        }
    }
}
