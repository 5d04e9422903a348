//! The cluster-multicast bf16 GEMM (`gpu/rust-kernel/src/epi.rs`'s `gemm_cl21_rust` and
//! `gemm_cl12_rust`: the TMA-store epilogue GEMM of [`Kernels::gemm_bf16`] in clusters of two
//! CTAs sharing one operand tile by TMA multicast): its plan and launcher.
//!
//! The launch is the harness's (`gpu/src/bin/rust_kernels/epi_problem.rs`): a persistent 1-D
//! grid of whole clusters of two CTAs along x, as many clusters as the driver says can be
//! resident (`cuOccupancyMaxActiveClusters`, else SMs / 2), at most one per cluster tile; the
//! operand maps box the slice each CTA issues (the declarations' multicast plans), the C map is
//! the epilogue tile's.

use crate::epi_tiles::{self as et, EpiDecl};
use crate::error::{Error, ShapeError};
use crate::launch::Kernels;
use crate::plan::{GemmShape, LaunchPlan, GROUP_M};
use crate::raw;
use smemdesc::cuda::cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use smemdesc::cuda::{self, AlignedTensorMap};
use smemdesc::{Arch, SmemTile, TensorMap};
use std::sync::Arc;

/// The entry of the 2x1 cluster GEMM (two CTAs along M share B).
///
/// ```
/// assert_eq!(smemdesc_kernels::GEMM_CL21_KERNEL, "gemm_cl21_rust");
/// ```
pub const GEMM_CL21_KERNEL: &str = "gemm_cl21_rust";

/// The entry of the 1x2 cluster GEMM (two CTAs along N share A).
///
/// ```
/// assert_eq!(smemdesc_kernels::GEMM_CL12_KERNEL, "gemm_cl12_rust");
/// ```
pub const GEMM_CL12_KERNEL: &str = "gemm_cl12_rust";

/// The cluster shape of [`Kernels::gemm_bf16_cluster`]: which operand two CTAs share.
///
/// ```
/// use smemdesc_kernels::GemmCluster;
/// assert_eq!(GemmCluster::M2.dims(), (2, 1));
/// assert_eq!(GemmCluster::N2.kernel(), "gemm_cl12_rust");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GemmCluster {
    /// 2x1: two CTAs along M (C tiles one above the other) share their B tile; each loads one
    /// 128-row slice of B's 256 and multicasts it to both ([`GEMM_CL21_KERNEL`]).
    M2,
    /// 1x2: two CTAs along N (C tiles side by side) share their A tile; each loads one 64-row
    /// slice of A's 128 and multicasts it to both ([`GEMM_CL12_KERNEL`]).
    N2,
}

impl GemmCluster {
    /// The PTX entry.
    ///
    /// ```
    /// assert_eq!(smemdesc_kernels::GemmCluster::M2.kernel(), "gemm_cl21_rust");
    /// ```
    pub const fn kernel(self) -> &'static str {
        match self {
            GemmCluster::M2 => GEMM_CL21_KERNEL,
            GemmCluster::N2 => GEMM_CL12_KERNEL,
        }
    }

    /// CTAs of the cluster (along M, along N), from the kernel's declaration.
    ///
    /// ```
    /// assert_eq!(smemdesc_kernels::GemmCluster::N2.dims(), (1, 2));
    /// ```
    pub const fn dims(self) -> (u32, u32) {
        match self {
            GemmCluster::M2 => (et::Decl21::X, et::Decl21::Y),
            GemmCluster::N2 => (et::Decl12::X, et::Decl12::Y),
        }
    }

    /// CTAs per cluster.
    ///
    /// ```
    /// assert_eq!(smemdesc_kernels::GemmCluster::M2.size(), 2);
    /// ```
    pub const fn size(self) -> u32 {
        let (x, y) = self.dims();
        x * y
    }
}

/// How [`Kernels::gemm_bf16_cluster`] launches at one shape.
///
/// ```
/// use smemdesc_kernels::{gemm_bf16_cluster_plan, GemmCluster, GemmShape};
/// let p = gemm_bf16_cluster_plan(GemmShape::new(256, 512, 64), GemmCluster::M2, 66).unwrap();
/// assert_eq!((p.cluster_tiles, p.launch.tiles, p.launch.grid), (2, 4, (4, 1, 1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClusterPlan {
    /// Kernel, block, shared memory; `tile` one CTA's C tile, `tiles` the CTA tiles of C, `grid`
    /// the CTAs of the resident clusters (whole clusters).
    pub launch: LaunchPlan,
    /// The cluster shape.
    pub cluster: GemmCluster,
    /// Cluster tiles of C (each one cluster's CTAs' tiles together): `tiles / cluster size`.
    pub cluster_tiles: u32,
}

/// The launch of the cluster-multicast bf16 GEMM at `shape` on a device holding
/// `resident_clusters` clusters of its two CTAs at once (the driver's
/// `cuOccupancyMaxActiveClusters`, [`Kernels::gemm_bf16_cluster_plan_on`]; 0 counts as 1): M a
/// multiple of 128 · X, N of 256 · Y (whole cluster tiles), K of 64; the grid is
/// `size · min(cluster tiles, resident_clusters)` CTAs.
///
/// ```
/// use smemdesc_kernels::{gemm_bf16_cluster_plan, Dim, GemmCluster, GemmShape, ShapeError};
/// let p = gemm_bf16_cluster_plan(GemmShape::new(8192, 8192, 8192), GemmCluster::N2, 66).unwrap();
/// assert_eq!((p.cluster_tiles, p.launch.grid.0, p.launch.block.0), (64 * 16, 132, 384));
/// let e = gemm_bf16_cluster_plan(GemmShape::new(128, 256, 64), GemmCluster::M2, 66).unwrap_err();
/// assert_eq!(e, ShapeError::NotMultiple { dim: Dim::M, value: 128, multiple: 256 });
/// ```
pub const fn gemm_bf16_cluster_plan(
    shape: GemmShape,
    cluster: GemmCluster,
    resident_clusters: u32,
) -> Result<ClusterPlan, ShapeError> {
    let (x, y) = cluster.dims();
    let (bm, bn, bk, bytes, tx) = match cluster {
        GemmCluster::M2 => decl_sizes::<et::Decl21>(),
        GemmCluster::N2 => decl_sizes::<et::Decl12>(),
    };
    if let Err(e) = shape.check_tiles([bm * x, bn * y, bk]) {
        return Err(e);
    }
    let cluster_tiles = (shape.m / (bm * x)) * (shape.n / (bn * y));
    let resident = if resident_clusters == 0 {
        1
    } else {
        resident_clusters
    };
    let clusters = if cluster_tiles < resident {
        cluster_tiles
    } else {
        resident
    };
    Ok(ClusterPlan {
        launch: LaunchPlan {
            kernel: cluster.kernel(),
            tile: (bm, bn),
            tiles: cluster_tiles * x * y,
            grid: (clusters * x * y, 1, 1),
            block: (et::THREADS, 1, 1),
            shared_mem_bytes: bytes,
            stage_tx_bytes: tx,
        },
        cluster,
        cluster_tiles,
    })
}

/// One CTA's tile rows (A), columns (B), K depth, launch bytes and per-CTA stage bytes.
const fn decl_sizes<D: EpiDecl>() -> (u32, u32, u32, u32, u32) {
    (
        D::A::TILE_MN,
        D::B::TILE_MN,
        D::A::TILE_K,
        D::LAUNCH_BYTES,
        D::EXPECT_TX,
    )
}

/// A's, B's and C's maps of declaration `D` for `C = A · Bᵀ` of `m × n × k` (before their
/// addresses): A `[K, M]` and B `[K, N]` with the tile's type and swizzle and the box of the
/// slice one CTA issues (`multicast_slices` of the declared plan), C `[N, M]` the epilogue
/// tile's.
pub(crate) fn cluster_tensor_maps<D: EpiDecl>(m: u64, n: u64, k: u64) -> [TensorMap; 3] {
    [
        TensorMap::for_tile_matrix(&D::A::PLAN, m, k).multicast_slices(&D::A_MC),
        TensorMap::for_tile_matrix(&D::B::PLAN, n, k).multicast_slices(&D::B_MC),
        et::CTile::EPILOGUE.tensor_map(Arch::Sm90, m, n),
    ]
}

/// The maps of `cluster` at `shape`.
pub(crate) fn maps_of(cluster: GemmCluster, shape: GemmShape) -> [TensorMap; 3] {
    let (m, n, k) = (shape.m as u64, shape.n as u64, shape.k as u64);
    match cluster {
        GemmCluster::M2 => cluster_tensor_maps::<et::Decl21>(m, n, k),
        GemmCluster::N2 => cluster_tensor_maps::<et::Decl12>(m, n, k),
    }
}

impl Kernels {
    /// [`gemm_bf16_cluster_plan`] with this device's resident-cluster count (asked of the
    /// driver for a grid of SMs / 2 clusters, as the harness asks; SMs / 2 if it answers 0):
    /// the plan [`Kernels::gemm_bf16_cluster`] launches. Loads the entry.
    ///
    /// ```no_run
    /// use smemdesc_kernels::{GemmCluster, GemmShape, Kernels};
    /// use smemdesc_kernels::cudarc::driver::CudaContext;
    /// let ctx = CudaContext::new(0)?;
    /// let kernels = Kernels::from_ptx_file(&ctx, ".gpu-rust/kernels.ptx")?;
    /// let s = GemmShape::new(8192, 8192, 8192);
    /// let p = kernels.gemm_bf16_cluster_plan_on(&ctx.default_stream(), s, GemmCluster::M2)?;
    /// println!("{} CTAs in clusters of 2", p.launch.grid.0);
    /// # Ok::<(), smemdesc_kernels::Error>(())
    /// ```
    pub fn gemm_bf16_cluster_plan_on(
        &self,
        stream: &Arc<CudaStream>,
        shape: GemmShape,
        cluster: GemmCluster,
    ) -> Result<ClusterPlan, Error> {
        let size = cluster.size();
        let fallback = (self.sms() / size).max(1);
        let first = gemm_bf16_cluster_plan(shape, cluster, fallback)?;
        let f = self.plan_function(&first.launch)?;
        let ask = smemdesc::cuda::cudarc::driver::LaunchConfig {
            grid_dim: (fallback * size, 1, 1),
            ..first.launch.config()
        };
        let n = raw::max_active_clusters(stream, &f, ask, size)?;
        let resident = if n > 0 { n } else { fallback };
        Ok(gemm_bf16_cluster_plan(shape, cluster, resident)?)
    }

    /// `C = A · Bᵀ` in bf16 with fp32 accumulation, as [`Kernels::gemm_bf16`] (A M × K, B
    /// N × K, C M × N, row-major bf16 bits), by the kernel of `cluster`: clusters of two CTAs
    /// that load the shared operand's tile once between them by TMA multicast (B for
    /// [`GemmCluster::M2`], A for [`GemmCluster::N2`]); M a multiple of 128 · X, N of 256 · Y,
    /// K of 64 ([`gemm_bf16_cluster_plan`]). Its watchdog is [`Kernels::watchdog_fired`]'s.
    ///
    /// ```no_run
    /// use smemdesc_kernels::{GemmCluster, GemmShape, Kernels};
    /// use smemdesc_kernels::cudarc::driver::CudaContext;
    /// let ctx = CudaContext::new(0)?;
    /// let stream = ctx.default_stream();
    /// let kernels = Kernels::from_ptx_file(&ctx, ".gpu-rust/kernels.ptx")?;
    /// let s = GemmShape::new(8192, 8192, 4096);
    /// let a = stream.alloc_zeros::<u16>(s.a_len())?;
    /// let b = stream.alloc_zeros::<u16>(s.b_len())?;
    /// let mut c = stream.alloc_zeros::<u16>(s.c_len())?;
    /// kernels.gemm_bf16_cluster(&stream, GemmCluster::M2, s, &a, &b, &mut c)?;
    /// # Ok::<(), smemdesc_kernels::Error>(())
    /// ```
    pub fn gemm_bf16_cluster(
        &self,
        stream: &Arc<CudaStream>,
        cluster: GemmCluster,
        shape: GemmShape,
        a: &CudaSlice<u16>,
        b: &CudaSlice<u16>,
        c: &mut CudaSlice<u16>,
    ) -> Result<(), Error> {
        gemm_bf16_cluster_plan(shape, cluster, 1)?;
        shape.check_lengths(a.len(), b.len(), c.len())?;
        let plan = self.gemm_bf16_cluster_plan_on(stream, shape, cluster)?;
        let f = self.plan_function(&plan.launch)?;
        let (pa, _ga) = a.device_ptr(stream);
        let (pb, _gb) = b.device_ptr(stream);
        let (pc, _gc) = c.device_ptr_mut(stream);
        let [ma, mb, mc] = maps_of(cluster, shape);
        let encoded: [AlignedTensorMap; 3] = [
            cuda::encode(&ma.address(pa))?,
            cuda::encode(&mb.address(pb))?,
            cuda::encode(&mc.address(pc))?,
        ];
        let maps = cuda::upload(stream, &encoded)?;
        let (pm, _gm) = maps.device_ptr(stream);
        let mut w = self.watchdog_slice();
        let (mut pw, _gw) = w.device_ptr_mut(stream);
        let (mut map_a, mut map_b, mut map_c) = (pm, pm + 128, pm + 256);
        let (mut m, mut n, mut k) = (shape.m, shape.n, shape.k);
        let (mut group_m, mut tx_delta) = (GROUP_M, 0u32);
        let mut params: [*mut core::ffi::c_void; 9] = [
            (&mut map_a as *mut u64).cast(),
            (&mut map_b as *mut u64).cast(),
            (&mut map_c as *mut u64).cast(),
            (&mut m as *mut u32).cast(),
            (&mut n as *mut u32).cast(),
            (&mut k as *mut u32).cast(),
            (&mut group_m as *mut u32).cast(),
            (&mut tx_delta as *mut u32).cast(),
            (&mut pw as *mut u64).cast(),
        ];
        // SAFETY: `gemm_cl21_rust` / `gemm_cl12_rust(map_a, map_b, map_c: u64, m, n, k,
        // group_m, tx_delta: u32, err: u64)` (gpu/rust-kernel/src/epi.rs), each pointer to a
        // live value of that type, with the entries' documented preconditions: 384 threads, the
        // storage's LAUNCH_BYTES (set as the function's maximum), launched in clusters of the
        // declaration's two CTAs (a 1-D grid of whole clusters: the plan's), M a multiple of
        // 128·X, N of 256·Y, K of 64 (checked), maps of A `[K, M]` and B `[K, N]` boxing the
        // declared multicast slice and C `[N, M]` (the C tile's box and swizzle) in global
        // memory over buffers of the checked lengths, `err` one device u32 (held locked). The
        // buffers' guards order them on `stream`; the maps' slice is freed in stream order.
        unsafe {
            raw::launch(
                stream,
                &f,
                plan.launch.config(),
                cluster.size(),
                &mut params,
            )
        }?;
        Ok(())
    }
}
