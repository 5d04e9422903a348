//! Host side of the cuda-oxide example (`gpu/cuda-oxide/README.md`): loads the PTX cuda-oxide wrote
//! for `gpu/cuda-oxide/kernel`, launches each kernel on one warpgroup and checks, exactly:
//!
//! * every one of the 64 x 64 f32 outputs against a CPU product (small integers in bf16: every
//!   product and sum is exact in f32);
//! * the descriptors the kernel formed against a model written from the PTX ISA's matrix
//!   descriptor format (not from smemdesc), and against smemdesc on the host;
//! * the shared addresses against the tiles' alignment, and every thread's status word.
//!
//! Before each launch it also checks smemdesc's `offset` against an independent model of the
//! swizzled K-major layout, and shows the data are layout-sensitive: a fill that ignored the
//! swizzle would give wrong outputs (a count on the CPU).
//!
//! Kernels: `smemdesc_wgmma_m64n64k16` (K = 16, 32B swizzle, one wgmma) and
//! `smemdesc_wgmma_k64_sw128` (K = 64, 128B swizzle, four wgmma along `ADVANCE_K`), and
//! `smemdesc_wgmma_k64_set` (the same with smemdesc's checked forms: `try_offset`,
//! `TileAt::place`, the stage's descriptor set).
//!
//! Usage: `smemdesc-oxide-host PTX` (exit status 0 only when everything matches).

use cudarc::driver::{CudaContext, CudaModule, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use smemdesc::SmemTile;
use std::sync::Arc;

include!("../../kernel/src/tiles.rs");

const M: usize = 64;
const N: usize = 64;

/// One kernel of the example and the independent models its tiles must match.
struct Case {
    kernel: &'static str,
    /// K of the tiles (elements).
    k: usize,
    /// Swizzle atom width, bytes (32 or 128).
    atom: usize,
    /// sm90 layout-type code of that swizzle (PTX ISA: 1 = 128B, 2 = 64B, 3 = 32B).
    layout_type: u64,
    /// Where the header starts in `out` (after 128 x 32 accumulators).
    header: usize,
    /// K-steps (descriptors per operand) the kernel reports.
    steps: usize,
    /// Header words before the per-thread status words.
    header_words: usize,
    marker: u32,
}

/// bf16 bits of a small integer (exact: the f32's upper half).
fn bf16(v: i32) -> u16 {
    ((v as f32).to_bits() >> 16) as u16
}

/// The K-major layout without swizzle: 8-row x `atom`-byte atoms stacked along M/N (the tile is
/// one atom wide along K here: 16 bf16 = 32 B, 64 bf16 = 128 B).
fn unswizzled_offset(c: &Case, mn: usize, k: usize) -> usize {
    (mn / 8) * 8 * c.atom + (mn % 8) * c.atom + k * 2
}

/// Independent model of the swizzled K-major bf16 layout (PTX ISA canonical layouts; swizzle
/// `Swizzle<B, 4, 3>` on byte addresses: bits [7, 7 + B) XORed into the 16-byte chunk bits
/// [4, 4 + B), B = 1 for 32B and 3 for 128B).
fn model_offset(c: &Case, mn: usize, k: usize) -> usize {
    let bits = match c.atom {
        32 => 1,
        128 => 3,
        _ => unreachable!(),
    };
    let o = unswizzled_offset(c, mn, k);
    o ^ ((o >> 3) & (((1 << bits) - 1) << 4))
}

/// Independent model of the sm90 wgmma descriptor (PTX ISA "Matrix Descriptor Format"): start
/// address >> 4 in bits 0-13, LBO >> 4 in 16-29 (unused by K-major swizzled layouts; 16 B as
/// CuTe writes it), SBO >> 4 in 32-45 (8 rows x atom bytes), layout type in 62-63. K-step `s`
/// starts 32 bytes further (one m64n64k16 subtile of bf16 along K).
fn model_desc(c: &Case, addr: u32, s: usize) -> u64 {
    let start = (addr as u64 + 32 * s as u64) >> 4;
    (c.layout_type << 62) | (((8 * c.atom) as u64 >> 4) << 32) | (1 << 16) | (start & 0x3fff)
}

/// D = A B with A M x K and B given as B^T (N x K), both as integers.
fn product(a: &[i32], bt: &[i32], k: usize) -> Vec<f32> {
    let mut d = vec![0f32; M * N];
    for m in 0..M {
        for n in 0..N {
            d[m * N + n] = (0..k).map(|j| (a[m * k + j] * bt[n * k + j]) as f32).sum();
        }
    }
    d
}

/// Runs one case; returns the number of failed checks.
fn run<A: SmemTile, B: SmemTile>(
    c: &Case,
    module: &Arc<CudaModule>,
    stream: &Arc<CudaStream>,
) -> usize {
    println!(
        "== {} (K = {}, {}B swizzle, {} wgmma)",
        c.kernel, c.k, c.atom, c.steps
    );
    let k = c.k;
    let mut failures = 0usize;
    assert_eq!(
        (
            A::PLAN.tile.spec().tile_k as usize,
            B::PLAN.tile.spec().tile_k as usize
        ),
        (k, k)
    );

    // Inputs: A[m][k] in -4..=4, B^T[n][k] in -3..=3, varying with row and k.
    let a: Vec<i32> = (0..M * k)
        .map(|e| ((e / k * 7 + e % k * 3 + e / k / 9) % 9) as i32 - 4)
        .collect();
    let bt: Vec<i32> = (0..N * k)
        .map(|e| ((e / k * 5 + e % k * 11 + e / k / 7) % 7) as i32 - 3)
        .collect();
    let reference = product(&a, &bt, k);

    // Host-side checks of the layout the kernel uses.
    let mut layout_bad = 0;
    for mn in 0..64 {
        for kk in 0..k {
            let want = model_offset(c, mn, kk) as u32;
            layout_bad += (A::offset(mn as u32, kk as u32) != want) as usize;
            layout_bad += (B::offset(mn as u32, kk as u32) != want) as usize;
        }
    }
    println!(
        "host: A/B BYTES {} {}, ALIGN {} {}, DESC {:#018x} {:#018x}; offset vs model: {} mismatches of {}",
        A::BYTES,
        B::BYTES,
        A::ALIGN,
        B::ALIGN,
        A::DESC,
        B::DESC,
        layout_bad,
        2 * 64 * k
    );
    failures += layout_bad;
    // Layout sensitivity: the operands a wgmma reading the swizzled layout would see had the fill
    // ignored the swizzle.
    let seen = |src: &[i32]| -> Vec<i32> {
        let mut at = vec![0i32; 64 * k];
        for mn in 0..64 {
            for kk in 0..k {
                at[unswizzled_offset(c, mn, kk) / 2] = src[mn * k + kk];
            }
        }
        let mut v = vec![0i32; 64 * k];
        for mn in 0..64 {
            for kk in 0..k {
                v[mn * k + kk] = at[model_offset(c, mn, kk) / 2];
            }
        }
        v
    };
    let wrong = product(&seen(&a), &seen(&bt), k);
    let sensitive = wrong.iter().zip(&reference).filter(|(x, y)| x != y).count();
    println!("host: a fill ignoring the swizzle would give {sensitive} of 4096 outputs wrong");
    if sensitive == 0 {
        failures += 1;
    }

    // The launch. cuda-oxide's slice ABI: every `&[T]` / `DisjointSlice<T>` is (pointer, u64 length).
    let out_words = c.header + c.header_words + 128;
    let f = module.load_function(c.kernel).expect("kernel");
    let a_bits: Vec<u16> = a.iter().map(|&v| bf16(v)).collect();
    let b_bits: Vec<u16> = bt.iter().map(|&v| bf16(v)).collect();
    let d_a = stream.clone_htod(&a_bits).expect("A");
    let d_b = stream.clone_htod(&b_bits).expect("B");
    let mut d_out = stream.alloc_zeros::<u32>(out_words).expect("out");
    let (la, lb, lo) = (a_bits.len() as u64, b_bits.len() as u64, out_words as u64);
    let mut launch = stream.launch_builder(&f);
    launch
        .arg(&d_a)
        .arg(&la)
        .arg(&d_b)
        .arg(&lb)
        .arg(&mut d_out)
        .arg(&lo);
    let cfg = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (128, 1, 1),
        shared_mem_bytes: 0,
    };
    unsafe { launch.launch(cfg) }.expect("launch");
    stream.synchronize().expect("synchronize");
    let out = stream.clone_dtoh(&d_out).expect("read back");

    // Header and status.
    let h = c.header;
    let (a_addr, b_addr) = (out[h], out[h + 1]);
    let word = |i: usize| out[i] as u64 | (out[i + 1] as u64) << 32;
    // Layouts: K = 16 kernel [a, b, descA, descB, marker]; K = 64 kernel [a, b, marker, -,
    // descA x 4, descB x 4].
    let (marker, desc_a, desc_b): (u32, Vec<u64>, Vec<u64>) = if c.steps == 1 {
        (out[h + 6], vec![word(h + 2)], vec![word(h + 4)])
    } else {
        (
            out[h + 2],
            (0..c.steps).map(|s| word(h + 4 + 2 * s)).collect(),
            (0..c.steps).map(|s| word(h + 12 + 2 * s)).collect(),
        )
    };
    println!("kernel: marker {marker:#x}, A at {a_addr:#x}, B at {b_addr:#x}");
    for s in 0..c.steps {
        println!(
            "  k-step {s}: desc A {:#018x}, desc B {:#018x}",
            desc_a[s], desc_b[s]
        );
    }
    let all = |f: &dyn Fn(usize) -> bool| (0..c.steps).all(f);
    let checks = [
        ("marker", marker == c.marker),
        ("A aligned", a_addr % A::ALIGN == 0),
        ("B aligned", b_addr % B::ALIGN == 0),
        (
            "desc A = model",
            all(&|s| desc_a[s] == model_desc(c, a_addr, s)),
        ),
        (
            "desc B = model",
            all(&|s| desc_b[s] == model_desc(c, b_addr, s)),
        ),
        (
            "desc A = host smemdesc",
            all(&|s| desc_a[s] == A::desc(a_addr, 0, s as u32, 0)),
        ),
        (
            "desc B = host smemdesc",
            all(&|s| desc_b[s] == B::desc(b_addr, 0, s as u32, 0)),
        ),
        (
            "status words all 0",
            out[h + c.header_words..out_words].iter().all(|&s| s == 0),
        ),
    ];
    for (what, ok) in checks {
        println!("check {what}: {}", if ok { "ok" } else { "FAILED" });
        failures += !ok as usize;
    }

    // Accumulators: thread t = 32 w + l holds register i = 8 j + r of the m64nNk16 f32 fragment
    // (PTX ISA "Matrix fragments for wgmma .m64nNk16", D): row 16 w + l / 4 + 8 ((i >> 1) & 1),
    // column 8 (i >> 2) + 2 (l % 4) + (i & 1).
    let mut d = vec![f32::NAN; M * N];
    for t in 0..128 {
        let (w, l) = (t / 32, t % 32);
        for i in 0..32 {
            let row = 16 * w + l / 4 + 8 * ((i >> 1) & 1);
            let col = 8 * (i >> 2) + 2 * (l % 4) + (i & 1);
            d[row * N + col] = f32::from_bits(out[t * 32 + i]);
        }
    }
    let mismatches: Vec<usize> = (0..M * N)
        .filter(|&e| d[e].to_bits() != reference[e].to_bits())
        .collect();
    let max_abs = reference.iter().fold(0f32, |m, v| m.max(v.abs()));
    println!(
        "D (64x64 f32) vs CPU: {} of 4096 mismatches (exact bit compare; |D| up to {max_abs})",
        mismatches.len()
    );
    for &e in mismatches.iter().take(8) {
        println!("  D[{}][{}] = {} want {}", e / N, e % N, d[e], reference[e]);
    }
    println!(
        "sample: D[0][0..4] = {:?}, D[63][60..64] = {:?}",
        &d[0..4],
        &d[63 * N + 60..64 * N]
    );
    failures + mismatches.len()
}

fn main() {
    let ptx_path = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: smemdesc-oxide-host PTX");
        std::process::exit(2)
    });
    let src = std::fs::read_to_string(&ptx_path).expect("read PTX");
    let ctx = CudaContext::new(0).expect("CUDA context");
    let (major, minor) = ctx.compute_capability().expect("compute capability");
    println!(
        "device: {} (sm_{major}{minor})",
        ctx.name().unwrap_or_default()
    );
    let module = ctx.load_module(Ptx::from_src(src)).expect("load PTX");
    let stream = ctx.default_stream();

    let k16 = Case {
        kernel: "smemdesc_wgmma_m64n64k16",
        k: 16,
        atom: 32,
        layout_type: 3,
        header: 128 * 32,
        steps: 1,
        header_words: 8,
        marker: 0x5EED_0001,
    };
    let k64 = Case {
        kernel: "smemdesc_wgmma_k64_sw128",
        k: 64,
        atom: 128,
        layout_type: 1,
        header: 128 * 32,
        steps: 4,
        header_words: 24,
        marker: 0x5EED_0064,
    };
    // The K = 64 kernel with the checked forms (`try_offset`, `TileAt::place`, the stage's
    // descriptor set formed before the wgmma region): the same output, its own marker.
    let k64_set = Case {
        kernel: "smemdesc_wgmma_k64_set",
        marker: 0x5EED_0065,
        ..k64
    };
    let failures = run::<TileA, TileB>(&k16, &module, &stream)
        + run::<TileA128, TileB128>(&k64, &module, &stream)
        + run::<TileA128, TileB128>(&k64_set, &module, &stream);
    if failures == 0 {
        println!("PASS: cuda-oxide wgmma m64n64k16 bf16 with smemdesc layouts and descriptors is exact (K = 16 32B, K = 64 128B, K = 64 128B checked)");
    } else {
        println!("FAIL: {failures} failed checks");
        std::process::exit(1);
    }
}
