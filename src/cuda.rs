//! `cudarc` feature: encodes a checked [`TensorMap`] with the driver's `cuTensorMapEncodeTiled`
//! (through `cudarc::driver::sys`, loaded at run time unless you choose linking, so this builds
//! without CUDA) into an [`AlignedTensorMap`], which a cudarc launch takes as a kernel argument or
//! [`upload`]s to global memory.
//!
//! Every documented rule is checked first ([`TensorMap::try_args`]); the driver sees only argument
//! sets smemdesc accepts. If it still refuses one, that is a disagreement between the rules and the
//! driver, reported as [`EncodeError::DriverRefused`] with the arguments.
//!
//! # Choosing the CUDA bindings
//!
//! cudarc 0.19 compiles the bindings of exactly one CUDA version, chosen by a cargo feature; two
//! different ones in one build are a compile error (`... is defined multiple times`). smemdesc's
//! `cudarc` feature names none, so the choice is yours, in one of two ways:
//!
//! - on smemdesc: `smemdesc = { version = "0.1", features = ["cuda-12080"] }` (each `cuda-*`
//!   feature turns `cudarc` on: `cuda-12080`, `cuda-12090`, `cuda-13000`, `cuda-13010`,
//!   `cuda-13020`, `cuda-13030`, `cuda-13040`);
//! - or on your own cudarc dependency, when you have one: `smemdesc = { version = "0.1", features =
//!   ["cudarc"] }` beside `cudarc = { version = "0.19", features = ["cuda-12080", ...] }` (cargo
//!   unifies the two into one cudarc, or use the re-export [`cudarc`](mod@cudarc) and skip the
//!   dependency).
//!
//! Bindings of CUDA 12.8 or later are needed: older ones lack the sub-byte data types
//! (`CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B`, ...) and the `128B_ATOM` swizzles that
//! [`TensorMapDataType`] and [`TensorMapSwizzle`] cover. The bindings' version is the newest API
//! your program may call; the driver installed at run time may be newer (with dynamic loading,
//! cudarc's default, the library is found when first used). With no version chosen, cudarc's build
//! script stops with the list of its `cuda-*` features. The feature needs Rust 1.88 (cudarc's
//! `libloading`), above the crate's 1.85 MSRV.
//!
//! # Passing a map to a kernel
//!
//! [`AlignedTensorMap`] is exactly the driver's 128-byte `CUtensorMap` and implements cudarc's
//! `DeviceRepr`, so both forms work:
//!
//! - **by value**, for a CUDA C++ kernel parameter `const __grid_constant__ CUtensorMap map`:
//!   `stream.launch_builder(&f).arg(&map)`;
//! - **in global memory**, for a kernel that takes a pointer: [`upload`] the maps and pass the
//!   returned `CudaSlice` like any buffer. A Rust nvptx64 kernel needs this form: a by-value
//!   `CUtensorMap` parameter does not work there (nightly rustc stops with an internal compiler
//!   error at 64-byte alignment; at less, LLVM copies the parameter to local memory, which TMA
//!   cannot read). The kernel issues `fence.proxy.tensormap::generic.acquire.gpu` on a map (PTX 8.3)
//!   before its first TMA with it, as `gpu/rust-kernel` does.

extern crate std;

mod im2col;
mod pdl;
pub use im2col::{encode_im2col, encode_im2col_args, Im2colEncodeError};
pub use pdl::launch_dependent;

use crate::{
    GemmLaunch, TensorMap, TensorMapArgs, TensorMapDataType, TensorMapError, TensorMapInterleave,
    TensorMapL2Promotion, TensorMapOobFill, TensorMapSwizzle,
};
use cudarc::driver::sys;

/// The cudarc this module is built against (0.19): its `driver` (with `sys`) and `nvrtc` modules,
/// so a host program can use it without a dependency of its own and cannot mix two versions.
///
/// ```
/// use smemdesc::cuda::cudarc::driver::LaunchConfig;
/// assert_eq!(LaunchConfig::for_num_elems(1).grid_dim, (1, 1, 1));
/// ```
pub use cudarc;

/// An encoded `CUtensorMap`, 128 bytes at a 128-byte aligned address (CUDA 13 declares the type
/// 128-byte aligned, CUDA 12 64), the form both kernel-argument and global-memory use need
/// (see the [module docs](self#passing-a-map-to-a-kernel)).
///
/// ```
/// use smemdesc::cuda::AlignedTensorMap;
/// assert_eq!(core::mem::size_of::<AlignedTensorMap>(), 128); // exactly one CUtensorMap
/// assert_eq!(core::mem::align_of::<AlignedTensorMap>(), 128);
/// ```
///
/// By value, to a CUDA C++ kernel `__global__ void k(const __grid_constant__ CUtensorMap map)`
/// (needs a GPU):
///
/// ```no_run
/// use smemdesc::*;
/// use smemdesc::cuda::{self, cudarc::driver::{CudaContext, DevicePtr, LaunchConfig, PushKernelArg}};
/// const A: TilePlan = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).expect_valid();
/// let ctx = CudaContext::new(0)?;
/// let stream = ctx.default_stream();
/// let a = stream.alloc_zeros::<u16>(256 * 64)?;
/// let (ptr_a, _sync) = a.device_ptr(&stream);
/// let map = cuda::encode(&TensorMap::for_tile_matrix(&A, 256, 64).address(ptr_a))?;
/// # let f: cuda::cudarc::driver::CudaFunction = unimplemented!();
/// let mut launch = stream.launch_builder(&f); // f: from ctx.load_module(..)?.load_function("k")
/// launch.arg(&map);
/// unsafe { launch.launch(LaunchConfig::for_num_elems(1)) }?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[repr(C, align(128))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AlignedTensorMap {
    /// The driver's opaque 128-byte object.
    pub map: sys::CUtensorMap,
}

// Both uses below depend on the wrapper being exactly one `CUtensorMap`: no field after it, no
// padding, whatever the alignment the chosen bindings give `CUtensorMap` (64 or 128).
const _: () = assert!(core::mem::size_of::<AlignedTensorMap>() == 128);
const _: () = assert!(core::mem::size_of::<sys::CUtensorMap>() == 128);

// SAFETY: cudarc's `DeviceRepr` promises that the type's bytes are its device representation, for
// a kernel argument (cudarc passes the driver a pointer to the value, and `cuLaunchKernel` copies
// as many bytes as the kernel's parameter has) and for host-to-device copies of slices.
// `AlignedTensorMap` is `repr(C)` around `CUtensorMap` alone, `{ opaque: [u64; 16] }`: 128 bytes,
// no padding (asserted above), holding what `cuTensorMapEncodeTiled` wrote, which is the value a
// `const __grid_constant__ CUtensorMap` parameter (128 bytes, 64-byte aligned) expects; our
// 128-byte alignment satisfies both CUDA 12's 64 and CUDA 13's 128. A slice of them in device
// memory is an array of `CUtensorMap` 128 bytes apart, each 128-byte aligned when the allocation
// is (`upload` checks). Every bit pattern is a valid value (plain integers), so copies back are
// sound too.
#[allow(unsafe_code)]
unsafe impl cudarc::driver::DeviceRepr for AlignedTensorMap {}

impl AlignedTensorMap {
    /// The map's 128 bytes as the driver wrote them (for copying into a byte buffer of your own,
    /// e.g. kernel parameters packed by hand).
    ///
    /// ```
    /// use smemdesc::cuda::{cudarc::driver::sys::CUtensorMap, AlignedTensorMap};
    /// let mut opaque = [0u64; 16];
    /// opaque[0] = 0x0807_0605_0403_0201;
    /// let m = AlignedTensorMap { map: CUtensorMap { opaque } };
    /// assert_eq!(m.to_bytes()[..8], 0x0807_0605_0403_0201u64.to_ne_bytes());
    /// ```
    pub fn to_bytes(&self) -> [u8; 128] {
        let mut out = [0u8; 128];
        for (chunk, word) in out.chunks_exact_mut(8).zip(self.map.opaque) {
            chunk.copy_from_slice(&word.to_ne_bytes());
        }
        out
    }
}

/// Copies `maps` to a new device allocation on `stream` (in order, 128 bytes each), for a kernel
/// that takes a pointer to its tensor maps instead of the maps by value (a Rust nvptx64 kernel:
/// see the [module docs](self#passing-a-map-to-a-kernel)). Pass the returned slice as the kernel
/// argument; element `i` is at `ptr + 128 * i`.
///
/// The copy is ordered on `stream` before the launches issued after it on that stream; the kernel
/// still needs `fence.proxy.tensormap::generic.acquire.gpu` on a map before using it with TMA.
///
/// # Panics
///
/// If the driver returns an allocation that is not 128-byte aligned (`cuMemAlloc` promises 256).
///
/// ```no_run
/// use smemdesc::*;
/// use smemdesc::cuda::{self, cudarc::driver::{CudaContext, DevicePtr, LaunchConfig, PushKernelArg}};
/// const A: TilePlan = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).expect_valid();
/// let ctx = CudaContext::new(0)?;
/// let stream = ctx.default_stream();
/// let a = stream.alloc_zeros::<u16>(256 * 64)?;
/// let (ptr_a, _sync) = a.device_ptr(&stream);
/// let map = cuda::encode(&TensorMap::for_tile_matrix(&A, 256, 64).address(ptr_a))?;
/// let maps = cuda::upload(&stream, &[map])?; // kernel: `maps: *const CUtensorMap`
/// # let f: cuda::cudarc::driver::CudaFunction = unimplemented!();
/// let mut launch = stream.launch_builder(&f);
/// launch.arg(&maps);
/// unsafe { launch.launch(LaunchConfig::for_num_elems(1)) }?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn upload(
    stream: &std::sync::Arc<cudarc::driver::CudaStream>,
    maps: &[AlignedTensorMap],
) -> Result<cudarc::driver::CudaSlice<AlignedTensorMap>, cudarc::driver::DriverError> {
    use cudarc::driver::DevicePtr;
    let slice = stream.clone_htod(maps)?;
    let (ptr, sync) = slice.device_ptr(stream);
    drop(sync);
    assert!(
        ptr % 128 == 0,
        "the driver returned a device allocation at {ptr:#x}, not 128-byte aligned: tensor maps in global memory need 64 (CUDA 12) or 128 (CUDA 13)"
    );
    Ok(slice)
}

/// Why a tensor map was not encoded.
///
/// ```
/// use smemdesc::{cuda::EncodeError, *};
/// // checked before the driver is called: no GPU needed to see this one
/// let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 100).dim(1, 8).box_dim(0, 8);
/// let e = smemdesc::cuda::encode(&m.address(0)).unwrap_err();
/// assert!(matches!(e, EncodeError::Invalid(TensorMapError::StrideNotMultiple { .. })));
/// assert!(e.to_string().contains("globalStrides[0]"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum EncodeError {
    /// The arguments break a documented (or measured) rule; nothing was sent to the driver.
    Invalid(TensorMapError),
    /// The driver returned `CUDA_ERROR_INVALID_VALUE` for arguments the checks accept.
    DriverRefused {
        /// The arguments sent.
        args: std::boxed::Box<TensorMapArgs>,
    },
    /// No usable driver or context (`NOT_INITIALIZED`, `DEINITIALIZED`, `INVALID_CONTEXT`, or the
    /// library could not be loaded).
    NoContext(sys::CUresult),
    /// Any other driver error.
    Driver(sys::CUresult),
}

impl From<TensorMapError> for EncodeError {
    fn from(e: TensorMapError) -> Self {
        EncodeError::Invalid(e)
    }
}

impl EncodeError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EncodeError::Invalid(e) => write!(f, "cuTensorMapEncodeTiled argument: {e}"),
            EncodeError::DriverRefused { args } => write!(
                f,
                "the driver refused a tensor map smemdesc's checks accept (a rule missing from the checks; please report): {args:?}"
            ),
            EncodeError::NoContext(r) => write!(
                f,
                "cuTensorMapEncodeTiled: no CUDA driver or current context ({r:?}); create a context first"
            ),
            EncodeError::Driver(r) => write!(f, "cuTensorMapEncodeTiled failed: {r:?}"),
        }
    }
}

/// The message of [`EncodeError::Invalid`] includes the [`TensorMapError`]'s (so it has no
/// separate `source`).
///
/// ```
/// use smemdesc::*;
/// fn encode(ptr: u64) -> Result<cuda::AlignedTensorMap, Box<dyn std::error::Error>> {
///     let m = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 1).dim(0, 16).box_dim(0, 16);
///     Ok(cuda::encode(&m.address(ptr))?)
/// }
/// // misaligned: refused before the driver is called, so no GPU is needed to see it
/// assert!(encode(8).unwrap_err().to_string().contains("globalAddress"));
/// ```
impl core::error::Error for EncodeError {}

/// Checks `map` ([`TensorMap::try_args`]) and encodes it with the driver (a current context is
/// needed).
///
/// ```no_run
/// use smemdesc::*;
/// const A: TilePlan = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).expect_valid();
/// let device_ptr: u64 = 0x7f00_0000_0000; // from cuMemAlloc
/// let map = smemdesc::cuda::encode(&TensorMap::for_tile_matrix(&A, 4096, 4096).address(device_ptr)).unwrap();
/// ```
pub fn encode(map: &TensorMap) -> Result<AlignedTensorMap, EncodeError> {
    let args = map.try_args()?;
    encode_args(&args)
}

/// Group `g`'s map of a grouped declaration ([`GroupedMap::group_map`](crate::grouped::GroupedMap::group_map)),
/// checked and encoded: the bytes a kernel's in-place rewrite of the template must produce
/// (`gpu/`'s grouped run compares them), or the template every slot starts from.
///
/// ```no_run
/// use smemdesc::grouped::*;
/// use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType};
/// let c = GroupedMap::new(
///     TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 4096).box_dim(0, 64).box_dim(1, 64),
///     &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
/// ).unwrap();
/// let map = smemdesc::cuda::encode_group(&c, &GroupValues::new(0x7f00_0000_0000).dim(1, 300)).unwrap();
/// ```
pub fn encode_group(
    map: &crate::grouped::GroupedMap,
    g: &crate::grouped::GroupValues,
) -> Result<AlignedTensorMap, EncodeError> {
    encode(&map.group_map(g))
}

/// Encodes arguments as they are, without checking them (for measuring the driver itself:
/// `gpu/`'s agreement test); [`encode`] is the checked form.
///
/// ```no_run
/// use smemdesc::*;
/// let args = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 1).dim(0, 16).box_dim(0, 16).address(0).try_args().unwrap();
/// let r = smemdesc::cuda::encode_args(&args);
/// ```
pub fn encode_args(args: &TensorMapArgs) -> Result<AlignedTensorMap, EncodeError> {
    driver_encode(|map| {
        // SAFETY: the arrays have 5 (4) entries, at least rank (rank - 1) as the call reads, and
        // live across the call; `map` is a valid, writable CUtensorMap.
        #[allow(unsafe_code)]
        unsafe {
            sys::cuTensorMapEncodeTiled(
                map,
                data_type(args.data_type),
                args.rank,
                args.global_address as *mut core::ffi::c_void,
                args.global_dim.as_ptr(),
                args.global_strides.as_ptr(),
                args.box_dim.as_ptr(),
                args.element_strides.as_ptr(),
                interleave(args.interleave),
                swizzle(args.swizzle),
                l2_promotion(args.l2_promotion),
                oob_fill(args.oob_fill),
            )
        }
    })
    .map_err(|e| match e {
        DriverEncodeError::Refused => EncodeError::DriverRefused {
            args: std::boxed::Box::new(*args),
        },
        DriverEncodeError::NoContext(r) => EncodeError::NoContext(r),
        DriverEncodeError::Other(r) => EncodeError::Driver(r),
    })
}

/// How a driver encode call failed ([`driver_encode`]), before each encoder names its arguments.
enum DriverEncodeError {
    /// `CUDA_ERROR_INVALID_VALUE`: the driver refused the arguments.
    Refused,
    /// No driver library, or no usable context.
    NoContext(sys::CUresult),
    /// Any other result.
    Other(sys::CUresult),
}

/// Runs one `cuTensorMapEncode*` call on a zeroed map and sorts its result. cudarc loads libcuda
/// dynamically and panics when it cannot: that is reported as no driver.
fn driver_encode(
    call: impl FnOnce(&mut sys::CUtensorMap) -> sys::CUresult + std::panic::UnwindSafe,
) -> Result<AlignedTensorMap, DriverEncodeError> {
    let run = std::panic::catch_unwind(|| {
        let mut map = sys::CUtensorMap { opaque: [0; 16] };
        let r = call(&mut map);
        (r, map)
    });
    let Ok((r, map)) = run else {
        return Err(DriverEncodeError::NoContext(
            sys::CUresult::CUDA_ERROR_NOT_INITIALIZED,
        ));
    };
    use sys::CUresult as R;
    match r {
        R::CUDA_SUCCESS => Ok(AlignedTensorMap { map }),
        R::CUDA_ERROR_INVALID_VALUE => Err(DriverEncodeError::Refused),
        R::CUDA_ERROR_NOT_INITIALIZED
        | R::CUDA_ERROR_DEINITIALIZED
        | R::CUDA_ERROR_INVALID_CONTEXT => Err(DriverEncodeError::NoContext(r)),
        other => Err(DriverEncodeError::Other(other)),
    }
}

/// The launch configuration cudarc takes, for `block` threads per CTA (the kernel's choice): the
/// grid from the declarations ([`GemmLaunch`]), the dynamic shared memory from the kernel's
/// storage `S` (its `LAUNCH_BYTES`: tiles, barriers, epilogue buffers, slack), so a launch cannot
/// ask for less than the kernel places. A storage smaller than the two tiles need is refused. A
/// `cta_group = 2` launch also needs the cluster dims of [`GemmLaunch::cluster`] set on the launch.
///
/// ```
/// use smemdesc::prelude::*;
/// use smemdesc::GemmLaunch;
/// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
/// struct TileA;
/// #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4)]
/// struct TileB;
/// #[smem_storage(arch = sm90)]
/// struct Storage { a: TileA, b: TileB, full: [Mbarrier; 4], empty: [Mbarrier; 4] }
/// let launch = GemmLaunch::new(&TileA::PLAN, &TileB::PLAN, 4096, 4096).unwrap();
/// let cfg = smemdesc::cuda::launch_config::<Storage>(&launch, 384).unwrap();
/// assert_eq!((cfg.grid_dim, cfg.block_dim.0), ((32, 16, 1), 384));
/// assert_eq!(cfg.shared_mem_bytes, Storage::LAUNCH_BYTES); // 197680: the barriers too
/// ```
pub fn launch_config<S: crate::smem::SmemStorage>(
    launch: &GemmLaunch,
    block: u32,
) -> Result<cudarc::driver::LaunchConfig, crate::LaunchError> {
    let launch = launch.with_storage::<S>()?;
    Ok(cudarc::driver::LaunchConfig {
        grid_dim: (launch.grid[0], launch.grid[1], launch.grid[2]),
        block_dim: (block, 1, 1),
        shared_mem_bytes: launch.shared_mem_bytes,
    })
}

/// The launch configuration of a persistent grouped GEMM: the grid from the schedule
/// ([`GroupedTiles::persistent_grid`](crate::grouped::GroupedTiles::persistent_grid) of `sms`
/// resident CTAs), `block` threads, and the dynamic shared memory of the kernel's storage `S`
/// (its `LAUNCH_BYTES`), so a launch cannot ask for less than the kernel places. A multicast
/// schedule also needs the cluster dims `(x, 1, 1)` set on the launch.
///
/// ```
/// use smemdesc::prelude::*;
/// use smemdesc::grouped::{GroupShape, GroupedTiles};
/// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
/// struct TileA;
/// #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4)]
/// struct TileB;
/// #[smem_storage(arch = sm90)]
/// struct Storage { a: TileA, b: TileB, full: [Mbarrier; 4], empty: [Mbarrier; 4] }
/// #[smemdesc::smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2)]
/// struct Pipe;
/// let groups = [GroupShape { m: 300, n: 4096, k: 4096 }, GroupShape { m: 0, n: 4096, k: 4096 }];
/// let sched = GroupedTiles::new::<Pipe>(&groups, 128, 256, 64).unwrap(); // 3 x 16 tiles
/// let cfg = smemdesc::cuda::grouped_launch_config::<Storage>(&sched, 132, 384);
/// assert_eq!((cfg.grid_dim, cfg.block_dim, cfg.shared_mem_bytes), ((48, 1, 1), (384, 1, 1), Storage::LAUNCH_BYTES));
/// ```
pub fn grouped_launch_config<S: crate::smem::SmemStorage>(
    tiles: &crate::grouped::GroupedTiles<'_>,
    sms: u32,
    block: u32,
) -> cudarc::driver::LaunchConfig {
    cudarc::driver::LaunchConfig {
        grid_dim: (tiles.persistent_grid(sms), 1, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: S::LAUNCH_BYTES,
    }
}

fn data_type(t: TensorMapDataType) -> sys::CUtensorMapDataType {
    use sys::CUtensorMapDataType as D;
    use TensorMapDataType as T;
    match t {
        T::Uint8 => D::CU_TENSOR_MAP_DATA_TYPE_UINT8,
        T::Uint16 => D::CU_TENSOR_MAP_DATA_TYPE_UINT16,
        T::Uint32 => D::CU_TENSOR_MAP_DATA_TYPE_UINT32,
        T::Int32 => D::CU_TENSOR_MAP_DATA_TYPE_INT32,
        T::Uint64 => D::CU_TENSOR_MAP_DATA_TYPE_UINT64,
        T::Int64 => D::CU_TENSOR_MAP_DATA_TYPE_INT64,
        T::Float16 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        T::Float32 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        T::Float64 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
        T::Bfloat16 => D::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        T::Float32Ftz => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
        T::Tfloat32 => D::CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
        T::Tfloat32Ftz => D::CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ,
        T::U4x16Align8B => D::CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
        T::U4x16Align16B => D::CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
        T::U6x16Align16B => D::CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B,
    }
}

fn swizzle(s: TensorMapSwizzle) -> sys::CUtensorMapSwizzle {
    use sys::CUtensorMapSwizzle as W;
    use TensorMapSwizzle as S;
    match s {
        S::None => W::CU_TENSOR_MAP_SWIZZLE_NONE,
        S::B32 => W::CU_TENSOR_MAP_SWIZZLE_32B,
        S::B64 => W::CU_TENSOR_MAP_SWIZZLE_64B,
        S::B128 => W::CU_TENSOR_MAP_SWIZZLE_128B,
        S::B128Atom32B => W::CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B,
        S::B128Atom32BFlip8B => W::CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
        S::B128Atom64B => W::CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B,
    }
}

fn interleave(i: TensorMapInterleave) -> sys::CUtensorMapInterleave {
    use sys::CUtensorMapInterleave as I;
    match i {
        TensorMapInterleave::None => I::CU_TENSOR_MAP_INTERLEAVE_NONE,
        TensorMapInterleave::B16 => I::CU_TENSOR_MAP_INTERLEAVE_16B,
        TensorMapInterleave::B32 => I::CU_TENSOR_MAP_INTERLEAVE_32B,
    }
}

fn l2_promotion(l: TensorMapL2Promotion) -> sys::CUtensorMapL2promotion {
    use sys::CUtensorMapL2promotion as L;
    match l {
        TensorMapL2Promotion::None => L::CU_TENSOR_MAP_L2_PROMOTION_NONE,
        TensorMapL2Promotion::L2_64B => L::CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
        TensorMapL2Promotion::L2_128B => L::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
        TensorMapL2Promotion::L2_256B => L::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
    }
}

fn oob_fill(o: TensorMapOobFill) -> sys::CUtensorMapFloatOOBfill {
    use sys::CUtensorMapFloatOOBfill as F;
    match o {
        TensorMapOobFill::None => F::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        TensorMapOobFill::NanRequestZeroFma => F::CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The conversions are value-preserving for every enumerator (the sys enums are `repr(u32)`
    /// with the `cuda.h` values).
    #[test]
    fn enum_values_agree_with_cudarc() {
        for t in TensorMapDataType::ALL {
            assert_eq!(data_type(t) as u32, t.value(), "{t:?}");
        }
        for s in TensorMapSwizzle::ALL {
            assert_eq!(swizzle(s) as u32, s.value(), "{s:?}");
        }
        for i in TensorMapInterleave::ALL {
            assert_eq!(interleave(i) as u32, i.value());
        }
        for l in TensorMapL2Promotion::ALL {
            assert_eq!(l2_promotion(l) as u32, l.value());
        }
        for o in TensorMapOobFill::ALL {
            assert_eq!(oob_fill(o) as u32, o.value());
        }
    }

    #[test]
    fn wrapper_is_one_128_aligned_map() {
        assert_eq!(core::mem::align_of::<AlignedTensorMap>(), 128);
        assert_eq!(core::mem::size_of::<AlignedTensorMap>(), 128);
        assert_eq!(core::mem::offset_of!(AlignedTensorMap, map), 0);
        // An array of them is an array of CUtensorMap: 128 bytes apart.
        let two = [AlignedTensorMap {
            map: sys::CUtensorMap { opaque: [0; 16] },
        }; 2];
        let (p0, p1) = (&two[0] as *const _ as usize, &two[1] as *const _ as usize);
        assert_eq!((p1 - p0, p0 % 128), (128, 0));
    }

    /// `launch_builder(&f).arg(&map)` and `clone_htod(&[map])` need `DeviceRepr`.
    #[test]
    fn map_is_device_repr() {
        fn device_repr<T: cudarc::driver::DeviceRepr>() {}
        device_repr::<AlignedTensorMap>();
        device_repr::<[AlignedTensorMap; 4]>();
    }
}
