//! Im2col tensor maps through the driver's `cuTensorMapEncodeIm2col`: the checked
//! [`encode_im2col`] and the unchecked [`encode_im2col_args`] (for measuring the driver).

extern crate std;

use super::{
    data_type, driver_encode, interleave, l2_promotion, oob_fill, swizzle, AlignedTensorMap,
    DriverEncodeError,
};
use crate::{Im2colArgs, Im2colError, Im2colMap};
use cudarc::driver::sys;
use std::boxed::Box;

/// Why an im2col tensor map was not encoded.
///
/// ```
/// use smemdesc::{cuda::Im2colEncodeError, *};
/// // checked before the driver is called: no GPU needed to see this one
/// let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 3)
///     .dim(0, 64).dim(1, 10).dim(2, 1).channels_per_pixel(64).pixels_per_column(2000);
/// let e = smemdesc::cuda::encode_im2col(&m.address(0)).unwrap_err();
/// assert!(matches!(e, Im2colEncodeError::Invalid(Im2colError::PixelsOutOfRange { .. })));
/// assert!(e.to_string().contains("pixelsPerColumn"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Im2colEncodeError {
    /// The arguments break a documented (or measured) rule; nothing was sent to the driver.
    Invalid(Im2colError),
    /// The driver returned `CUDA_ERROR_INVALID_VALUE` for arguments the checks accept (or, from
    /// [`encode_im2col_args`], for any arguments).
    DriverRefused {
        /// The arguments sent.
        args: Box<Im2colArgs>,
    },
    /// No usable driver or context (`NOT_INITIALIZED`, `DEINITIALIZED`, `INVALID_CONTEXT`, or the
    /// library could not be loaded).
    NoContext(sys::CUresult),
    /// Any other driver error.
    Driver(sys::CUresult),
}

impl From<Im2colError> for Im2colEncodeError {
    fn from(e: Im2colError) -> Self {
        Im2colEncodeError::Invalid(e)
    }
}

impl Im2colEncodeError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Im2colEncodeError::Invalid(e) => write!(f, "cuTensorMapEncodeIm2col argument: {e}"),
            Im2colEncodeError::DriverRefused { args } => write!(
                f,
                "the driver refused an im2col tensor map (CUDA_ERROR_INVALID_VALUE): {args:?}"
            ),
            Im2colEncodeError::NoContext(r) => write!(
                f,
                "cuTensorMapEncodeIm2col: no CUDA driver or current context ({r:?}); create a context first"
            ),
            Im2colEncodeError::Driver(r) => write!(f, "cuTensorMapEncodeIm2col failed: {r:?}"),
        }
    }
}

/// The message of [`Im2colEncodeError::Invalid`] includes the [`Im2colError`]'s.
///
/// ```
/// use smemdesc::*;
/// fn encode(ptr: u64) -> Result<cuda::AlignedTensorMap, Box<dyn std::error::Error>> {
///     let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3)
///         .dim(0, 16).dim(1, 16).dim(2, 1).channels_per_pixel(16);
///     Ok(cuda::encode_im2col(&m.address(ptr))?)
/// }
/// assert!(encode(8).unwrap_err().to_string().contains("globalAddress"));
/// ```
impl core::error::Error for Im2colEncodeError {}

/// Checks `map` ([`Im2colMap::try_args`]) and encodes it with the driver's
/// `cuTensorMapEncodeIm2col` (a current context is needed).
///
/// ```no_run
/// use smemdesc::*;
/// let device_ptr: u64 = 0x7f00_0000_0000; // from cuMemAlloc: NHWC bf16, 8 x 56 x 56 x 64
/// let m = Im2colMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 4)
///     .dim(0, 64).dim(1, 56).dim(2, 56).dim(3, 8)
///     .lower(0, -1).lower(1, -1).upper(0, -1).upper(1, -1)
///     .channels_per_pixel(64).pixels_per_column(128).swizzle(TensorMapSwizzle::B128);
/// let map = smemdesc::cuda::encode_im2col(&m.address(device_ptr)).unwrap();
/// ```
pub fn encode_im2col(map: &Im2colMap) -> Result<AlignedTensorMap, Im2colEncodeError> {
    let args = map.try_args()?;
    encode_im2col_args(&args)
}

/// Encodes im2col arguments as they are, without checking them (for measuring the driver itself:
/// `gpu/`'s im2col driver set); [`encode_im2col`] is the checked form. Only a rank above 5 is
/// refused without calling the driver (it would read past the arrays).
///
/// ```no_run
/// use smemdesc::*;
/// let args = Im2colMap::new(Arch::Sm90, TensorMapDataType::Uint8, 3).dim(0, 16).dim(1, 16).dim(2, 1)
///     .channels_per_pixel(16).address(0).try_args().unwrap();
/// let r = smemdesc::cuda::encode_im2col_args(&args);
/// ```
pub fn encode_im2col_args(args: &Im2colArgs) -> Result<AlignedTensorMap, Im2colEncodeError> {
    // The driver reads `rank` entries of the 5-entry arrays: a larger rank is not sent.
    if args.rank > 5 {
        return Err(Im2colEncodeError::Invalid(Im2colError::RankOutOfRange {
            rank: args.rank,
        }));
    }
    driver_encode(|map| {
        // SAFETY: the driver reads `rank` (≤ 5 here) entries of globalDim and elementStrides,
        // `rank - 1` of globalStrides and `rank - 2` of each corner; the arrays have 5, 4 and 3
        // entries, and live across the call (a larger rank returned above); `map` is a valid,
        // writable CUtensorMap.
        #[allow(unsafe_code)]
        unsafe {
            sys::cuTensorMapEncodeIm2col(
                map,
                data_type(args.data_type),
                args.rank,
                args.global_address as *mut core::ffi::c_void,
                args.global_dim.as_ptr(),
                args.global_strides.as_ptr(),
                args.lower_corner.as_ptr(),
                args.upper_corner.as_ptr(),
                args.channels_per_pixel,
                args.pixels_per_column,
                args.element_strides.as_ptr(),
                interleave(args.interleave),
                swizzle(args.swizzle),
                l2_promotion(args.l2_promotion),
                oob_fill(args.oob_fill),
            )
        }
    })
    .map_err(|e| match e {
        DriverEncodeError::Refused => Im2colEncodeError::DriverRefused {
            args: Box::new(*args),
        },
        DriverEncodeError::NoContext(r) => Im2colEncodeError::NoContext(r),
        DriverEncodeError::Other(r) => Im2colEncodeError::Driver(r),
    })
}
