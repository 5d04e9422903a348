//! The `wgmma` A-from-registers map, the accumulator → A chain and the accumulator's row
//! ownership against models written here, not taken from the core:
//!
//! * the PTX ISA figures "WGMMA .m64nNk8 / k16 / k32 register fragment layout for matrix A" and
//!   "... for accumulator matrix D", enumerated cell by cell as the figures draw them (each warp's
//!   16 rows; per 8-row block, the columns run over the quad's four threads, each holding
//!   `per_reg` consecutive columns of one register);
//! * CUTLASS's `ALayout_64x8`, `ALayout_64x16` (= `CLayout_64x16`), `ALayout_64x32`
//!   (`cute/atom/mma_traits_sm90_gmma.hpp`), evaluated as CuTe layouts;
//! * an emulator of the chain: a random `S` accumulator as per-thread registers, converted with
//!   the core's table (f32 → bf16/f16 packed, low half = lower k), read back by a reference
//!   `wgmma` RS reader (the figure), compared with the rounded `S`; and negative controls (swapped
//!   halves, a wrong k-step offset, wrong shuffle distances) that must fail.

use smemdesc_core::fragment::*;
use smemdesc_core::{AccumType, ElementType as T, MmaShape};
use std::collections::HashMap;

const A_TYPES: [T; 8] = [
    T::F16,
    T::BF16,
    T::TF32,
    T::F32,
    T::E4M3,
    T::E5M2,
    T::S8,
    T::U8,
];

fn per_reg(t: T) -> u32 {
    match t {
        T::TF32 | T::F32 => 1,
        T::F16 | T::BF16 => 2,
        _ => 4,
    }
}

/// The A figure as a table: `(m, k) -> (thread, element)`. Cell by cell: warp `w`'s rows
/// `16w .. 16w + 16`; in row `16w + r` (r < 8) the first 16 bytes of K belong to register
/// a-block 0 and the next 16 bytes to a-block 2; row `16w + 8 + r` to blocks 1 and 3. Within a
/// 16-byte block, `4 · p` columns: thread `32w + 4r + c / p`, slot `c % p`.
fn a_figure(p: u32) -> HashMap<(u32, u32), (u32, u32)> {
    let mut t = HashMap::new();
    for w in 0..4 {
        for half in 0..2 {
            // half 0: rows 0..8 of the slab (registers 0 and 2), half 1: rows 8..16 (1 and 3)
            for r in 0..8 {
                let m = 16 * w + 8 * half + r;
                for kblock in 0..2 {
                    let reg = half + 2 * kblock;
                    for c in 0..4 * p {
                        let k = kblock * 4 * p + c;
                        let thread = 32 * w + 4 * r + c / p;
                        let elem = reg * p + c % p;
                        assert!(t.insert((m, k), (thread, elem)).is_none());
                    }
                }
            }
        }
    }
    t
}

/// The accumulator figure: row `16w + r` holds `d(4b + c%2)` of thread `32w + 4r + c/2` in
/// columns `8b + c` (c < 8); row `16w + 8 + r` the same with `d(4b + 2 + c%2)`.
fn d_figure(n: u32) -> HashMap<(u32, u32), (u32, u32)> {
    let mut t = HashMap::new();
    for w in 0..4 {
        for r in 0..16 {
            for b in 0..n / 8 {
                for c in 0..8 {
                    let elem = 4 * b + 2 * (r / 8) + c % 2;
                    let thread = 32 * w + 4 * (r % 8) + c / 2;
                    assert!(t.insert((16 * w + r, 8 * b + c), (thread, elem)).is_none());
                }
            }
        }
    }
    t
}

/// CuTe: thread `(4, 8, 4)` with strides `ts`, value `vshape` with strides `vs`; the index is
/// `m + 64·k` of the 64 × K tile.
fn cute(ts: [u32; 3], vshape: &[u32], vs: &[u32], thread: u32, v: u32) -> (u32, u32) {
    let tc = [thread % 4, (thread / 4) % 8, thread / 32];
    let mut idx: u32 = tc.iter().zip(ts).map(|(c, s)| c * s).sum();
    let mut rest = v;
    for (&n, &s) in vshape.iter().zip(vs) {
        idx += (rest % n) * s;
        rest /= n;
    }
    (idx % 64, idx / 64)
}

fn cute_a(p: u32, thread: u32, v: u32) -> (u32, u32) {
    match p {
        1 => cute([64, 1, 16], &[2, 2], &[8, 256], thread, v), // ALayout_64x8
        2 => cute([128, 1, 16], &[2, 2, 2], &[64, 8, 512], thread, v), // ALayout_64x16
        _ => cute([256, 1, 16], &[4, 2, 2], &[64, 8, 1024], thread, v), // ALayout_64x32
    }
}

#[test]
fn a_fragment_matches_the_figure_and_cute_for_every_type() {
    for t in A_TYPES {
        let a = WgmmaRegA::new(t).unwrap();
        let p = per_reg(t);
        assert_eq!((a.per_reg(), a.k(), a.elems()), (p, 8 * p, 4 * p), "{t:?}");
        let fig = a_figure(p);
        assert_eq!(fig.len() as u32, 64 * 8 * p);
        for (&(m, k), &(thread, elem)) in &fig {
            assert_eq!(
                a.coord(thread, elem),
                Some((m, k)),
                "{t:?} T{thread} a{elem}"
            );
            assert_eq!(a.locate(m, k), Some((thread, elem)), "{t:?} ({m}, {k})");
            assert_eq!(
                a.reg_coord(thread, elem / p, elem % p),
                Some((m, k)),
                "{t:?} T{thread} reg {} slot {}",
                elem / p,
                elem % p
            );
            assert_eq!(cute_a(p, thread, elem), (m, k), "CuTe vs figure, {t:?}");
        }
        for thread in 0..128 {
            assert_eq!(a.coord(thread, a.elems()), None);
            assert_eq!(a.reg_coord(thread, 4, 0), None);
            assert_eq!(a.reg_coord(thread, 0, p), None);
        }
        assert_eq!(a.coord(128, 0), None);
        assert_eq!(a.locate(64, 0), None);
        assert_eq!(a.locate(0, a.k()), None);
    }
    for t in [T::E2M1, T::E2M3, T::E3M2] {
        assert!(WgmmaRegA::new(t).is_none(), "{t:?}");
    }
}

#[test]
fn the_figure_models_agree_with_each_other() {
    // The D figure against CuTe CLayout_64xN (a check of the test's own D model).
    for n in [8, 16, 64, 256] {
        for (&(m, c), &(thread, e)) in &d_figure(n) {
            let v = [2, 2, n / 8];
            assert_eq!(cute([128, 1, 16], &v, &[64, 8, 512], thread, e), (m, c));
        }
    }
}

/// f32 → bf16, round to nearest even (finite inputs).
fn bf16(x: f32) -> u16 {
    let b = x.to_bits();
    ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) as u16
}

fn bf16_value(h: u16) -> f32 {
    f32::from_bits((h as u32) << 16)
}

/// f32 → f16 for values exactly representable as normal f16 (the emulator uses such values).
fn f16_exact(x: f32) -> u16 {
    if x == 0.0 {
        return 0;
    }
    let b = x.to_bits();
    let sign = (b >> 31) as u16;
    let e = ((b >> 23) & 0xFF) as i32 - 127 + 15;
    assert!(
        (1..31).contains(&e) && b & 0x1FFF == 0,
        "{x} is not an exact f16"
    );
    (sign << 15) | ((e as u16) << 10) | ((b >> 13) & 0x3FF) as u16
}

fn f16_value(h: u16) -> f32 {
    if h & 0x7FFF == 0 {
        return 0.0;
    }
    let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1F) as i32 - 15;
    sign * (1.0 + (h & 0x3FF) as f32 / 1024.0) * 2f32.powi(e)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 32) as u32
    }
    /// A multiple of 1/8 in (-128, 128): exact in f16 and in bf16 only when small.
    fn value(&mut self) -> f32 {
        (self.next() % 2048) as f32 / 8.0 - 128.0
    }
}

fn instr(n: u32, k: u32, t: T, acc: AccumType) -> WgmmaInstr {
    WgmmaInstr::new(MmaShape::new(64, n, k), t, acc).unwrap()
}

#[derive(Clone, Copy, PartialEq)]
enum Fault {
    None,
    SwapHalves,
    KstepOffset,
}

/// Runs the chain for one pair and returns the number of A elements that differ from the
/// rounded S. `S` (64 × N) goes into per-thread accumulator registers through the D figure; the
/// core's table packs each A register; the figure-reader unpacks every `(m, k)` of every k-step.
fn chain_mismatches(c: &ChainedMma, rng: &mut Rng, fault: Fault) -> usize {
    let n = c.first().shape.n;
    let s: Vec<f32> = (0..64 * n).map(|_| rng.value()).collect();
    let mut acc = vec![vec![0f32; (n / 2) as usize]; 128];
    for (&(m, col), &(thread, e)) in &d_figure(n) {
        acc[thread as usize][e as usize] = s[(m * n + col) as usize];
    }
    let half = c.second().dtype;
    let encode = |x: f32| {
        if half == T::BF16 {
            bf16(x)
        } else {
            f16_exact(x)
        }
    };
    let decode = |h: u16| {
        if half == T::BF16 {
            bf16_value(h)
        } else {
            f16_value(h)
        }
    };
    let fig = a_figure(2);
    let mut bad = 0;
    for ks in 0..c.ksteps() {
        // the kernel's side: A registers of every thread from its own accumulator
        let mut regs = vec![[0u32; 4]; 128];
        for (thread, r) in regs.iter_mut().enumerate() {
            for (reg, word) in r.iter_mut().enumerate() {
                let [mut lo, mut hi] = c.source(ks, reg as u32).unwrap();
                match fault {
                    Fault::None => {}
                    Fault::SwapHalves => std::mem::swap(&mut lo, &mut hi),
                    Fault::KstepOffset => {
                        lo = (lo + 4) % (n / 2);
                        hi = (hi + 4) % (n / 2);
                    }
                }
                let (l, h) = (acc[thread][lo as usize], acc[thread][hi as usize]);
                *word = (encode(h) as u32) << 16 | encode(l) as u32;
            }
        }
        // the reference wgmma RS reader: A(m, k) from the figure's (thread, element)
        for (&(m, k), &(thread, elem)) in &fig {
            let word = regs[thread as usize][(elem / 2) as usize];
            let bits = (word >> (16 * (elem % 2))) as u16;
            let want = s[(m * n + 16 * ks + k) as usize];
            if decode(bits) != decode(encode(want)) {
                bad += 1;
            }
        }
    }
    bad
}

#[test]
fn chain_emulator_every_n_and_type_and_negative_controls() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for n in (16..=256).step_by(16) {
        for (a, acc) in [
            (T::BF16, AccumType::F32),
            (T::F16, AccumType::F32),
            (T::F16, AccumType::F16),
        ] {
            let first = instr(n, 16, T::F16, acc);
            let second = instr(64, 16, a, AccumType::F32);
            let c = ChainedMma::new(first, second).unwrap();
            assert_eq!(c.ksteps(), n / 16);
            assert_eq!(
                chain_mismatches(&c, &mut rng, Fault::None),
                0,
                "N={n} {a:?}"
            );
            let total = (64 * n) as usize;
            let swapped = chain_mismatches(&c, &mut rng, Fault::SwapHalves);
            assert!(swapped > total / 2, "swapped halves not caught: {swapped}");
            if n > 16 {
                let off = chain_mismatches(&c, &mut rng, Fault::KstepOffset);
                assert!(off > total / 2, "k-step offset not caught: {off}");
            }
        }
    }
}

#[test]
fn source_table_is_the_figures_composition_and_f16_reuses_registers() {
    for n in (16..=256).step_by(16) {
        let d = d_figure(n);
        let a = a_figure(2);
        let c = ChainedMma::new(
            instr(n, 16, T::BF16, AccumType::F32),
            instr(256, 16, T::BF16, AccumType::F32),
        )
        .unwrap();
        for ks in 0..n / 16 {
            let table = c.kstep_table(ks).unwrap();
            for (&(m, k), &(thread, elem)) in &a {
                let (st, se) = d[&(m, 16 * ks + k)];
                assert_eq!(st, thread, "not lane-local: ({m}, {k}) k-step {ks}");
                assert_eq!(table[(elem / 2) as usize][(elem % 2) as usize], se);
                let acc = WgmmaAccum::new(n).unwrap();
                let bf = WgmmaRegA::new(T::BF16).unwrap();
                assert_eq!(bf.accum_source(&acc, ks, thread, elem), Some((st, se)));
            }
            // f16 accumulator: register d_r packs elements 2r, 2r + 1, so A reg = D reg 4ks + r
            for r in 0..4 {
                assert_eq!(
                    c.source(ks, r),
                    Some([2 * (4 * ks + r), 2 * (4 * ks + r) + 1])
                );
            }
        }
        assert_eq!(c.source(n / 16, 0), None);
        assert_eq!(c.source(0, 4), None);
        assert_eq!(c.kstep_table(n / 16), None);
    }
}

/// Whether, by the figures, every A element of every k-step of type `t` comes from its own
/// thread's accumulator.
fn lane_local(t: T, n: u32) -> bool {
    let p = per_reg(t);
    let d = d_figure(n);
    let a = a_figure(p);
    (0..n / (8 * p)).all(|ks| {
        a.iter()
            .all(|(&(m, k), &(thread, _))| d[&(m, 8 * p * ks + k)].0 == thread)
    })
}

#[test]
fn chain_accepts_exactly_the_lane_local_pairs() {
    for a_t in A_TYPES {
        let k2 = 8 * per_reg(a_t);
        let acc2 = if matches!(a_t, T::S8 | T::U8) {
            AccumType::S32
        } else {
            AccumType::F32
        };
        let second = instr(64, k2, a_t, acc2);
        let first = instr(128, 16, T::BF16, AccumType::F32);
        let local = lane_local(a_t, 128);
        assert_eq!(local, matches!(a_t, T::F16 | T::BF16), "{a_t:?}");
        match ChainedMma::new(first, second) {
            Ok(c) => {
                assert!(local, "{a_t:?} accepted but not lane-local");
                assert_eq!(c.ksteps(), 8);
            }
            Err(e) => {
                assert!(!local, "{a_t:?} refused: {e}");
                assert_eq!(e, ChainError::NotLaneLocal { a: a_t });
                assert!(e.to_string().contains("f16, bf16"));
            }
        }
        // accum_source names the other lanes for the non-local types
        let ra = WgmmaRegA::new(a_t).unwrap();
        let acc = WgmmaAccum::new(128).unwrap();
        let crosses = (0..128)
            .any(|th| (0..ra.elems()).any(|e| ra.accum_source(&acc, 0, th, e).unwrap().0 != th));
        assert_eq!(crosses, !local, "{a_t:?}");
    }
}

#[test]
fn chain_conversions_and_refusals() {
    use AccumType::*;
    let bf = |n, acc| instr(n, 16, T::BF16, acc);
    let f16 = |n, acc| instr(n, 16, T::F16, acc);
    let conv = |a: WgmmaInstr, b: WgmmaInstr| ChainedMma::new(a, b).map(|c| c.conversion());
    assert_eq!(conv(bf(128, F32), bf(64, F32)), Ok(Conversion::F32ToBf16x2));
    assert_eq!(conv(bf(128, F32), f16(64, F16)), Ok(Conversion::F32ToF16x2));
    assert_eq!(conv(f16(128, F16), f16(64, F32)), Ok(Conversion::Reuse));
    assert_eq!(
        conv(f16(128, F16), bf(64, F32)),
        Ok(Conversion::F16ToBf16x2)
    );
    // an fp8 S (k32, f32 accumulator) chains into a bf16 P·V
    let s8 = instr(128, 32, T::E4M3, F32);
    assert_eq!(conv(s8, bf(256, F32)), Ok(Conversion::F32ToBf16x2));
    // s32 accumulators do not convert
    let int = instr(128, 32, T::S8, S32);
    assert_eq!(
        ChainedMma::new(int, bf(64, F32)),
        Err(ChainError::AccumNotConvertible {
            accum: S32,
            a: T::BF16
        })
    );
    // N of the first: multiples of 8 that are not of 16
    for n in [8, 24, 40, 72, 136, 248] {
        assert_eq!(
            ChainedMma::new(bf(n, F32), bf(64, F32)),
            Err(ChainError::KStepsNotWhole { n, k: 16 })
        );
    }
    // both instructions are re-checked, the side named
    let bad_k = WgmmaInstr {
        shape: MmaShape::new(64, 64, 32),
        dtype: T::BF16,
        accum: F32,
    };
    assert!(matches!(
        ChainedMma::new(bf(64, F32), bad_k),
        Err(ChainError::Shape {
            side: ChainSide::Second,
            ..
        })
    ));
    let bad_acc = WgmmaInstr {
        shape: MmaShape::new(64, 64, 16),
        dtype: T::BF16,
        accum: F16,
    };
    let e = ChainedMma::new(bad_acc, bf(64, F32)).unwrap_err();
    assert_eq!(
        e,
        ChainError::AccumNotForType {
            side: ChainSide::First,
            dtype: T::BF16,
            accum: F16
        }
    );
    assert!(e.to_string().starts_with("the first wgmma"));
    let fp4 = WgmmaInstr::new(MmaShape::new(64, 64, 64), T::E2M1, F32);
    assert_eq!(
        fp4,
        Err(ChainError::NoWgmmaForm {
            side: ChainSide::First,
            dtype: T::E2M1
        })
    );
    assert!(WgmmaInstr::new(MmaShape::new(128, 64, 16), T::BF16, F32).is_err());
    assert!(WgmmaInstr::new(MmaShape::new(64, 264, 16), T::BF16, F32).is_err());
}

#[test]
fn row_ownership_matches_the_figure() {
    for n in (8..=256).step_by(8) {
        let acc = WgmmaAccum::new(n).unwrap();
        let d = d_figure(n);
        let mut by_row: HashMap<u32, Vec<(u32, u32, u32)>> = HashMap::new();
        for (&(m, col), &(thread, e)) in &d {
            by_row.entry(m).or_default().push((thread, e, col));
        }
        for m in 0..64 {
            let mut threads: Vec<u32> = by_row[&m].iter().map(|x| x.0).collect();
            threads.sort();
            threads.dedup();
            assert_eq!(
                Some(threads.clone()),
                acc.row_threads(m).map(|t| t.to_vec())
            );
            for &t in &threads {
                let rows = acc.rows(t).unwrap();
                let half = rows.iter().position(|&r| r == m).expect("owns the row") as u32;
                // the thread's elements of row m, in column order
                let mut mine: Vec<(u32, u32)> = by_row[&m]
                    .iter()
                    .filter(|x| x.0 == t)
                    .map(|x| (x.2, x.1))
                    .collect();
                mine.sort();
                assert_eq!(mine.len() as u32, acc.row_elems());
                for (j, &(_, e)) in mine.iter().enumerate() {
                    assert_eq!(acc.row_elem(half, j as u32), Some(e));
                }
                assert_eq!(acc.quad_mask(t), Some(0xF << (threads[0] % 32)));
            }
        }
    }
}

/// Per-thread row maxima after a butterfly over `xors` (lanes within a warp); returns how many
/// (thread, row) results differ from the true row maximum.
fn reduce_errors(n: u32, xors: &[u32], rng: &mut Rng) -> usize {
    let acc = WgmmaAccum::new(n).unwrap();
    let d = d_figure(n);
    let s: Vec<f32> = (0..64 * n).map(|_| rng.value()).collect();
    let mut regs = vec![vec![0f32; (n / 2) as usize]; 128];
    for (&(m, col), &(t, e)) in &d {
        regs[t as usize][e as usize] = s[(m * n + col) as usize];
    }
    let mut partial: Vec<[f32; 2]> = (0..128)
        .map(|t| {
            [0, 1].map(|h| {
                (0..acc.row_elems())
                    .map(|j| regs[t][acc.row_elem(h, j).unwrap() as usize])
                    .fold(f32::MIN, f32::max)
            })
        })
        .collect();
    for &x in xors {
        let prev = partial.clone();
        for t in 0..128usize {
            let other = (t & !31) | ((t & 31) ^ x as usize); // shfl.bfly within the warp
            for h in 0..2 {
                partial[t][h] = prev[t][h].max(prev[other][h]);
            }
        }
    }
    let mut bad = 0;
    for t in 0..128 {
        for (h, &m) in acc.rows(t).unwrap().iter().enumerate() {
            let truth = (0..n)
                .map(|c| s[(m * n + c) as usize])
                .fold(f32::MIN, f32::max);
            if partial[t as usize][h] != truth {
                bad += 1;
            }
        }
    }
    bad
}

#[test]
fn row_reduction_with_the_documented_shuffles() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for n in [8, 64, 128, 256] {
        assert_eq!(
            reduce_errors(n, &WgmmaAccum::ROW_REDUCE_XOR, &mut rng),
            0,
            "N={n}"
        );
        // negative controls: one step short, and distances that cross rows
        assert!(reduce_errors(n, &[1], &mut rng) > 0);
        assert!(reduce_errors(n, &[4, 8], &mut rng) > 0);
    }
}
