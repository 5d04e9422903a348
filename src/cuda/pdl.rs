//! Programmatic dependent launch from the host: the launch attribute that lets a kernel start
//! while the kernel before it in the stream still runs (`smemdesc::pdl` is the kernel side).

use cudarc::driver::{sys, CudaFunction, CudaStream, DriverError, LaunchConfig};

/// Launches `f` on `stream` as a programmatic dependent of the kernel launched before it on the
/// stream (`cuLaunchKernelEx` with `CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION` set to
/// 1: CUDA driver API, "Launch attributes"): `f` may be scheduled once every CTA of the previous
/// kernel issued `griddepcontrol.launch_dependents` or exited, and must
/// [`wait`](crate::pdl::Prologue::wait) before it reads that kernel's output
/// ([`Upstream`](crate::pdl::Upstream) parameters make the read need the wait). `pdl: false`
/// launches the same kernel without the attribute (the plain serialised launch, for
/// comparison).
///
/// ```no_run
/// use smemdesc::cuda::{launch_dependent, cudarc::driver::{CudaContext, LaunchConfig}};
/// let ctx = CudaContext::new(0)?;
/// let stream = ctx.default_stream();
/// # let f: smemdesc::cuda::cudarc::driver::CudaFunction = unimplemented!();
/// let mut x: u64 = 0; // the device pointer the primary wrote, passed as `Upstream<f32>`
/// let mut params = [&mut x as *mut u64 as *mut core::ffi::c_void];
/// // SAFETY: one pointer to a u64 for the kernel's one 8-byte parameter, alive across the call.
/// unsafe { launch_dependent(&stream, &f, LaunchConfig::for_num_elems(1), &mut params, true) }?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Safety
///
/// As `cuLaunchKernel`: `params` holds one pointer per parameter of the kernel, each to a value
/// of that parameter's type, alive across the call; `cfg` fits the kernel (threads, dynamic
/// shared memory).
#[allow(unsafe_code)]
pub unsafe fn launch_dependent(
    stream: &CudaStream,
    f: &CudaFunction,
    cfg: LaunchConfig,
    params: &mut [*mut core::ffi::c_void],
    pdl: bool,
) -> Result<(), DriverError> {
    stream.context().bind_to_thread()?;
    // SAFETY: the attribute is plain data (a zeroed union is a valid value).
    let mut attr: sys::CUlaunchAttribute = unsafe { core::mem::zeroed() };
    attr.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attr.value.programmaticStreamSerializationAllowed = i32::from(pdl);
    let config = sys::CUlaunchConfig {
        gridDimX: cfg.grid_dim.0,
        gridDimY: cfg.grid_dim.1,
        gridDimZ: cfg.grid_dim.2,
        blockDimX: cfg.block_dim.0,
        blockDimY: cfg.block_dim.1,
        blockDimZ: cfg.block_dim.2,
        sharedMemBytes: cfg.shared_mem_bytes,
        hStream: stream.cu_stream(),
        attrs: &mut attr,
        numAttrs: 1,
    };
    // SAFETY: `config` and `attr` live across the call; the parameters are the caller's promise.
    let r = unsafe {
        sys::cuLaunchKernelEx(
            &config,
            f.cu_function(),
            params.as_mut_ptr(),
            core::ptr::null_mut(),
        )
    };
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        e => Err(DriverError(e)),
    }
}
