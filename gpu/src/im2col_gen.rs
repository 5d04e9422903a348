//! `--im2col-gen N FILE`: N random `cuTensorMapEncodeIm2col` parameter sets as rows of
//! `smemdesc tensormap check --im2col` (columns `id dtype rank addr_off dims strides lower upper
//! channels pixels element_strides interleave swizzle l2 oob`), drawn around every rule's
//! boundaries: a quarter legal sets, half legal sets with one or two fields redrawn at a rule's
//! boundary, a quarter drawn wholly from the boundary pools. Deterministic for a seed (xorshift; `--im2col-seed`,
//! default [`SET1_SEED`], the seed of the first set).
//! Every enumeration code is a value of its driver enumeration (the judge passes them as the
//! driver's enums) and every rank is 1 to 5 (the driver reads `rank` entries of 5-entry arrays).

use smemdesc::{im2col_corner_range, TensorMapDataType};
use std::fmt::Write as _;

/// xorshift64*: reproducible draws.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// One parameter set, arrays full length (the row writes as many entries as the rank needs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    dtype: u32,
    rank: u32,
    addr_off: u64,
    dims: [u64; 5],
    strides: [u64; 4],
    lower: [i32; 3],
    upper: [i32; 3],
    channels: u32,
    pixels: u32,
    es: [u32; 5],
    interleave: u32,
    swizzle: u32,
    l2: u32,
    oob: u32,
}

fn data_type(code: u32) -> TensorMapDataType {
    TensorMapDataType::from_value(code).unwrap_or(TensorMapDataType::Uint8)
}

/// The dense strides of `dims` for `dtype`, each rounded up to `align` bytes, plus `pad`.
fn dense(dims: &[u64; 5], dtype: u32, align: u64, pad: u64) -> [u64; 4] {
    let mut s = [0u64; 4];
    let mut below = (dims[0].saturating_mul(data_type(dtype).global_bits() as u64)).div_ceil(8);
    for (i, x) in s.iter_mut().enumerate() {
        *x = below
            .div_ceil(align)
            .saturating_mul(align)
            .saturating_add(pad);
        below = x.saturating_mul(dims[i + 1]);
    }
    s
}

/// A set that meets every documented rule (for sm90, or sm100 when `blackwell`).
fn legal(rng: &mut Rng, blackwell: bool) -> Params {
    let dtype = if blackwell && rng.below(8) == 0 {
        rng.pick(&[13u32, 14, 15])
    } else {
        rng.pick(&[0u32, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8, 9, 9, 9, 10, 11, 12])
    };
    let t = data_type(dtype);
    let interleave = rng.pick(&[0u32, 0, 0, 0, 0, 0, 1, 2]);
    let interleave = if t.is_packed() { 0 } else { interleave };
    let swizzle = match (interleave, t) {
        (2, _) => 1,
        (_, t) if t.is_align16b() => rng.pick(&[0u32, 3, 4]),
        _ if blackwell => rng.pick(&[0u32, 1, 2, 3, 3, 4, 5, 6]),
        _ => rng.pick(&[0u32, 1, 2, 3, 3]),
    };
    let bits = t.box_bits() as u64;
    let span = match swizzle {
        0 => 512,
        1 => 32,
        2 => 64,
        _ => 128,
    };
    let span = if interleave != 0 { 512 } else { span };
    let channels = if t.is_align16b() {
        128
    } else {
        let max16 = (span * 8 / bits).min(256) * bits / 128; // 16-B chunks that fit
        let chunks = 1 + rng.below(max16.max(1));
        ((chunks * 128 / bits).min(256)) as u32
    };
    let cap = (233_472 * 8 / (channels as u64 * bits)).clamp(1, 1024);
    let pixels = rng
        .pick(&[1u64, 2, 8, 32, 64, 128, 256, 512, 1024])
        .min(cap) as u32;
    let rank = rng.pick(&[3u32, 4, 4, 5]);
    let (lo, hi) = im2col_corner_range(rank).unwrap_or((0, 0));
    let mut dims = [1u64; 5];
    dims[0] = channels as u64 * rng.pick(&[1u64, 1, 2, 4]);
    if t.is_packed() {
        dims[0] = dims[0].next_multiple_of(128);
    }
    for d in dims.iter_mut().take(rank as usize).skip(1) {
        *d = rng.pick(&[1u64, 3, 7, 14, 28, 56, 224]);
    }
    let mut lower = [0i32; 3];
    let mut upper = [0i32; 3];
    for i in 0..(rank - 2) as usize {
        let l = rng.pick(&[0i32, -1, -1, -2, -3, lo, 1]).clamp(lo, hi);
        let u = rng.pick(&[0i32, -1, -2, -4, 1, hi]).clamp(lo, hi);
        let u = if dims[i + 1] as i64 + u as i64 - (l as i64) < 1 {
            l.clamp(lo, hi)
        } else {
            u
        };
        lower[i] = l;
        upper[i] = u;
    }
    let align = if interleave == 2 || t.is_align16b() {
        32
    } else {
        16
    };
    let strides = dense(&dims, dtype, align, rng.pick(&[0u64, 0, 0, align]));
    let mut es = [1u32; 5];
    for e in es.iter_mut().take(rank as usize) {
        *e = rng.pick(&[1u32, 1, 1, 1, 2, 3, 8]);
    }
    Params {
        dtype,
        rank,
        addr_off: rng.pick(&[0u64, 0, 0, 256, 32, 64]),
        dims,
        strides,
        lower,
        upper,
        channels,
        pixels,
        es,
        interleave,
        swizzle,
        l2: rng.below(4) as u32,
        oob: u32::from(t.is_float() && rng.below(2) == 0),
    }
}

const CORNERS: [i32; 14] = [
    -32769, -32768, 32767, 32768, -129, -128, 127, 128, -17, -16, 15, 16, 0, -1,
];

/// Redraws one field of `p` at a rule's boundary.
fn mutate(rng: &mut Rng, p: &mut Params) {
    let r = p.rank.clamp(1, 5) as usize;
    let bits = data_type(p.dtype).box_bits() as u64;
    match rng.below(18) {
        0 => p.dtype = rng.below(16) as u32,
        1 => p.rank = rng.pick(&[1u32, 2, 3, 4, 5]),
        2 => p.addr_off = rng.pick(&[8u64, 16, 24, 32, 48]),
        3 => {
            p.dims[rng.below(r as u64) as usize] =
                rng.pick(&[0u64, 1, 2, 15, 16, 17, 1 << 31, 1 << 32, (1 << 32) + 1])
        }
        4 => {
            let i = rng.below(r.saturating_sub(1).max(1) as u64) as usize;
            let below = if i == 0 {
                (p.dims[0] * bits).div_ceil(8)
            } else {
                p.strides[i - 1].saturating_mul(p.dims[i])
            };
            p.strides[i] = rng.pick(&[
                16,
                24,
                32,
                48,
                below.saturating_sub(16),
                below.saturating_add(8),
                below.next_multiple_of(16).saturating_add(16),
                (1 << 40) - 16,
                1 << 40,
                (1 << 40) + 16,
            ]);
        }
        5 | 6 => {
            let i = rng.below(3) as usize;
            let v = rng.pick(&CORNERS);
            if rng.below(2) == 0 {
                p.lower[i] = v;
            } else {
                p.upper[i] = v;
            }
        }
        7 => {
            // the bounding box's size along W/H/D at 0, 1 or -1
            let i = rng.below(3) as usize;
            let size = rng.pick(&[-1i64, 0, 0, 1]);
            let u = size - p.dims[i + 1] as i64 + p.lower[i] as i64;
            p.upper[i] = u.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        }
        8 => {
            p.channels = rng.pick(&[
                0u32, 1, 2, 4, 8, 16, 24, 32, 64, 96, 128, 255, 256, 257, 512,
            ])
        }
        9 => p.pixels = rng.pick(&[0u32, 1, 1023, 1024, 1025, 2048]),
        10 => p.es[rng.below(r as u64) as usize] = rng.pick(&[0u32, 1, 2, 8, 9]),
        11 => p.interleave = rng.below(3) as u32,
        12 => p.swizzle = rng.below(7) as u32,
        13 => p.oob = 1,
        14 => {
            // channels at and just past the swizzle span
            let span = match p.swizzle {
                0 => 256,
                1 => 32,
                2 => 64,
                _ => 128,
            };
            let at = (span * 8 / bits) as u32;
            p.channels = rng.pick(&[at, at + (128 / bits) as u32, at.saturating_sub(1)]);
        }
        16 => {
            // the box's size at 0, 1 or -1 along globalDim[i], the dimension the driver bounds
            // corner i by with interleave (measured on set 1)
            let i = rng.below(3) as usize;
            let size = rng.pick(&[-1i64, 0, 0, 1]);
            let u = size - p.dims[i] as i64 + p.lower[i] as i64;
            p.upper[i] = u.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        }
        17 => {
            // a bounded dimension near 2^31 with dense strides (the other dims 1), the upper
            // corner around the 32-bit wrap of globalDim + upper (measured on set 1)
            let spatial = r.saturating_sub(2).max(1);
            let i = rng.below(spatial as u64) as usize;
            let d = if p.interleave == 0 { i + 1 } else { i };
            let big = rng.pick(&[
                (1u64 << 31) - 40_000,
                (1 << 31) - 32_768,
                (1 << 31) - 2,
                (1 << 31) - 1,
                1 << 31,
                (1 << 31) + 1,
                (1 << 32) - 32_768,
                (1 << 32) - 1,
                1 << 32,
            ]);
            for (k, x) in p.dims.iter_mut().enumerate().take(r).skip(1) {
                *x = if k == d { big } else { 1 };
            }
            if d == 0 {
                p.dims[0] = big;
            }
            let align = if p.interleave == 2 { 32 } else { 16 };
            p.strides = dense(&p.dims, p.dtype, align, 0);
            let wrap = (1i64 << 31) - big as i64; // the upper corner at which the sum wraps
            let u = rng.pick(&[wrap - 1, wrap, wrap + 1, -1, 0, 1, p.lower[i] as i64]);
            p.upper[i] = u.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        }
        _ => {
            // the box's bytes at the measured tiled limit
            let per_pixel = (p.channels as u64 * bits).div_ceil(8).max(1);
            let at = (233_472 / per_pixel) as u32;
            p.pixels = rng.pick(&[at, at + 1, 1024]);
        }
    }
}

/// A set drawn wholly from the boundary pools.
fn wild(rng: &mut Rng) -> Params {
    let mut p = legal(rng, true);
    p.dtype = rng.below(16) as u32;
    p.rank = rng.pick(&[1u32, 2, 3, 3, 4, 4, 5, 5]);
    for _ in 0..6 {
        mutate(rng, &mut p);
    }
    p
}

/// One row of the im2col TSV format.
fn row(id: usize, p: &Params) -> String {
    fn list<T: std::fmt::Display>(xs: &[T]) -> String {
        if xs.is_empty() {
            "-".into()
        } else {
            xs.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        }
    }
    let r = p.rank as usize;
    let spatial = r.saturating_sub(2);
    format!(
        "r{id}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        p.dtype,
        p.rank,
        p.addr_off,
        list(&p.dims[..r]),
        list(&p.strides[..r.saturating_sub(1)]),
        list(&p.lower[..spatial]),
        list(&p.upper[..spatial]),
        p.channels,
        p.pixels,
        list(&p.es[..r]),
        p.interleave,
        p.swizzle,
        p.l2,
        p.oob
    )
}

/// The seed of the first driver set (`gpu/device-logs/2026-11-27-im2col-set1/`; generated before
/// mutations 16 and 17 existed, so its rows are in the log rather than reproducible here).
pub(crate) const SET1_SEED: u64 = 0x1d2c_01a5_5e7e_0032;

/// `n` rows (with the header line) drawn from `seed` (non-zero: xorshift stays at 0).
pub(crate) fn rows(n: usize, seed: u64) -> String {
    let mut rng = Rng(seed.max(1));
    let mut out = String::from("id\tdtype\trank\taddr_off\tdims\tstrides\tlower\tupper\tchannels\tpixels\telement_strides\tinterleave\tswizzle\tl2\toob\n");
    for id in 0..n {
        let blackwell = rng.below(4) == 0;
        let p = match rng.below(4) {
            0 => legal(&mut rng, blackwell),
            1 => wild(&mut rng),
            _ => {
                let mut p = legal(&mut rng, blackwell);
                mutate(&mut rng, &mut p);
                if rng.below(3) == 0 {
                    mutate(&mut rng, &mut p);
                }
                p
            }
        };
        writeln!(out, "{}", row(id, &p)).unwrap();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use smemdesc::Arch;

    /// Every row reads, and the set reaches both verdicts and many rules.
    #[test]
    fn rows_read_and_reach_both_verdicts() {
        let text = rows(20_000, SET1_SEED);
        let (mut ok, mut kinds) = (0, std::collections::BTreeSet::new());
        for line in text.lines().skip(1) {
            let r = crate::cli::tensormap::parse_row(line, true)
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!((1..=5).contains(&r.rank));
            assert!(r.options().is_ok(), "{line}");
            match r.verdict(true, Arch::Sm90) {
                Ok(()) => ok += 1,
                Err(e) => {
                    kinds.insert(crate::im2col_set::kind(&e));
                }
            }
        }
        assert!(ok > 3000 && ok < 17_000, "{ok}");
        assert!(kinds.len() >= 15, "{kinds:?}");
    }
}
