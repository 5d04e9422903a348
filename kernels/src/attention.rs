//! The attention forward (FlashAttention-style, bf16, head dim 64 or 128, optionally causal):
//! its plan (which recorded kernel, grid, block, cluster, shared memory) and launcher.
//!
//! The kernel per shape is the one `gpu/results_attention.json` records (the harness's
//! `auto_variant`, `gpu/src/bin/rust_kernels/attn.rs`): head dim 64, two CTAs per SM without a
//! producer warpgroup (`_ns_`); head dim 128 causal, the overlapped kernel persistent, its query
//! tiles heaviest first across groups of 16 heads (`_causal_p_lpt_`, the record
//! `issue47_pending_2026_12_07`'s best variant), from 16,384 keys the overlapped kernel one
//! tile per CTA (`_causal_ov_`, ahead in three runs there); head dim 128 without the mask,
//! persistent in clusters of two query tiles sharing K and V by multicast (`_p_cl2_`) when
//! every head has an even number of query tiles, else the overlapped kernel one tile per CTA
//! (`_ov_`).

use crate::attn_decl::{self as ad, d128, d64, AttnDecl, BM, CONSUMERS, THREADS};
use crate::error::{Dim, Error, ShapeError};
use crate::launch::Kernels;
use crate::plan::MAX_DIM;
use crate::raw;
use smemdesc::cuda::cudarc::driver::{
    CudaSlice, CudaStream, DevicePtr, DevicePtrMut, LaunchConfig,
};
use smemdesc::cuda::{self, AlignedTensorMap};
use smemdesc::pipeline::TileLoad;
use smemdesc::{Arch, SmemTile, TensorMap};
use std::sync::Arc;

/// Head dim 64, no mask: the serial kernel without a producer warpgroup, 256 threads, two CTAs
/// per SM (`gpu/rust-kernel/src/attn_ns.rs`).
///
/// ```
/// assert_eq!(smemdesc_kernels::ATTN_D64_KERNEL, "attn_fwd_d64_ns_rust");
/// ```
pub const ATTN_D64_KERNEL: &str = "attn_fwd_d64_ns_rust";
/// Head dim 64, causal: as [`ATTN_D64_KERNEL`] under the mask.
///
/// ```
/// assert_eq!(smemdesc_kernels::ATTN_D64_CAUSAL_KERNEL, "attn_fwd_d64_causal_ns_rust");
/// ```
pub const ATTN_D64_CAUSAL_KERNEL: &str = "attn_fwd_d64_causal_ns_rust";
/// Head dim 128, no mask, an even number of query tiles per head: the overlapped kernel,
/// persistent, in clusters of two query tiles of one head sharing K and V by multicast
/// (`gpu/rust-kernel/src/attn_ov.rs`).
///
/// ```
/// assert_eq!(smemdesc_kernels::ATTN_D128_KERNEL, "attn_fwd_d128_p_cl2_rust");
/// ```
pub const ATTN_D128_KERNEL: &str = "attn_fwd_d128_p_cl2_rust";
/// Head dim 128, no mask, an odd number of query tiles per head: the overlapped kernel, one
/// query tile per CTA.
///
/// ```
/// assert_eq!(smemdesc_kernels::ATTN_D128_ODD_KERNEL, "attn_fwd_d128_ov_rust");
/// ```
pub const ATTN_D128_ODD_KERNEL: &str = "attn_fwd_d128_ov_rust";
/// Head dim 128, causal: the overlapped kernel, persistent (one CTA per SM, at most one per query
/// tile, taking tiles from a fetch-and-add schedule), the query tiles heaviest first across
/// groups of 16 heads (`gpu/rust-kernel/src/attn_ov.rs`, `X_LPT`; at 16 x 32 x 2048 1.062x and
/// 1.043x cuDNN in two runs on an H200, `gpu/results_attention.json`'s
/// `issue47_pending_2026_12_07`).
///
/// ```
/// assert_eq!(smemdesc_kernels::ATTN_D128_CAUSAL_KERNEL, "attn_fwd_d128_causal_p_lpt_rust");
/// ```
pub const ATTN_D128_CAUSAL_KERNEL: &str = "attn_fwd_d128_causal_p_lpt_rust";
/// Head dim 128, causal, from [`ATTN_D128_CAUSAL_LONG_SEQLEN`] keys: the overlapped kernel, one
/// query tile per CTA. At 2 x 16 x 16384 (H100, 2026-12-07) it ran 1.110x, 1.054x and 1.059x
/// cuDNN in three runs against 1.037x, 1.016x and 1.024x for [`ATTN_D128_CAUSAL_KERNEL`] (the
/// mean of its two launches in each run); at 8192 keys the
/// two tie and below that the persistent kernel leads (`gpu/results_attention.json`,
/// `issue47_afternoon_2026_12_07`).
///
/// ```
/// assert_eq!(smemdesc_kernels::ATTN_D128_CAUSAL_LONG_KERNEL, "attn_fwd_d128_causal_ov_rust");
/// ```
pub const ATTN_D128_CAUSAL_LONG_KERNEL: &str = "attn_fwd_d128_causal_ov_rust";
/// The sequence length from which [`ATTN_D128_CAUSAL_LONG_KERNEL`] is the d = 128 causal kernel.
///
/// ```
/// use smemdesc_kernels::{attention_plan, AttentionShape, ATTN_D128_CAUSAL_LONG_SEQLEN};
/// let p = attention_plan(AttentionShape::new(2, 16, ATTN_D128_CAUSAL_LONG_SEQLEN, 128), true, 132, 66).unwrap();
/// assert_eq!((p.kernel, p.grid.0, p.sched_param), ("attn_fwd_d128_causal_ov_rust", 4096, false));
/// ```
pub const ATTN_D128_CAUSAL_LONG_SEQLEN: u32 = 16384;

/// The head dimensions there are kernels for.
///
/// ```
/// assert_eq!(smemdesc_kernels::ATTN_HEAD_DIMS, &[64, 128]);
/// ```
pub const ATTN_HEAD_DIMS: &[u32] = &[64, 128];

/// The sizes of an attention forward: Q, K, V and O are `[batch, heads, seqlen, head_dim]`
/// contiguous bf16 (as torch's `scaled_dot_product_attention` takes them), the log-sum-exp
/// `[batch, heads, seqlen]` f32 (natural log). Queries and keys have the same length.
///
/// ```
/// use smemdesc_kernels::AttentionShape;
/// let s = AttentionShape::new(2, 16, 1024, 128);
/// assert_eq!((s.qkv_len(), s.lse_len()), (2 * 16 * 1024 * 128, 2 * 16 * 1024));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttentionShape {
    /// Batch entries.
    pub batch: u32,
    /// Heads per entry.
    pub heads: u32,
    /// Sequence length (queries and keys).
    pub seqlen: u32,
    /// Head dimension: 64 or 128.
    pub head_dim: u32,
}

impl AttentionShape {
    /// The shape `[batch, heads, seqlen, head_dim]`.
    ///
    /// ```
    /// let s = smemdesc_kernels::AttentionShape::new(1, 2, 256, 64);
    /// assert_eq!((s.batch, s.heads, s.seqlen, s.head_dim), (1, 2, 256, 64));
    /// ```
    pub const fn new(batch: u32, heads: u32, seqlen: u32, head_dim: u32) -> AttentionShape {
        AttentionShape {
            batch,
            heads,
            seqlen,
            head_dim,
        }
    }

    /// Rows of the flattened `[batch · heads · seqlen, head_dim]` operands.
    ///
    /// ```
    /// assert_eq!(smemdesc_kernels::AttentionShape::new(2, 3, 256, 64).rows(), 1536);
    /// ```
    pub const fn rows(&self) -> u64 {
        self.batch as u64 * self.heads as u64 * self.seqlen as u64
    }

    /// Elements of Q (and of K, V, O).
    ///
    /// ```
    /// assert_eq!(smemdesc_kernels::AttentionShape::new(1, 1, 128, 64).qkv_len(), 8192);
    /// ```
    pub const fn qkv_len(&self) -> usize {
        (self.rows() * self.head_dim as u64) as usize
    }

    /// Elements of the log-sum-exp.
    ///
    /// ```
    /// assert_eq!(smemdesc_kernels::AttentionShape::new(1, 2, 128, 64).lse_len(), 256);
    /// ```
    pub const fn lse_len(&self) -> usize {
        self.rows() as usize
    }

    /// Checks the shape: no size zero, the head dimension 64 or 128, the sequence length a
    /// multiple of the kernels' 128-row query and key blocks, `batch · heads · seqlen` within a
    /// TMA coordinate.
    ///
    /// ```
    /// use smemdesc_kernels::{AttentionShape, Dim, ShapeError};
    /// let e = AttentionShape::new(1, 2, 200, 64).check().unwrap_err();
    /// assert_eq!(e, ShapeError::NotMultiple { dim: Dim::SeqLen, value: 200, multiple: 128 });
    /// ```
    pub const fn check(&self) -> Result<(), ShapeError> {
        let dims = [
            (Dim::Batch, self.batch),
            (Dim::Heads, self.heads),
            (Dim::SeqLen, self.seqlen),
            (Dim::HeadDim, self.head_dim),
        ];
        let mut i = 0;
        while i < dims.len() {
            if dims[i].1 == 0 {
                return Err(ShapeError::Zero { dim: dims[i].0 });
            }
            i += 1;
        }
        if self.head_dim != d64::Decl::HD && self.head_dim != d128::Decl::HD {
            return Err(ShapeError::Unsupported {
                dim: Dim::HeadDim,
                value: self.head_dim,
                supported: ATTN_HEAD_DIMS,
            });
        }
        if !self.seqlen.is_multiple_of(BM) || !self.seqlen.is_multiple_of(ad::BN) {
            return Err(ShapeError::NotMultiple {
                dim: Dim::SeqLen,
                value: self.seqlen,
                multiple: BM,
            });
        }
        if self.rows() > MAX_DIM as u64 {
            return Err(ShapeError::TooLarge {
                dim: Dim::SeqLen,
                value: self.seqlen,
                max: (MAX_DIM as u64 / (self.batch as u64 * self.heads as u64)) as u32,
            });
        }
        Ok(())
    }
}

/// How [`Kernels::attention_fwd`] launches at one shape.
///
/// ```
/// use smemdesc_kernels::{attention_plan, AttentionShape};
/// let p = attention_plan(AttentionShape::new(8, 16, 4096, 64), false, 132, 66).unwrap();
/// assert_eq!((p.kernel, p.tiles, p.grid, p.block), ("attn_fwd_d64_ns_rust", 8 * 16 * 32, (4096, 1, 1), (256, 1, 1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttentionPlan {
    /// The PTX entry.
    pub kernel: &'static str,
    /// Query tiles of 128 rows: `batch · heads · seqlen / 128`.
    pub tiles: u32,
    /// `gridDim`: one CTA per query tile, or (persistent) at most one per tile: one per SM
    /// ([`ATTN_D128_CAUSAL_KERNEL`]), or the resident clusters' CTAs ([`ATTN_D128_KERNEL`]).
    pub grid: (u32, u32, u32),
    /// `blockDim`.
    pub block: (u32, u32, u32),
    /// CTAs per cluster along x (1: no cluster).
    pub cluster: u32,
    /// Dynamic shared memory: the head dimension's storage's `LAUNCH_BYTES`.
    pub shared_mem_bytes: u32,
    /// Whether K's and V's maps box one multicast slice (the clustered kernel).
    pub multicast: bool,
    /// Whether the entry takes the schedule parameter (`sched`, two zero `u32`: the persistent
    /// entries; the clustered one does not read it).
    pub sched_param: bool,
}

impl AttentionPlan {
    /// The plan as cudarc's launch configuration (the cluster is [`AttentionPlan::cluster`]).
    ///
    /// ```
    /// use smemdesc_kernels::{attention_plan, AttentionShape};
    /// let p = attention_plan(AttentionShape::new(16, 32, 2048, 128), true, 132, 66).unwrap();
    /// assert_eq!(p.config().grid_dim, (132, 1, 1)); // 8192 query tiles, one CTA per SM
    /// ```
    pub const fn config(&self) -> LaunchConfig {
        LaunchConfig {
            grid_dim: self.grid,
            block_dim: self.block,
            shared_mem_bytes: self.shared_mem_bytes,
        }
    }
}

/// The launch of the attention forward at `shape` (mask if `causal`) on a device of `sms` SMs
/// holding `resident_clusters` clusters of two CTAs of the clustered kernel at once (the
/// driver's `cuOccupancyMaxActiveClusters`). The persistent kernels' grids: for
/// [`ATTN_D128_CAUSAL_KERNEL`] one CTA per SM, for [`ATTN_D128_KERNEL`] that many clusters,
/// each at most one CTA per query tile (a device reporting 0 still gets one CTA, one cluster).
///
/// ```
/// use smemdesc_kernels::{attention_plan, AttentionShape};
/// let p = attention_plan(AttentionShape::new(8, 16, 4096, 128), false, 132, 66).unwrap();
/// assert_eq!((p.kernel, p.grid.0, p.cluster, p.block.0), ("attn_fwd_d128_p_cl2_rust", 132, 2, 384));
/// let p = attention_plan(AttentionShape::new(1, 2, 384, 128), false, 132, 66).unwrap(); // 3 tiles a head
/// assert_eq!((p.kernel, p.grid.0, p.cluster), ("attn_fwd_d128_ov_rust", 6, 1));
/// let p = attention_plan(AttentionShape::new(1, 18, 1024, 128), true, 132, 66).unwrap(); // 144 tiles
/// assert_eq!((p.kernel, p.grid.0, p.cluster, p.sched_param), ("attn_fwd_d128_causal_p_lpt_rust", 132, 1, true));
/// ```
pub const fn attention_plan(
    shape: AttentionShape,
    causal: bool,
    sms: u32,
    resident_clusters: u32,
) -> Result<AttentionPlan, ShapeError> {
    if let Err(e) = shape.check() {
        return Err(e);
    }
    let per_head = shape.seqlen / BM;
    let tiles = shape.batch * shape.heads * per_head;
    let d64 = shape.head_dim == d64::Decl::HD;
    let (kernel, cluster, persistent) = match (d64, causal) {
        (true, false) => (ATTN_D64_KERNEL, 1, false),
        (true, true) => (ATTN_D64_CAUSAL_KERNEL, 1, false),
        (false, true) if shape.seqlen >= ATTN_D128_CAUSAL_LONG_SEQLEN => {
            (ATTN_D128_CAUSAL_LONG_KERNEL, 1, false)
        }
        (false, true) => (ATTN_D128_CAUSAL_KERNEL, 1, true),
        (false, false) if per_head.is_multiple_of(2) => (ATTN_D128_KERNEL, 2, true),
        (false, false) => (ATTN_D128_ODD_KERNEL, 1, false),
    };
    let grid = if persistent {
        let ctas = if cluster > 1 {
            let resident = if resident_clusters == 0 {
                1
            } else {
                resident_clusters
            };
            // Whole clusters: `tiles` is even (every head has an even number of tiles).
            resident.saturating_mul(cluster)
        } else if sms == 0 {
            1
        } else {
            sms
        };
        if tiles < ctas {
            tiles
        } else {
            ctas
        }
    } else {
        tiles
    };
    Ok(AttentionPlan {
        kernel,
        tiles,
        grid: (grid, 1, 1),
        // The kernel without a producer is the two consumer warpgroups.
        block: (if d64 { 128 * CONSUMERS } else { THREADS }, 1, 1),
        cluster,
        shared_mem_bytes: if d64 {
            d64::Decl::LAUNCH_BYTES
        } else {
            d128::Decl::LAUNCH_BYTES
        },
        multicast: cluster > 1,
        sched_param: persistent,
    })
}

/// Q's, K's and V's map: the `[rows, hd]` bf16 tensor (dims innermost first `[hd, rows]`) as
/// tile `T` loads it (its box, swizzle and type; V, MN-major, also `[hd, rows]`: its MN is the
/// head dimension), or one multicast slice of it.
pub(crate) fn qkv_tensor_map<T: SmemTile>(
    rows: u64,
    hd: u64,
    mc: Option<&smemdesc::cluster::Multicast>,
) -> TensorMap {
    let m = TensorMap::for_tile(&T::PLAN, 2).dim(0, hd).dim(1, rows);
    match mc {
        Some(mc) => m.multicast_slices(mc),
        None => m,
    }
}

/// The four maps (Q, K, V, O) of declaration `D` over `rows` rows, K's and V's boxing one
/// multicast slice of the 2x1 cluster's plan if `multicast`.
pub(crate) fn attention_tensor_maps<D: AttnDecl>(rows: u64, multicast: bool) -> [TensorMap; 4] {
    let hd = D::HD as u64;
    let (kmc, vmc) = if multicast {
        (
            <D::KPipe2 as TileLoad<0>>::MULTICAST,
            <D::VPipe2 as TileLoad<0>>::MULTICAST,
        )
    } else {
        (None, None)
    };
    [
        qkv_tensor_map::<D::Q>(rows, hd, None),
        qkv_tensor_map::<D::K>(rows, hd, kmc.as_ref()),
        qkv_tensor_map::<D::V>(rows, hd, vmc.as_ref()),
        D::O_EPI.tensor_map(Arch::Sm90, rows, hd),
    ]
}

fn encode_maps(maps: [TensorMap; 4], p: [u64; 4]) -> Result<[AlignedTensorMap; 4], Error> {
    Ok([
        cuda::encode(&maps[0].address(p[0]))?,
        cuda::encode(&maps[1].address(p[1]))?,
        cuda::encode(&maps[2].address(p[2]))?,
        cuda::encode(&maps[3].address(p[3]))?,
    ])
}

impl Kernels {
    /// Attention forward `O = softmax(scale · Q·Kᵀ [+ causal mask]) · V` with the row
    /// log-sum-exp (natural log of `Σ exp(scale · q·k)`, as torch's): Q, K, V, O
    /// `[batch, heads, seqlen, head_dim]` contiguous bf16 bits, `lse` `[batch, heads, seqlen]`
    /// f32; the softmax scale usually `1 / √head_dim`; f32 accumulation, P rounded to bf16
    /// before `P·V` ([`attention_plan`] picks the recorded kernel; `seqlen` a multiple of 128,
    /// head dim 64 or 128).
    ///
    /// ```no_run
    /// use smemdesc_kernels::{AttentionShape, Kernels};
    /// use smemdesc_kernels::cudarc::driver::CudaContext;
    /// let ctx = CudaContext::new(0)?;
    /// let stream = ctx.default_stream();
    /// let kernels = Kernels::from_ptx_file(&ctx, ".gpu-rust/kernels.ptx")?;
    /// let s = AttentionShape::new(4, 16, 2048, 128);
    /// let q = stream.alloc_zeros::<u16>(s.qkv_len())?;
    /// let k = stream.alloc_zeros::<u16>(s.qkv_len())?;
    /// let v = stream.alloc_zeros::<u16>(s.qkv_len())?;
    /// let mut o = stream.alloc_zeros::<u16>(s.qkv_len())?;
    /// let mut lse = stream.alloc_zeros::<f32>(s.lse_len())?;
    /// let scale = 1.0 / (s.head_dim as f32).sqrt();
    /// kernels.attention_fwd(&stream, s, true, scale, &q, &k, &v, &mut o, &mut lse)?;
    /// # Ok::<(), smemdesc_kernels::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn attention_fwd(
        &self,
        stream: &Arc<CudaStream>,
        shape: AttentionShape,
        causal: bool,
        scale: f32,
        q: &CudaSlice<u16>,
        k: &CudaSlice<u16>,
        v: &CudaSlice<u16>,
        o: &mut CudaSlice<u16>,
        lse: &mut CudaSlice<f32>,
    ) -> Result<(), Error> {
        shape.check()?;
        for (operand, len, expected) in [
            ("Q", q.len(), shape.qkv_len()),
            ("K", k.len(), shape.qkv_len()),
            ("V", v.len(), shape.qkv_len()),
            ("O", o.len(), shape.qkv_len()),
            ("LSE", lse.len(), shape.lse_len()),
        ] {
            if len != expected {
                return Err(ShapeError::Length {
                    operand,
                    len,
                    expected,
                }
                .into());
            }
        }
        // The plan without the device's cluster count names the kernel and its sizes.
        let first = attention_plan(shape, causal, self.sms(), 1)?;
        let f = self.function(first.kernel, first.shared_mem_bytes)?;
        let plan = if first.cluster > 1 {
            // Asked for the whole grid of tiles, as the harness asks.
            let all = LaunchConfig {
                grid_dim: (first.tiles, 1, 1),
                ..first.config()
            };
            let n = raw::max_active_clusters(stream, &f, all, first.cluster)?;
            attention_plan(shape, causal, self.sms(), n)?
        } else {
            first
        };
        let rows = shape.rows();
        let (pq, _gq) = q.device_ptr(stream);
        let (pk, _gk) = k.device_ptr(stream);
        let (pv, _gv) = v.device_ptr(stream);
        let (po, _go) = o.device_ptr_mut(stream);
        let (mut plse, _gl) = lse.device_ptr_mut(stream);
        let maps = if shape.head_dim == d64::Decl::HD {
            attention_tensor_maps::<d64::Decl>(rows, plan.multicast)
        } else {
            attention_tensor_maps::<d128::Decl>(rows, plan.multicast)
        };
        let maps = cuda::upload(stream, &encode_maps(maps, [pq, pk, pv, po])?)?;
        let (pm, _gm) = maps.device_ptr(stream);
        let mut sched = self.sched_slice();
        let (mut psched, _gs) = sched.device_ptr_mut(stream);
        let mut m = [pm, pm + 128, pm + 256, pm + 384];
        let mut seqlen = shape.seqlen;
        let mut bh = shape.batch * shape.heads;
        let mut scale_log2 = scale * core::f32::consts::LOG2_E;
        let [m0, m1, m2, m3] = &mut m;
        let mut params: Vec<*mut core::ffi::c_void> = vec![
            (m0 as *mut u64).cast(),
            (m1 as *mut u64).cast(),
            (m2 as *mut u64).cast(),
            (m3 as *mut u64).cast(),
            (&mut plse as *mut u64).cast(),
            (&mut seqlen as *mut u32).cast(),
            (&mut bh as *mut u32).cast(),
            (&mut scale_log2 as *mut f32).cast(),
        ];
        if plan.sched_param {
            params.push((&mut psched as *mut u64).cast());
        }
        // SAFETY: the entries' parameters (gpu/rust-kernel/src/attn_entries.rs): `map_q, map_k,
        // map_v, map_o, lse: u64, seqlen, bh: u32, scale_log2: f32` and, for the persistent
        // entries, `sched: u64` (two u32, zero between launches: the persistent causal entry's
        // fetch-and-add schedule, which its last CTA resets; the clustered entry does not read
        // it; held locked for the launch and ordered on `stream` by its guard), each pointer
        // to a live value of that type. Their preconditions: the plan's threads and LAUNCH_BYTES
        // (set as the function's maximum), a grid of one CTA per query tile or, persistent, any
        // grid (the plan's: one CTA per SM, at most one per tile) or, clustered, whole
        // clusters of 2 (seqlen / 128 even: the plan's choice), seqlen a multiple of 128
        // (checked), the four maps in global memory over `[b·h·s, d]` buffers of the checked
        // lengths (K's and V's boxing the multicast slice when clustered), `lse` b·h·s f32.
        // The buffers' guards order them on `stream` and the maps' slice is freed in stream
        // order.
        unsafe { raw::launch(stream, &f, plan.config(), plan.cluster, &mut params) }?;
        Ok(())
    }
}
