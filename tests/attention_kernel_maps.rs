//! The register maps the attention kernel (`gpu/rust-kernel/src/attn.rs`, issue 31) uses, taken
//! from its own declaration file and exercised the way the kernel uses them, against a model
//! written here from the PTX ISA's figures ("Matrix fragments for wgmma .m64nNk16": the D
//! accumulator and the A-from-registers layout), not from the core:
//!
//! * P's A registers, packed with `CHAIN.source(ks, r)` from S's accumulator elements, hold
//!   exactly `P[m][16·ks + k]` for the (m, k) the figure assigns each thread and register half;
//! * the row reduction (the thread's `row_elem(h, j)` elements, then lanes xor `ROW_REDUCE_XOR`)
//!   covers exactly one row's 128 columns;
//! * the causal mask's `coord(t, e)` and O's row rule (`(e >> 1) & 1`) are the figure's;
//! * a wrong pairing (the kernel's negative control: registers 0↔1, 2↔3) fails the model.

#[path = "../gpu/rust-kernel/src/attn_decl.rs"]
#[allow(dead_code)]
mod attn_decl;

use attn_decl::{d128, d64, AttnDecl, BN, S_ACC};
use smemdesc::fragment::WgmmaAccum;

/// The figure's D fragment: thread `t`, element `e` of an m64nN f32 accumulator.
fn model_d(t: u32, e: u32) -> (u32, u32) {
    let (warp, lane) = (t / 32, t % 32);
    let (g, tig) = (lane / 4, lane % 4);
    (
        16 * warp + g + 8 * ((e / 2) % 2),
        8 * (e / 4) + 2 * tig + e % 2,
    )
}

/// The figure's A fragment (m64k16, 16-bit types): thread `t`, register `r`, half `h` (0: low).
fn model_a(t: u32, r: u32, h: u32) -> (u32, u32) {
    let (warp, lane) = (t / 32, t % 32);
    let (g, tig) = (lane / 4, lane % 4);
    (16 * warp + g + 8 * (r % 2), 2 * tig + h + 8 * (r / 2))
}

/// A deterministic "S" value for (m, n), distinct everywhere.
fn s_val(m: u32, n: u32) -> f32 {
    (m * 1000 + n) as f32
}

/// Runs the kernel's packing (`bad`: the negative control's pairing) and counts the (thread,
/// k-step, register, half) cells whose value is not the model's `S[m][16·ks + k]`.
fn pack_mismatches<D: AttnDecl>(bad: bool) -> usize {
    let c = D::CHAIN;
    let mut bad_cells = 0;
    for t in 0..128 {
        // This thread's S registers, filled through the model of the D fragment.
        let regs: Vec<f32> = (0..S_ACC.elems())
            .map(|e| {
                let (m, n) = model_d(t, e);
                s_val(m, n)
            })
            .collect();
        for ks in 0..c.ksteps() {
            for r in 0..4 {
                let src = c.source(ks, if bad { r ^ 1 } else { r }).unwrap();
                // cvt.rn.bf16x2.f32 a, d[src[1]], d[src[0]]: src[0] is the low half.
                for (h, &e) in src.iter().enumerate() {
                    let (m, k) = model_a(t, r, h as u32);
                    if regs[e as usize] != s_val(m, 16 * ks + k) {
                        bad_cells += 1;
                    }
                }
            }
        }
    }
    bad_cells
}

#[test]
fn p_registers_are_the_figures_a_fragment() {
    assert_eq!(pack_mismatches::<d128::Decl>(false), 0);
    assert_eq!(pack_mismatches::<d64::Decl>(false), 0);
    assert_eq!(d128::CHAIN.ksteps(), BN / 16);
    assert_eq!(d64::CHAIN.ksteps(), BN / 16);
}

#[test]
fn the_negative_control_pairing_fails_the_model() {
    // Every cell is wrong: rows g and g + 8 exchanged.
    assert_eq!(pack_mismatches::<d128::Decl>(true), 128 * 8 * 4 * 2);
}

#[test]
fn the_mask_coordinates_are_the_figures() {
    for t in 0..128 {
        for e in 0..S_ACC.elems() {
            assert_eq!(S_ACC.coord(t, e), Some(model_d(t, e)), "t {t} e {e}");
        }
    }
}

#[test]
fn row_reduction_covers_exactly_one_row() {
    for t in 0..128u32 {
        let rows = S_ACC.rows(t).unwrap();
        for h in 0..2 {
            let mut cols = vec![false; BN as usize];
            // The lanes reached by xor 1 then xor 2 from this lane (closure over the butterfly).
            let mut lanes = vec![t];
            for x in WgmmaAccum::ROW_REDUCE_XOR {
                let more: Vec<u32> = lanes.iter().map(|l| l ^ x).collect();
                lanes.extend(more);
            }
            lanes.sort();
            lanes.dedup();
            assert_eq!(lanes.len(), 4);
            for &u in &lanes {
                for j in 0..S_ACC.row_elems() {
                    let e = S_ACC.row_elem(h, j).unwrap();
                    let (m, n) = model_d(u, e);
                    assert_eq!(m, rows[h as usize], "t {t} lane {u} h {h} j {j}");
                    assert!(!cols[n as usize], "column {n} twice");
                    cols[n as usize] = true;
                }
            }
            assert!(cols.iter().all(|&c| c), "t {t} h {h}: a column missing");
        }
    }
}

#[test]
fn o_row_halves_are_the_figures() {
    // The kernel rescales and normalises O element e with the factor of row half (e >> 1) & 1.
    for n in [64u32, 128] {
        let acc = WgmmaAccum::new(n).unwrap();
        for t in 0..128 {
            let rows = acc.rows(t).unwrap();
            for e in 0..n / 2 {
                assert_eq!(model_d(t, e).0, rows[((e >> 1) & 1) as usize]);
            }
        }
    }
}

#[test]
fn declarations_fit_and_v_is_mn_major() {
    use smemdesc::SmemTile;
    assert!(matches!(
        <d128::V as SmemTile>::PLAN.decl.major,
        smemdesc::Major::Mn
    ));
    assert_eq!(<d128::V as SmemTile>::MMAS_K, d128::CHAIN.ksteps());
    assert_eq!(<d64::V as SmemTile>::MMA_N, 64);
    const { assert!(d128::Decl::LAUNCH_BYTES <= smemdesc::smem::MAX_SMEM_PER_CTA) };
}
