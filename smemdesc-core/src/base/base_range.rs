//! Where a tile may be placed: the errors about the SMEM address a tile is used at, as opposed to
//! its layout. A descriptor's start address is a 14-bit field of 16-byte units, so every subtile
//! of every stage must start below 256 KiB; when the layout alone fits, a start past that is the
//! base address's fault, and the error says so and how high the base may go.

use crate::base::error::{Error, Field};

/// The descriptor start-address field's range: starts are below this (bytes).
pub(crate) const START_LIMIT: u64 = 1 << 18;

/// The start-address field (14 bits of 16-byte units) of a subtile `units` 16-byte units past a
/// tile at `smem_addr`, taken modulo the field: what every descriptor path ORs into its base
/// descriptor (a checked path has already refused a start past the field).
#[inline(always)]
pub(crate) const fn start_field(smem_addr: u32, units: u32) -> u64 {
    ((smem_addr >> 4).wrapping_add(units) & ((1 << 14) - 1)) as u64
}

/// The error for a tile at `smem_addr` whose last subtile (of its last stage) starts `last_start`
/// bytes in, at or past 256 KiB: [`Error::BaseTooHigh`] when the tile placed at 0 fits (naming the
/// highest base, a multiple of `align`, at which it does), else the layout's
/// [`Error::FieldOverflow`].
///
/// ```
/// # use smemdesc_core::*;
/// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).build().unwrap();
/// // the last subtile, (1, 3), starts 8192 + 96 B into the tile: at base 0x3ff80 it would start
/// // at 0x41fe0, past the field; the whole tile fits at 0x3df80 and below
/// let e = t.try_desc(0x3ff80, 0, 0, 0).unwrap_err();
/// assert_eq!(e, Error::BaseTooHigh { base: 0x3ff80, offset: 8288, highest_base: 0x3df80 });
/// assert_eq!(e.argument(), Argument::Use);
/// ```
pub(crate) const fn start_out_of_range(smem_addr: u32, last_start: u32, align: u32) -> Error {
    let start = smem_addr as u64 + last_start as u64;
    let last = last_start as u64;
    if smem_addr != 0 && last < START_LIMIT {
        let align = align as u64;
        // The highest base at which every subtile of every stage starts in range.
        let highest = (START_LIMIT - 16 - last) / align * align;
        return Error::BaseTooHigh {
            base: smem_addr,
            offset: last_start,
            highest_base: highest as u32,
        };
    }
    Error::FieldOverflow {
        field: Field::StartAddress,
        bytes: if start > u32::MAX as u64 {
            u32::MAX
        } else {
            start as u32
        },
    }
}
