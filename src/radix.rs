//! Mixed-radix evaluation with every number an inline constant: what [`TileAt`](crate::smem::TileAt)
//! evaluates a tile's layout and subtile grid with. A mode of the core's layout algebra
//! (`Mode`: up to four sub-modes of shape and stride) named by a constant expression over a
//! generic tile type becomes straight-line code in which each shape, stride and divisor is an
//! inline `const` block: a power of two is a shift or a mask, anything else a division by a
//! constant (which no declared tile needs: `tests/tile_at.rs` walks them all).

use smemdesc_core::MAX_SUBMODES;

// The evaluation below is written out for four sub-modes per mode.
const _: () = assert!(MAX_SUBMODES == 4);

/// `x`, or 1 for 0: a divisor that is never zero (a zero shape is skipped by `Mode::eval`).
#[doc(hidden)]
pub const fn __nonzero(x: u32) -> u32 {
    if x == 0 {
        1
    } else {
        x
    }
}

/// Digit `$i` of coordinate `$c` in the constant mode `$mode`, times its stride: the shape, the
/// stride and the divisor are inline constants, a power of two is a shift or a mask.
macro_rules! digit {
    ($mode:expr, $i:literal, $c:ident) => {
        if const { $i < $mode.rank() && $mode.shape($i) > 0 } {
            let q = if const { $mode.prefix_size($i).is_power_of_two() } {
                $c >> const { $mode.prefix_size($i).trailing_zeros() }
            } else {
                $c / const { $crate::radix::__nonzero($mode.prefix_size($i)) }
            };
            // The slowest sub-mode takes what is left: in range, the quotient is the digit.
            let d = if const { $i + 1 >= $mode.rank() } {
                q
            } else if const { $mode.shape($i).is_power_of_two() } {
                q & const { $mode.shape($i).wrapping_sub(1) }
            } else {
                q % const { $crate::radix::__nonzero($mode.shape($i)) }
            };
            d.wrapping_mul(const { $mode.stride($i) })
        } else {
            0
        }
    };
}

/// `Mode::eval` of the constant mode `$mode` at `$c < size`, straight-line.
macro_rules! mode_eval {
    ($mode:expr, $c:expr) => {{
        let c: u32 = $c;
        $crate::radix::digit!($mode, 0, c)
            .wrapping_add($crate::radix::digit!($mode, 1, c))
            .wrapping_add($crate::radix::digit!($mode, 2, c))
            .wrapping_add($crate::radix::digit!($mode, 3, c))
    }};
}

/// `$x % $n` for a constant `$n`: a mask when it is a power of two.
macro_rules! reduce {
    ($x:expr, $n:expr) => {
        if const { $n.is_power_of_two() } {
            $x & const { $n.wrapping_sub(1) }
        } else {
            $x % const { $crate::radix::__nonzero($n) }
        }
    };
}

pub(crate) use {digit, mode_eval, reduce};
