//! The CPU side of the FP8 grouped check (`grouped_fp8.rs`): the operands' integers and e4m3
//! bytes, the checked columns, and every row of C against the exact integer product there.

use crate::epi_problem::int_at;
use crate::epi_tiles as et;
use crate::{bf16, e4m3, Lcg};

/// Columns of C the CPU product covers, in every row.
pub(crate) const CHECK_COLUMNS: usize = 128;
/// The seed of A's integers (`int_at`).
pub(crate) const A_SEED: u32 = 1;
/// The seed of B's integers.
pub(crate) const B_SEED: u32 = 2;

fn threads() -> usize {
    std::thread::available_parallelism().map_or(4, |t| t.get())
}

/// `f(0..n)`, computed on every core.
fn par_map<T: Copy + Default + Send>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let mut v = vec![T::default(); n];
    let chunk = n.div_ceil(threads()).max(1 << 16);
    let f = &f;
    std::thread::scope(|s| {
        for (c, part) in v.chunks_mut(chunk).enumerate() {
            s.spawn(move || {
                for (j, x) in part.iter_mut().enumerate() {
                    *x = f(c * chunk + j);
                }
            });
        }
    });
    v
}

/// The e4m3 bytes of operand `seed`'s integers `0..n` (the device's data).
pub(crate) fn operand_bytes(n: usize, seed: u32) -> Vec<u8> {
    par_map(n, |i| e4m3(int_at(i, seed)))
}

/// Operand `seed`'s integers `0..n` (the CPU's data, not decoded from the bytes).
pub(crate) fn operand_ints(n: usize, seed: u32) -> Vec<i8> {
    par_map(n, |i| int_at(i, seed) as i8)
}

/// The columns the CPU checks: the first and last of the first and last N tile, and seeded
/// others, distinct and sorted.
pub(crate) fn check_columns(n: u32, seed: u64) -> Vec<u32> {
    let bn = et::BN;
    let mut c = vec![0, bn - 1, n - bn, n - 1];
    let mut rng = Lcg(seed);
    while c.len() < CHECK_COLUMNS.min(n as usize) {
        let j = rng.next() % n;
        if !c.contains(&j) {
            c.push(j);
        }
    }
    c.sort_unstable();
    c.dedup();
    c
}

/// The CPU side of the check: A's integers, and B's rows of the checked columns per group.
pub(crate) struct CpuRef {
    a: Vec<i8>,
    /// `[group][column index][K]`.
    b: Vec<i8>,
    pub(crate) cols: Vec<u32>,
    offs: Vec<u32>,
    n: u32,
    k: u32,
}

impl CpuRef {
    pub(crate) fn new(a: Vec<i8>, cols: Vec<u32>, offs: Vec<u32>, n: u32, k: u32) -> CpuRef {
        let (g, ku) = (offs.len() - 1, k as usize);
        let nc = cols.len();
        let mut b = vec![0i8; g * nc * ku];
        for gi in 0..g {
            for (ci, &j) in cols.iter().enumerate() {
                let row = (gi * n as usize + j as usize) * ku;
                let dst = &mut b[(gi * nc + ci) * ku..][..ku];
                for (kk, x) in dst.iter_mut().enumerate() {
                    *x = int_at(row + kk, B_SEED) as i8;
                }
            }
        }
        CpuRef {
            a,
            b,
            cols,
            offs,
            n,
            k,
        }
    }

    /// Elements checked (every row, the checked columns).
    pub(crate) fn elements(&self) -> usize {
        *self.offs.last().unwrap() as usize * self.cols.len()
    }

    /// The exact C element (bf16 bits) of row `r` (in group `g`) at checked column `ci`.
    fn want(&self, g: usize, r: usize, ci: usize) -> u16 {
        let ku = self.k as usize;
        let a = &self.a[r * ku..][..ku];
        let b = &self.b[(g * self.cols.len() + ci) * ku..][..ku];
        let s: i32 = a.iter().zip(b).map(|(&x, &y)| x as i32 * y as i32).sum();
        bf16(s as f32)
    }

    /// `c` (`[sum M, N]` bf16 bits) against the CPU product: mismatches and the first described.
    pub(crate) fn mismatches(&self, c: &[u16]) -> (usize, String) {
        let total = *self.offs.last().unwrap() as usize;
        let chunk = total.div_ceil(threads()).max(1);
        let parts: Vec<(usize, String)> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..total)
                .step_by(chunk)
                .map(|r0| {
                    s.spawn(move || {
                        let (mut bad, mut first) = (0, String::new());
                        let mut g = self.offs.partition_point(|&o| o as usize <= r0) - 1;
                        for r in r0..(r0 + chunk).min(total) {
                            while self.offs[g + 1] as usize <= r {
                                g += 1;
                            }
                            for (ci, &j) in self.cols.iter().enumerate() {
                                let (got, want) = (c[r * self.n as usize + j as usize], self.want(g, r, ci));
                                if got != want {
                                    if bad == 0 {
                                        first = format!("C[{r}][{j}] (group {g}) = {got:#06x}, want {want:#06x}");
                                    }
                                    bad += 1;
                                }
                            }
                        }
                        (bad, first)
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let bad = parts.iter().map(|p| p.0).sum();
        let first = parts
            .into_iter()
            .find(|p| p.0 > 0)
            .map(|p| p.1)
            .unwrap_or_default();
        (bad, first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grouped::prefix;

    /// The CPU reference is the integer product, by its definition on a small case.
    #[test]
    fn cpu_reference_is_the_integer_product() {
        let (ms, n, k) = (vec![3u32, 0, 2], 512u32, 128u32);
        let offs = prefix(&ms);
        let total = offs[3] as usize;
        let a: Vec<i8> = (0..total * k as usize)
            .map(|i| int_at(i, A_SEED) as i8)
            .collect();
        let cols = check_columns(n, 9);
        assert_eq!(cols.len(), CHECK_COLUMNS);
        assert!(
            cols.contains(&0) && cols.contains(&255) && cols.contains(&256) && cols.contains(&511)
        );
        let cpu = CpuRef::new(a.clone(), cols, offs.clone(), n, k);
        // C computed the slow way: row r of group g times expert g's row j.
        let mut c = vec![0u16; total * n as usize];
        for g in 0..3 {
            for r in offs[g] as usize..offs[g + 1] as usize {
                for j in 0..n as usize {
                    let s: i32 = (0..k as usize)
                        .map(|kk| {
                            a[r * k as usize + kk] as i32
                                * int_at((g * n as usize + j) * k as usize + kk, B_SEED)
                        })
                        .sum();
                    c[r * n as usize + j] = bf16(s as f32);
                }
            }
        }
        assert_eq!(cpu.mismatches(&c), (0, String::new()));
        // One wrong element in a checked column of group 2 is found; one elsewhere is not.
        let j = cpu.cols[5] as usize;
        c[4 * n as usize + j] ^= 1;
        let (bad, first) = cpu.mismatches(&c);
        assert_eq!(bad, 1);
        assert!(
            first.starts_with(&format!("C[4][{j}] (group 2)")),
            "{first}"
        );
    }

    /// The device bytes are the e4m3 encodings of the integers (1 = 0x38, 2 = 0x40, signs).
    #[test]
    fn operand_bytes_are_e4m3() {
        let v = operand_bytes(200_000, B_SEED);
        for (i, &x) in v.iter().enumerate().step_by(997) {
            let want = match int_at(i, B_SEED) {
                -2 => 0xC0,
                -1 => 0xB8,
                0 => 0x00,
                1 => 0x38,
                2 => 0x40,
                o => panic!("{o}"),
            };
            assert_eq!(x, want, "{i}");
        }
    }
}
