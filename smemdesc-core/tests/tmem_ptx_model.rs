//! An independent model of `tcgen05.ld`, written from the PTX ISA's "Matrix fragments for
//! tcgen05.ld/st" figures and "Data path layout organization" text, checked against the core's
//! maps (`smemdesc_core::tmem`) on every shape, several `.num`s and all three data paths — more
//! than the golden rows cover.
//!
//! The figures are drawn below as text, one line per TMEM lane of one `.x1` instruction, one
//! cell per 32-bit column, `T<thread>.r<register>`; `.num` repeats the figure to the right (the
//! next repeat's registers follow), `16x32bx2` puts its second 16-lane block at the immediate
//! column offset. Nothing here calls the core's fragment or placement arithmetic. (There is no
//! Blackwell GPU here: the model and the core both rest on the documents and CuTe.)

use smemdesc_core::{AccumType, LoadShape, TmemAccum, TmemLoad};
use std::collections::HashMap;

/// Rows `lane: cells`; `{t}` patterns are expanded by `expand`.
fn figure(shape: LoadShape) -> Vec<Vec<(u32, u32)>> {
    // Each entry: (lanes, generator of the row's cells (thread, reg) from the lane).
    let mut rows = Vec::new();
    match shape {
        // Figure "32x32b": lane i holds thread i's register.
        LoadShape::S32x32b => {
            for lane in 0..32 {
                rows.push(vec![(lane, 0)]);
            }
        }
        // Figure "16x64b": lanes 0-7 hold the even threads (T0 T2 | T4 T6 | ...), lanes 8-15 the
        // odd ones (T1 T3 | T5 T7 | ...), two 32-bit columns per lane, one register each.
        LoadShape::S16x64b => {
            for lane in 0..16 {
                let odd = lane / 8;
                let t0 = 4 * (lane % 8) + odd;
                rows.push(vec![(t0, 0), (t0 + 2, 0)]);
            }
        }
        // Figure "16x128b": four threads across each lane (T0 T1 T2 T3 on lane 0, T4..T7 on lane
        // 1, ...), register r0 on lanes 0-7 and r1 on lanes 8-15.
        LoadShape::S16x128b => {
            for lane in 0..16 {
                let t0 = 4 * (lane % 8);
                let r = lane / 8;
                rows.push((0..4).map(|c| (t0 + c, r)).collect());
            }
        }
        // Figure "16x256b": each thread two adjacent columns (T0.r0 T0.r1 T1.r0 T1.r1 ... on lane
        // 0), r0/r1 on lanes 0-7 and r2/r3 on lanes 8-15 (the mma m16n8 accumulator fragment).
        LoadShape::S16x256b => {
            for lane in 0..16 {
                let t0 = 4 * (lane % 8);
                let r0 = 2 * (lane / 8);
                let mut row = Vec::new();
                for c in 0..4 {
                    row.push((t0 + c, r0));
                    row.push((t0 + c, r0 + 1));
                }
                rows.push(row);
            }
        }
        // Figure "16x32bx2": the first 16-lane block is T0..T15 (lane i, thread i); the second
        // block, at the immediate offset, T16..T31. Drawn here as the first block; see `model`.
        LoadShape::S16x32bx2 => {
            for lane in 0..16 {
                rows.push(vec![(lane, 0)]);
            }
        }
    }
    rows
}

/// (thread, register) -> (lane, column) of one instruction with `.num` repeats, from the figure.
fn model(shape: LoadShape, num: u32) -> HashMap<(u32, u32), (u32, u32)> {
    let fig = figure(shape);
    let width = fig[0].len() as u32;
    let regs_per_repeat = fig.iter().flatten().map(|&(_, r)| r + 1).max().unwrap();
    let mut out = HashMap::new();
    for rep in 0..num {
        for (lane, row) in fig.iter().enumerate() {
            for (c, &(t, r)) in row.iter().enumerate() {
                let reg = rep * regs_per_repeat + r;
                let col = rep * width + c as u32;
                assert!(out.insert((t, reg), (lane as u32, col)).is_none());
                if shape == LoadShape::S16x32bx2 {
                    // the second block: threads 16-31, `num` columns further (CuTe's immediate)
                    assert!(out
                        .insert((t + 16, reg), (lane as u32, col + num))
                        .is_none());
                }
            }
        }
    }
    assert_eq!(
        out.len() as u32,
        32 * regs_per_repeat * num,
        "every thread and register once"
    );
    out
}

/// The data-path layouts (PTX "Data path layout organization"), as tables of lanes: which row of
/// D (CTA-local) and which N offset each lane holds.
fn lane_owner(m: u32, n: u32, cta_group: u32, lane: u32) -> Option<(u32, u32)> {
    match (m / cta_group, cta_group) {
        (128, _) => Some((lane, 0)),
        // M = 64 cta_group::1: lanes 0-15 of each 32-lane subpartition hold rows 16w..16w+15
        (64, 1) => (lane % 32 < 16).then_some((16 * (lane / 32) + lane % 32, 0)),
        // M = 128 cta_group::2: lanes 0-63 hold rows 0-63 of the first N/2 columns, 64-127 of
        // the second
        (64, 2) => Some((lane % 64, (n / 2) * (lane / 64))),
        _ => None,
    }
}

#[test]
fn the_ptx_figures_agree_with_the_core_everywhere() {
    let shapes = [
        (LoadShape::S32x32b, 1),
        (LoadShape::S16x64b, 2),
        (LoadShape::S16x128b, 4),
        (LoadShape::S16x256b, 8),
        (LoadShape::S16x32bx2, 2),
    ];
    let mut configs = 0;
    let mut refused = 0;
    for (m, cg) in [(64, 1), (128, 1), (128, 2), (256, 2)] {
        for n in [32, 64, 96, 128, 256] {
            let Ok(acc) = TmemAccum::new(m, n, cg, AccumType::F32) else {
                assert!(
                    cg == 2 && m == 128 && n % 32 != 0 || n % 8 != 0,
                    "{m} {n} {cg}"
                );
                continue;
            };
            let rows = m / cg;
            let cols = if (m, cg) == (128, 2) { n / 2 } else { n };
            for &(shape, cols_per_rep) in &shapes {
                for num in [1u32, 2, 4, 8, 16, 32, 64, 128] {
                    let Ok(load) = TmemLoad::new(shape, num) else {
                        continue;
                    };
                    let lanes = if shape == LoadShape::S32x32b { 32 } else { 16 };
                    let load_cols = cols_per_rep * num;
                    let used_lanes = if (m, cg) == (64, 1) { 16 } else { 32 };
                    let fits = lanes <= used_lanes && cols % load_cols == 0;
                    let Ok(map) = acc.load_map(load) else {
                        assert!(
                            !fits,
                            "core refused a fitting load: M {m} N {n} cg {cg} {shape:?}.x{num}"
                        );
                        refused += 1;
                        continue;
                    };
                    assert!(fits, "core accepted a load that does not fit: M {m} N {n} cg {cg} {shape:?}.x{num}");
                    // the model's warpgroup: each warp its subpartition; 16-lane shapes twice
                    // (lanes +0, +16) over a 32-lane data path; column blocks left to right
                    let fig = model(shape, num);
                    let halves = used_lanes / lanes;
                    // Sets as sorted, deduplicated vectors (one sort instead of a tree insert
                    // per element: the walk 1.2 s -> 0.9 s).
                    let mut want = Vec::new();
                    for w in 0..4 {
                        for block in 0..cols / load_cols {
                            for half in 0..halves {
                                for (&(t, r), &(l, c)) in &fig {
                                    let lane = 32 * w + 16 * half + l;
                                    let col = block * load_cols + c;
                                    let (row, n0) =
                                        lane_owner(m, n, cg, lane).expect("a used lane");
                                    want.push((32 * w + t, r, row, n0 + col, lane, col));
                                }
                            }
                        }
                    }
                    want.sort_unstable();
                    want.dedup();
                    assert_eq!(want.len() as u32, rows * n, "the model covers D once");
                    let per = load.regs();
                    let mut got = Vec::new();
                    for t in 0..128 {
                        for reg in 0..map.regs_per_thread() {
                            let (lane, col) = map.reg_address_wrapping(t, reg);
                            let (mm, nn) = map.reg_element_wrapping(t, reg);
                            got.push((t, reg % per, mm, nn, lane, col));
                        }
                    }
                    got.sort_unstable();
                    got.dedup();
                    assert_eq!(got, want, "M {m} N {n} cg {cg} {shape:?}.x{num}");
                    configs += 1;
                }
            }
        }
    }
    println!("{configs} configurations agree, {refused} refused by both");
    assert!(configs > 150 && refused > 20, "{configs} {refused}");
}

#[test]
fn pack_16b_puts_two_adjacent_columns_in_one_register() {
    // PTX: `.pack::16b` packs two 16-bit elements from adjacent columns into one register.
    for (shape, num) in [
        (LoadShape::S32x32b, 4),
        (LoadShape::S16x256b, 2),
        (LoadShape::S16x32bx2, 2),
    ] {
        let plain = model(shape, num);
        let packed = TmemLoad::new(shape, num).unwrap().pack(true);
        for (&(t, r), &(l, c)) in &plain {
            let (pl, pc) = packed.fragment(t, r);
            assert_eq!((pl, pc), (l, 2 * c), "{shape:?}.x{num} T{t}.r{r}");
            assert_eq!(packed.register_of(pl, pc + 1), (t, r));
        }
    }
}
