//! The canonical swizzle atoms (CuTe `Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom`).

use crate::base::arch::Major;
use crate::base::dtype::ElementType;
use crate::base::error::Error;
use crate::base::swizzle::SwizzleMode;
use crate::layout::algebra::{Layout, Mode, SwizzledLayout};

/// A swizzle atom: the smallest block of a tile that the swizzle permutes as a whole, stored in
/// [`SwizzleMode::atom_bytes`] contiguous bytes.
///
/// In elements, with `T` elements per 16 bytes, `W` 16-byte units per atom row and `R` rows
/// (8, or 4 for `128B_base32B`):
/// * K-major: `(R, W·T):(W·T, 1)` — R rows of M/N, each `W·16` bytes of K.
/// * MN-major: `(W·T, R):(1, W·T)` — `W·16` bytes of M/N, R rows of K.
///
/// composed with the mode's swizzle functor on byte addresses.
///
/// ```
/// use smemdesc_core::{Atom, ElementType, Major, SwizzleMode};
/// let a = Atom::new(Major::K, SwizzleMode::B128, ElementType::BF16).unwrap();
/// assert_eq!((a.mn_extent(), a.k_extent()), (8, 64));
/// let b = Atom::new(Major::Mn, SwizzleMode::B64, ElementType::E4M3).unwrap();
/// assert_eq!((b.mn_extent(), b.k_extent()), (64, 8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// Which dimension is contiguous.
    pub major: Major,
    /// The swizzle mode.
    pub swizzle: SwizzleMode,
    /// The element type.
    pub dtype: ElementType,
    /// The atom's element-offset layout (before the swizzle).
    pub layout: Layout,
}

impl Atom {
    /// The canonical atom. `128B_base32B` exists only MN-major.
    ///
    /// ```
    /// use smemdesc_core::{Atom, ElementType, Major, SwizzleMode};
    /// assert!(Atom::new(Major::K, SwizzleMode::B128Base32B, ElementType::TF32).is_err());
    /// ```
    pub const fn new(
        major: Major,
        swizzle: SwizzleMode,
        dtype: ElementType,
    ) -> Result<Atom, Error> {
        let row = swizzle.atom_width() / dtype.smem_bytes();
        let rows = swizzle.atom_rows();
        let layout = match major {
            Major::K => {
                if matches!(swizzle, SwizzleMode::B128Base32B) {
                    return Err(Error::SwizzleNotForOperand {
                        swizzle,
                        major,
                        dtype,
                    });
                }
                Layout::new(Mode::new(rows, row), Mode::new(row, 1))
            }
            Major::Mn => Layout::new(Mode::new(row, 1), Mode::new(rows, row)),
        };
        Ok(Atom {
            major,
            swizzle,
            dtype,
            layout,
        })
    }

    /// Elements along M/N.
    ///
    /// ```
    /// use smemdesc_core::{Atom, ElementType, Major, SwizzleMode};
    /// assert_eq!(Atom::new(Major::Mn, SwizzleMode::B128, ElementType::BF16).unwrap().mn_extent(), 64);
    /// ```
    pub const fn mn_extent(&self) -> u32 {
        self.layout.mn.size()
    }

    /// Elements along K.
    ///
    /// ```
    /// use smemdesc_core::{Atom, ElementType, Major, SwizzleMode};
    /// assert_eq!(Atom::new(Major::K, SwizzleMode::None, ElementType::TF32).unwrap().k_extent(), 4);
    /// ```
    pub const fn k_extent(&self) -> u32 {
        self.layout.k.size()
    }

    /// The atom with its swizzle, as a byte-address layout.
    ///
    /// ```
    /// use smemdesc_core::{Atom, ElementType, Major, SwizzleMode};
    /// let a = Atom::new(Major::K, SwizzleMode::B32, ElementType::BF16).unwrap().swizzled();
    /// assert_eq!(a.byte_address(0, 2, 0), 64); // rows 0-3 of a 32 B-wide atom are not permuted
    /// assert_eq!(a.byte_address(0, 4, 0), 128 + 16); // row 4: address bit 7 flips chunk bit 4
    /// ```
    pub const fn swizzled(&self) -> SwizzledLayout {
        SwizzledLayout::new(self.swizzle.functor(), self.layout, self.dtype.smem_bytes())
    }
}
