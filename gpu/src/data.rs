//! Test data: a small deterministic generator and the element encodings (bf16, e4m3) the checks
//! and the GEMM feed to the GPU.

use smemdesc_core::{ElementType, Major};

pub(crate) struct Lcg(pub(crate) u64);
impl Lcg {
    pub(crate) fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    /// A small integer in [-3, 3].
    pub(crate) fn small(&mut self) -> i32 {
        self.int(3)
    }
    /// An integer in `-r ..= r`.
    pub(crate) fn int(&mut self, r: i32) -> i32 {
        (self.next() % (2 * r as u32 + 1)) as i32 - r
    }
}

/// Compares `d` (`m` x `n`, row-major) with the exact integer product of `av` (`m` x `ktot`) and
/// `bv` (`n` x `ktot`), both row-major along K: the number of elements that differ, and the first
/// of them described (empty when none).
pub(crate) fn exact_mismatches(
    av: &[i32],
    bv: &[i32],
    d: &[f32],
    (m, n, ktot): (usize, usize, usize),
) -> (usize, String) {
    let mut bad = 0;
    let mut first = String::new();
    for i in 0..m {
        for j in 0..n {
            let r: i32 = (0..ktot)
                .map(|kk| av[i * ktot + kk] * bv[j * ktot + kk])
                .sum();
            let got = d[i * n + j];
            if got != r as f32 {
                if bad == 0 {
                    first = format!("D[{i}][{j}] = {got}, want {r}");
                }
                bad += 1;
            }
        }
    }
    (bad, first)
}

/// e4m3 bits of a small integer (exact for |v| <= 3 .. 448-range integers with 3-bit mantissa).
pub(crate) fn e4m3_of_int(v: i32) -> u8 {
    if v == 0 {
        return 0;
    }
    let sign = if v < 0 { 0x80 } else { 0 };
    let a = v.unsigned_abs();
    let e = 31 - a.leading_zeros(); // floor(log2)
    let m = ((a << 3) >> e) & 7; // 3 mantissa bits (exact for the values used)
    sign | (((e + 7) as u8) << 3) | m as u8
}

#[cfg(test)]
pub(crate) fn e4m3_to_f32(b: u8) -> f32 {
    let s = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = ((b >> 3) & 0xF) as i32;
    let m = (b & 7) as f32;
    if e == 0 {
        s * m / 8.0 * 2f32.powi(-6)
    } else {
        s * (1.0 + m / 8.0) * 2f32.powi(e - 7)
    }
}

pub(crate) fn bf16_of_f32(f: f32) -> u16 {
    let b = f.to_bits();
    ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) as u16
}

pub(crate) fn f32_of_bf16(b: u16) -> f32 {
    f32::from_bits((b as u32) << 16)
}

/// Encodes a matrix of small integers, `vals[mn][k]` (row-major mn x k), into the global layout
/// of `major` in the element type's bytes.
pub(crate) fn encode(
    vals: &[i32],
    mn: usize,
    k: usize,
    major: Major,
    dtype: ElementType,
) -> Vec<u8> {
    let mut out = Vec::new();
    let at = |i: usize| -> i32 {
        match major {
            Major::K => vals[i],
            Major::Mn => {
                let (kk, m) = (i / mn, i % mn);
                vals[m * k + kk]
            }
        }
    };
    for i in 0..mn * k {
        let v = at(i);
        match dtype {
            ElementType::BF16 => out.extend_from_slice(&bf16_of_f32(v as f32).to_le_bytes()),
            ElementType::E4M3 => out.push(e4m3_of_int(v)),
            _ => out.extend_from_slice(&(v as f32).to_le_bytes()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e4m3_small_ints_round_trip() {
        for v in -16..=16 {
            assert_eq!(e4m3_to_f32(e4m3_of_int(v)), v as f32, "{v}");
        }
    }

    #[test]
    fn bf16_round_trip() {
        for v in -256..=256 {
            assert_eq!(f32_of_bf16(bf16_of_f32(v as f32)), v as f32);
        }
    }

    #[test]
    fn encode_mn_major_transposes() {
        // 2 x 3 (mn x k) -> MN-major stores k-rows of mn.
        let v = [1, 2, 3, -1, -2, -3];
        let e = encode(&v, 2, 3, Major::Mn, ElementType::E4M3);
        let back: Vec<f32> = e.iter().map(|&b| e4m3_to_f32(b)).collect();
        assert_eq!(back, vec![1.0, -1.0, 2.0, -2.0, 3.0, -3.0]);
    }
}
