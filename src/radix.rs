//! Mixed-radix evaluation with every number a constant: what [`TileAt`](crate::smem::TileAt)
//! evaluates a tile's layout and subtile grid with. A mode of the core's layout algebra (`Mode`:
//! up to four sub-modes of shape and stride) named by a constant expression over a generic tile
//! type becomes its [`Radix`](crate::Radix), computed in an inline `const` block, then
//! straight-line code on its fields: a power of two is a shift or a mask, anything else a
//! division by a constant (which no declared tile needs: `generated/tests/cases/tile_at.rs` walks them all).

/// `x`, or 1 for 0: a divisor that is never zero (a zero shape is skipped by `Mode::eval`).
#[doc(hidden)]
pub const fn __nonzero(x: u32) -> u32 {
    if x == 0 {
        1
    } else {
        x
    }
}

/// `Mode::eval` of the constant mode `$mode` at `$c < size`: the mode's [`Radix`](crate::Radix)
/// taken in one inline `const` block (one evaluation per call site: cheap to build), then
/// straight-line shifts, masks and multiplies on its constant fields.
macro_rules! mode_eval {
    ($mode:expr, $c:expr) => {{
        let r: $crate::Radix = const { $crate::Radix::of($mode) };
        r.eval($c)
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

pub(crate) use {mode_eval, reduce};
