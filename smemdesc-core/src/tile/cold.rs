//! The checked forms' failing paths, out of the hot path (for the core's and the facade's checked
//! forms; not an API).
//!
//! A checked form compares plain numbers inline and, on a failure, returns what one of these
//! functions returns: the whole `Result`, its `Err` already built; an asserting form calls its
//! checked form, matches `Ok` only, and on `Err(_)` calls a cold `*_fail` that rebuilds the error
//! and fails. Each is `#[cold]` off nvptx64, which keeps rustc's MIR inliner from inlining it
//! (LLVM still may, on the cold edge), and each constructor is straight-line (one variant:
//! [`__start_result`] chooses between two). So the checked form itself never builds an `Error`,
//! wraps one in an `Err` or takes one out of it: under a codegen backend that lowers an enum
//! payload sharing bytes with another variant's field through a stack slot at the point of use
//! (cuda-oxide, which compiles the host's MIR: `target_arch` is the host's there), the slot is in
//! the entry block of a small cold function, not in the kernel's loop, and the kernel keeps a
//! 0-byte frame (issue 44: `gpu/cuda-oxide/README.md`). On nvptx64 (stock rustc and LLVM) they
//! are `#[inline(always)]` and not cold: the PTX is what it was. The error values are the same.
//!
//! ```
//! use smemdesc_core::{access::__cold, Error, Indexed};
//! let r: Result<u32, Error> = __cold::__index_error(Indexed::Stage, 4, 4);
//! assert_eq!(r, Err(Error::IndexOutOfRange { what: Indexed::Stage, index: 4, count: 4 }));
//! ```

use crate::base::base_range::{start_out_of_range, START_LIMIT};
use crate::base::error::{Error, Field};
use crate::base::error_data::Indexed;

/// `Err(IndexOutOfRange { what, index, count })`.
///
/// ```
/// use smemdesc_core::{access::__cold::__index_error, Error, Indexed};
/// let r: Result<(), Error> = __index_error(Indexed::SubtileK, 5, 4);
/// assert_eq!(r, Err(Error::IndexOutOfRange { what: Indexed::SubtileK, index: 5, count: 4 }));
/// ```
#[doc(hidden)]
#[cfg_attr(not(target_arch = "nvptx64"), cold)]
#[cfg_attr(target_arch = "nvptx64", inline(always))]
#[cfg_attr(not(target_arch = "nvptx64"), inline)]
pub const fn __index_error<T>(what: Indexed, index: u32, count: u32) -> Result<T, Error> {
    Err(Error::IndexOutOfRange { what, index, count })
}

/// `Err(UnalignedBase { addr, align })`.
///
/// ```
/// use smemdesc_core::{access::__cold::__unaligned_error, Error};
/// let r: Result<u64, Error> = __unaligned_error(0x440, 128);
/// assert_eq!(r, Err(Error::UnalignedBase { addr: 0x440, align: 128 }));
/// ```
#[doc(hidden)]
#[cfg_attr(not(target_arch = "nvptx64"), cold)]
#[cfg_attr(target_arch = "nvptx64", inline(always))]
#[cfg_attr(not(target_arch = "nvptx64"), inline)]
pub const fn __unaligned_error<T>(addr: u32, align: u32) -> Result<T, Error> {
    Err(Error::UnalignedBase { addr, align })
}

/// `Err(FieldOverflow { field: StartAddress, bytes })`, `bytes` the end saturated to `u32`.
///
/// ```
/// use smemdesc_core::{access::__cold::__start_overflow, Error, Field};
/// let r: Result<(), Error> = __start_overflow(0x4_0000);
/// assert_eq!(r, Err(Error::FieldOverflow { field: Field::StartAddress, bytes: 0x4_0000 }));
/// ```
#[doc(hidden)]
#[cfg_attr(not(target_arch = "nvptx64"), cold)]
#[cfg_attr(target_arch = "nvptx64", inline(always))]
#[cfg_attr(not(target_arch = "nvptx64"), inline)]
pub const fn __start_overflow<T>(end: u64) -> Result<T, Error> {
    let bytes = if end > u32::MAX as u64 {
        u32::MAX
    } else {
        end as u32
    };
    Err(Error::FieldOverflow {
        field: Field::StartAddress,
        bytes,
    })
}

/// `Err(BaseTooHigh { .. })` for a nonzero base whose tile's last start is below the limit.
#[cfg_attr(not(target_arch = "nvptx64"), cold)]
#[cfg_attr(target_arch = "nvptx64", inline(always))]
#[cfg_attr(not(target_arch = "nvptx64"), inline)]
const fn base_too_high<T>(smem_addr: u32, last_start: u32, align: u32) -> Result<T, Error> {
    Err(start_out_of_range(smem_addr, last_start, align))
}

/// `Err` of [`__start_error`](crate::access::__start_error): a tile at `smem_addr` whose last
/// subtile starts past the 14-bit start field (`BaseTooHigh`, or `FieldOverflow` at base 0 or
/// when the tile alone is too large).
///
/// ```
/// use smemdesc_core::{access::{__cold::__start_result, __start_error}};
/// let r: Result<(), smemdesc_core::Error> = __start_result(0x4_0000, 96, 128);
/// assert_eq!(r, Err(__start_error(0x4_0000, 96, 128)));
/// ```
#[doc(hidden)]
#[cfg_attr(not(target_arch = "nvptx64"), cold)]
#[cfg_attr(target_arch = "nvptx64", inline(always))]
#[cfg_attr(not(target_arch = "nvptx64"), inline)]
pub const fn __start_result<T>(smem_addr: u32, last_start: u32, align: u32) -> Result<T, Error> {
    if smem_addr != 0 && (last_start as u64) < START_LIMIT {
        base_too_high(smem_addr, last_start, align)
    } else {
        __start_overflow(smem_addr as u64 + last_start as u64)
    }
}

/// The asserting forms' failure for an index out of range, from plain numbers (the error is
/// built here, in the cold path): [`__fail`](crate::access::__fail) of `IndexOutOfRange`.
///
/// ```
/// use smemdesc_core::{access::__cold::__fail_index, Indexed};
/// assert!(std::panic::catch_unwind(|| __fail_index(Indexed::TmaBox, 2, 2)).is_err());
/// ```
#[doc(hidden)]
#[cfg_attr(not(target_arch = "nvptx64"), cold)]
#[track_caller]
#[cfg_attr(target_arch = "nvptx64", inline(always))]
#[cfg_attr(not(target_arch = "nvptx64"), inline)]
pub const fn __fail_index(what: Indexed, index: u32, count: u32) -> ! {
    crate::tile::access::__fail(&Error::IndexOutOfRange { what, index, count })
}

/// The asserting forms' failure for a base off the alignment: [`__fail`](crate::access::__fail)
/// of `UnalignedBase`.
///
/// ```
/// use smemdesc_core::access::__cold::__fail_unaligned;
/// assert!(std::panic::catch_unwind(|| __fail_unaligned(0x440, 128)).is_err());
/// ```
#[doc(hidden)]
#[cfg_attr(not(target_arch = "nvptx64"), cold)]
#[track_caller]
#[cfg_attr(target_arch = "nvptx64", inline(always))]
#[cfg_attr(not(target_arch = "nvptx64"), inline)]
pub const fn __fail_unaligned(addr: u32, align: u32) -> ! {
    crate::tile::access::__fail(&Error::UnalignedBase { addr, align })
}

/// The asserting forms' failure for a tile past the start field:
/// [`__fail`](crate::access::__fail) of [`__start_error`](crate::access::__start_error)'s error.
///
/// ```
/// use smemdesc_core::access::__cold::__fail_start;
/// assert!(std::panic::catch_unwind(|| __fail_start(0x4_0000, 96, 128)).is_err());
/// ```
#[doc(hidden)]
#[cfg_attr(not(target_arch = "nvptx64"), cold)]
#[track_caller]
#[cfg_attr(target_arch = "nvptx64", inline(always))]
#[cfg_attr(not(target_arch = "nvptx64"), inline)]
pub const fn __fail_start(smem_addr: u32, last_start: u32, align: u32) -> ! {
    crate::tile::access::__fail(&start_out_of_range(smem_addr, last_start, align))
}

/// The asserting forms' failures of [`TileAccess`](crate::TileAccess): the checked form's error
/// for the same arguments, as the panic (called only where the checked form refused them).
impl crate::TileAccess {
    /// [`desc`](crate::TileAccess::desc)'s failure.
    #[cfg_attr(not(target_arch = "nvptx64"), cold)]
    #[track_caller]
    #[cfg_attr(target_arch = "nvptx64", inline(always))]
    #[cfg_attr(not(target_arch = "nvptx64"), inline)]
    pub(crate) const fn desc_fail(&self, smem_addr: u32, mn: u32, k: u32, stage: u32) -> ! {
        match self.try_desc(smem_addr, mn, k, stage) {
            Err(e) => crate::tile::access::__fail(&e),
            Ok(_) => __fail_index(Indexed::SubtileMn, mn, self.mmas_mn), // not reached
        }
    }

    /// [`offset`](crate::TileAccess::offset)'s failure.
    #[cfg_attr(not(target_arch = "nvptx64"), cold)]
    #[track_caller]
    #[cfg_attr(target_arch = "nvptx64", inline(always))]
    #[cfg_attr(not(target_arch = "nvptx64"), inline)]
    pub(crate) const fn offset_fail(&self, mn: u32, k: u32) -> ! {
        match self.try_offset(mn, k) {
            Err(e) => crate::tile::access::__fail(&e),
            Ok(_) => __fail_index(Indexed::ElementMn, mn, self.tile_mn), // not reached
        }
    }
}
