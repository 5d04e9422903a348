//! The whole-fragment operations of `smemdesc::accum` (issue 43, item 1) and the per-stage
//! descriptor set (item 2), against the index functions as an independent model: the
//! accumulator map `WgmmaAccum::coord` (PTX ISA, "Matrix fragments for wgmma.mma_async.m64nNk*"),
//! the row split `row_elem`, the chained packing `ChainedMma::source`, the epilogue's
//! `EpilogueSpec::pair`, and `TileAt::try_desc`; the conversions against IEEE 754 values.

use smemdesc::accum::{AccCols, Bf16x2, Cols, F16x2, Pack, WgmmaAcc};
use smemdesc::epilogue::{CType, EpilogueSpec};
use smemdesc::fragment::{ChainedMma, WgmmaAccum, WgmmaInstr};
use smemdesc::mma::{AccumType, MmaShape};
use smemdesc::prelude::*;
use smemdesc::smem::TileAt;

/// Element `e` of `thread` set to a value that names its position: `row * 1000 + col`.
fn positions<const N: usize>(thread: u32) -> WgmmaAcc<N>
where
    Cols<N>: AccCols,
{
    let map = WgmmaAccum::new(N as u32).unwrap();
    let mut a = WgmmaAcc::<N>::zero();
    for (e, x) in a.regs_mut().iter_mut().enumerate() {
        let (m, n) = map.coord(thread, e as u32).unwrap();
        *x = (m * 1000 + n) as f32;
    }
    a
}

fn masks_match<const N: usize>()
where
    Cols<N>: AccCols,
{
    let map = WgmmaAccum::new(N as u32).unwrap();
    for thread in 0..128 {
        for (q0, k0) in [(0, 0), (64, 0), (0, 64), (192, 128), (5, 300)] {
            let mut s = positions::<N>(thread);
            s.mask_causal(thread, q0, k0);
            let mut b = positions::<N>(thread);
            b.mask_bounds(thread, q0, k0, 40 + q0, 17 + k0, -1.0);
            for e in 0..N / 2 {
                let (m, n) = map.coord(thread, e as u32).unwrap();
                let want = (m * 1000 + n) as f32;
                let causal = if k0 + n > q0 + m {
                    f32::NEG_INFINITY
                } else {
                    want
                };
                assert_eq!(
                    s.regs()[e],
                    causal,
                    "N {N} thread {thread} e {e} origin ({q0}, {k0})"
                );
                let bounds = if m < 40 && n < 17 { want } else { -1.0 };
                assert_eq!(b.regs()[e], bounds, "N {N} thread {thread} e {e}");
            }
        }
    }
}

#[test]
fn masks_follow_the_accumulator_map() {
    masks_match::<8>();
    masks_match::<64>();
    masks_match::<128>();
    masks_match::<256>();
}

fn rows_match<const N: usize>()
where
    Cols<N>: AccCols,
{
    let map = WgmmaAccum::new(N as u32).unwrap();
    // Thread-local parts against row_elem, then the quad butterflies of ROW_REDUCE_XOR give
    // every row's true max and sum over its N columns.
    let value = |m: u32, n: u32| ((m * 37 + n * 11) % 101) as f32;
    let mut part = [[[0f32; 2]; 2]; 128]; // [thread][max/sum][half]
    for thread in 0..128u32 {
        let mut a = WgmmaAcc::<N>::zero();
        for (e, x) in a.regs_mut().iter_mut().enumerate() {
            let (m, n) = map.coord(thread, e as u32).unwrap();
            *x = value(m, n);
        }
        let (mx, sm) = (a.row_max_local(), a.row_sum_local());
        for h in 0..2 {
            let elems: Vec<f32> = (0..map.row_elems())
                .map(|j| a.regs()[map.row_elem(h, j).unwrap() as usize])
                .collect();
            assert_eq!(
                mx[h as usize],
                elems.iter().cloned().fold(f32::MIN, f32::max)
            );
            assert_eq!(sm[h as usize], elems.iter().sum::<f32>());
        }
        part[thread as usize] = [mx, sm];
    }
    for x in WgmmaAccum::ROW_REDUCE_XOR {
        let before = part;
        for t in 0..128usize {
            let o = (t & !31) | ((t & 31) ^ x as usize);
            for h in 0..2 {
                part[t][0][h] = before[t][0][h].max(before[o][0][h]);
                part[t][1][h] = before[t][1][h] + before[o][1][h];
            }
        }
    }
    for thread in 0..128u32 {
        let rows = map.rows(thread).unwrap();
        for h in 0..2 {
            let row = rows[h];
            let cols: Vec<f32> = (0..N as u32).map(|n| value(row, n)).collect();
            assert_eq!(
                part[thread as usize][0][h],
                cols.iter().cloned().fold(f32::MIN, f32::max)
            );
            assert_eq!(
                part[thread as usize][1][h],
                cols.iter().sum::<f32>(),
                "row {row}"
            );
        }
    }
}

#[test]
fn row_reductions_cover_each_row() {
    rows_match::<16>();
    rows_match::<128>();
    rows_match::<256>();
}

#[test]
fn scale_rows_uses_the_row_of_each_element() {
    let map = WgmmaAccum::new(64).unwrap();
    let mut a = WgmmaAcc::<64>::zero();
    a.fill(1.0);
    a.scale_rows([2.0, 3.0]);
    for e in 0..32 {
        let (m, _) = map.coord(5, e).unwrap();
        let upper = map.rows(5).unwrap()[0];
        assert_eq!(a.regs()[e as usize], if m == upper { 2.0 } else { 3.0 });
    }
}

/// bf16 of small integers (exact): its bits are the f32's high half.
fn bf16(v: f32) -> u32 {
    v.to_bits() >> 16
}

fn chain_match<const N: usize>()
where
    Cols<N>: AccCols,
{
    let s = WgmmaInstr::new(
        MmaShape::new(64, N as u32, 16),
        ElementType::BF16,
        AccumType::F32,
    )
    .unwrap();
    let o = WgmmaInstr::new(MmaShape::new(64, 64, 16), ElementType::BF16, AccumType::F32).unwrap();
    let chain = ChainedMma::new(s, o).unwrap();
    let mut a = WgmmaAcc::<N>::zero();
    a.for_each_mut(|e, x| *x = e as f32); // exact in bf16 below 256
    let mut seen = 0;
    a.pack::<Bf16x2>().for_each_kstep(|ks, regs| {
        for (r, &reg) in regs.iter().enumerate() {
            let [lo, hi] = chain.source(ks as u32, r as u32).unwrap();
            assert_eq!(
                reg,
                bf16(hi as f32) << 16 | bf16(lo as f32),
                "k-step {ks} reg {r}"
            );
        }
        seen += 1;
    });
    assert_eq!(seen, chain.ksteps());
}

#[test]
fn packing_follows_the_chained_mma() {
    chain_match::<16>();
    chain_match::<64>();
    chain_match::<128>();
    chain_match::<256>();
}

#[test]
fn groups_follow_the_epilogue_pairs() {
    for (n, num) in [(256, 4), (128, 4), (64, 2), (64, 1)] {
        let spec = EpilogueSpec::new(CType::BF16, 64, 64, n)
            .writer(smemdesc::epilogue::EpiWriter::Stmatrix { num, trans: false });
        let e = spec.expect_valid();
        let check = |got: &mut Vec<(usize, Vec<u32>)>| {
            let per_chunk = e.instructions() as usize;
            for (g, regs) in got.iter() {
                let (chunk, instr) = (g / per_chunk, g % per_chunk);
                for (q, &reg) in regs.iter().enumerate() {
                    let p = e.pair(chunk as u32, instr as u32, q as u32) as f32;
                    assert_eq!(reg, bf16(2.0 * p + 1.0) << 16 | bf16(2.0 * p));
                }
            }
            assert_eq!(got.len(), (n / 4 / num) as usize); // N / 4 pairs per thread
        };
        let mut got = Vec::new();
        macro_rules! run {
            ($n:literal, $g:literal) => {{
                let mut a = WgmmaAcc::<$n>::zero();
                a.for_each_mut(|e, x| *x = e as f32);
                a.for_each_group::<$g, Bf16x2>(|g, r| got.push((g, r.to_vec())));
            }};
        }
        match (n, num) {
            (256, 4) => run!(256, 4),
            (128, 4) => run!(128, 4),
            (64, 2) => run!(64, 2),
            _ => run!(64, 1),
        }
        check(&mut got);
    }
}

#[test]
fn conversions_round_to_nearest_even() {
    // bf16: 1 + 2^-8 is halfway between 1.0 and 1 + 2^-7 (even: 1.0); 1 + 3·2^-8 rounds up.
    assert_eq!(
        Bf16x2::pack(1.0 + 1.0 / 256.0, 1.0 + 3.0 / 256.0),
        0x3F82_3F80
    );
    assert_eq!(Bf16x2::pack(f32::MAX, -0.0), 0x8000_7F80); // past bf16's max: +inf
    assert_eq!(Bf16x2::pack(f32::NAN, 0.0) & 0x7FC0, 0x7FC0);
    // f16: 65504 is the largest finite, 65520 rounds to +inf; 2^-24 is the least subnormal,
    // 2^-25 (a tie) rounds to 0 and 3·2^-25 to 2·2^-24; 1 + 2^-11 is a tie to 1.0.
    assert_eq!(F16x2::pack(65504.0, 65520.0), 0x7C00_7BFF);
    assert_eq!(F16x2::pack(2f32.powi(-24), 2f32.powi(-25)), 0x0000_0001);
    assert_eq!(
        F16x2::pack(3.0 * 2f32.powi(-25), 1.0 + 2f32.powi(-11)),
        0x3C00_0002
    );
    assert_eq!(F16x2::pack(-2.0, f32::NEG_INFINITY), 0xFC00_C000);
    assert_eq!(
        F16x2::pack(2f32.powi(-14), 1.0 + 3.0 * 2f32.powi(-11)),
        0x3C02_0400
    );
}

#[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K, swizzle = 64B,
            mma = m64n256k32, stages = 3)]
struct A8;

#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 128), major = MN, swizzle = 128B,
            mma = m64n128k16, stages = 2)]
struct Vmn;

fn descs_match<T: SmemTile>(addr: u32) {
    let t = TileAt::<T>::new_unvalidated(addr);
    for stage in 0..T::STAGES + 1 {
        match t.stage_descs(stage) {
            Ok(s) => {
                for mn in 0..T::MMAS_MN {
                    for k in 0..T::MMAS_K {
                        assert_eq!(Ok(s.desc(mn, k)), t.try_desc(mn, k, stage).map(|d| d.raw()));
                    }
                }
            }
            Err(e) => assert_eq!(Err(e), t.try_desc(0, 0, stage)),
        }
    }
}

#[test]
fn stage_descriptor_sets_are_the_checked_descriptors() {
    descs_match::<A8>(0x400);
    descs_match::<A8>(0x410); // unaligned: refused as try_desc refuses it
    descs_match::<Vmn>(0x800);
    descs_match::<Vmn>((1 << 18) - 0x400); // past the 18-bit start range
    assert!(TileAt::<A8>::new_unvalidated(0x400).stage_descs(3).is_err());
}

#[test]
fn a_warp_strip_of_mma_sync_fragments_is_the_accumulator_map() {
    use smemdesc::fragment::{FragOperand, MmaSync, SyncArch, SyncShape};
    // mma.sync.m16n8k16 (bf16, sm80): the C/D fragment of each 8-column block j of a 16 x 64
    // strip, elements 4j..4j + 4, against the mask's positions with the lane as the thread.
    let mma = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::BF16).unwrap();
    for lane in 0..32u32 {
        let mut a = WgmmaAcc::<64>::zero();
        a.for_each_mut(|e, x| {
            let (r, c) = mma.coord(FragOperand::C, lane, e as u32 % 4).unwrap();
            *x = (r * 1000 + 8 * (e as u32 / 4) + c) as f32;
        });
        // keep only (row, col) with col == row: the diagonal of the strip
        let mut kept = 0;
        a.mask_where(lane, 0, 0, |m, n| m == n, -1.0);
        for (e, &x) in a.regs().iter().enumerate() {
            let (r, c) = mma.coord(FragOperand::C, lane, e as u32 % 4).unwrap();
            let n = 8 * (e as u32 / 4) + c;
            if r == n {
                assert_eq!(x, (r * 1000 + n) as f32, "lane {lane} e {e}");
                kept += 1;
            } else {
                assert_eq!(x, -1.0, "lane {lane} e {e}");
            }
        }
        assert!(kept <= 2);
    }
}

/// The `K`-chain reduction of a list, written from its definition: element `j` into chain
/// `j % K` (the first `K` elements start the chains), then the chains pairwise, halving.
fn chains_model(xs: &[f32], k: usize, f: fn(f32, f32) -> f32) -> f32 {
    let mut c: Vec<f32> = xs[..k].to_vec();
    for (j, &x) in xs.iter().enumerate().skip(k) {
        c[j % k] = f(c[j % k], x);
    }
    while c.len() > 1 {
        let w = c.len() / 2;
        c = (0..w).map(|i| f(c[i], c[i + w])).collect();
    }
    c[0]
}

fn chains_match<const N: usize, const K: usize>()
where
    Cols<N>: AccCols,
{
    let map = WgmmaAccum::new(N as u32).unwrap();
    // Values whose f32 sum depends on the order (1 + tiny is lost, tiny + tiny is not).
    let value = |m: u32, n: u32| {
        if (m + n) % 3 == 0 {
            1.0e8
        } else {
            1.0 + ((m * 7 + n) % 5) as f32
        }
    };
    for thread in [0u32, 5, 37, 127] {
        let mut a = WgmmaAcc::<N>::zero();
        for (e, x) in a.regs_mut().iter_mut().enumerate() {
            let (m, n) = map.coord(thread, e as u32).unwrap();
            *x = value(m, n);
        }
        let sums = a.row_reduce_chains::<K>(|x, y| x + y);
        let maxs = a.row_reduce_chains::<K>(f32::max);
        for h in 0..2 {
            // The row's elements in column order, from the independent map.
            let row: Vec<f32> = (0..map.row_elems())
                .map(|j| a.regs()[map.row_elem(h, j).unwrap() as usize])
                .collect();
            let model = chains_model(&row, K, |x, y| x + y);
            assert_eq!(
                sums[h as usize].to_bits(),
                model.to_bits(),
                "N {N} K {K} thread {thread} half {h}"
            );
            assert_eq!(maxs[h as usize], chains_model(&row, K, f32::max));
        }
    }
}

#[test]
fn chained_row_reductions_keep_their_order() {
    chains_match::<16, 1>();
    chains_match::<16, 2>();
    chains_match::<128, 1>();
    chains_match::<128, 4>();
    chains_match::<128, 16>();
    chains_match::<256, 32>();
    // K = 1 is the column order of row_reduce_local.
    let mut a = WgmmaAcc::<64>::zero();
    a.for_each_mut(|e, x| *x = 1.0 + (e as f32) * 0.1);
    assert_eq!(a.row_reduce_chains::<1>(|x, y| x + y), a.row_sum_local());
}

#[test]
fn map_rows_passes_each_elements_row() {
    let map = WgmmaAccum::new(128).unwrap();
    let thread = 77;
    let rows = map.rows(thread).unwrap();
    let mut a = WgmmaAcc::<128>::zero();
    a.map_rows(|h, _| h as f32);
    for e in 0..64u32 {
        let (m, _) = map.coord(thread, e).unwrap();
        assert_eq!(a.regs()[e as usize], if m == rows[0] { 0.0 } else { 1.0 });
    }
}

fn ksteps_match<const N: usize>()
where
    Cols<N>: AccCols,
{
    let s = WgmmaInstr::new(
        MmaShape::new(64, N as u32, 16),
        ElementType::BF16,
        AccumType::F32,
    )
    .unwrap();
    let o = WgmmaInstr::new(MmaShape::new(64, 64, 16), ElementType::BF16, AccumType::F32).unwrap();
    let chain = ChainedMma::new(s, o).unwrap();
    let mut a = WgmmaAcc::<N>::zero();
    a.for_each_mut(|e, x| *x = e as f32);
    let mut seen = 0;
    a.pack_ksteps::<Bf16x2>(|ks, regs| {
        for (r, &reg) in regs.iter().enumerate() {
            let [lo, hi] = chain.source(ks as u32, r as u32).unwrap();
            assert_eq!(
                reg,
                bf16(hi as f32) << 16 | bf16(lo as f32),
                "k-step {ks} reg {r}"
            );
        }
        assert_eq!(ks, seen);
        seen += 1;
    });
    assert_eq!(seen as u32, chain.ksteps());
}

#[test]
fn kstep_packing_follows_the_chained_mma() {
    ksteps_match::<16>();
    ksteps_match::<128>();
    ksteps_match::<256>();
}
