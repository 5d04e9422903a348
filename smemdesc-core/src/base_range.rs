//! Where a tile may be placed: the errors about the SMEM address a tile is used at, as opposed to
//! its layout. A descriptor's start address is a 14-bit field of 16-byte units, so every subtile
//! of every stage must start below 256 KiB; when the layout alone fits, a start past that is the
//! base address's fault, and the error says so and how high the base may go.

use crate::error::{Error, Field};
use crate::tile::TileLayout;

/// The descriptor start-address field's range: starts are below this (bytes).
const START_LIMIT: u64 = 1 << 18;

/// The error for a subtile start `start` (bytes) at or past 256 KiB, for `tile` placed at
/// `smem_addr`: [`Error::BaseTooHigh`] when the tile placed at 0 fits, else the layout's
/// [`Error::FieldOverflow`].
///
/// ```
/// # use smemdesc_core::*;
/// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).build().unwrap();
/// // subtile (1, 0) starts 8192 B into the tile: at base 0x3ff80 it would start at 0x41f80
/// let e = t.try_desc(0x3ff80, 1, 0, 0).unwrap_err();
/// assert_eq!(e, Error::BaseTooHigh { base: 0x3ff80, offset: 8192, highest_base: 0x3df80 });
/// assert_eq!(e.argument(), Argument::Use);
/// ```
pub(crate) const fn start_out_of_range(tile: &TileLayout, smem_addr: u32, start: u64) -> Error {
    let offset = start - smem_addr as u64;
    let last = last_start(tile) as u64;
    if smem_addr != 0 && last < START_LIMIT {
        let align = if tile.swizzle_mode().is_swizzled() {
            128
        } else {
            16
        };
        // The highest base at which every subtile of every stage starts in range.
        let highest = (START_LIMIT - 16 - last) / align * align;
        return Error::BaseTooHigh {
            base: smem_addr,
            offset: offset as u32,
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

/// The largest start offset (bytes from the tile base) of any subtile of any stage.
const fn last_start(tile: &TileLayout) -> u32 {
    let mut max = 0;
    let mut i = 0;
    while i < tile.mmas_mn() {
        let mut j = 0;
        while j < tile.mmas_k() {
            let o = tile.subtile_offset_bytes(i, j);
            if o > max {
                max = o;
            }
            j += 1;
        }
        i += 1;
    }
    max.saturating_add((tile.spec().stages - 1).saturating_mul(tile.stage_bytes()))
}
