//! The launchers' errors: a shape the kernel cannot run ([`ShapeError`], found before anything
//! reaches the GPU) or what the driver or the tensor-map encoder returned ([`Error`]).

use smemdesc::cuda::cudarc::driver::DriverError;
use smemdesc::cuda::EncodeError;

/// A dimension of a launcher's problem: a GEMM's M, N, K, attention's batch, heads, sequence
/// length and head dimension, a convolution's filters.
///
/// ```
/// use smemdesc_kernels::Dim;
/// assert_eq!(Dim::K.to_string(), "K");
/// assert_eq!(Dim::SeqLen.to_string(), "seqlen");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// Rows of A and C.
    M,
    /// Rows of B, columns of C.
    N,
    /// The reduction: columns of A and B.
    K,
    /// Attention: the batch.
    Batch,
    /// Attention: heads per batch entry.
    Heads,
    /// Attention: the sequence length (queries and keys).
    SeqLen,
    /// Attention: the head dimension.
    HeadDim,
    /// Convolution: output channels (filters), `K_out`.
    Filters,
}

impl core::fmt::Display for Dim {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Dim::M => "M",
            Dim::N => "N",
            Dim::K => "K",
            Dim::Batch => "batch",
            Dim::Heads => "heads",
            Dim::SeqLen => "seqlen",
            Dim::HeadDim => "head_dim",
            Dim::Filters => "K_out",
        })
    }
}

/// Why a launcher refused a shape (nothing was launched).
///
/// ```
/// use smemdesc_kernels::{Dim, GemmShape, ShapeError};
/// // the bf16 GEMM computes whole 128 x 256 tiles of C
/// let e = smemdesc_kernels::gemm_bf16_plan(GemmShape::new(100, 256, 64), 132).unwrap_err();
/// assert_eq!(e, ShapeError::NotMultiple { dim: Dim::M, value: 100, multiple: 128 });
/// assert!(e.to_string().contains("multiple of 128"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeError {
    /// A dimension is zero.
    Zero {
        /// Which.
        dim: Dim,
    },
    /// A dimension is not a multiple of the kernel's tile along it (the kernels compute whole
    /// tiles: no bounds checks on the device).
    NotMultiple {
        /// Which.
        dim: Dim,
        /// The shape's value.
        value: u32,
        /// The tile it must be a multiple of (from the kernel's declarations).
        multiple: u32,
    },
    /// A dimension is larger than a TMA coordinate (a signed 32-bit integer) can reach.
    TooLarge {
        /// Which.
        dim: Dim,
        /// The shape's value.
        value: u32,
        /// The largest accepted.
        max: u32,
    },
    /// A value the kernels have no entry for (attention's head dimension: 64 or 128).
    Unsupported {
        /// Which.
        dim: Dim,
        /// The shape's value.
        value: u32,
        /// The values there are kernels for.
        supported: &'static [u32],
    },
    /// A buffer's length is not the shape's element count.
    Length {
        /// The operand: `"A"`, `"B"`, `"C"` (GEMM), `"Q"`, `"K"`, `"V"`, `"O"`, `"LSE"`
        /// (attention), `"X"`, `"W"`, `"Y"` (convolution).
        operand: &'static str,
        /// Elements in the buffer.
        len: usize,
        /// Elements the shape needs.
        expected: usize,
    },
}

impl core::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ShapeError::Zero { dim } => write!(f, "{dim} is 0"),
            ShapeError::NotMultiple {
                dim,
                value,
                multiple,
            } => write!(
                f,
                "{dim} = {value} is not a multiple of {multiple} (the kernel's tile along {dim})"
            ),
            ShapeError::TooLarge { dim, value, max } => {
                write!(
                    f,
                    "{dim} = {value} is above {max} (a TMA coordinate's range)"
                )
            }
            ShapeError::Unsupported {
                dim,
                value,
                supported,
            } => write!(
                f,
                "{dim} = {value} has no kernel (there are kernels for {supported:?})"
            ),
            ShapeError::Length {
                operand,
                len,
                expected,
            } => write!(
                f,
                "{operand} holds {len} elements, the shape needs {expected}"
            ),
        }
    }
}

impl core::error::Error for ShapeError {}

/// What a launcher or [`Kernels`](crate::Kernels) returns on failure.
///
/// ```
/// use smemdesc_kernels::{Error, GemmShape, ShapeError};
/// let e: Error = smemdesc_kernels::gemm_fp8_plan(GemmShape::new(128, 256, 64), 132).unwrap_err().into();
/// assert!(matches!(e, Error::Shape(ShapeError::NotMultiple { multiple: 128, .. })));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The shape or a buffer's length does not fit the kernel.
    Shape(ShapeError),
    /// A tensor map was refused (by smemdesc's checks or the driver).
    Encode(EncodeError),
    /// The convolution's im2col map was refused (by smemdesc's checks or the driver).
    EncodeIm2col(smemdesc::cuda::Im2colEncodeError),
    /// The PTX module has no entry of this name (built from another commit of
    /// `gpu/rust-kernel`?), or the driver refused to load it.
    MissingKernel {
        /// The entry.
        name: &'static str,
        /// The driver's error.
        source: DriverError,
    },
    /// The device cannot give a CTA the kernel's dynamic shared memory.
    SharedMemory {
        /// The entry.
        name: &'static str,
        /// Bytes the kernel's storage needs.
        need: u32,
        /// Bytes the device allows per block (opt-in maximum).
        max: u32,
    },
    /// The convolution has no implicit-GEMM plan on the kernel's tiles (smemdesc's
    /// `ImplicitGemmA::for_tile`, its walk or the filter's map refused it: channels not a
    /// multiple of 64, a stride above 8, ...).
    Conv(smemdesc::tma::ConvError),
    /// The grouped schedule refused the groups (too many groups with tiles, too many tiles).
    Grouped(smemdesc::grouped::GroupedError),
    /// C's grouped map template was refused.
    GroupedMap(smemdesc::grouped::GroupedMapError),
    /// The PTX file could not be read.
    Io(std::io::Error),
    /// Any other driver call failed.
    Driver(DriverError),
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::Shape(e) => write!(f, "shape refused: {e}"),
            Error::Encode(e) => write!(f, "tensor map: {e}"),
            Error::EncodeIm2col(e) => write!(f, "im2col map: {e}"),
            Error::MissingKernel { name, source } => write!(
                f,
                "kernel {name} not loaded from the PTX module ({source}); build it with gpu/rust-kernel/build_ptx.sh"
            ),
            Error::SharedMemory { name, need, max } => write!(
                f,
                "kernel {name} needs {need} bytes of dynamic shared memory, the device allows {max}"
            ),
            Error::Conv(e) => write!(f, "convolution: {e}"),
            Error::Grouped(e) => write!(f, "grouped schedule: {e:?}"),
            Error::GroupedMap(e) => write!(f, "grouped C map: {e:?}"),
            Error::Io(e) => write!(f, "reading the PTX: {e}"),
            Error::Driver(e) => write!(f, "CUDA driver: {e}"),
        }
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Error::Shape(e) => Some(e),
            Error::Encode(e) => Some(e),
            Error::EncodeIm2col(e) => Some(e),
            Error::MissingKernel { source, .. } => Some(source),
            Error::Io(e) => Some(e),
            Error::Driver(e) => Some(e),
            Error::Conv(e) => Some(e),
            Error::SharedMemory { .. } | Error::Grouped(_) | Error::GroupedMap(_) => None,
        }
    }
}

impl From<ShapeError> for Error {
    fn from(e: ShapeError) -> Self {
        Error::Shape(e)
    }
}

impl From<smemdesc::tma::ConvError> for Error {
    fn from(e: smemdesc::tma::ConvError) -> Self {
        Error::Conv(e)
    }
}

impl From<smemdesc::cuda::Im2colEncodeError> for Error {
    fn from(e: smemdesc::cuda::Im2colEncodeError) -> Self {
        Error::EncodeIm2col(e)
    }
}

impl From<EncodeError> for Error {
    fn from(e: EncodeError) -> Self {
        Error::Encode(e)
    }
}

impl From<DriverError> for Error {
    fn from(e: DriverError) -> Self {
        Error::Driver(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}
