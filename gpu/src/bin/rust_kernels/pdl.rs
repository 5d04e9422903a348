//! `--pdl` (issue 47, run 3; its GEMM pair: pdl_gemm.rs): a chain of `LINKS` `pdl_step` launches (`gpu/rust-kernel/src/pdl.rs`:
//! `y = 3 x + 1`, each reading the previous link's output as an `Upstream` after
//! `griddepcontrol.wait`) launched as programmatic dependents, against the same chain launched
//! back to back without the attribute. Exact: the chain's output against the CPU's
//! `f^LINKS(x)` element by element, for both launch modes. Timed: medians of rounds in a seeded
//! random order, the plain chain twice (its two medians are the noise control).

use crate::cuda;
use serde_json::{json, Value};

/// Links per chain (an even number: the output lands back in the input buffer's partner).
const LINKS: u32 = 64;
/// Threads per CTA (the kernel's grid stride assumes 256).
const BLOCK: u32 = 256;

/// xorshift64*.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Launches the chain `a -> b -> a -> ...` (`LINKS` links) of `n` elements.
fn chain(
    k: &cuda::Kernel,
    grid: u32,
    a: &cuda::Buf,
    b: &cuda::Buf,
    n: u32,
    pdl: bool,
) -> cuda::Res<()> {
    for l in 0..LINKS {
        let (src, dst) = if l % 2 == 0 { (a, b) } else { (b, a) };
        k.launch_pdl(
            grid,
            BLOCK,
            pdl,
            &[
                cuda::Arg::Ptr(src.ptr),
                cuda::Arg::Ptr(dst.ptr),
                cuda::Arg::I32(n as i32),
            ],
        )?;
    }
    Ok(())
}

/// Mismatches of the chain's output (in `a` after an even number of links) against the CPU's.
fn check(k: &cuda::Kernel, grid: u32, x: &[u32], pdl: bool) -> cuda::Res<usize> {
    let n = x.len() as u32;
    let a = cuda::Buf::from(x)?;
    let b = cuda::Buf::new(4 * x.len())?;
    b.fill(0xFF)?;
    chain(k, grid, &a, &b, n, pdl)?;
    cuda::sync()?;
    let mut got = vec![0u32; x.len()];
    a.read(&mut got)?;
    let want = |mut v: u32| {
        for _ in 0..LINKS {
            v = v.wrapping_mul(3).wrapping_add(1);
        }
        v
    };
    Ok(x.iter().zip(&got).filter(|(x, g)| want(**x) != **g).count())
}

/// The crate's median of `cuda::time_ms`'s times.
pub(crate) fn median(v: &[f32]) -> f64 {
    crate::median(&v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>())
}

/// Runs every size; `rounds` timed rounds each.
pub fn run_pdl(module: &cuda::Module, gpu: &cuda::Gpu, rounds: u32) -> cuda::Res<Value> {
    let k = module.kernel("pdl_step", 64)?;
    let mut rng = Rng(0x5eed_0047);
    let mut rows = Vec::new();
    for n in [1u32 << 12, 1 << 16, 1 << 20, 1 << 24] {
        let grid = n.div_ceil(BLOCK).min(gpu.sms as u32 * 8);
        let x: Vec<u32> = (0..n).map(|_| rng.next() as u32).collect();
        let (bad_pdl, bad_plain) = (check(&k, grid, &x, true)?, check(&k, grid, &x, false)?);
        let a = cuda::Buf::from(&x)?;
        let b = cuda::Buf::new(4 * x.len())?;
        // Entries: 0 PDL, 1 and 2 the plain chain (twice: the noise control).
        let mut times: [Vec<f32>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        let mut order = [0usize, 1, 2];
        for _ in 0..rounds {
            crate::shuffle(&mut order, |n| (rng.next() % n as u64) as usize);
            for &e in &order {
                let t = cuda::time_ms(2, 5, || chain(&k, grid, &a, &b, n, e == 0))?;
                times[e].push(median(&t) as f32);
            }
        }
        let med: Vec<f64> = times.iter().map(|t| median(t)).collect();
        let spread = |t: &Vec<f32>| {
            let lo = t.iter().cloned().fold(f32::INFINITY, f32::min) as f64;
            let hi = t.iter().cloned().fold(0.0f32, f32::max) as f64;
            (lo, hi)
        };
        println!(
            "pdl n = {n}: {LINKS} links, PDL {:.1} us/link, plain {:.1} / {:.1} us/link, gain {:.3}x (noise {:.3}x); mismatches PDL {bad_pdl}, plain {bad_plain}",
            1e3 * med[0] / LINKS as f64,
            1e3 * med[1] / LINKS as f64,
            1e3 * med[2] / LINKS as f64,
            med[1] / med[0],
            med[2] / med[1]
        );
        rows.push(json!({
            "n": n, "links": LINKS, "grid": grid, "block": BLOCK,
            "mismatches_pdl": bad_pdl, "mismatches_plain": bad_plain,
            "chain_ms": {"pdl": med[0], "plain": med[1], "plain_again": med[2]},
            "spread_ms": {"pdl": spread(&times[0]), "plain": spread(&times[1]), "plain_again": spread(&times[2])},
            "gain": med[1] / med[0], "noise": med[2] / med[1],
        }));
    }
    Ok(json!({"device": gpu.name, "rounds": rounds, "rows": rows}))
}
