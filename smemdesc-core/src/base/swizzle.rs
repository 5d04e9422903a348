//! The swizzle functor (CuTe `Swizzle<B, M, S>`) and the MMA swizzle modes.

/// CuTe's `Swizzle<B, M, S>`: `o ^ ((o & yyy_mask) >> S)` with `yyy_mask = ((1 << B) - 1) << (M + S)`.
///
/// It XORs the `B` bits at `[M + S, M + S + B)` into the `B` bits at `[M, M + B)`. On **byte**
/// addresses the tensor-core swizzles use `M = 4` (16-byte chunks). The hardware applies it to the
/// absolute shared-memory address.
///
/// ```
/// use smemdesc_core::Swizzle;
/// let sw128 = Swizzle::new(3, 4, 3);
/// // row 1 of a 128-byte-wide atom: chunk 0 is stored at chunk 1
/// assert_eq!(sw128.apply(128), 128 + 16);
/// assert_eq!(sw128.apply(7 * 128 + 7 * 16), 7 * 128);
/// assert!(Swizzle::new(0, 4, 3).is_identity());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// `B`: number of bits XORed.
    pub bits: u32,
    /// `M`: position of the lowest bit that changes.
    pub base: u32,
    /// `S`: distance between the source bits and the changed bits.
    pub shift: u32,
}

impl Swizzle {
    /// `Swizzle<B, M, S>`.
    ///
    /// ```
    /// let s = smemdesc_core::Swizzle::new(2, 4, 3);
    /// assert_eq!((s.bits, s.base, s.shift), (2, 4, 3));
    /// ```
    pub const fn new(bits: u32, base: u32, shift: u32) -> Swizzle {
        Swizzle { bits, base, shift }
    }

    /// The source-bit mask (`yyy_mask`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Swizzle::new(3, 4, 3).yyy_mask(), 0b11_1000_0000);
    /// ```
    #[inline]
    pub const fn yyy_mask(self) -> u32 {
        ((1u32 << self.bits) - 1) << (self.base + self.shift)
    }

    /// Applies the functor to an offset or absolute address.
    ///
    /// ```
    /// // 64B swizzle: row bits 7..9 XOR into chunk bits 4..6
    /// assert_eq!(smemdesc_core::Swizzle::new(2, 4, 3).apply(3 * 128), 3 * 128 + 3 * 16);
    /// ```
    #[inline]
    pub const fn apply(self, offset: u32) -> u32 {
        offset ^ ((offset & self.yyy_mask()) >> self.shift)
    }

    /// Whether the functor is the identity (`B == 0`).
    ///
    /// ```
    /// assert!(!smemdesc_core::Swizzle::new(1, 4, 3).is_identity());
    /// ```
    pub const fn is_identity(self) -> bool {
        self.bits == 0
    }

    /// Bytes after which the pattern repeats: `2^(B + M + S)` (1 for the identity).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Swizzle::new(3, 4, 3).period(), 1024);
    /// ```
    pub const fn period(self) -> u32 {
        if self.bits == 0 {
            1
        } else {
            1 << (self.bits + self.base + self.shift)
        }
    }
}

/// A tensor-core swizzle mode: the width of a swizzle atom and how its 16-byte chunks are permuted.
///
/// A swizzle atom is [`atom_rows`](Self::atom_rows) rows (8, or 4 for the sm100 32-byte-atomicity
/// mode) × [`atom_width`](Self::atom_width) bytes, stored in one contiguous block.
///
/// | mode | atom (rows × bytes) | functor on byte addresses |
/// |---|---|---|
/// | `None` (interleave) | 8 × 16 | identity (`Swizzle<0,4,3>`) |
/// | `B32` | 8 × 32 | `Swizzle<1,4,3>` |
/// | `B64` | 8 × 64 | `Swizzle<2,4,3>` |
/// | `B128` | 8 × 128 | `Swizzle<3,4,3>` |
/// | `B128Base32B` (sm100) | 4 × 128 | `Swizzle<2,5,2>` |
///
/// ```
/// use smemdesc_core::SwizzleMode;
/// assert_eq!(SwizzleMode::B128.atom_bytes(), 1024);
/// assert_eq!(SwizzleMode::B128Base32B.atom_bytes(), 512);
/// assert_eq!(SwizzleMode::from_name("64B"), Some(SwizzleMode::B64));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwizzleMode {
    /// No swizzle (PTX "interleave"): 8×16 B core matrices.
    None,
    /// 32-byte swizzle.
    B32,
    /// 64-byte swizzle.
    B64,
    /// 128-byte swizzle.
    B128,
    /// sm100 only: 128-byte swizzle with 32-byte atomicity (`SWIZZLE_128B_BASE32B`).
    B128Base32B,
}

impl SwizzleMode {
    /// All modes, narrowest atom first.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SwizzleMode::ALL.len(), 5);
    /// ```
    pub const ALL: [SwizzleMode; 5] = [
        SwizzleMode::None,
        SwizzleMode::B32,
        SwizzleMode::B64,
        SwizzleMode::B128,
        SwizzleMode::B128Base32B,
    ];

    /// The functor this mode applies to byte addresses.
    ///
    /// ```
    /// use smemdesc_core::{Swizzle, SwizzleMode};
    /// assert_eq!(SwizzleMode::B128Base32B.functor(), Swizzle::new(2, 5, 2));
    /// ```
    #[inline]
    pub const fn functor(self) -> Swizzle {
        match self {
            SwizzleMode::None => Swizzle::new(0, 4, 3),
            SwizzleMode::B32 => Swizzle::new(1, 4, 3),
            SwizzleMode::B64 => Swizzle::new(2, 4, 3),
            SwizzleMode::B128 => Swizzle::new(3, 4, 3),
            SwizzleMode::B128Base32B => Swizzle::new(2, 5, 2),
        }
    }

    /// Width of one atom row in bytes (16 without swizzle).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SwizzleMode::B32.atom_width(), 32);
    /// ```
    pub const fn atom_width(self) -> u32 {
        match self {
            SwizzleMode::None => 16,
            SwizzleMode::B32 => 32,
            SwizzleMode::B64 => 64,
            SwizzleMode::B128 | SwizzleMode::B128Base32B => 128,
        }
    }

    /// Width of one atom row in 16-byte units (`W`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SwizzleMode::B64.atom_width_units(), 4);
    /// ```
    pub const fn atom_width_units(self) -> u32 {
        self.atom_width() / 16
    }

    /// Rows in one atom along the strided dimension: 8, or 4 for `B128Base32B`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SwizzleMode::B128Base32B.atom_rows(), 4);
    /// ```
    pub const fn atom_rows(self) -> u32 {
        match self {
            SwizzleMode::B128Base32B => 4,
            _ => 8,
        }
    }

    /// Bytes in one atom (`rows × width`); also the swizzle's repeat, so the alignment a tile needs.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SwizzleMode::None.atom_bytes(), 128);
    /// assert_eq!(smemdesc_core::SwizzleMode::B64.atom_bytes(), 512);
    /// ```
    #[inline]
    pub const fn atom_bytes(self) -> u32 {
        self.atom_rows() * self.atom_width()
    }

    /// Whether the mode permutes anything.
    ///
    /// ```
    /// assert!(!smemdesc_core::SwizzleMode::None.is_swizzled());
    /// ```
    #[inline]
    pub const fn is_swizzled(self) -> bool {
        !matches!(self, SwizzleMode::None)
    }

    /// The name used in declarations (`none`, `32B`, `64B`, `128B`, `128B_base32B`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SwizzleMode::B128Base32B.name(), "128B_base32B");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            SwizzleMode::None => "none",
            SwizzleMode::B32 => "32B",
            SwizzleMode::B64 => "64B",
            SwizzleMode::B128 => "128B",
            SwizzleMode::B128Base32B => "128B_base32B",
        }
    }

    /// Parses a mode name (case-insensitive; `interleave` = `none`, `128B_32B_atom` = `128B_base32B`).
    ///
    /// ```
    /// use smemdesc_core::SwizzleMode;
    /// assert_eq!(SwizzleMode::from_name("128b_32b_atom"), Some(SwizzleMode::B128Base32B));
    /// assert_eq!(SwizzleMode::from_name("interleave"), Some(SwizzleMode::None));
    /// assert_eq!(SwizzleMode::from_name("256B"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<SwizzleMode> {
        let mut buf = [0u8; 24];
        let bytes = name.as_bytes();
        if bytes.len() > buf.len() {
            return None;
        }
        for (d, s) in buf.iter_mut().zip(bytes) {
            *d = s.to_ascii_lowercase();
        }
        Some(match &buf[..bytes.len()] {
            b"none" | b"interleave" | b"inter" | b"16b" => SwizzleMode::None,
            b"32b" | b"sw32" => SwizzleMode::B32,
            b"64b" | b"sw64" => SwizzleMode::B64,
            b"128b" | b"sw128" => SwizzleMode::B128,
            b"128b_base32b" | b"128b_32b_atom" | b"128b_atom_32b" | b"sw128_32b" => {
                SwizzleMode::B128Base32B
            }
            _ => return None,
        })
    }

    /// Equality usable in `const` context.
    ///
    /// ```
    /// assert!(smemdesc_core::SwizzleMode::B32.is(smemdesc_core::SwizzleMode::B32));
    /// ```
    pub const fn is(self, other: SwizzleMode) -> bool {
        self as u8 == other as u8
    }
}
