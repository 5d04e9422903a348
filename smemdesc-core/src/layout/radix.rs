//! A [`Mode`] prepared for evaluation at run time: per sub-mode, the divisor that isolates its
//! digit (a shift when it is a power of two), the digit's bound (a mask when it is a power of two;
//! none for the slowest sub-mode) and the stride. Code generic over a tile type takes the
//! `Radix` of a constant mode in one inline `const` block and evaluates it: every field is then a
//! constant of the caller, and each digit is a shift, a mask and a multiply.

use crate::layout::algebra::{Mode, MAX_SUBMODES};

/// One sub-mode's term of [`Radix::eval`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Digit {
    /// The sub-mode exists and has a non-zero shape (`Mode::eval` skips zero shapes).
    active: bool,
    /// `log2(divisor)` when the divisor is a power of two, else `u32::MAX`.
    shift: u32,
    /// The product of the faster sub-modes' shapes (at least 1).
    divisor: u32,
    /// `shape - 1` when the shape is a power of two, else `u32::MAX`; `u32::MAX` for the slowest
    /// active sub-mode too, whose digit is whatever is left.
    mask: u32,
    /// The shape (at least 1), for a bound that is not a power of two.
    shape: u32,
    /// The slowest active sub-mode: no bound.
    last: bool,
    /// The stride.
    stride: u32,
}

const NONE: Digit = Digit {
    active: false,
    shift: 0,
    divisor: 1,
    mask: 0,
    shape: 1,
    last: false,
    stride: 0,
};

/// A mode ready for [`eval`](Self::eval): equal to [`Mode::eval`] for every coordinate below
/// the mode's size (above it, the slowest sub-mode's digit is not reduced).
///
/// ```
/// use smemdesc_core::{Mode, Radix};
/// let m = Mode::new(8, 16).push(3, 128).unwrap().push(2, 4096).unwrap();
/// let r = Radix::of(m);
/// for c in 0..m.size() {
///     assert_eq!(r.eval(c), m.eval(c));
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Radix {
    digits: [Digit; MAX_SUBMODES],
}

// `eval` is written out for four sub-modes.
const _: () = assert!(MAX_SUBMODES == 4);

impl Radix {
    /// Prepares `mode`.
    ///
    /// ```
    /// use smemdesc_core::{Mode, Radix};
    /// assert_eq!(Radix::of(Mode::new(4, 3)).eval(2), 6);
    /// ```
    pub const fn of(mode: Mode) -> Radix {
        let mut digits = [NONE; MAX_SUBMODES];
        let mut last = None;
        let mut i = 0;
        while i < mode.rank() {
            if mode.shape(i) > 0 {
                last = Some(i);
            }
            i += 1;
        }
        let mut i = 0;
        while i < mode.rank() {
            let shape = mode.shape(i);
            if shape > 0 {
                let divisor = mode.prefix_size(i);
                let is_last = matches!(last, Some(l) if l == i);
                digits[i] = Digit {
                    active: true,
                    shift: if divisor.is_power_of_two() {
                        divisor.trailing_zeros()
                    } else {
                        u32::MAX
                    },
                    divisor,
                    mask: if !is_last && shape.is_power_of_two() {
                        shape - 1
                    } else {
                        u32::MAX
                    },
                    shape,
                    last: is_last,
                    stride: mode.stride(i),
                };
            }
            i += 1;
        }
        Radix { digits }
    }

    /// The offset of coordinate `c` (below the mode's size): straight-line code over the four
    /// slots, each a shift (or a division by a constant), a mask (or a remainder) and a multiply.
    ///
    /// ```
    /// use smemdesc_core::{Mode, Radix};
    /// let m = Mode::new(2, 10).push(3, 1).unwrap();
    /// assert_eq!(Radix::of(m).eval(5), 10 + 2);
    /// ```
    // Always inlined where the digits must fold into a few shifts and masks: an optimised build
    // (a kernel's release build, where debug assertions are off). With debug assertions on (an
    // unoptimised build, where nothing folds anyway) a call: inlined there, its four digits' checks
    // were copied into every mode of every generic accessor of every tile type, most of the
    // generated tests' build (776 tiles: 29 -> 14 CPU-seconds).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub const fn eval(self, c: u32) -> u32 {
        self.digit(0, c)
            .wrapping_add(self.digit(1, c))
            .wrapping_add(self.digit(2, c))
            .wrapping_add(self.digit(3, c))
    }

    #[inline(always)]
    const fn digit(self, i: usize, c: u32) -> u32 {
        let d = self.digits[i];
        if !d.active {
            return 0;
        }
        let q = if d.shift != u32::MAX {
            c >> d.shift
        } else {
            c / d.divisor
        };
        let r = if d.last {
            q
        } else if d.mask != u32::MAX {
            q & d.mask
        } else {
            q % d.shape
        };
        r.wrapping_mul(d.stride)
    }
}
