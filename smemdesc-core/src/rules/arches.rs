//! A set of architectures: one bit per [`Arch`], so a new architecture needs no new type.

use crate::base::Arch;

/// The architectures a rule applies to: a bit set over [`Arch::ALL`].
///
/// ```
/// use smemdesc_core::rules::Arches;
/// use smemdesc_core::Arch;
/// assert!(Arches::ALL.contains(Arch::Sm90) && Arches::ALL.contains(Arch::Sm100));
/// assert!(!Arches::only(Arch::Sm100).contains(Arch::Sm90));
/// assert_eq!(Arches::only(Arch::Sm90).to_string(), "sm90");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arches(u64);

impl Arches {
    /// Every architecture of [`Arch::ALL`].
    ///
    /// ```
    /// use smemdesc_core::rules::Arches;
    /// assert_eq!(Arches::ALL.len(), smemdesc_core::Arch::ALL.len());
    /// ```
    pub const ALL: Arches = {
        let mut bits = 0;
        let mut i = 0;
        while i < Arch::ALL.len() {
            bits |= Arches::bit(Arch::ALL[i]);
            i += 1;
        }
        Arches(bits)
    };

    /// No architecture.
    ///
    /// ```
    /// assert!(smemdesc_core::rules::Arches::NONE.is_empty());
    /// ```
    pub const NONE: Arches = Arches(0);

    const fn bit(arch: Arch) -> u64 {
        1 << (arch as u8)
    }

    /// One architecture.
    ///
    /// ```
    /// use smemdesc_core::{rules::Arches, Arch};
    /// assert_eq!(Arches::only(Arch::Sm90).len(), 1);
    /// ```
    pub const fn only(arch: Arch) -> Arches {
        Arches(Arches::bit(arch))
    }

    /// This set and `arch`.
    ///
    /// ```
    /// use smemdesc_core::{rules::Arches, Arch};
    /// assert_eq!(Arches::only(Arch::Sm90).with(Arch::Sm100), Arches::ALL);
    /// ```
    pub const fn with(self, arch: Arch) -> Arches {
        Arches(self.0 | Arches::bit(arch))
    }

    /// Whether `arch` is in the set.
    ///
    /// ```
    /// use smemdesc_core::{rules::Arches, Arch};
    /// assert!(Arches::only(Arch::Sm100).contains(Arch::Sm100));
    /// ```
    pub const fn contains(self, arch: Arch) -> bool {
        self.0 & Arches::bit(arch) != 0
    }

    /// How many architectures the set holds.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::rules::Arches::NONE.len(), 0);
    /// ```
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    ///
    /// ```
    /// assert!(!smemdesc_core::rules::Arches::ALL.is_empty());
    /// ```
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// The names, oldest first, comma-separated (`sm90, sm100`).
impl core::fmt::Display for Arches {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut first = true;
        for arch in Arch::ALL {
            if self.contains(arch) {
                if !first {
                    f.write_str(", ")?;
                }
                f.write_str(arch.name())?;
                first = false;
            }
        }
        Ok(())
    }
}
