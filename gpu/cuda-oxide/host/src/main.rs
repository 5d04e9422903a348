//! Host side of the cuda-oxide recipe (`gpu/cuda-oxide/RECIPE.md`): loads the PTX cuda-oxide wrote
//! for `smemdesc_wgmma_m64n64k16` (`gpu/cuda-oxide/kernel`), launches it on one warpgroup and
//! checks, exactly:
//!
//! * every one of the 64 x 64 f32 outputs of the one `wgmma m64n64k16` against a CPU product
//!   (small integers in bf16: every product and sum is exact in f32);
//! * the two descriptors the kernel formed against a model written from the PTX ISA's matrix
//!   descriptor format (not from smemdesc), and against smemdesc on the host;
//! * the shared addresses against the tiles' alignment, and every thread's status word (no
//!   checked call failed on the device).
//!
//! Before the launch it also checks smemdesc's `offset` for both tiles against an independent
//! model of the 32-byte-swizzled K-major layout, and shows the data are layout-sensitive: a fill
//! that ignored the swizzle would give wrong outputs (a count on the CPU).
//!
//! Usage: `smemdesc-oxide-host PTX` (exit status 0 only when everything matches).

use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;

include!("../../kernel/src/tiles.rs");

const M: usize = 64;
const N: usize = 64;
const K: usize = 16;
const HEADER: usize = 128 * 32;
const STATUS: usize = HEADER + 8;
const OUT_WORDS: usize = STATUS + 128;
const KERNEL: &str = "smemdesc_wgmma_m64n64k16";

/// bf16 bits of a small integer (exact: the f32's upper half).
fn bf16(v: i32) -> u16 {
    ((v as f32).to_bits() >> 16) as u16
}

/// Independent model of one K-major bf16 operand with the 32-byte swizzle (PTX ISA canonical
/// layout, K-major, 32B: 8-row x 32-byte atoms stacked along M/N; swizzle XORs byte-address bit 7
/// into bit 4).
fn model_offset(mn: usize, k: usize) -> usize {
    let linear = (mn / 8) * 256 + (mn % 8) * 32 + k * 2;
    linear ^ ((linear >> 3) & 0x10)
}

/// The same layout with the swizzle ignored (what a wrong fill would write).
fn unswizzled_offset(mn: usize, k: usize) -> usize {
    (mn / 8) * 256 + (mn % 8) * 32 + k * 2
}

/// Independent model of the sm90 wgmma descriptor (PTX ISA "Matrix Descriptor Format"): start
/// address >> 4 in bits 0-13, LBO >> 4 in 16-29 (unused by K-major swizzled layouts; 16 B as
/// CuTe writes it), SBO >> 4 in 32-45 (8 rows x 32 B = 256 B), layout type in 62-63 (32B = 3).
fn model_desc(addr: u32) -> u64 {
    (3u64 << 62) | ((256u64 >> 4) << 32) | ((16u64 >> 4) << 16) | ((addr as u64 >> 4) & 0x3fff)
}

/// D = A B with A M x K and B given as B^T (N x K), both as integers.
fn product(a: &[i32], bt: &[i32]) -> Vec<f32> {
    let mut d = vec![0f32; M * N];
    for m in 0..M {
        for n in 0..N {
            d[m * N + n] = (0..K).map(|k| (a[m * K + k] * bt[n * K + k]) as f32).sum();
        }
    }
    d
}

fn main() {
    let ptx_path = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: smemdesc-oxide-host PTX");
        std::process::exit(2)
    });
    let mut failures = 0usize;

    // Inputs: A[m][k] in -4..=4, B^T[n][k] in -3..=3, different for every (row, k) pair mod 9 / 7.
    let a: Vec<i32> = (0..M * K)
        .map(|e| ((e / K * 7 + e % K * 3 + e / K / 9) % 9) as i32 - 4)
        .collect();
    let bt: Vec<i32> = (0..N * K)
        .map(|e| ((e / K * 5 + e % K * 11 + e / K / 7) % 7) as i32 - 3)
        .collect();
    let reference = product(&a, &bt);

    // Host-side checks of the layout the kernel uses.
    let mut layout_bad = 0;
    for mn in 0..64u32 {
        for k in 0..16u32 {
            let want = model_offset(mn as usize, k as usize) as u32;
            layout_bad += (TileA::offset(mn, k) != want) as usize;
            layout_bad += (TileB::offset(mn, k) != want) as usize;
        }
    }
    println!(
        "host: TileA/TileB BYTES {} {}, ALIGN {} {}, DESC {:#018x} {:#018x}; offset vs model: {} mismatches of 2048",
        TileA::BYTES,
        TileB::BYTES,
        TileA::ALIGN,
        TileB::ALIGN,
        TileA::DESC,
        TileB::DESC,
        layout_bad
    );
    failures += layout_bad;
    // Layout sensitivity: the operands a wgmma reading the swizzled layout would see had the fill
    // ignored the swizzle.
    let seen = |src: &[i32]| -> Vec<i32> {
        let mut at = vec![0i32; 64 * 16];
        for mn in 0..64 {
            for k in 0..16 {
                at[unswizzled_offset(mn, k) / 2] = src[mn * K + k];
            }
        }
        let mut v = vec![0i32; 64 * 16];
        for mn in 0..64 {
            for k in 0..16 {
                v[mn * K + k] = at[model_offset(mn, k) / 2];
            }
        }
        v
    };
    let wrong = product(&seen(&a), &seen(&bt));
    let sensitive = wrong.iter().zip(&reference).filter(|(x, y)| x != y).count();
    println!("host: a fill ignoring the swizzle would give {sensitive} of 4096 outputs wrong");
    if sensitive == 0 {
        failures += 1;
    }

    // The launch.
    let src = std::fs::read_to_string(&ptx_path).expect("read PTX");
    let ctx = CudaContext::new(0).expect("CUDA context");
    let (major, minor) = ctx.compute_capability().expect("compute capability");
    println!(
        "device: {} (sm_{major}{minor})",
        ctx.name().unwrap_or_default()
    );
    let module = ctx.load_module(Ptx::from_src(src)).expect("load PTX");
    let f = module.load_function(KERNEL).expect("kernel");
    let stream = ctx.default_stream();
    let a_bits: Vec<u16> = a.iter().map(|&v| bf16(v)).collect();
    let b_bits: Vec<u16> = bt.iter().map(|&v| bf16(v)).collect();
    let d_a = stream.clone_htod(&a_bits).expect("A");
    let d_b = stream.clone_htod(&b_bits).expect("B");
    let mut d_out = stream.alloc_zeros::<u32>(OUT_WORDS).expect("out");
    // cuda-oxide's slice ABI: every `&[T]` / `DisjointSlice<T>` is (device pointer, u64 length).
    let (la, lb, lo) = (a_bits.len() as u64, b_bits.len() as u64, OUT_WORDS as u64);
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
    let (a_addr, b_addr) = (out[HEADER], out[HEADER + 1]);
    let desc_a = out[HEADER + 2] as u64 | (out[HEADER + 3] as u64) << 32;
    let desc_b = out[HEADER + 4] as u64 | (out[HEADER + 5] as u64) << 32;
    println!(
        "kernel: marker {:#x}, A at {a_addr:#x}, B at {b_addr:#x}, desc A {desc_a:#018x}, desc B {desc_b:#018x}",
        out[HEADER + 6]
    );
    let checks = [
        ("marker", out[HEADER + 6] == 0x5EED_0001),
        ("A aligned", a_addr % TileA::ALIGN == 0),
        ("B aligned", b_addr % TileB::ALIGN == 0),
        ("desc A = model", desc_a == model_desc(a_addr)),
        ("desc B = model", desc_b == model_desc(b_addr)),
        (
            "desc A = host smemdesc",
            desc_a == TileA::desc(a_addr, 0, 0, 0),
        ),
        (
            "desc B = host smemdesc",
            desc_b == TileB::desc(b_addr, 0, 0, 0),
        ),
        (
            "status words all 0",
            out[STATUS..STATUS + 128].iter().all(|&s| s == 0),
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
    failures += mismatches.len();
    if failures == 0 {
        println!(
            "PASS: cuda-oxide wgmma m64n64k16 bf16 with smemdesc layouts and descriptors is exact"
        );
    } else {
        println!("FAIL: {failures} failed checks");
        std::process::exit(1);
    }
}
