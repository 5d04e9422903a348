//! The f16 and s32 `wgmma` accumulators and the `mma.sync` strips of `smemdesc::accum` (issue
//! 43, item 1's rest), against independent models: IEEE binary16 decoded from its fields in f64,
//! the accumulator map `WgmmaAccum::coord` and its row split `row_elem`, the PTX ISA's
//! `mma.m16n8k16` fragment figures restated below as tables of (row, col) per register and
//! half, and the core's `MmaSync::coord`; and `#[smem_mma]`'s `Acc` per `accum`.

use smemdesc::accum::{
    AccCols, Bf16x2, Cols, MmaAcc, MmaAccF16, MmaAccS32, WgmmaAcc, WgmmaAccF16, WgmmaAccS32,
};
use smemdesc::fragment::{FragOperand, MmaSync, SyncArch, SyncShape, WgmmaAccum};
use smemdesc::ElementType;

/// IEEE 754 binary16 from its fields, in f64 (the independent decoder).
fn f16_value(h: u16) -> f64 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1F) as i32;
    let m = (h & 0x3FF) as f64;
    match e {
        0 => s * m * 2f64.powi(-24),
        31 if m == 0.0 => s * f64::INFINITY,
        31 => f64::NAN,
        _ => s * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

#[test]
fn f16_unpack_is_exact_and_packs_back() {
    for h in 0..=u16::MAX {
        let a = WgmmaAccF16::<8>::from_regs([h as u32 | 0x3C00 << 16, 0]);
        let f = a.to_f32();
        let want = f16_value(h);
        if want.is_nan() {
            assert!(f.regs()[0].is_nan(), "{h:#06x}");
            continue;
        }
        assert_eq!(f.regs()[0] as f64, want, "{h:#06x}");
        assert_eq!(f.regs()[1], 1.0);
        // f16 → f32 → f16 is the identity on every non-NaN value.
        let back = WgmmaAccF16::<8>::from_f32(&f);
        assert_eq!(back.regs()[0] & 0xFFFF, h as u32, "{h:#06x}");
    }
}

fn f16_masks_and_rows<const N: usize>()
where
    Cols<N>: AccCols,
{
    let map = WgmmaAccum::new(N as u32).unwrap();
    for thread in [0u32, 1, 5, 31, 32, 77, 127] {
        // Small integers are exact in f16: row + col < 2048.
        let mut f = WgmmaAcc::<N>::zero();
        f.for_each_mut(|e, x| {
            let (m, c) = map.coord(thread, e as u32).unwrap();
            *x = (m + c) as f32;
        });
        let h = WgmmaAccF16::<N>::from_f32(&f);
        assert_eq!(h.to_f32().regs(), f.regs());
        for (q0, k0) in [(0, 0), (64, 0), (0, 64), (5, 300)] {
            let mut s = h;
            s.mask_causal(thread, q0, k0);
            let mut b = h;
            b.mask_bounds(thread, q0, k0, q0 + 40, k0 + 17, -3.0);
            let (s, b) = (s.to_f32(), b.to_f32());
            for e in 0..N / 2 {
                let (m, c) = map.coord(thread, e as u32).unwrap();
                let v = (m + c) as f32;
                let causal = if k0 + c > q0 + m {
                    f32::NEG_INFINITY
                } else {
                    v
                };
                assert_eq!(s.regs()[e], causal, "N {N} t {thread} e {e}");
                let bounds = if m < 40 && c < 17 { v } else { -3.0 };
                assert_eq!(b.regs()[e], bounds, "N {N} t {thread} e {e}");
            }
        }
        let (mx, sm) = (h.row_max_local(), h.row_sum_local());
        for half in 0..2u32 {
            let elems: Vec<f32> = (0..map.row_elems())
                .map(|j| f.regs()[map.row_elem(half, j).unwrap() as usize])
                .collect();
            assert_eq!(
                mx[half as usize],
                elems.iter().cloned().fold(f32::MIN, f32::max)
            );
            assert_eq!(sm[half as usize], elems.iter().sum::<f32>());
        }
        let mut sc = h;
        sc.scale_rows([2.0, 0.5]);
        for (e, x) in sc.to_f32().regs().iter().enumerate() {
            let half = map.coord(thread, e as u32).unwrap().0 % 16 / 8;
            assert_eq!(*x, f.regs()[e] * [2.0, 0.5][half as usize]);
        }
    }
}

#[test]
fn f16_accumulator_follows_the_map() {
    f16_masks_and_rows::<8>();
    f16_masks_and_rows::<64>();
    f16_masks_and_rows::<256>();
    assert_eq!(WgmmaAccF16::<256>::zero().regs(), &[0u32; 64]);
    // for_each_mut visits elements in order, rounding each result to f16 once.
    let mut e = WgmmaAccF16::<64>::zero();
    e.for_each_mut(|i, x| *x = i as f32 / 3.0);
    for (i, x) in e.to_f32().regs().iter().enumerate() {
        let want = WgmmaAccF16::<8>::from_f32(&WgmmaAcc::from_regs([i as f32 / 3.0; 4]));
        assert_eq!(*x, want.to_f32().regs()[0], "e {i}");
    }
    let mut d = WgmmaAccF16::<32>::zero();
    d.fill(2.0);
    assert!(d.regs().iter().all(|&r| r == 0x4000_4000));
    // The groups are the registers in order, G at a time.
    let d = WgmmaAccF16::<64>::from_regs(core::array::from_fn(|i| i as u32));
    let mut seen = Vec::new();
    d.for_each_group::<4>(|g, r| seen.push((g, r)));
    assert_eq!(seen.len(), 4);
    assert_eq!(seen[3], (3, [12, 13, 14, 15]));
}

fn s32_ops<const N: usize>()
where
    Cols<N>: AccCols,
{
    let map = WgmmaAccum::new(N as u32).unwrap();
    for thread in [0u32, 3, 33, 100, 127] {
        let mut a = WgmmaAccS32::<N>::zero();
        a.for_each_mut(|e, x| {
            let (m, c) = map.coord(thread, e as u32).unwrap();
            *x = m as i32 * 1000 - c as i32;
        });
        let f = a.to_f32(0.125);
        let r = a.to_f32_rows([3.0, -1.0]);
        for e in 0..N / 2 {
            let (m, c) = map.coord(thread, e as u32).unwrap();
            let v = m as i32 * 1000 - c as i32;
            assert_eq!(f.regs()[e], v as f32 * 0.125);
            assert_eq!(r.regs()[e], v as f32 * if m % 16 < 8 { 3.0 } else { -1.0 });
        }
        let mut b = a;
        b.mask_bounds(thread, 10, 20, 40, 30, i32::MIN);
        for e in 0..N / 2 {
            let (m, c) = map.coord(thread, e as u32).unwrap();
            let keep = 10 + m < 40 && 20 + c < 30;
            assert_eq!(b.regs()[e] == i32::MIN, !keep, "t {thread} e {e}");
        }
        let (sm, mx) = (a.row_sum_local(), a.row_max_local());
        for half in 0..2u32 {
            let elems: Vec<i32> = (0..map.row_elems())
                .map(|j| a.regs()[map.row_elem(half, j).unwrap() as usize])
                .collect();
            assert_eq!(sm[half as usize], elems.iter().sum::<i32>());
            assert_eq!(mx[half as usize], *elems.iter().max().unwrap());
        }
    }
    // Wrapping as the hardware's s32 adds.
    let mut w = WgmmaAccS32::<N>::zero();
    w.fill(i32::MAX);
    assert_eq!(w.row_sum_local()[0], i32::MAX.wrapping_mul(N as i32 / 4));
}

#[test]
fn s32_accumulator_follows_the_map() {
    s32_ops::<8>();
    s32_ops::<48>();
    s32_ops::<256>();
    assert_eq!(WgmmaAccS32::<256>::zero().regs(), &[0i32; 128]);
    // cvt.rn.f32.s32: 2^24 + 1 rounds to even.
    let a = WgmmaAccS32::<8>::from_regs([16_777_217, 16_777_219, -16_777_217, 1]);
    assert_eq!(
        a.to_f32(1.0).regs(),
        &[16_777_216.0, 16_777_220.0, -16_777_216.0, 1.0]
    );
}

/// The PTX ISA figure "MMA .m16n8k16 fragment layout for accumulator matrix C/D" (f32, f16
/// and s32 alike), as the figure's table: `c{i}` of lane `l` at (`groupID` + 8 for c2 and c3,
/// `2·threadID_in_group` + 1 for c1 and c3).
fn figure_c(lane: u32, i: u32) -> (u32, u32) {
    let (g, t) = (lane / 4, lane % 4);
    match i {
        0 => (g, 2 * t),
        1 => (g, 2 * t + 1),
        2 => (g + 8, 2 * t),
        3 => (g + 8, 2 * t + 1),
        _ => unreachable!(),
    }
}

/// The PTX ISA figure "MMA .m16n8k16 fragment layout for matrix A" (16-bit types): `a{i}` of
/// lane `l`, eight halves in four registers.
fn figure_a(lane: u32, i: u32) -> (u32, u32) {
    let (g, t) = (lane / 4, lane % 4);
    let col = 2 * t + (i & 1);
    match i {
        0 | 1 => (g, col),
        2 | 3 => (g + 8, col),
        4 | 5 => (g, col + 8),
        6 | 7 => (g + 8, col + 8),
        _ => unreachable!(),
    }
}

#[test]
fn mma_sync_strip_map_is_the_figure() {
    let bf = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::BF16).unwrap();
    let s8 = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K32, ElementType::S8).unwrap();
    for lane in 0..32 {
        for e in 0..64usize {
            let (j, i) = (e as u32 / 4, e as u32 % 4);
            let (r, c) = figure_c(lane, i);
            assert_eq!(
                MmaAcc::<128>::coord(lane, e),
                (r, 8 * j + c),
                "lane {lane} e {e}"
            );
            assert_eq!(bf.coord(FragOperand::C, lane, i), Some((r, c)));
            assert_eq!(s8.coord(FragOperand::C, lane, i), Some((r, c)));
        }
        for i in 0..8 {
            assert_eq!(bf.coord(FragOperand::A, lane, i), Some(figure_a(lane, i)));
        }
    }
    // Each 8-column fragment is elements 4j … 4j + 3, in order.
    let mut a = MmaAcc::<32>::zero();
    a.for_each_mut(|e, x| *x = e as f32);
    let mut got = Vec::new();
    a.for_each_frag_mut(|j, c| {
        got.push((j, c.into_regs()));
        c.regs_mut()[0] = -1.0;
    });
    assert_eq!(got[2], (2, [8.0, 9.0, 10.0, 11.0]));
    assert_eq!(a.regs()[8], -1.0);
    assert_eq!(a.regs()[9], 9.0);
    let mut h = MmaAccF16::<16>::from_regs([1, 2, 3, 4]);
    h.for_each_frag_mut(|j, c| assert_eq!(c.into_regs(), [2 * j as u32 + 1, 2 * j as u32 + 2]));
    h.fill(0.0);
    let mut s = MmaAccS32::<40>::zero();
    s.for_each_frag_mut(|j, c| c.fill(j as i32));
    assert_eq!(s.regs()[16..], [4; 4]);
}

/// bf16 bits → f32 (exact).
fn bf16(h: u32) -> f32 {
    f32::from_bits(h << 16)
}

#[test]
fn packed_c_is_the_next_a_fragment() {
    // P (16 x 64 per warp, f32 C fragments) packed to bf16: k-step ks's four registers are the
    // A fragment of the m16n8k16 reading P's columns 16·ks …, by the A figure.
    for lane in 0..32u32 {
        for pass in 0..2 {
            let mut p = MmaAcc::<64>::zero();
            p.for_each_mut(|e, x| {
                let (r, c) = MmaAcc::<64>::coord(lane, e);
                *x = if pass == 0 { r } else { c } as f32;
            });
            let mut steps = 0;
            p.pack::<Bf16x2>().for_each_kstep(|ks, a| {
                steps += 1;
                for i in 0..8u32 {
                    let reg = a[i as usize / 2];
                    let v = bf16(if i % 2 == 0 { reg & 0xFFFF } else { reg >> 16 });
                    let (r, c) = figure_a(lane, i);
                    let want = if pass == 0 { r } else { 16 * ks as u32 + c };
                    assert_eq!(v, want as f32, "lane {lane} ks {ks} a{i}");
                }
            });
            assert_eq!(steps, 4);
            // The same from an f16 accumulator, with no conversion (as_packed).
            let h = MmaAccF16::<64>::from_f32(&p);
            h.as_packed().for_each_kstep(|ks, a| {
                for i in 0..8u32 {
                    let reg = a[i as usize / 2];
                    let half = if i % 2 == 0 { reg & 0xFFFF } else { reg >> 16 };
                    let v = f16_value(half as u16);
                    let (r, c) = figure_a(lane, i);
                    let want = if pass == 0 { r } else { 16 * ks as u32 + c };
                    assert_eq!(v, want as f64, "f16 lane {lane} ks {ks} a{i}");
                }
            });
        }
    }
}

#[test]
fn mma_sync_rows_and_causal_mask() {
    // The quad butterflies (xor 1, 2) over the lanes' local parts give each of a lane's two rows
    // its max and sum over the 16 x 64 strip.
    let value = |r: u32, c: u32| ((r * 13 + c * 7) % 29) as f32 - 9.0;
    let mut part = [[[0f32; 2]; 2]; 32];
    for lane in 0..32u32 {
        let mut s = MmaAcc::<64>::zero();
        s.for_each_mut(|e, x| {
            let (r, c) = MmaAcc::<64>::coord(lane, e);
            *x = value(r, c);
        });
        part[lane as usize] = [s.row_max_local(), s.row_sum_local()];
        let mut m = s;
        m.mask_causal(lane, 8, 0); // query rows 8.., key columns 0..
        for e in 0..32 {
            let (r, c) = figure_c(lane, e as u32 % 4);
            let c = c + 8 * (e as u32 / 4);
            let want = if c > 8 + r {
                f32::NEG_INFINITY
            } else {
                value(r, c)
            };
            assert_eq!(m.regs()[e], want);
        }
    }
    for x in [1usize, 2] {
        let before = part;
        for l in 0..32 {
            for h in 0..2 {
                part[l][0][h] = before[l][0][h].max(before[l ^ x][0][h]);
                part[l][1][h] = before[l][1][h] + before[l ^ x][1][h];
            }
        }
    }
    for lane in 0..32u32 {
        for h in 0..2u32 {
            let row = lane / 4 + 8 * h;
            let vals: Vec<f32> = (0..64).map(|c| value(row, c)).collect();
            assert_eq!(
                part[lane as usize][0][h as usize],
                vals.iter().cloned().fold(f32::MIN, f32::max)
            );
            assert_eq!(part[lane as usize][1][h as usize], vals.iter().sum::<f32>());
        }
    }
}

/// An f16-accumulator pairing: `Acc` is the f16 accumulator of its N.
#[smemdesc::smem_mma(accum = f16)]
pub mod gemm_f16 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = f16, tile = (64, 64), major = K, mma = m64n128k16)]
    pub struct A;
    #[smem_tile(arch = sm90, operand = B, dtype = f16, tile = (128, 64), major = K, mma = m64n128k16)]
    pub struct B;
}

/// An s8 pairing: `Acc` is the s32 accumulator.
#[smemdesc::smem_mma(accum = s32)]
pub mod gemm_s8 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = s8, tile = (64, 64), major = K, mma = m64n48k32)]
    pub struct A;
    #[smem_tile(arch = sm90, operand = B, dtype = s8, tile = (48, 64), major = K, mma = m64n48k32)]
    pub struct B;
}

/// The f32 pairing.
#[smemdesc::smem_mma(accum = f32)]
pub mod gemm_bf16 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, mma = m64n256k16)]
    pub struct A;
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, mma = m64n256k16)]
    pub struct B;
}

#[test]
fn smem_mma_names_the_accumulator() {
    let h: WgmmaAccF16<128> = gemm_f16::Acc::zero();
    assert_eq!(h.regs().len(), gemm_f16::MMA_N as usize / 4);
    let s: WgmmaAccS32<48> = gemm_s8::Acc::zero();
    assert_eq!(s.regs().len(), gemm_s8::MMA_N as usize / 2);
    let f: WgmmaAcc<256> = gemm_bf16::Acc::zero();
    assert_eq!(f.regs().len(), 128);
}

/// The widths of the nvptx64 issue macro invocations in `file` (`issue16!(N, …` lines).
fn issued_widths(file: &str, mac: &str) -> Vec<u32> {
    let text = std::fs::read_to_string(format!("{}/src/accum/{file}", crate::FACADE_DIR)).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix(&format!("{mac}!(")))
        .filter_map(|l| l.split(',').next()?.trim().parse().ok())
        .collect()
}

#[test]
fn issue_functions_cover_exactly_the_legal_widths() {
    use smemdesc::mma::{check_mma_shape, MmaKind, MmaShape};
    use smemdesc::{Arch, Major};
    let legal = |dtype, kind, k| -> Vec<u32> {
        (1..=512)
            .filter(|&n| {
                check_mma_shape(
                    Arch::Sm90,
                    dtype,
                    kind,
                    MmaShape::new(64, n, k),
                    1,
                    Major::K,
                )
                .is_ok()
            })
            .collect()
    };
    let f16 = legal(ElementType::F16, MmaKind::F16, 16);
    assert_eq!(issued_widths("nvptx_f16.rs", "issue16"), f16);
    assert_eq!(legal(ElementType::E4M3, MmaKind::F8f6f4, 32), f16);
    let s8 = legal(ElementType::S8, MmaKind::I8, 32);
    assert_eq!(s8.len(), 18); // 8, 16, 24, then 32 ..= 256 by 16 (PTX ISA, .m64nNk32 for .s8)
    assert_eq!(issued_widths("nvptx_s32.rs", "issue32"), s8);
    assert_eq!(issued_widths("nvptx.rs", "issue"), f16);
}
