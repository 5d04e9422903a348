//! The driver calls cudarc's launch builder has no form for: a launch in thread-block clusters
//! (`cuLaunchKernelEx` with `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`) and the resident-cluster
//! count of a persistent clustered kernel (`cuOccupancyMaxActiveClusters`), both from the CUDA
//! driver API's "Launch attributes" and "Occupancy" sections.

use smemdesc::cuda::cudarc::driver::{sys, CudaFunction, CudaStream, DriverError, LaunchConfig};

/// The cluster attribute: `x` CTAs along x.
fn cluster_attr(x: u32) -> sys::CUlaunchAttribute {
    // SAFETY: the attribute is plain data (a zeroed union is a valid value).
    let mut attr: sys::CUlaunchAttribute = unsafe { core::mem::zeroed() };
    attr.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = x;
    attr.value.clusterDim.y = 1;
    attr.value.clusterDim.z = 1;
    attr
}

fn config(
    cfg: &LaunchConfig,
    stream: &CudaStream,
    attr: Option<&mut sys::CUlaunchAttribute>,
) -> sys::CUlaunchConfig {
    let (attrs, n) = match attr {
        Some(a) => (a as *mut sys::CUlaunchAttribute, 1),
        None => (core::ptr::null_mut(), 0),
    };
    sys::CUlaunchConfig {
        gridDimX: cfg.grid_dim.0,
        gridDimY: cfg.grid_dim.1,
        gridDimZ: cfg.grid_dim.2,
        blockDimX: cfg.block_dim.0,
        blockDimY: cfg.block_dim.1,
        blockDimZ: cfg.block_dim.2,
        sharedMemBytes: cfg.shared_mem_bytes,
        hStream: stream.cu_stream(),
        attrs,
        numAttrs: n,
    }
}

fn check(r: sys::CUresult) -> Result<(), DriverError> {
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        e => Err(DriverError(e)),
    }
}

/// Launches `f` on `stream` in clusters of `cluster` CTAs along x (a plain launch when 1).
///
/// # Safety
///
/// As `cuLaunchKernel`: `params` holds one pointer per kernel parameter, each to a value of that
/// parameter's type, alive across the call; `cfg` fits the kernel, and the grid is a whole
/// number of clusters. The buffers behind the parameters are ordered on `stream` by the
/// caller (their `device_ptr` guards).
pub(crate) unsafe fn launch(
    stream: &CudaStream,
    f: &CudaFunction,
    cfg: LaunchConfig,
    cluster: u32,
    params: &mut [*mut core::ffi::c_void],
) -> Result<(), DriverError> {
    stream.context().bind_to_thread()?;
    let mut attr = cluster_attr(cluster);
    let c = config(&cfg, stream, (cluster > 1).then_some(&mut attr));
    // SAFETY: `c` and its attribute live across the call; the parameters are the caller's.
    check(unsafe {
        sys::cuLaunchKernelEx(
            &c,
            f.cu_function(),
            params.as_mut_ptr(),
            core::ptr::null_mut(),
        )
    })
}

/// How many clusters of `cluster` CTAs of `cfg` can be resident on the device at once.
pub(crate) fn max_active_clusters(
    stream: &CudaStream,
    f: &CudaFunction,
    cfg: LaunchConfig,
    cluster: u32,
) -> Result<u32, DriverError> {
    stream.context().bind_to_thread()?;
    let mut attr = cluster_attr(cluster);
    let c = config(&cfg, stream, Some(&mut attr));
    let mut n = 0i32;
    // SAFETY: an out-pointer and a configuration that live across the call.
    check(unsafe { sys::cuOccupancyMaxActiveClusters(&mut n, f.cu_function(), &c) })?;
    Ok(n.max(0) as u32)
}
