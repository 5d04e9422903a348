//! Host side of `examples/kernel/` with cudarc: loads the kernel's PTX, uploads A and B, encodes
//! their tensor maps through smemdesc's `cudarc` feature from the same `#[smem_tile]` declarations
//! the kernel uses (`examples/kernel/src/tiles.rs`, included below), launches with the storage's
//! `LAUNCH_BYTES` of dynamic shared memory and checks C exactly against the CPU. A negative
//! control runs the same kernel with A's descriptors carrying twice the right SBO; it must
//! mismatch.
//!
//! ```text
//! examples/kernel/build.sh                       # nightly: writes examples/kernel/out/gemm_tile.ptx
//! cargo run --release --example cudarc_host --features cuda-13000 [-- PTX_PATH]
//! ```
//!
//! `cuda-13000` turns on smemdesc's `cudarc` feature with CUDA 13.0's bindings (any `cuda-*`
//! feature of smemdesc works: `src/cuda.rs`, "Choosing the CUDA bindings"). Needs an sm_90a GPU
//! (H100/H200) and the CUDA driver at run time (cudarc loads it when first used, so this builds
//! anywhere). Exit status 0 only when the GEMM is exact and the control mismatches.

#[path = "kernel/src/tiles.rs"]
mod tiles;

// smemdesc re-exports the cudarc it is built against: no cudarc dependency of our own to keep in
// step with it.
use smemdesc::cuda::cudarc::driver::sys::{CUevent_flags, CUfunction_attribute};
use smemdesc::cuda::cudarc::driver::{
    CudaContext, CudaSlice, CudaStream, DevicePtr, PushKernelArg,
};
use smemdesc::cuda::cudarc::nvrtc::Ptx;
use smemdesc::cuda::{self, AlignedTensorMap};
use smemdesc::{Arch, DescriptorFields, GemmLaunch, SmemDescriptor, SmemTile, TensorMap};
use std::error::Error;
use std::sync::Arc;
use tiles::{Storage, TileA, TileB, BK, BM, BN, THREADS};

type Res<T> = Result<T, Box<dyn Error>>;

/// The GEMM: C (M x N, f32) = A (M x K) · Bᵀ (B: N x K), bf16 inputs.
const M: usize = 256;
const N: usize = 256;
const K: usize = 512;

/// Where `examples/kernel/build.sh` writes the PTX (relative to the repository root).
const DEFAULT_PTX: &str = "examples/kernel/out/gemm_tile.ptx";

/// A small deterministic generator of integers in `-r ..= r`.
struct Lcg(u64);
impl Lcg {
    fn int(&mut self, r: i32) -> i32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as u32 % (2 * r as u32 + 1)) as i32 - r
    }
}

/// bf16 bits of a small integer: the upper half of its f32 bits (exact for |v| < 256).
fn bf16(v: i32) -> u16 {
    ((v as f32).to_bits() >> 16) as u16
}

/// The number of elements of `c` (M x N, row-major) that differ from the exact integer product
/// of `a` (M x K) and `b` (N x K), and the first few of them described. With |a|, |b| <= 2 and
/// K = 512 every partial sum is an integer below 2^24, so f32 accumulation is exact in any order.
fn mismatches(a: &[i32], b: &[i32], c: &[f32]) -> (usize, Vec<String>) {
    let mut bad = 0;
    let mut first = Vec::new();
    for i in 0..M {
        for j in 0..N {
            let want: i32 = (0..K).map(|k| a[i * K + k] * b[j * K + k]).sum();
            let got = c[i * N + j];
            if got != want as f32 {
                if first.len() < 3 {
                    first.push(format!("C[{i}][{j}] = {got}, want {want}"));
                }
                bad += 1;
            }
        }
    }
    (bad, first)
}

/// A's descriptor XORed with this gives the same descriptor with SBO doubled (the negative
/// control); only the SBO field differs.
fn wrong_sbo_xor() -> Res<u64> {
    let right = TileA::try_desc(0, 0, 0, 0)?;
    let f = right.fields()?;
    let mut g = DescriptorFields::new(f.start_address, f.lbo, f.sbo * 2, f.layout);
    g.base_offset = f.base_offset;
    let wrong = SmemDescriptor::encode(Arch::Sm90, g)?;
    let xor = wrong.raw() ^ right.raw();
    // PTX ISA, shared memory matrix descriptor: SBO >> 4 in bits 32..45. Only that field differs.
    assert_eq!(
        xor,
        (((TileA::SBO as u64) >> 4) ^ ((2 * TileA::SBO as u64) >> 4)) << 32
    );
    Ok(xor)
}

/// The tensor map of operand `T` over the `rows x K` matrix at `data`, checked and encoded by
/// the driver.
fn tensor_map<T: SmemTile>(
    stream: &Arc<CudaStream>,
    data: &CudaSlice<u16>,
    rows: usize,
) -> Res<AlignedTensorMap> {
    let (ptr, _sync) = data.device_ptr(stream);
    let map = TensorMap::for_tile_matrix(&T::PLAN, rows as u64, K as u64).address(ptr);
    let a = map.try_args()?;
    println!(
        "  tensor map: globalDim {:?} globalStrides [{}] boxDim {:?} {}",
        &a.global_dim[..2],
        a.global_strides[0],
        &a.box_dim[..2],
        a.swizzle.name()
    );
    Ok(cuda::encode(&map)?)
}

fn main() {
    match run() {
        Ok(true) => println!("PASS"),
        Ok(false) => {
            println!("FAIL");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}

fn run() -> Res<bool> {
    let path = std::env::args().nth(1).unwrap_or(DEFAULT_PTX.to_string());
    let ptx = std::fs::read_to_string(&path).map_err(|e| {
        format!("cannot read the kernel's PTX at {path} ({e}); build it with examples/kernel/build.sh (nightly)")
    })?;

    let ctx = CudaContext::new(0)?;
    let mut driver = 0;
    // SAFETY: writes one integer through a valid pointer; cudarc has loaded the driver above.
    unsafe { smemdesc::cuda::cudarc::driver::sys::cuDriverGetVersion(&mut driver) }.result()?;
    let (major, minor) = ctx.compute_capability()?;
    println!(
        "device: {} (sm_{major}{minor}), driver {}.{}",
        ctx.name()?,
        driver / 1000,
        driver % 1000 / 10
    );
    let stream = ctx.default_stream();
    let module = ctx.load_module(Ptx::from_src(ptx.clone()))?;
    let f = module.load_function("gemm_tile")?;
    let smem = Storage::LAUNCH_BYTES;
    f.set_attribute(
        CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        smem as i32,
    )?;
    println!(
        "kernel: gemm_tile from {path} ({} bytes of PTX), {} registers, {} B local memory per thread",
        ptx.len(),
        f.num_regs()?,
        f.local_size_bytes()?
    );

    let mut rng = Lcg(0x5eed);
    let a: Vec<i32> = (0..M * K).map(|_| rng.int(2)).collect();
    let b: Vec<i32> = (0..N * K).map(|_| rng.int(2)).collect();
    let a_dev = stream.clone_htod(&a.iter().map(|&v| bf16(v)).collect::<Vec<u16>>())?;
    let b_dev = stream.clone_htod(&b.iter().map(|&v| bf16(v)).collect::<Vec<u16>>())?;
    println!("A: {M} x {K} bf16, K contiguous");
    let map_a = tensor_map::<TileA>(&stream, &a_dev, M)?;
    println!("B: {N} x {K} bf16, K contiguous");
    let map_b = tensor_map::<TileB>(&stream, &b_dev, N)?;
    // Into global memory, A's then B's: the kernel takes their address (a Rust kernel cannot take
    // a CUtensorMap by value).
    let maps = cuda::upload(&stream, &[map_a, map_b])?;

    // Grid and transaction bytes from the two declarations; the dynamic shared memory from the
    // storage, which holds the mbarriers too.
    let launch = GemmLaunch::new(&TileA::PLAN, &TileB::PLAN, M as u32, N as u32)?;
    // The kernel computes whole tiles: one CTA per BM x BN block of C.
    assert!(M % BM as usize == 0 && N % BN as usize == 0 && K % BK as usize == 0);
    assert_eq!(
        launch.grid,
        [(M / BM as usize) as u32, (N / BN as usize) as u32, 1]
    );
    let cfg = cuda::launch_config::<Storage>(&launch, THREADS)?;
    assert_eq!(cfg.shared_mem_bytes, smem);
    println!(
        "launch: grid {:?}, block [{THREADS}, 1, 1], sharedMemBytes {smem} (Storage::LAUNCH_BYTES = {} + {} slack), {} transaction bytes per stage, {} K tiles of {BK}",
        cfg.grid_dim,
        Storage::BYTES,
        Storage::SLACK,
        launch.tx_bytes,
        K as u32 / BK
    );

    // Launches the kernel `times` times into a NaN-filled C (every element must be written) with
    // `xor` applied to A's descriptors: C and the mean time per launch (CUDA events).
    let gemm = |xor: u64, times: u32| -> Res<(Vec<f32>, f32)> {
        let mut c_dev = stream.clone_htod(&vec![f32::NAN; M * N])?;
        let (n, k) = (N as u32, K as u32);
        let start = ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        let end = ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        start.record(&stream)?;
        for _ in 0..times {
            let mut l = stream.launch_builder(&f);
            l.arg(&maps).arg(&mut c_dev);
            l.arg(&n).arg(&k).arg(&xor);
            // SAFETY: the arguments match `gemm_tile`'s signature and its documented
            // preconditions (THREADS threads, LAUNCH_BYTES of shared memory, a grid of
            // M/128 x N/128, buffers of M x K, N x K and M x N elements, maps of those buffers).
            unsafe { l.launch(cfg) }?;
        }
        end.record(&stream)?;
        let ms = start.elapsed_ms(&end)? / times as f32;
        Ok((stream.clone_dtoh(&c_dev)?, ms))
    };

    let (c, _) = gemm(0, 1)?;
    let (_, ms) = gemm(0, 100)?;
    let (bad, first) = mismatches(&a, &b, &c);
    let want = |i: usize, j: usize| -> i32 { (0..K).map(|k| a[i * K + k] * b[j * K + k]).sum() };
    println!(
        "GEMM {M} x {N} x {K}: {} elements, mismatches {bad} (exact integer reference); {:.1} us per launch (mean of 100, CUDA events)",
        M * N,
        ms * 1000.0
    );
    for (i, j) in [(0, 0), (1, 2), (127, 128), (M - 1, N - 1)] {
        println!("  C[{i}][{j}] = {} (CPU: {})", c[i * N + j], want(i, j));
    }
    for s in &first {
        println!("  {s}");
    }

    let xor = wrong_sbo_xor()?;
    let (c_neg, _) = gemm(xor, 1)?;
    let (bad_neg, first_neg) = mismatches(&a, &b, &c_neg);
    println!(
        "negative control (A's descriptors with SBO {} instead of {}, XOR {xor:#x}): mismatches {bad_neg} of {} (must be > 0){}",
        2 * TileA::SBO,
        TileA::SBO,
        M * N,
        first_neg.first().map(|s| format!(", first {s}")).unwrap_or_default()
    );
    Ok(bad == 0 && bad_neg > 0)
}
