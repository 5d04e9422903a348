//! The Blackwell 128 KiB out-of-bounds window (issue 46, item 3). With the out-of-bounds
//! address generation mode `OOB_ADDR_GEN_MODE_BASE_128kB` (the mode TensorRT-LLM's trtllm-gen
//! MoE GEMMs use on sm100/sm103), the TMA unit may probe addresses up to a 128 KiB-aligned
//! boundary past the map's base even though the kernel never reads them, so the backing buffer
//! must start 128 KiB-aligned and own at least 128 KiB of mapped memory from that base; a
//! buffer that does not faults sporadically (`cudaErrorIllegalAddress`) when the probe crosses
//! into an unmapped neighbour. Source: TensorRT-LLM pull request #18133 (NVBug 6525059, merged
//! 2026-08-24), a measured fact of theirs; the public `cuTensorMapEncodeTiled` documentation
//! does not name the mode, so the rule is data of that report, not of the driver API.

use crate::tma::tensor_map::{TensorMap, TensorMapArgs};

/// The window: 128 KiB, the alignment and the headroom the mode needs.
pub const OOB_WINDOW_128K: u64 = 128 * 1024;

/// Why a buffer cannot back a map in the 128 KiB out-of-bounds mode.
///
/// ```
/// use smemdesc_core::tma::{check_oob_base_128kb, OobWindowError};
/// assert_eq!(check_oob_base_128kb(0x7f00_0002_0200, 1 << 20),
///            Err(OobWindowError::Misaligned { address: 0x7f00_0002_0200 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OobWindowError {
    /// The buffer's base is not 128 KiB-aligned.
    Misaligned {
        /// The base.
        address: u64,
    },
    /// The buffer owns fewer than 128 KiB from its base.
    Headroom {
        /// The base.
        address: u64,
        /// The bytes it owns.
        bytes: u64,
    },
    /// The map's address is left to the host (an open `globalAddress`): nothing to check.
    AddressUnknown,
}

impl OobWindowError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            OobWindowError::Misaligned { address } => write!(
                f,
                "the buffer at {address:#x} backs a map in OOB_ADDR_GEN_MODE_BASE_128kB but is not 128 KiB-aligned (TensorRT-LLM #18133: TMA may probe up to a 128 KiB boundary past the base); legal: a base that is a multiple of 131072"
            ),
            OobWindowError::Headroom { address, bytes } => write!(
                f,
                "the buffer at {address:#x} backs a map in OOB_ADDR_GEN_MODE_BASE_128kB but owns {bytes} B from its base (TensorRT-LLM #18133: TMA may probe 128 KiB past it); legal: at least 131072 B mapped from the base"
            ),
            OobWindowError::AddressUnknown => f.write_str(
                "the map's globalAddress is open: the 128 KiB out-of-bounds window is checked on the buffer the host gives",
            ),
        }
    }
}

/// The rule: a buffer at `address` owning `bytes` from it can back a map in the 128 KiB
/// out-of-bounds mode.
///
/// ```
/// use smemdesc_core::tma::{check_oob_base_128kb, OobWindowError};
/// assert!(check_oob_base_128kb(0x7f00_0002_0000, 128 * 1024).is_ok());
/// // A 512-B aligned slice of a caching pool (what PR #18133 hit):
/// assert!(check_oob_base_128kb(0x7f00_0002_0200, 1 << 20).is_err());
/// assert_eq!(check_oob_base_128kb(0x7f00_0002_0000, 4096),
///            Err(OobWindowError::Headroom { address: 0x7f00_0002_0000, bytes: 4096 }));
/// ```
pub const fn check_oob_base_128kb(address: u64, bytes: u64) -> Result<(), OobWindowError> {
    if address % OOB_WINDOW_128K != 0 {
        return Err(OobWindowError::Misaligned { address });
    }
    if bytes < OOB_WINDOW_128K {
        return Err(OobWindowError::Headroom { address, bytes });
    }
    Ok(())
}

/// The bytes a map's tensor spans from its base: the last element's end (`Σ (dim[i] - 1) ·
/// stride[i - 1]` plus the innermost row, `dim[0]` elements, or `stride[0]` when that row is
/// padded). A buffer of exactly these bytes is what an allocator that fits the tensor hands out.
///
/// ```
/// use smemdesc_core::*;
/// let a = TensorMap::new(Arch::Sm100, TensorMapDataType::Bfloat16, 2)
///     .dim(0, 64).dim(1, 8).box_dim(0, 64).box_dim(1, 8).address(0x7f00_0000_0000)
///     .try_args().unwrap();
/// assert_eq!(smemdesc_core::tma::tensor_span_bytes(&a), 8 * 64 * 2);
/// ```
pub const fn tensor_span_bytes(a: &TensorMapArgs) -> u64 {
    let row = (a.global_dim[0] * a.data_type.global_bits() as u64).div_ceil(8);
    let mut span = row;
    let mut i = 1;
    while i < a.rank as usize && i < 5 {
        span = span.saturating_add((a.global_dim[i] - 1).saturating_mul(a.global_strides[i - 1]));
        i += 1;
    }
    span
}

impl TensorMap {
    /// [`check_oob_base_128kb`] for this map's buffer: its `globalAddress` and the `bytes` the
    /// buffer owns from it (at least the tensor's span, [`tensor_span_bytes`]). The host map
    /// builder's rule for a map encoded in `OOB_ADDR_GEN_MODE_BASE_128kB` (sm100/sm103).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// use smemdesc_core::tma::OobWindowError;
    /// let t = TensorMap::new(Arch::Sm100, TensorMapDataType::Bfloat16, 2)
    ///     .dim(0, 4096).dim(1, 8).box_dim(0, 64).box_dim(1, 8);
    /// // An 8-row decode batch, 64 KiB, in a buffer of its own size: no headroom.
    /// assert_eq!(t.address(0x7f00_0002_0000).check_oob_base_128kb(8 * 4096 * 2),
    ///            Err(OobWindowError::Headroom { address: 0x7f00_0002_0000, bytes: 65536 }));
    /// assert!(t.address(0x7f00_0002_0000).check_oob_base_128kb(128 * 1024).is_ok());
    /// assert_eq!(t.check_oob_base_128kb(1 << 20), Err(OobWindowError::AddressUnknown));
    /// ```
    pub const fn check_oob_base_128kb(&self, bytes: u64) -> Result<(), OobWindowError> {
        match self.global_address {
            Some(a) => check_oob_base_128kb(a, bytes),
            None => Err(OobWindowError::AddressUnknown),
        }
    }
}
