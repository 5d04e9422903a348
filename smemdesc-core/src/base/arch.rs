//! Target architectures and their per-CTA limits.

/// A tensor-core generation whose SMEM matrix descriptor smemdesc can encode.
///
/// * [`Arch::Sm90`] — Hopper, `wgmma.mma_async` (CuTe `GmmaDescriptor`).
/// * [`Arch::Sm100`] — Blackwell datacenter, `tcgen05.mma` (CuTe `UMMA::SmemDescriptor`).
///
/// ```
/// use smemdesc_core::Arch;
/// assert_eq!(Arch::Sm90.name(), "sm90");
/// assert_eq!(Arch::from_name("sm100"), Some(Arch::Sm100));
/// assert_eq!(Arch::Sm90.max_smem_per_cta(), 227 * 1024);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// Hopper (H100/H200), `wgmma`.
    Sm90,
    /// Blackwell datacenter (B200/GB200), `tcgen05`.
    Sm100,
}

impl Arch {
    /// Every supported architecture, oldest first.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Arch::ALL.len(), 2);
    /// ```
    pub const ALL: [Arch; 2] = [Arch::Sm90, Arch::Sm100];

    /// The lower-case name used in declarations (`sm90`, `sm100`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Arch::Sm100.name(), "sm100");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Arch::Sm90 => "sm90",
            Arch::Sm100 => "sm100",
        }
    }

    /// Parses `sm90`/`sm_90`/`sm90a` or `sm100`/`sm_100`/`sm100a`, in any letter case (`SM90`,
    /// `Sm_100a`), as [`Major::from_name`] accepts `k` and `K`.
    ///
    /// ```
    /// use smemdesc_core::Arch;
    /// assert_eq!(Arch::from_name("sm_90a"), Some(Arch::Sm90));
    /// assert_eq!(Arch::from_name("SM90"), Some(Arch::Sm90));
    /// assert_eq!(Arch::from_name("SM_100A"), Some(Arch::Sm100));
    /// assert_eq!(Arch::from_name("sm80"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Arch> {
        const NAMES: [(&str, Arch); 8] = [
            ("sm90", Arch::Sm90),
            ("sm_90", Arch::Sm90),
            ("sm90a", Arch::Sm90),
            ("sm_90a", Arch::Sm90),
            ("sm100", Arch::Sm100),
            ("sm_100", Arch::Sm100),
            ("sm100a", Arch::Sm100),
            ("sm_100a", Arch::Sm100),
        ];
        NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, arch)| arch)
    }

    /// Largest dynamic shared memory one CTA may opt into, in bytes.
    ///
    /// CUDA C++ Programming Guide, "Technical Specifications per Compute Capability": maximum shared
    /// memory per thread block is 227 KB (232 448 B) for compute capability 9.0 and 10.0.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Arch::Sm100.max_smem_per_cta(), 232_448);
    /// ```
    pub const fn max_smem_per_cta(self) -> u32 {
        match self {
            Arch::Sm90 | Arch::Sm100 => 227 * 1024,
        }
    }

    /// Equality usable in `const` context.
    ///
    /// ```
    /// assert!(smemdesc_core::Arch::Sm90.is(smemdesc_core::Arch::Sm90));
    /// ```
    pub const fn is(self, other: Arch) -> bool {
        self as u8 == other as u8
    }
}

/// Which matrix dimension is contiguous in SMEM ("major-ness", PTX "leading dimension").
///
/// `K` major: K is contiguous (row-major A, column-major B; no transpose).
/// `MN` major: M (for A) or N (for B) is contiguous (transposed operand).
///
/// ```
/// use smemdesc_core::Major;
/// assert_eq!(Major::from_name("mn"), Some(Major::Mn));
/// assert_eq!(Major::K.name(), "K");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Major {
    /// K is the contiguous dimension.
    K,
    /// M or N is the contiguous dimension.
    Mn,
}

impl Major {
    /// `"K"` or `"MN"`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Major::Mn.name(), "MN");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Major::K => "K",
            Major::Mn => "MN",
        }
    }

    /// Parses `K`/`k` or `MN`/`mn`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Major::from_name("K"), Some(smemdesc_core::Major::K));
    /// ```
    pub fn from_name(name: &str) -> Option<Major> {
        match name {
            "K" | "k" => Some(Major::K),
            "MN" | "mn" | "Mn" | "M" | "N" | "m" | "n" => Some(Major::Mn),
            _ => None,
        }
    }

    /// Equality usable in `const` context.
    ///
    /// ```
    /// assert!(!smemdesc_core::Major::K.is(smemdesc_core::Major::Mn));
    /// ```
    pub const fn is(self, other: Major) -> bool {
        self as u8 == other as u8
    }
}

/// The order in which `tile_to_shape` stacks swizzle atoms into a tile.
///
/// `MnFirst` is CuTe's default `Step<_1,_2>` (consecutive atoms along M/N); `KFirst` is `Step<_2,_1>`.
///
/// ```
/// use smemdesc_core::Order;
/// assert_eq!(Order::from_name("k_first"), Some(Order::KFirst));
/// assert_eq!(Order::MnFirst.name(), "mn_first");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Atoms stacked along M/N first, then K.
    MnFirst,
    /// Atoms stacked along K first, then M/N.
    KFirst,
}

impl Order {
    /// `"mn_first"` or `"k_first"`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Order::KFirst.name(), "k_first");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Order::MnFirst => "mn_first",
            Order::KFirst => "k_first",
        }
    }

    /// Parses `mn_first` or `k_first`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Order::from_name("mn_first"), Some(smemdesc_core::Order::MnFirst));
    /// ```
    pub fn from_name(name: &str) -> Option<Order> {
        match name {
            "mn_first" => Some(Order::MnFirst),
            "k_first" => Some(Order::KFirst),
            _ => None,
        }
    }
}
