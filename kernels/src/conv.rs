//! The implicit-GEMM forward convolution (NHWC bf16 activations, KRSC bf16 filter, NHWC bf16
//! output): its plan (smemdesc's im2col plan on the kernel's declared A tile, the walk, grid,
//! shared memory) and launcher. The kernel is `gemm_conv_ov_rust`
//! (`gpu/rust-kernel/src/conv_ov.rs`), the one `gpu/results_tma_modes.json` records for layers
//! whose filters are a multiple of 256: 128 x 256 tiles of the output, persistent, each tile's
//! epilogue overlapping the next tile's first K-steps (at or above the serial
//! `gemm_conv_fprop_rust` on 7 of the 8 ResNet-50 layers in both runs of 2026-12-07, H100).

use crate::epi_tiles::{self as et, EpiDecl};
use crate::error::{Dim, Error, ShapeError};
use crate::launch::Kernels;
use crate::plan::MAX_DIM;
use smemdesc::cuda;
use smemdesc::cuda::cudarc::driver::{
    CudaSlice, CudaStream, DevicePtr, DevicePtrMut, LaunchConfig, PushKernelArg,
};
use smemdesc::tma::{Im2colWalk, ImplicitGemmA};
use smemdesc::{Arch, SmemTile, TensorMap};
use std::sync::Arc;

pub use smemdesc::tma::Conv2d;

/// The entry of the implicit-GEMM forward convolution.
///
/// ```
/// assert_eq!(smemdesc_kernels::CONV_FPROP_KERNEL, "gemm_conv_ov_rust");
/// ```
pub const CONV_FPROP_KERNEL: &str = "gemm_conv_ov_rust";

/// Rows of output tiles per raster group: the value the recorded convolution runs pass.
const CONV_GROUP_M: u32 = 8;

/// How [`Kernels::conv2d_fprop`] launches one convolution: the implicit GEMM is
/// `M = N·P·Q` output pixels by `K_out` filters over `R·S·C`.
///
/// ```
/// use smemdesc_kernels::{conv2d_fprop_plan, Conv2d};
/// // ResNet-50 conv4_x 3x3, 256 -> 256 channels at 14 x 14, batch 256
/// let p = conv2d_fprop_plan(Conv2d::new(256, 14, 14, 256, 256, 3, 3).pad(1, 1), 132).unwrap();
/// assert_eq!((p.output, p.m, p.tiles, p.grid.0), ((14, 14), 256 * 196, 392, 132));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvPlan {
    /// The PTX entry.
    pub kernel: &'static str,
    /// The output size `(P, Q)`.
    pub output: (u32, u32),
    /// Output pixels `N·P·Q` (the GEMM's M; the last tile's rows past it are clipped).
    pub m: u32,
    /// The output tile one CTA computes at a time, (pixels, filters).
    pub tile: (u32, u32),
    /// Output tiles: `⌈M / 128⌉ · K_out / 256`.
    pub tiles: u32,
    /// `gridDim`: persistent, the tiles capped at the SMs.
    pub grid: (u32, u32, u32),
    /// `blockDim`: one producer and two consumer warpgroups.
    pub block: (u32, u32, u32),
    /// Dynamic shared memory: the 1x1 declaration's storage's `LAUNCH_BYTES`.
    pub shared_mem_bytes: u32,
    /// The walk the kernel takes by value (smemdesc's `ImplicitGemmA::walk`).
    pub walk: Im2colWalk,
}

impl ConvPlan {
    /// The plan as cudarc's launch configuration.
    ///
    /// ```
    /// use smemdesc_kernels::{conv2d_fprop_plan, Conv2d};
    /// let p = conv2d_fprop_plan(Conv2d::new(2, 8, 8, 64, 256, 1, 1), 132).unwrap();
    /// assert_eq!(p.config().grid_dim, (1, 1, 1)); // 128 pixels, 256 filters: one tile
    /// ```
    pub const fn config(&self) -> LaunchConfig {
        LaunchConfig {
            grid_dim: self.grid,
            block_dim: self.block,
            shared_mem_bytes: self.shared_mem_bytes,
        }
    }

    /// The walk as the kernel's 17 parameter words, in `Im2colWalk`'s (`#[repr(C)]`) field order.
    ///
    /// ```
    /// use smemdesc_kernels::{conv2d_fprop_plan, Conv2d};
    /// let p = conv2d_fprop_plan(Conv2d::new(1, 8, 8, 64, 256, 3, 3).pad(1, 1), 132).unwrap();
    /// let w = p.walk_words();
    /// assert_eq!((w[0], w[3], w[4], w[15]), (128, 64, 8, 9)); // BM, P·Q, Q, K-steps
    /// ```
    pub const fn walk_words(&self) -> [u32; 17] {
        let w = &self.walk;
        [
            w.bm,
            w.pixels,
            w.row_bytes,
            w.pq,
            w.q,
            w.stride[0],
            w.stride[1],
            w.pad[0],
            w.pad[1],
            w.dilation[0],
            w.dilation[1],
            w.c,
            w.s,
            w.bk,
            w.c_blocks,
            w.k_steps,
            w.m_blocks,
        ]
    }

    /// Elements of the input X (`N·H·W·C`), the filter W (`K_out·R·S·C`) and the output Y
    /// (`N·P·Q·K_out`) of `conv`.
    ///
    /// ```
    /// use smemdesc_kernels::{conv2d_fprop_plan, Conv2d};
    /// let c = Conv2d::new(2, 8, 8, 64, 256, 3, 3).pad(1, 1);
    /// let p = conv2d_fprop_plan(c, 132).unwrap();
    /// assert_eq!(p.lengths(&c), (2 * 8 * 8 * 64, 256 * 9 * 64, 2 * 8 * 8 * 256));
    /// ```
    pub const fn lengths(&self, conv: &Conv2d) -> (usize, usize, usize) {
        let (n, h, w, c) = (
            conv.n as usize,
            conv.h as usize,
            conv.w as usize,
            conv.c as usize,
        );
        let rsc = conv.r as usize * conv.s as usize * c;
        (
            n * h * w * c,
            conv.k as usize * rsc,
            self.m as usize * conv.k as usize,
        )
    }
}

/// The plan of `conv` on a device of `sms` SMs: the implicit GEMM on the declared 128 x 64 A
/// tile (im2col loads of 128 pixels x 64 channels: C a multiple of 64, strides at most 8, the
/// corners and coordinates in the im2col map's range, all smemdesc's checks as
/// [`Error::Conv`]) and the 256 x 64 filter tile (`K_out` a multiple of 256).
///
/// ```
/// use smemdesc_kernels::{conv2d_fprop_plan, Conv2d, Dim, Error, ShapeError};
/// let e = conv2d_fprop_plan(Conv2d::new(1, 8, 8, 64, 128, 3, 3), 132).unwrap_err();
/// assert!(matches!(e, Error::Shape(ShapeError::NotMultiple { dim: Dim::Filters, multiple: 256, .. })));
/// let e = conv2d_fprop_plan(Conv2d::new(1, 8, 8, 48, 256, 3, 3), 132).unwrap_err();
/// assert!(matches!(e, Error::Conv(_))); // 48 channels: not whole 64-channel loads
/// ```
pub fn conv2d_fprop_plan(conv: Conv2d, sms: u32) -> Result<ConvPlan, Error> {
    type A = et::cl11::A;
    type B = et::cl11::B;
    let (p, q) = conv.output()?;
    let bn = B::TILE_MN;
    if conv.k > MAX_DIM {
        return Err(ShapeError::TooLarge {
            dim: Dim::Filters,
            value: conv.k,
            max: MAX_DIM,
        }
        .into());
    }
    if !conv.k.is_multiple_of(bn) {
        return Err(ShapeError::NotMultiple {
            dim: Dim::Filters,
            value: conv.k,
            multiple: bn,
        }
        .into());
    }
    let plan = ImplicitGemmA::for_tile(conv, &A::PLAN)?;
    let walk = plan.walk()?;
    // The filter's map over `[K_out, R·S·C]` is checked here too (its K extent, strides).
    plan.filter_map(&B::PLAN)?;
    let tiles = walk.m_blocks * (conv.k / bn);
    let sms = sms.max(1);
    Ok(ConvPlan {
        kernel: CONV_FPROP_KERNEL,
        output: (p, q),
        m: (u64::from(conv.n) * u64::from(p) * u64::from(q)) as u32,
        tile: (A::TILE_MN, bn),
        tiles,
        grid: (tiles.min(sms), 1, 1),
        block: (et::THREADS, 1, 1),
        shared_mem_bytes: et::Decl11::LAUNCH_BYTES,
        walk,
    })
}

/// The three maps of `conv`: the im2col map of X (the plan's on the A tile), W's map for the
/// B tile, Y's store map (the C epilogue tile over `[M, K_out]`).
pub(crate) fn conv_tensor_maps(
    conv: Conv2d,
    m: u32,
) -> Result<(smemdesc::tma::Im2colMap, TensorMap, TensorMap), Error> {
    let plan = ImplicitGemmA::for_tile(conv, &et::cl11::A::PLAN)?;
    Ok((
        plan.map(Arch::Sm90),
        plan.filter_map(&et::cl11::B::PLAN)?,
        et::CTile::EPILOGUE.tensor_map(Arch::Sm90, u64::from(m), u64::from(conv.k)),
    ))
}

impl Kernels {
    /// The forward convolution `Y = conv2d(X, W)` (cross-correlation, as
    /// `torch.nn.functional.conv2d`, no bias) as an implicit GEMM with im2col TMA loads: X is
    /// `N × H × W × C` (NHWC), W is `K_out × R × S × C` (KRSC), Y is `N × P × Q × K_out`
    /// (NHWC), all bf16 bits; f32 accumulation. Strides, padding and dilation from `conv`
    /// ([`conv2d_fprop_plan`]: C a multiple of 64, `K_out` of 256).
    ///
    /// ```no_run
    /// use smemdesc_kernels::{conv2d_fprop_plan, Conv2d, Kernels};
    /// use smemdesc_kernels::cudarc::driver::CudaContext;
    /// let ctx = CudaContext::new(0)?;
    /// let stream = ctx.default_stream();
    /// let kernels = Kernels::from_ptx_file(&ctx, ".gpu-rust/kernels.ptx")?;
    /// let conv = Conv2d::new(64, 28, 28, 256, 256, 3, 3).stride(2, 2).pad(1, 1);
    /// let (nx, nw, ny) = conv2d_fprop_plan(conv, kernels.sms())?.lengths(&conv);
    /// let x = stream.alloc_zeros::<u16>(nx)?;
    /// let w = stream.alloc_zeros::<u16>(nw)?;
    /// let mut y = stream.alloc_zeros::<u16>(ny)?;
    /// kernels.conv2d_fprop(&stream, conv, &x, &w, &mut y)?;
    /// # Ok::<(), smemdesc_kernels::Error>(())
    /// ```
    pub fn conv2d_fprop(
        &self,
        stream: &Arc<CudaStream>,
        conv: Conv2d,
        x: &CudaSlice<u16>,
        w: &CudaSlice<u16>,
        y: &mut CudaSlice<u16>,
    ) -> Result<(), Error> {
        let plan = conv2d_fprop_plan(conv, self.sms())?;
        let (nx, nw, ny) = plan.lengths(&conv);
        for (operand, len, expected) in [("X", x.len(), nx), ("W", w.len(), nw), ("Y", y.len(), ny)]
        {
            if len != expected {
                return Err(ShapeError::Length {
                    operand,
                    len,
                    expected,
                }
                .into());
            }
        }
        let f = self.function(plan.kernel, plan.shared_mem_bytes)?;
        let (amap, bmap, cmap) = conv_tensor_maps(conv, plan.m)?;
        let (px, _gx) = x.device_ptr(stream);
        let (pw, _gw) = w.device_ptr(stream);
        let (py, _gy) = y.device_ptr_mut(stream);
        let a = cuda::encode_im2col(&amap.address(px))?;
        let b = cuda::encode(&bmap.address(pw))?;
        let c = cuda::encode(&cmap.address(py))?;
        let maps = cuda::upload(stream, &[a, b, c])?;
        let (pm, _gm) = maps.device_ptr(stream);
        let (map_a, map_b, map_c) = (pm, pm + 128, pm + 256);
        let words = plan.walk_words();
        let mut wd = self.watchdog_slice();
        let (perr, _ge) = wd.device_ptr_mut(stream);
        let mut l = stream.launch_builder(&f);
        l.arg(&map_a).arg(&map_b).arg(&map_c).arg(&words);
        l.arg(&conv.k).arg(&CONV_GROUP_M).arg(&perr);
        // SAFETY: `gemm_conv_ov_rust(map_a, map_b, map_c: u64, walk: Im2colWalk, k_out,
        // group_m: u32, err: u64)` (gpu/rust-kernel/src/conv_ov.rs) with its documented
        // preconditions: 384 threads, the 1x1 declaration's LAUNCH_BYTES (the function's
        // maximum), a 1-D grid (no cluster); `walk` (17 u32 by value, the `#[repr(C)]` order)
        // `ImplicitGemmA::for_tile(conv, A)?.walk()`, `map_a` that plan's im2col map of X,
        // `map_b` the filter's map for B, `map_c` C's store map over `[N·P·Q, K_out]`, all in
        // global memory over buffers of the checked lengths; `err` one device u32.
        unsafe { l.launch(plan.config()) }?;
        Ok(())
    }
}
