//! A thin layer over the CUDA driver API and NVRTC (cudarc's raw bindings, loaded at run time).

use cudarc::driver::sys as cu;
use cudarc::nvrtc::sys as rtc;
use std::ffi::{c_void, CStr, CString};
use std::path::Path;
use std::process::Command;

/// Result with a message.
pub type Res<T> = Result<T, String>;

fn ck(r: cu::CUresult, what: &str) -> Res<()> {
    if r == cu::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    let mut p: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: cuGetErrorString writes a pointer to a static string.
    unsafe { cu::cuGetErrorString(r, &mut p) };
    let msg = if p.is_null() {
        String::new()
    } else {
        // SAFETY: non-null static C string from the driver.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    };
    Err(format!("{what}: {r:?} {msg}"))
}

/// The device and its primary context.
pub struct Gpu {
    /// Device name.
    pub name: String,
    /// Driver version (e.g. 13000).
    pub driver: i32,
    /// Compute capability (major, minor).
    pub cc: (i32, i32),
    /// Multiprocessors.
    pub sms: i32,
}

impl Gpu {
    /// Initializes the driver, device 0 and its primary context.
    pub fn new() -> Res<Gpu> {
        // SAFETY: plain driver API calls with valid out-pointers.
        unsafe {
            ck(cu::cuInit(0), "cuInit")?;
            let mut dev: cu::CUdevice = 0;
            ck(cu::cuDeviceGet(&mut dev, 0), "cuDeviceGet")?;
            let mut ctx: cu::CUcontext = std::ptr::null_mut();
            ck(
                cu::cuDevicePrimaryCtxRetain(&mut ctx, dev),
                "cuDevicePrimaryCtxRetain",
            )?;
            ck(cu::cuCtxSetCurrent(ctx), "cuCtxSetCurrent")?;
            let mut buf = [0 as std::ffi::c_char; 256];
            ck(
                cu::cuDeviceGetName(buf.as_mut_ptr(), 256, dev),
                "cuDeviceGetName",
            )?;
            let name = CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned();
            let mut driver = 0;
            ck(cu::cuDriverGetVersion(&mut driver), "cuDriverGetVersion")?;
            let attr = |a| -> Res<i32> {
                let mut v = 0;
                ck(
                    cu::cuDeviceGetAttribute(&mut v, a, dev),
                    "cuDeviceGetAttribute",
                )?;
                Ok(v)
            };
            use cu::CUdevice_attribute as A;
            Ok(Gpu {
                name,
                driver,
                cc: (
                    attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
                    attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
                ),
                sms: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            })
        }
    }
}

/// Compiles CUDA C++ for sm_90a to a cubin: NVRTC when its library loads, else `nvcc` on PATH.
/// Returns the cubin and which compiler made it.
pub fn compile(src: &str, name: &str, work: &Path) -> Res<(Vec<u8>, String)> {
    // SAFETY: only checks whether the library can be opened.
    if unsafe { rtc::is_culib_present() } {
        return nvrtc(src, name).map(|c| (c, "NVRTC".to_string()));
    }
    let cu_path = work.join(format!("{name}.cu"));
    let cubin = work.join(format!("{name}.cubin"));
    std::fs::write(&cu_path, src).map_err(|e| e.to_string())?;
    let out = Command::new("nvcc")
        .args([
            "-std=c++17",
            "-O3",
            "-cubin",
            "-gencode=arch=compute_90a,code=sm_90a",
            "-o",
        ])
        .arg(&cubin)
        .arg(&cu_path)
        .output()
        .map_err(|e| format!("neither NVRTC nor nvcc available: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "nvcc failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok((
        std::fs::read(&cubin).map_err(|e| e.to_string())?,
        "nvcc".to_string(),
    ))
}

fn nvrtc(src: &str, name: &str) -> Res<Vec<u8>> {
    let csrc = CString::new(src).unwrap();
    let cname = CString::new(format!("{name}.cu")).unwrap();
    let opts: Vec<CString> = [
        "--gpu-architecture=sm_90a",
        "-std=c++17",
        "--use_fast_math",
        "-default-device",
    ]
    .iter()
    .map(|s| CString::new(*s).unwrap())
    .collect();
    let optp: Vec<*const std::ffi::c_char> = opts.iter().map(|s| s.as_ptr()).collect();
    // SAFETY: NVRTC calls with valid C strings and out-pointers; the program is destroyed at the end.
    unsafe {
        let mut prog: rtc::nvrtcProgram = std::ptr::null_mut();
        let r = rtc::nvrtcCreateProgram(
            &mut prog,
            csrc.as_ptr(),
            cname.as_ptr(),
            0,
            std::ptr::null(),
            std::ptr::null(),
        );
        if r != rtc::nvrtcResult::NVRTC_SUCCESS {
            return Err(format!("nvrtcCreateProgram: {r:?}"));
        }
        let r = rtc::nvrtcCompileProgram(prog, optp.len() as i32, optp.as_ptr());
        let mut log_len = 0usize;
        rtc::nvrtcGetProgramLogSize(prog, &mut log_len);
        let mut log = vec![0u8; log_len.max(1)];
        rtc::nvrtcGetProgramLog(prog, log.as_mut_ptr() as *mut std::ffi::c_char);
        let log = String::from_utf8_lossy(&log)
            .trim_end_matches('\0')
            .to_string();
        if r != rtc::nvrtcResult::NVRTC_SUCCESS {
            rtc::nvrtcDestroyProgram(&mut prog);
            return Err(format!("NVRTC {name}: {r:?}\n{log}"));
        }
        if !log.trim().is_empty() {
            eprintln!("NVRTC {name} log:\n{log}");
        }
        let mut n = 0usize;
        rtc::nvrtcGetCUBINSize(prog, &mut n);
        let mut bin = vec![0u8; n];
        let r = rtc::nvrtcGetCUBIN(prog, bin.as_mut_ptr() as *mut std::ffi::c_char);
        rtc::nvrtcDestroyProgram(&mut prog);
        if r != rtc::nvrtcResult::NVRTC_SUCCESS {
            return Err(format!("nvrtcGetCUBIN: {r:?}"));
        }
        Ok(bin)
    }
}

/// A loaded module.
pub struct Module(cu::CUmodule);

impl Module {
    /// Loads a cubin.
    pub fn load(cubin: &[u8]) -> Res<Module> {
        let mut m: cu::CUmodule = std::ptr::null_mut();
        // SAFETY: cubin is a complete image kept alive for the call.
        unsafe {
            ck(
                cu::cuModuleLoadData(&mut m, cubin.as_ptr() as *const c_void),
                "cuModuleLoadData",
            )?
        };
        Ok(Module(m))
    }

    /// A kernel by name, with its dynamic shared memory limit raised to `smem`.
    pub fn kernel(&self, name: &str, smem: u32) -> Res<Kernel> {
        let c = CString::new(name).unwrap();
        let mut f: cu::CUfunction = std::ptr::null_mut();
        // SAFETY: valid module and name.
        unsafe {
            ck(
                cu::cuModuleGetFunction(&mut f, self.0, c.as_ptr()),
                &format!("cuModuleGetFunction {name}"),
            )?;
            ck(
                cu::cuFuncSetAttribute(
                    f,
                    cu::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    smem as i32,
                ),
                "cuFuncSetAttribute",
            )?;
            let mut regs = 0;
            ck(
                cu::cuFuncGetAttribute(
                    &mut regs,
                    cu::CUfunction_attribute::CU_FUNC_ATTRIBUTE_NUM_REGS,
                    f,
                ),
                "cuFuncGetAttribute",
            )?;
            let mut local = 0;
            ck(
                cu::cuFuncGetAttribute(
                    &mut local,
                    cu::CUfunction_attribute::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                    f,
                ),
                "cuFuncGetAttribute",
            )?;
            Ok(Kernel {
                f,
                smem,
                regs,
                local,
            })
        }
    }
}

/// A kernel handle.
pub struct Kernel {
    f: cu::CUfunction,
    smem: u32,
    /// Registers per thread.
    pub regs: i32,
    /// Local memory bytes per thread (spills).
    pub local: i32,
}

/// A kernel argument.
pub enum Arg<'a> {
    /// A tensor map by value.
    Map(&'a cu::CUtensorMap),
    /// A device pointer.
    Ptr(u64),
    /// A 32-bit integer.
    I32(i32),
    /// A by-value parameter of 32-bit words (a `#[repr(C)]` struct of `u32`s, 4-byte aligned).
    #[allow(dead_code)] // the `rust_kernels` program's convolution only
    Words(&'a [u32]),
}

impl Kernel {
    /// CTAs of `block` threads (and this kernel's dynamic shared memory) that fit on one
    /// multiprocessor (`cuOccupancyMaxActiveBlocksPerMultiprocessor`).
    #[allow(dead_code)] // the `rust_kernels` program's attention only
    pub fn ctas_per_sm(&self, block: u32) -> Res<i32> {
        let mut n = 0;
        // SAFETY: a valid function handle.
        unsafe {
            ck(
                cu::cuOccupancyMaxActiveBlocksPerMultiprocessor(
                    &mut n,
                    self.f,
                    block as i32,
                    self.smem as usize,
                ),
                "cuOccupancyMaxActiveBlocksPerMultiprocessor",
            )?
        };
        Ok(n)
    }

    /// Launches on the default stream (asynchronous).
    pub fn launch(&self, grid: u32, block: u32, args: &[Arg]) -> Res<()> {
        self.launch_cluster(grid, block, 1, args)
    }

    /// Launches a 1-D grid of clusters of `cluster` CTAs along x (`cuLaunchKernelEx` with
    /// `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`; a plain `cuLaunchKernel` when `cluster` is 1).
    pub fn launch_cluster(&self, grid: u32, block: u32, cluster: u32, args: &[Arg]) -> Res<()> {
        let attr = (cluster != 1).then(|| cluster_attr(cluster));
        self.launch_with(grid, block, attr, args)
    }

    /// Launches as a programmatic dependent of the kernel before it on the stream
    /// (`CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION` = `pdl`), as
    /// `smemdesc::cuda::launch_dependent` does.
    #[allow(dead_code)] // the `rust_kernels` program's `--pdl` only
    pub fn launch_pdl(&self, grid: u32, block: u32, pdl: bool, args: &[Arg]) -> Res<()> {
        // SAFETY: the attribute is plain data (a zeroed union is a valid value).
        let mut attr: cu::CUlaunchAttribute = unsafe { std::mem::zeroed() };
        attr.id = cu::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        attr.value.programmaticStreamSerializationAllowed = i32::from(pdl);
        self.launch_with(grid, block, Some(attr), args)
    }

    /// `cuLaunchKernel`, or `cuLaunchKernelEx` with `attr`.
    fn launch_with(
        &self,
        grid: u32,
        block: u32,
        attr: Option<cu::CUlaunchAttribute>,
        args: &[Arg],
    ) -> Res<()> {
        let mut store: Vec<[u64; 1]> = Vec::new();
        let mut ints: Vec<i32> = Vec::new();
        for a in args {
            match a {
                Arg::Ptr(p) => store.push([*p]),
                Arg::I32(v) => ints.push(*v),
                Arg::Map(_) | Arg::Words(_) => {}
            }
        }
        let (mut pi, mut ii) = (0, 0);
        let mut ptrs: Vec<*mut c_void> = Vec::new();
        for a in args {
            match a {
                Arg::Map(m) => ptrs.push(*m as *const cu::CUtensorMap as *mut c_void),
                // The driver copies the parameter's bytes from here.
                Arg::Words(w) => ptrs.push(w.as_ptr() as *mut c_void),
                Arg::Ptr(_) => {
                    ptrs.push(store[pi].as_mut_ptr() as *mut c_void);
                    pi += 1;
                }
                Arg::I32(_) => {
                    ptrs.push(&mut ints[ii] as *mut i32 as *mut c_void);
                    ii += 1;
                }
            }
        }
        let Some(mut attr) = attr else {
            // SAFETY: every pointer in ptrs points at a live argument value for the call.
            return unsafe {
                ck(
                    cu::cuLaunchKernel(
                        self.f,
                        grid,
                        1,
                        1,
                        block,
                        1,
                        1,
                        self.smem,
                        std::ptr::null_mut(),
                        ptrs.as_mut_ptr(),
                        std::ptr::null_mut(),
                    ),
                    "cuLaunchKernel",
                )
            };
        };
        let cfg = launch_config(grid, block, self.smem, &mut attr);
        // SAFETY: the config and its attribute live for the call; ptrs as above.
        unsafe {
            ck(
                cu::cuLaunchKernelEx(&cfg, self.f, ptrs.as_mut_ptr(), std::ptr::null_mut()),
                "cuLaunchKernelEx",
            )
        }
    }

    /// `cuOccupancyMaxActiveClusters` for clusters of `cluster` CTAs of `block` threads.
    #[allow(dead_code)] // used by the rust_kernels binary only
    pub fn max_active_clusters(&self, cluster: u32, block: u32, grid: u32) -> Res<i32> {
        let mut attr = cluster_attr(cluster);
        let cfg = launch_config(grid, block, self.smem, &mut attr);
        let mut n = 0;
        // SAFETY: out-pointer and a config that lives for the call.
        unsafe {
            ck(
                cu::cuOccupancyMaxActiveClusters(&mut n, self.f, &cfg),
                "cuOccupancyMaxActiveClusters",
            )?
        };
        Ok(n)
    }
}

fn cluster_attr(cluster: u32) -> cu::CUlaunchAttribute {
    // SAFETY: the attribute is plain data (a zeroed union is a valid value).
    let mut attr: cu::CUlaunchAttribute = unsafe { std::mem::zeroed() };
    attr.id = cu::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim = cu::CUlaunchAttributeValue_union__bindgen_ty_1 {
        x: cluster,
        y: 1,
        z: 1,
    };
    attr
}

fn launch_config(
    grid: u32,
    block: u32,
    smem: u32,
    attr: &mut cu::CUlaunchAttribute,
) -> cu::CUlaunchConfig {
    cu::CUlaunchConfig {
        gridDimX: grid,
        gridDimY: 1,
        gridDimZ: 1,
        blockDimX: block,
        blockDimY: 1,
        blockDimZ: 1,
        sharedMemBytes: smem,
        hStream: std::ptr::null_mut(),
        attrs: attr,
        numAttrs: 1,
    }
}

/// Waits for all work.
pub fn sync() -> Res<()> {
    // SAFETY: no arguments.
    unsafe {
        ck(
            cu::cuCtxSynchronize(),
            "cuCtxSynchronize (kernel execution)",
        )
    }
}

/// Device memory.
pub struct Buf {
    /// Device address.
    pub ptr: u64,
    /// Bytes.
    pub bytes: usize,
}

impl Buf {
    /// Allocates `bytes`.
    pub fn new(bytes: usize) -> Res<Buf> {
        let mut p: cu::CUdeviceptr = 0;
        // SAFETY: out-pointer.
        unsafe { ck(cu::cuMemAlloc_v2(&mut p, bytes), "cuMemAlloc")? };
        Ok(Buf { ptr: p, bytes })
    }

    /// Allocates and uploads.
    pub fn from<T: Copy>(data: &[T]) -> Res<Buf> {
        let bytes = std::mem::size_of_val(data);
        let b = Buf::new(bytes)?;
        // SAFETY: b holds `bytes` bytes; data is a live slice of that many bytes.
        unsafe {
            ck(
                cu::cuMemcpyHtoD_v2(b.ptr, data.as_ptr() as *const c_void, bytes),
                "cuMemcpyHtoD",
            )?
        };
        Ok(b)
    }

    /// Fills every byte with `v`.
    pub fn fill(&self, v: u8) -> Res<()> {
        // SAFETY: in-bounds fill.
        unsafe { ck(cu::cuMemsetD8_v2(self.ptr, v, self.bytes), "cuMemsetD8") }
    }

    /// Downloads into `out` (its size must not exceed the buffer).
    pub fn read<T: Copy>(&self, out: &mut [T]) -> Res<()> {
        let bytes = std::mem::size_of_val(out);
        assert!(bytes <= self.bytes);
        // SAFETY: out has `bytes` writable bytes, the buffer at least as many.
        unsafe {
            ck(
                cu::cuMemcpyDtoH_v2(out.as_mut_ptr() as *mut c_void, self.ptr, bytes),
                "cuMemcpyDtoH",
            )
        }
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        // SAFETY: ptr came from cuMemAlloc.
        unsafe { cu::cuMemFree_v2(self.ptr) };
    }
}

/// The checked description of a rank-2 tensor map (dims/strides innermost first) as `gpu/` uses
/// them: L2 promotion 256B, no interleave, element strides 1.
pub fn tensor_map_desc(
    data_type: u32,
    swizzle: u32,
    ptr: u64,
    dims: [u64; 2],
    row_stride_bytes: u64,
    box_dim: [u32; 2],
) -> Res<smemdesc::TensorMap> {
    use smemdesc::{Arch, TensorMap, TensorMapDataType, TensorMapL2Promotion, TensorMapSwizzle};
    let dt = TensorMapDataType::from_value(data_type)
        .ok_or_else(|| format!("unexpected CUtensorMapDataType {data_type}"))?;
    let sw = TensorMapSwizzle::from_value(swizzle)
        .ok_or_else(|| format!("unexpected CUtensorMapSwizzle {swizzle}"))?;
    Ok(TensorMap::new(Arch::Sm90, dt, 2)
        .dim(0, dims[0])
        .dim(1, dims[1])
        .stride(0, row_stride_bytes)
        .box_dim(0, box_dim[0])
        .box_dim(1, box_dim[1])
        .swizzle(sw)
        .l2_promotion(TensorMapL2Promotion::L2_256B)
        .address(ptr))
}

/// `cuTensorMapEncodeTiled` of [`tensor_map_desc`] through smemdesc's `cudarc` feature: every
/// documented rule is checked before the driver is called; the map comes back 128-byte aligned.
pub fn tensor_map(
    data_type: u32,
    swizzle: u32,
    ptr: u64,
    dims: [u64; 2],
    row_stride_bytes: u64,
    box_dim: [u32; 2],
) -> Res<smemdesc::cuda::AlignedTensorMap> {
    let map = tensor_map_desc(data_type, swizzle, ptr, dims, row_stride_bytes, box_dim)?;
    smemdesc::cuda::encode(&map).map_err(|e| format!("{e}"))
}

/// Runs `f` for `warmup_s` seconds (synchronising every 10 calls), then [`time_ms`] of `iters`:
/// a timing of the sustained clock, whatever ran before (an idle gap lets an H100 clock higher).
pub fn time_ms_after(warmup_s: f64, iters: u32, mut f: impl FnMut() -> Res<()>) -> Res<Vec<f32>> {
    let t0 = std::time::Instant::now();
    while t0.elapsed().as_secs_f64() < warmup_s {
        for _ in 0..10 {
            f()?;
        }
        sync()?;
    }
    time_ms(5, iters, f)
}

/// Times `f` with CUDA events: `warmup` untimed calls, then `iters` timed one by one; returns
/// the per-call milliseconds.
pub fn time_ms(warmup: u32, iters: u32, mut f: impl FnMut() -> Res<()>) -> Res<Vec<f32>> {
    for _ in 0..warmup {
        f()?;
    }
    sync()?;
    let mut out = Vec::new();
    // SAFETY: events are created, used and destroyed here.
    unsafe {
        let mut e0: cu::CUevent = std::ptr::null_mut();
        let mut e1: cu::CUevent = std::ptr::null_mut();
        ck(cu::cuEventCreate(&mut e0, 0), "cuEventCreate")?;
        ck(cu::cuEventCreate(&mut e1, 0), "cuEventCreate")?;
        for _ in 0..iters {
            ck(cu::cuEventRecord(e0, std::ptr::null_mut()), "cuEventRecord")?;
            f()?;
            ck(cu::cuEventRecord(e1, std::ptr::null_mut()), "cuEventRecord")?;
            ck(cu::cuEventSynchronize(e1), "cuEventSynchronize")?;
            let mut ms = 0f32;
            ck(
                cu::cuEventElapsedTime_v2(&mut ms, e0, e1),
                "cuEventElapsedTime",
            )?;
            out.push(ms);
        }
        cu::cuEventDestroy_v2(e0);
        cu::cuEventDestroy_v2(e1);
    }
    Ok(out)
}
