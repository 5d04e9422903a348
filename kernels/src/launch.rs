//! [`Kernels`]: the loaded PTX module and the launchers.

use crate::epi_tiles as et;
use crate::error::Error;
use crate::plan::{gemm_bf16_plan, gemm_fp8_plan, GemmShape, LaunchPlan, GROUP_M};
use crate::tiles;
use smemdesc::cuda::cudarc::driver::sys::{CUdevice_attribute, CUfunction_attribute};
use smemdesc::cuda::cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DevicePtrMut,
    PushKernelArg,
};
use smemdesc::cuda::cudarc::nvrtc::Ptx;
use smemdesc::cuda::{self, AlignedTensorMap};
use smemdesc::{Arch, SmemTile, TensorMap};
use std::sync::{Arc, Mutex};

/// The reference kernels of one PTX module (`gpu/rust-kernel/build_ptx.sh`'s
/// `out/kernels.ptx`) loaded into a context, with their launchers.
///
/// Each launcher checks the shape and the buffers' lengths ([`Error::Shape`], nothing launched),
/// encodes the tensor maps from the kernel's tile declarations through `smemdesc::cuda`, copies
/// them to device memory (the Rust kernels read their maps from global memory), and launches
/// asynchronously on `stream` with the [`LaunchPlan`] of the declarations. Buffers are the raw
/// element bits: bf16 as `u16`, e4m3 as `u8`.
///
/// The PTX comes from a file ([`Kernels::from_ptx_file`]) or from your binary
/// (`Kernels::new(&ctx, Ptx::from_src(include_str!(".../kernels.ptx")))`).
///
/// ```no_run
/// use smemdesc_kernels::{GemmShape, Kernels};
/// use smemdesc_kernels::cudarc::driver::CudaContext;
/// let ctx = CudaContext::new(0)?;
/// let stream = ctx.default_stream();
/// let kernels = Kernels::from_ptx_file(&ctx, "gpu/rust-kernel/out/kernels.ptx")?;
/// let s = GemmShape::new(256, 512, 128);
/// let a = stream.clone_htod(&vec![0x3f80u16; s.a_len()])?; // bf16 1.0
/// let b = stream.clone_htod(&vec![0x3f80u16; s.b_len()])?;
/// let mut c = stream.alloc_zeros::<u16>(s.c_len())?;
/// kernels.gemm_bf16(&stream, s, &a, &b, &mut c)?;
/// assert_eq!(stream.clone_dtoh(&c)?[0], 0x4300); // 128.0
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Kernels {
    module: Arc<CudaModule>,
    sms: u32,
    max_smem: u32,
    /// The epilogue GEMM's watchdog word (set to 1 by a kernel that gave up waiting).
    watchdog: Mutex<CudaSlice<u32>>,
    /// The persistent attention kernel's schedule: two `u32`, zero between launches.
    sched: Mutex<CudaSlice<u32>>,
    loaded: Mutex<Vec<(&'static str, CudaFunction)>>,
}

impl Kernels {
    /// Loads `ptx` into `ctx` (the driver JIT-compiles it for the device: sm_90a, an H100 or
    /// H200).
    ///
    /// ```no_run
    /// use smemdesc_kernels::cudarc::{driver::CudaContext, nvrtc::Ptx};
    /// let ctx = CudaContext::new(0)?;
    /// let ptx = std::fs::read_to_string("gpu/rust-kernel/out/kernels.ptx")?;
    /// let kernels = smemdesc_kernels::Kernels::new(&ctx, Ptx::from_src(ptx))?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(ctx: &Arc<CudaContext>, ptx: Ptx) -> Result<Kernels, Error> {
        let module = ctx.load_module(ptx)?;
        let sms = ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        let max_smem = ctx
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?;
        let watchdog = ctx.default_stream().alloc_zeros::<u32>(1)?;
        let sched = ctx.default_stream().alloc_zeros::<u32>(2)?;
        Ok(Kernels {
            module,
            sms: sms.max(1) as u32,
            max_smem: max_smem.max(0) as u32,
            watchdog: Mutex::new(watchdog),
            sched: Mutex::new(sched),
            loaded: Mutex::new(Vec::new()),
        })
    }

    /// Reads the PTX at `path` and loads it ([`Kernels::new`]).
    ///
    /// ```no_run
    /// use smemdesc_kernels::cudarc::driver::CudaContext;
    /// let ctx = CudaContext::new(0)?;
    /// let kernels = smemdesc_kernels::Kernels::from_ptx_file(&ctx, ".gpu-rust/kernels.ptx")?;
    /// # Ok::<(), smemdesc_kernels::Error>(())
    /// ```
    pub fn from_ptx_file(
        ctx: &Arc<CudaContext>,
        path: impl AsRef<std::path::Path>,
    ) -> Result<Kernels, Error> {
        let src = std::fs::read_to_string(path)?;
        Kernels::new(ctx, Ptx::from_src(src))
    }

    /// The device's SM count: the persistent kernels' grid is at most this many CTAs.
    ///
    /// ```no_run
    /// use smemdesc_kernels::cudarc::driver::CudaContext;
    /// let ctx = CudaContext::new(0)?;
    /// let kernels = smemdesc_kernels::Kernels::from_ptx_file(&ctx, ".gpu-rust/kernels.ptx")?;
    /// println!("{} SMs", kernels.sms()); // 132 on an H100 SXM
    /// # Ok::<(), smemdesc_kernels::Error>(())
    /// ```
    pub fn sms(&self) -> u32 {
        self.sms
    }

    /// Whether a launch since the last call gave up on a barrier wait (the epilogue GEMM's
    /// watchdog: a bounded wait that ends the kernel instead of hanging the GPU; its C is then
    /// incomplete). Waits for `stream`, reads the flag and clears it.
    ///
    /// ```no_run
    /// use smemdesc_kernels::cudarc::driver::CudaContext;
    /// let ctx = CudaContext::new(0)?;
    /// let stream = ctx.default_stream();
    /// let kernels = smemdesc_kernels::Kernels::from_ptx_file(&ctx, ".gpu-rust/kernels.ptx")?;
    /// assert!(!kernels.watchdog_fired(&stream)?);
    /// # Ok::<(), smemdesc_kernels::Error>(())
    /// ```
    pub fn watchdog_fired(&self, stream: &Arc<CudaStream>) -> Result<bool, Error> {
        let mut w = self.watchdog.lock().unwrap_or_else(|p| p.into_inner());
        let v = stream.clone_dtoh(&*w)?;
        stream.memset_zeros(&mut *w)?;
        stream.synchronize()?;
        Ok(v.first().is_some_and(|&x| x != 0))
    }

    /// `C = A · Bᵀ` in bf16 with fp32 accumulation: A (M × K), B (N × K), C (M × N), all
    /// row-major bf16 bits; M a multiple of 128, N of 256, K of 64 ([`gemm_bf16_plan`]). The
    /// persistent warp-specialised kernel `gemm_epi_rust` (TMA loads, 4 stages, wgmma
    /// m64n256k16, C written through the declared swizzled epilogue tile and TMA stores).
    ///
    /// ```no_run
    /// use smemdesc_kernels::{GemmShape, Kernels};
    /// use smemdesc_kernels::cudarc::driver::CudaContext;
    /// let ctx = CudaContext::new(0)?;
    /// let stream = ctx.default_stream();
    /// let kernels = Kernels::from_ptx_file(&ctx, ".gpu-rust/kernels.ptx")?;
    /// let s = GemmShape::new(4096, 4096, 4096);
    /// let a = stream.alloc_zeros::<u16>(s.a_len())?;
    /// let b = stream.alloc_zeros::<u16>(s.b_len())?;
    /// let mut c = stream.alloc_zeros::<u16>(s.c_len())?;
    /// kernels.gemm_bf16(&stream, s, &a, &b, &mut c)?;
    /// # Ok::<(), smemdesc_kernels::Error>(())
    /// ```
    pub fn gemm_bf16(
        &self,
        stream: &Arc<CudaStream>,
        shape: GemmShape,
        a: &CudaSlice<u16>,
        b: &CudaSlice<u16>,
        c: &mut CudaSlice<u16>,
    ) -> Result<(), Error> {
        let plan = gemm_bf16_plan(shape, self.sms)?;
        shape.check_lengths(a.len(), b.len(), c.len())?;
        let f = self.plan_function(&plan)?;
        let (m, n, k) = (shape.m as u64, shape.n as u64, shape.k as u64);
        let (pa, _ga) = a.device_ptr(stream);
        let (pb, _gb) = b.device_ptr(stream);
        let (pc, _gc) = c.device_ptr_mut(stream);
        let maps = cuda::upload(
            stream,
            &[
                operand_map::<et::cl11::A>(pa, m, k)?,
                operand_map::<et::cl11::B>(pb, n, k)?,
                cuda::encode(&et::CTile::EPILOGUE.tensor_map(Arch::Sm90, m, n).address(pc))?,
            ],
        )?;
        let (pm, _gm) = maps.device_ptr(stream);
        let mut w = self.watchdog_slice();
        let (pw, _gw) = w.device_ptr_mut(stream);
        let (map_a, map_b, map_c) = (pm, pm + 128, pm + 256);
        let tx_delta = 0u32;
        let mut l = stream.launch_builder(&f);
        l.arg(&map_a).arg(&map_b).arg(&map_c);
        l.arg(&shape.m).arg(&shape.n).arg(&shape.k).arg(&GROUP_M);
        l.arg(&tx_delta).arg(&pw);
        // SAFETY: `gemm_epi_rust(map_a, map_b, map_c: u64, m, n, k, group_m, tx_delta: u32,
        // err: u64)` (gpu/rust-kernel/src/epi.rs) with its documented preconditions: 384
        // threads, the storage's LAUNCH_BYTES (set as the function's maximum), a 1-D grid (1x1
        // cluster), M/N/K multiples of the tiles (checked), the three maps in global memory (A
        // `[K, M]`, B `[K, N]`, C `[N, M]` with the C tile's box and swizzle) over buffers of the
        // checked lengths, `err` one device u32. The maps' slice is freed in stream order.
        unsafe { l.launch(plan.config()) }?;
        Ok(())
    }

    /// `C = A · Bᵀ` with e4m3 A (M × K) and B (N × K), fp32 accumulation, bf16 C (M × N), all
    /// row-major element bits; M a multiple of 128, N of 256, K of 128 ([`gemm_fp8_plan`]).
    /// The persistent warp-specialised kernel `gemm_fp8_rust` (wgmma m64n256k32, direct
    /// stores). No scaling: apply per-tensor scales to C yourself.
    ///
    /// ```no_run
    /// use smemdesc_kernels::{GemmShape, Kernels};
    /// use smemdesc_kernels::cudarc::driver::CudaContext;
    /// let ctx = CudaContext::new(0)?;
    /// let stream = ctx.default_stream();
    /// let kernels = Kernels::from_ptx_file(&ctx, ".gpu-rust/kernels.ptx")?;
    /// let s = GemmShape::new(4096, 4096, 4096);
    /// let a = stream.alloc_zeros::<u8>(s.a_len())?;
    /// let b = stream.alloc_zeros::<u8>(s.b_len())?;
    /// let mut c = stream.alloc_zeros::<u16>(s.c_len())?;
    /// kernels.gemm_fp8(&stream, s, &a, &b, &mut c)?;
    /// # Ok::<(), smemdesc_kernels::Error>(())
    /// ```
    pub fn gemm_fp8(
        &self,
        stream: &Arc<CudaStream>,
        shape: GemmShape,
        a: &CudaSlice<u8>,
        b: &CudaSlice<u8>,
        c: &mut CudaSlice<u16>,
    ) -> Result<(), Error> {
        let plan = gemm_fp8_plan(shape, self.sms)?;
        shape.check_lengths(a.len(), b.len(), c.len())?;
        let f = self.plan_function(&plan)?;
        let (m, n, k) = (shape.m as u64, shape.n as u64, shape.k as u64);
        let (pa, _ga) = a.device_ptr(stream);
        let (pb, _gb) = b.device_ptr(stream);
        let maps = cuda::upload(
            stream,
            &[
                operand_map::<tiles::Fp8A>(pa, m, k)?,
                operand_map::<tiles::Fp8B>(pb, n, k)?,
            ],
        )?;
        let (pm, _gm) = maps.device_ptr(stream);
        let (map_a, map_b) = (pm, pm + 128);
        let mut l = stream.launch_builder(&f);
        l.arg(&map_a).arg(&map_b).arg(c);
        l.arg(&shape.m).arg(&shape.n).arg(&shape.k).arg(&GROUP_M);
        // SAFETY: `gemm_fp8_rust(map_a, map_b: u64, c: *mut u32, m, n, k, group_m: u32)`
        // (gpu/rust-kernel/src/gemm.rs) with its documented preconditions: 384 threads,
        // FP8_SMEM.launch_bytes (set as the function's maximum), M/N/K multiples of the tiles
        // (checked), the maps of A `[K, M]` and B `[K, N]` in global memory over buffers of the
        // checked lengths, C of M x N bf16.
        unsafe { l.launch(plan.config()) }?;
        Ok(())
    }

    /// The watchdog word, locked for a launch.
    pub(crate) fn watchdog_slice(&self) -> std::sync::MutexGuard<'_, CudaSlice<u32>> {
        self.watchdog.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The attention schedule's two words, locked for a launch.
    pub(crate) fn sched_slice(&self) -> std::sync::MutexGuard<'_, CudaSlice<u32>> {
        self.sched.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The plan's function ([`Kernels::function`]).
    pub(crate) fn plan_function(&self, plan: &LaunchPlan) -> Result<CudaFunction, Error> {
        self.function(plan.kernel, plan.shared_mem_bytes)
    }

    /// Entry `kernel`, loaded once, its dynamic shared-memory maximum set to `smem` bytes.
    pub(crate) fn function(&self, kernel: &'static str, smem: u32) -> Result<CudaFunction, Error> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, f)) = loaded.iter().find(|(n, _)| *n == kernel) {
            return Ok(f.clone());
        }
        if smem > self.max_smem {
            return Err(Error::SharedMemory {
                name: kernel,
                need: smem,
                max: self.max_smem,
            });
        }
        let f = self
            .module
            .load_function(kernel)
            .map_err(|source| Error::MissingKernel {
                name: kernel,
                source,
            })?;
        f.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            smem as i32,
        )?;
        loaded.push((kernel, f.clone()));
        Ok(f)
    }
}

/// The map of a K-major operand of tile `T` over the `rows × k` matrix at `ptr` (dims `[K,
/// rows]`, the tile's box, swizzle and element type), checked and encoded by smemdesc.
pub(crate) fn operand_map<T: SmemTile>(
    ptr: u64,
    rows: u64,
    k: u64,
) -> Result<AlignedTensorMap, Error> {
    Ok(cuda::encode(
        &operand_tensor_map::<T>(rows, k).address(ptr),
    )?)
}

/// [`operand_map`]'s map before its address (for the host tests).
pub(crate) const fn operand_tensor_map<T: SmemTile>(rows: u64, k: u64) -> TensorMap {
    TensorMap::for_tile_matrix(&T::PLAN, rows, k)
}
