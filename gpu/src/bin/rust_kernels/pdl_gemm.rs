//! `--pdl`'s second part (issue 47, run 3): a GEMM and its consumer. `gemm_bf16_rust` writes
//! C = A·B (bf16, small-integer data: exact), then `pdl_step` reads C as `u32` words through its
//! `Upstream` (after `griddepcontrol.wait`) and writes `3 x + 1`; `PAIRS` such pairs per timed
//! chain, the consumer launched as a programmatic dependent of its GEMM (the GEMM issues no
//! `launch_dependents`: its CTAs' exits trigger the consumer, whose launch and prologue overlap
//! the GEMM's last wave) against the same pairs launched back to back, twice (noise control).
//! Exact: C against the CPU's integer product on sampled elements, and the consumer's output
//! against `3 x + 1` of the C that the GPU wrote, in both launch modes.

use crate::{bf16, cuda, device_map, median, pdl, tiles, Lcg};
use serde_json::{json, Value};

/// GEMM -> consumer pairs per timed chain.
const PAIRS: u32 = 16;
/// The consumer's threads per CTA (`pdl_step`'s grid stride assumes 256).
const BLOCK: u32 = 256;

struct Pair<'a> {
    gemm: &'a cuda::Kernel,
    step: &'a cuda::Kernel,
    sms: u32,
    s: u32,
    ma: cuda::Buf,
    mb: cuda::Buf,
    c: cuda::Buf,
    y: cuda::Buf,
}

impl Pair<'_> {
    fn words(&self) -> u32 {
        self.s * self.s / 2
    }
    fn launch(&self, pdl: bool) -> cuda::Res<()> {
        let s = self.s as i32;
        self.gemm.launch(
            self.sms,
            tiles::GEMM_THREADS,
            &[
                cuda::Arg::Ptr(self.ma.ptr),
                cuda::Arg::Ptr(self.mb.ptr),
                cuda::Arg::Ptr(self.c.ptr),
                cuda::Arg::I32(s),
                cuda::Arg::I32(s),
                cuda::Arg::I32(s),
                cuda::Arg::I32(16),
            ],
        )?;
        let n = self.words();
        self.step.launch_pdl(
            n.div_ceil(BLOCK).min(self.sms * 8),
            BLOCK,
            pdl,
            &[
                cuda::Arg::Ptr(self.c.ptr),
                cuda::Arg::Ptr(self.y.ptr),
                cuda::Arg::I32(n as i32),
            ],
        )
    }
    fn chain(&self, pdl: bool) -> cuda::Res<()> {
        (0..PAIRS).try_for_each(|_| self.launch(pdl))
    }
    /// Mismatches of the consumer's output against `3 x + 1` of C, after one pair.
    fn check_consumer(&self, pdl: bool) -> cuda::Res<usize> {
        self.c.fill(0xFF)?;
        self.y.fill(0)?;
        self.launch(pdl)?;
        cuda::sync()?;
        let n = self.words() as usize;
        let (mut c, mut y) = (vec![0u32; n], vec![0u32; n]);
        self.c.read(&mut c)?;
        self.y.read(&mut y)?;
        Ok(c.iter()
            .zip(&y)
            .filter(|(c, y)| c.wrapping_mul(3).wrapping_add(1) != **y)
            .count())
    }
}

/// The pairs at three sizes; `rounds` timed rounds each in a seeded random order.
pub fn run_gemm_pair(module: &cuda::Module, gpu: &cuda::Gpu, rounds: u32) -> cuda::Res<Value> {
    let gemm = module.kernel("gemm_bf16_rust", tiles::BF16_SMEM.launch_bytes)?;
    let step = module.kernel("pdl_step", 64)?;
    let mut rng = Lcg(0x9d1_0047);
    let mut rows = Vec::new();
    for s in [512u32, 1024, 2048] {
        let su = s as usize;
        let av: Vec<i8> = (0..su * su).map(|_| rng.int(1) as i8).collect();
        let bv: Vec<i8> = (0..su * su).map(|_| rng.int(1) as i8).collect();
        let enc = |v: &[i8]| -> Vec<u8> {
            v.iter()
                .flat_map(|&x| bf16(x as f32).to_le_bytes())
                .collect()
        };
        let (ga, gb) = (cuda::Buf::from(&enc(&av))?, cuda::Buf::from(&enc(&bv))?);
        let p = Pair {
            gemm: &gemm,
            step: &step,
            sms: gpu.sms as u32,
            s,
            ma: device_map::<tiles::Bf16A>(&ga, s as u64, s as u64)?,
            mb: device_map::<tiles::Bf16B>(&gb, s as u64, s as u64)?,
            c: cuda::Buf::new(su * su * 2)?,
            y: cuda::Buf::new(su * su * 2)?,
        };
        // C = A·B with A [M, K] and B [N, K], both K-major: C[m][n] = sum_k A[m][k] B[n][k].
        let bad_pdl = p.check_consumer(true)?;
        let mut cv = vec![0u16; su * su];
        p.c.read(&mut cv)?;
        let mut bad_c = 0usize;
        for _ in 0..4096 {
            let (m, n) = ((rng.next() as usize) % su, (rng.next() as usize) % su);
            let want: i32 = (0..su)
                .map(|k| av[m * su + k] as i32 * bv[n * su + k] as i32)
                .sum();
            bad_c += usize::from(bf16(want as f32) != cv[m * su + n]);
        }
        let bad_plain = p.check_consumer(false)?;
        // 0: PDL, 1 and 2: back to back (twice: the noise control).
        let mut times: [Vec<f64>; 3] = Default::default();
        let mut order = [0usize, 1, 2];
        for _ in 0..rounds {
            crate::shuffle(&mut order, |n| (rng.next() % n as u32) as usize);
            for &e in &order {
                let t = cuda::time_ms(2, 5, || p.chain(e == 0))?;
                times[e].push(pdl::median(&t));
            }
        }
        let med: Vec<f64> = times.iter().map(|t| median(t)).collect();
        let spread = |t: &Vec<f64>| {
            [
                t.iter().cloned().fold(f64::INFINITY, f64::min),
                t.iter().cloned().fold(0.0, f64::max),
            ]
        };
        println!(
            "pdl gemm pair {s}^3: PDL {:.2} us/pair, plain {:.2} / {:.2} us/pair, gain {:.3}x (noise {:.3}x); C sample mismatches {bad_c}, consumer mismatches PDL {bad_pdl}, plain {bad_plain}",
            1e3 * med[0] / PAIRS as f64,
            1e3 * med[1] / PAIRS as f64,
            1e3 * med[2] / PAIRS as f64,
            med[1] / med[0],
            med[2] / med[1]
        );
        rows.push(json!({
            "size": s, "pairs": PAIRS, "gemm": "gemm_bf16_rust", "consumer": "pdl_step",
            "c_sample_mismatches": bad_c, "c_samples": 4096,
            "consumer_mismatches_pdl": bad_pdl, "consumer_mismatches_plain": bad_plain,
            "chain_ms": {"pdl": med[0], "plain": med[1], "plain_again": med[2]},
            "spread_ms": {"pdl": spread(&times[0]), "plain": spread(&times[1]), "plain_again": spread(&times[2])},
            "gain": med[1] / med[0], "noise": med[2] / med[1],
        }));
    }
    Ok(json!({"rows": rows}))
}
