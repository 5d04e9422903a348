//! The data and launches of the issue-22 runs (`epi.rs`): our GEMM variants, one shape's
//! buffers, tensor maps (boxes and swizzles from `gpu/rust-kernel/src/epi_tiles.rs`), grid,
//! cuBLAS plan, the checked single run and the batch timing.

use crate::epi_tiles::{self as et, EpiDecl};
use crate::{cublas, cuda, tiles};
use cudarc::driver::sys as cu;
use smemdesc::{Arch, SmemTile, TensorMapSwizzle};

/// One of our GEMM kernels.
#[derive(Clone, Copy)]
pub(crate) struct Variant {
    pub(crate) name: &'static str,
    pub(crate) kernel: &'static str,
    /// Cluster (x, y); (1, 1) for no cluster.
    pub(crate) cluster: (u32, u32),
    /// `gemm_bf16_rust` of `gemm.rs` (direct stores), not an issue-22 kernel.
    pub(crate) direct: bool,
}

pub(crate) const VARIANTS: [Variant; 4] = [
    Variant {
        name: "persistent_direct_store",
        kernel: "gemm_bf16_rust",
        cluster: (1, 1),
        direct: true,
    },
    Variant {
        name: "persistent_tma_epilogue",
        kernel: "gemm_epi_rust",
        cluster: (1, 1),
        direct: false,
    },
    Variant {
        name: "cluster_2x1",
        kernel: "gemm_cl21_rust",
        cluster: (2, 1),
        direct: false,
    },
    Variant {
        name: "cluster_1x2",
        kernel: "gemm_cl12_rust",
        cluster: (1, 2),
        direct: false,
    },
];

pub(crate) fn launch_bytes(v: &Variant) -> u32 {
    match (v.direct, v.cluster) {
        (true, _) => tiles::BF16_SMEM.launch_bytes,
        (false, (2, 1)) => et::Decl21::LAUNCH_BYTES,
        (false, (1, 2)) => et::Decl12::LAUNCH_BYTES,
        _ => et::Decl11::LAUNCH_BYTES,
    }
}

/// The tensor-map box of operand `T` as the cluster shape's multicast plan slices it.
pub(crate) fn slice_box(v: &Variant, a: bool) -> [u32; 2] {
    let mc = match (v.cluster, a) {
        ((2, 1), true) => et::Decl21::A_MC,
        ((2, 1), false) => et::Decl21::B_MC,
        ((1, 2), true) => et::Decl12::A_MC,
        ((1, 2), false) => et::Decl12::B_MC,
        (_, true) => et::Decl11::A_MC,
        (_, false) => et::Decl11::B_MC,
    };
    mc.slice_box_dim()
}

/// A K-major operand's map (`[K, MN]`), box `bx`, from tile `T`'s data type and swizzle.
pub(crate) fn operand_map<T: SmemTile>(
    data: &cuda::Buf,
    mn: u64,
    k: u64,
    bx: [u32; 2],
) -> cuda::Res<cuda::Buf> {
    let map = cuda::tensor_map(
        T::TMA_DATA_TYPE,
        T::TMA_SWIZZLE,
        data.ptr,
        [k, mn],
        k * 2,
        bx,
    )?;
    cuda::Buf::from(std::slice::from_ref(&map))
}

/// The C map from the C tile's declaration (`EpilogueTile::tensor_map`, checked and encoded by
/// smemdesc's cudarc feature), or with `swizzle` instead of the tile's (the negative control).
pub(crate) fn c_map(
    c: &cuda::Buf,
    m: u64,
    n: u64,
    swizzle: Option<TensorMapSwizzle>,
) -> cuda::Res<cuda::Buf> {
    let mut t = et::CTile::EPILOGUE
        .tensor_map(Arch::Sm90, m, n)
        .address(c.ptr);
    if let Some(s) = swizzle {
        t = t.swizzle(s);
    }
    let map = smemdesc::cuda::encode(&t).map_err(|e| format!("C map: {e}"))?;
    cuda::Buf::from(std::slice::from_ref(&map))
}

/// The data of one shape and everything a variant needs to run on it.
pub(crate) struct Problem {
    pub(crate) m: u32,
    pub(crate) n: u32,
    pub(crate) k: u32,
    pub(crate) a: cuda::Buf,
    pub(crate) b: cuda::Buf,
    pub(crate) c: cuda::Buf,
    pub(crate) cref: cuda::Buf,
    pub(crate) err: cuda::Buf,
    /// Per variant: A map, B map, C map, grid.
    pub(crate) prepared: Vec<(cuda::Buf, cuda::Buf, cuda::Buf, u32)>,
    pub(crate) kernels: Vec<cuda::Kernel>,
    pub(crate) cublas: cublas::Gemm,
}

/// The integer in [-2, 2] at index `i` of operand `seed` (the C++ side's hash).
pub(crate) fn int_at(i: usize, seed: u32) -> i32 {
    let mut h = (i as u32).wrapping_mul(2654435761) ^ seed;
    h ^= h >> 15;
    h = h.wrapping_mul(2246822519);
    h ^= h >> 13;
    (h % 5) as i32 - 2
}

pub(crate) fn bf16_bits(v: f32) -> u16 {
    crate::bf16(v)
}

pub(crate) fn ints(n: usize, seed: u32) -> Vec<u16> {
    (0..n).map(|i| bf16_bits(int_at(i, seed) as f32)).collect()
}

impl Problem {
    pub(crate) fn new(
        (m, n, k): (u32, u32, u32),
        module: &cuda::Module,
        gpu: &cuda::Gpu,
    ) -> cuda::Res<Problem> {
        let (mu, nu, ku) = (m as usize, n as usize, k as usize);
        let a = cuda::Buf::from(&ints(mu * ku, 1))?;
        let b = cuda::Buf::from(&ints(nu * ku, 2))?;
        let c = cuda::Buf::new(mu * nu * 2)?;
        let cref = cuda::Buf::new(mu * nu * 2)?;
        let err = cuda::Buf::new(4)?;
        let cublas = cublas::Gemm::new(cublas::Input::Bf16, m as u64, n as u64, k as u64)?;
        let mut prepared = Vec::new();
        let mut kernels = Vec::new();
        for v in &VARIANTS {
            let kern = module.kernel(v.kernel, launch_bytes(v))?;
            let (ma, mb) = if v.direct {
                (
                    operand_map::<tiles::Bf16A>(&a, m as u64, k as u64, tiles::Bf16A::TMA_BOX_DIM)?,
                    operand_map::<tiles::Bf16B>(&b, n as u64, k as u64, tiles::Bf16B::TMA_BOX_DIM)?,
                )
            } else {
                (
                    operand_map::<et::cl11::A>(&a, m as u64, k as u64, slice_box(v, true))?,
                    operand_map::<et::cl11::B>(&b, n as u64, k as u64, slice_box(v, false))?,
                )
            };
            let mc = c_map(&c, m as u64, n as u64, None)?;
            let (cx, cy) = v.cluster;
            let cs = cx * cy;
            let ctiles = (m / et::BM / cx) * (n / et::BN / cy);
            let mut max_clusters = gpu.sms as u32 / cs;
            if cs > 1 {
                let q = kern.max_active_clusters(cs, et::THREADS, cs * max_clusters)?;
                if q > 0 {
                    max_clusters = q as u32;
                }
            }
            let grid = cs * ctiles.min(max_clusters);
            prepared.push((ma, mb, mc, grid));
            kernels.push(kern);
        }
        Ok(Problem {
            m,
            n,
            k,
            a,
            b,
            c,
            cref,
            err,
            prepared,
            kernels,
            cublas,
        })
    }

    pub(crate) fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }

    /// Launches variant `i` (C map `cmap`, or the prepared one), `tx_delta` added to expect_tx.
    pub(crate) fn launch(
        &self,
        i: usize,
        tx_delta: u32,
        cmap: Option<&cuda::Buf>,
        group_m: u32,
    ) -> cuda::Res<()> {
        let v = &VARIANTS[i];
        let (ma, mb, mc, grid) = &self.prepared[i];
        let k = &self.kernels[i];
        let (m, n, kk) = (self.m as i32, self.n as i32, self.k as i32);
        if v.direct {
            return k.launch(
                *grid,
                et::THREADS,
                &[
                    cuda::Arg::Ptr(ma.ptr),
                    cuda::Arg::Ptr(mb.ptr),
                    cuda::Arg::Ptr(self.c.ptr),
                    cuda::Arg::I32(m),
                    cuda::Arg::I32(n),
                    cuda::Arg::I32(kk),
                    cuda::Arg::I32(group_m as i32),
                ],
            );
        }
        k.launch_cluster(
            *grid,
            et::THREADS,
            v.cluster.0 * v.cluster.1,
            &[
                cuda::Arg::Ptr(ma.ptr),
                cuda::Arg::Ptr(mb.ptr),
                cuda::Arg::Ptr(cmap.unwrap_or(mc).ptr),
                cuda::Arg::I32(m),
                cuda::Arg::I32(n),
                cuda::Arg::I32(kk),
                cuda::Arg::I32(group_m as i32),
                cuda::Arg::I32(tx_delta as i32),
                cuda::Arg::Ptr(self.err.ptr),
            ],
        )
    }

    /// cuBLAS into `cref`.
    pub(crate) fn reference(&self) -> cuda::Res<()> {
        self.cublas.run(&self.a, &self.b, &self.cref)?;
        cuda::sync()
    }

    /// Runs variant `i` once on a poisoned C and returns (mismatches against cuBLAS's C, the
    /// watchdog flag, seconds).
    pub(crate) fn run_checked(
        &self,
        i: usize,
        tx_delta: u32,
        cmap: Option<&cuda::Buf>,
        group_m: u32,
    ) -> cuda::Res<(usize, u32, f64)> {
        self.c.fill(0xFF)?;
        self.err.fill(0)?;
        cuda::sync()?;
        let t0 = std::time::Instant::now();
        self.launch(i, tx_delta, cmap, group_m)?;
        cuda::sync()?;
        let secs = t0.elapsed().as_secs_f64();
        let mut e = [0u32];
        self.err.read(&mut e)?;
        Ok((self.mismatches()?, e[0], secs))
    }

    pub(crate) fn mismatches(&self) -> cuda::Res<usize> {
        let len = self.m as usize * self.n as usize;
        let mut x = vec![0u16; len];
        let mut y = vec![0u16; len];
        self.c.read(&mut x)?;
        self.cref.read(&mut y)?;
        Ok(x.iter().zip(&y).filter(|(p, q)| p != q).count())
    }

    /// cuBLAS's C against the exact integer product at 4096 sampled elements.
    pub(crate) fn check_cublas_sample(&self) -> cuda::Res<usize> {
        let (m, n, k) = (self.m as usize, self.n as usize, self.k as usize);
        let mut c = vec![0u16; m * n];
        self.cref.read(&mut c)?;
        let mut s: u32 = 12345;
        let mut bad = 0;
        for _ in 0..4096 {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            let i = (s >> 8) as usize % m;
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            let j = (s >> 8) as usize % n;
            let acc: i64 = (0..k)
                .map(|kk| int_at(i * k + kk, 1) as i64 * int_at(j * k + kk, 2) as i64)
                .sum();
            if bf16_bits(acc as f32) != c[i * n + j] {
                bad += 1;
            }
        }
        Ok(bad)
    }
}

/// Milliseconds per launch of `iters` back-to-back launches of `f` between two events.
pub(crate) fn time_batch(iters: u32, mut f: impl FnMut() -> cuda::Res<()>) -> cuda::Res<f64> {
    // SAFETY: events are created, used and destroyed here.
    unsafe {
        let mut e0: cu::CUevent = std::ptr::null_mut();
        let mut e1: cu::CUevent = std::ptr::null_mut();
        cu::cuEventCreate(&mut e0, 0);
        cu::cuEventCreate(&mut e1, 0);
        cu::cuEventRecord(e0, std::ptr::null_mut());
        for _ in 0..iters {
            f()?;
        }
        cu::cuEventRecord(e1, std::ptr::null_mut());
        cuda::sync()?;
        let mut ms = 0f32;
        cu::cuEventElapsedTime_v2(&mut ms, e0, e1);
        cu::cuEventDestroy_v2(e0);
        cu::cuEventDestroy_v2(e1);
        Ok(ms as f64 / iters as f64)
    }
}
