//! Target architectures and their per-CTA limits.

use crate::base::arch_limits::{ArchGap, ArchLimits, ARCH_LIMITS};

/// A target architecture: the tensor-core generation whose SMEM matrix descriptor smemdesc
/// encodes, and the per-CTA limits it checks ([`Arch::limits`], one row of
/// [`ARCH_LIMITS`](crate::base::ARCH_LIMITS) with each number's public source).
///
/// * [`Arch::Sm90`] — Hopper, `wgmma.mma_async` (CuTe `GmmaDescriptor`), target `sm_90a`.
/// * [`Arch::Sm100`] — Blackwell datacenter, `tcgen05.mma` (CuTe `UMMA::SmemDescriptor`), `sm_100a`.
/// * [`Arch::Sm100f`] — what is legal on the whole sm10x family (`sm_100f`: no `kind::i8`, only
///   the `.block16`/`.block32` block-scale spelling).
/// * [`Arch::Sm103`] — B300 (`sm_103a`): tcgen05 without `kind::i8`.
/// * [`Arch::Sm107`] — known by name; refused: no public source gives its limits.
/// * [`Arch::Sm110`] — `sm_110a` (formerly sm_101): tcgen05 with `kind::i8`.
/// * [`Arch::Sm120`], [`Arch::Sm121`] — consumer Blackwell: no wgmma, no tcgen05, no Tensor
///   Memory; tiles are refused, storage is checked against their 99 KB.
///
/// Every tcgen05 arch reads the sm100 descriptor encodings ([`Arch::generation`]).
///
/// ```
/// use smemdesc_core::Arch;
/// assert_eq!(Arch::Sm90.name(), "sm90");
/// assert_eq!(Arch::from_name("sm100"), Some(Arch::Sm100));
/// assert_eq!(Arch::Sm90.max_smem_per_cta(), 227 * 1024);
/// assert_eq!(Arch::Sm103.generation(), Arch::Sm100);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// Hopper (H100/H200), `wgmma` (`sm_90a`).
    Sm90,
    /// Blackwell datacenter (B200/GB200), `tcgen05` (`sm_100a`).
    Sm100,
    /// The sm10x family target `sm_100f`: what is legal on every sm10x part.
    Sm100f,
    /// Blackwell Ultra (B300/GB300), `sm_103a`.
    Sm103,
    /// `sm_107a`: refused (no public source gives its limits).
    Sm107,
    /// `sm_110a` (Thor; sm_101 before CUDA 13).
    Sm110,
    /// Consumer Blackwell (RTX 50xx, RTX PRO), `sm_120a`: no tcgen05.
    Sm120,
    /// GB10 (DGX Spark), `sm_121a`: no tcgen05.
    Sm121,
}

impl Arch {
    /// The two SMEM-descriptor generations, oldest first: every descriptor encoding is one of
    /// these (what the layout tests walk). [`Arch::EVERY`] lists every arch.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Arch::ALL.len(), 2);
    /// ```
    pub const ALL: [Arch; 2] = [Arch::Sm90, Arch::Sm100];

    /// Every architecture smemdesc knows by name, in [`ARCH_LIMITS`](crate::base::ARCH_LIMITS) order.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Arch::EVERY.len(), 8);
    /// ```
    pub const EVERY: [Arch; 8] = [
        Arch::Sm90,
        Arch::Sm100,
        Arch::Sm100f,
        Arch::Sm103,
        Arch::Sm107,
        Arch::Sm110,
        Arch::Sm120,
        Arch::Sm121,
    ];

    /// The lower-case name used in declarations (`sm90`, `sm100`, `sm100f`, `sm103`, …).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Arch::Sm100.name(), "sm100");
    /// assert_eq!(smemdesc_core::Arch::Sm100f.name(), "sm100f");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Arch::Sm90 => "sm90",
            Arch::Sm100 => "sm100",
            Arch::Sm100f => "sm100f",
            Arch::Sm103 => "sm103",
            Arch::Sm107 => "sm107",
            Arch::Sm110 => "sm110",
            Arch::Sm120 => "sm120",
            Arch::Sm121 => "sm121",
        }
    }

    /// The names every declaration accepts, for messages.
    ///
    /// ```
    /// assert!(smemdesc_core::Arch::NAMES.starts_with("sm90, sm100"));
    /// ```
    pub const NAMES: &'static str =
        "sm90, sm100 (sm100a), sm100f, sm103, sm107, sm110, sm120, sm121";

    /// Parses `sm90`/`sm_90`/`sm90a`, `sm100`/`sm_100`/`sm100a`, `sm100f`, and `sm103`, `sm107`,
    /// `sm110`, `sm120`, `sm121` (each with or without `_` and the `a` suffix), in any letter
    /// case (`SM90`, `Sm_100a`), as [`Major::from_name`] accepts `k` and `K`.
    ///
    /// ```
    /// use smemdesc_core::Arch;
    /// assert_eq!(Arch::from_name("sm_90a"), Some(Arch::Sm90));
    /// assert_eq!(Arch::from_name("SM90"), Some(Arch::Sm90));
    /// assert_eq!(Arch::from_name("SM_100A"), Some(Arch::Sm100));
    /// assert_eq!(Arch::from_name("sm_100f"), Some(Arch::Sm100f));
    /// assert_eq!(Arch::from_name("sm103a"), Some(Arch::Sm103));
    /// assert_eq!(Arch::from_name("sm_121"), Some(Arch::Sm121));
    /// assert_eq!(Arch::from_name("sm80"), None);
    /// assert_eq!(Arch::from_name("sm90f"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Arch> {
        let b = name.as_bytes();
        if b.len() < 2 || !b[..2].eq_ignore_ascii_case(b"sm") {
            return None;
        }
        let rest = &name[2..];
        let rest = rest.strip_prefix('_').unwrap_or(rest);
        let (num, suffix) = match rest.find(|c: char| !c.is_ascii_digit()) {
            Some(i) => rest.split_at(i),
            None => (rest, ""),
        };
        let arch = match num {
            "90" => Arch::Sm90,
            "100" => Arch::Sm100,
            "103" => Arch::Sm103,
            "107" => Arch::Sm107,
            "110" => Arch::Sm110,
            "120" => Arch::Sm120,
            "121" => Arch::Sm121,
            _ => return None,
        };
        match suffix {
            "" => Some(arch),
            s if s.eq_ignore_ascii_case("a") => Some(arch),
            s if s.eq_ignore_ascii_case("f") && matches!(arch, Arch::Sm100) => Some(Arch::Sm100f),
            _ => None,
        }
    }

    /// This arch's row of the limits table, with each number's source.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Arch::Sm110.limits().ptx_target, "sm_110a");
    /// ```
    pub const fn limits(self) -> &'static ArchLimits {
        &ARCH_LIMITS[self as usize]
    }

    /// The SMEM-descriptor generation whose encodings this arch reads: [`Arch::Sm90`] for
    /// wgmma, [`Arch::Sm100`] for every tcgen05 arch. Arches with neither ([`Arch::gap`]:
    /// sm107, sm120, sm121) answer `Sm100` and are refused before any descriptor is built.
    ///
    /// ```
    /// use smemdesc_core::Arch;
    /// assert_eq!(Arch::Sm90.generation(), Arch::Sm90);
    /// assert_eq!(Arch::Sm110.generation(), Arch::Sm100);
    /// ```
    pub const fn generation(self) -> Arch {
        match self {
            Arch::Sm90 => Arch::Sm90,
            _ => Arch::Sm100,
        }
    }

    /// Whether the arch has `tcgen05.mma` and Tensor Memory (sm100, sm100f, sm103, sm110).
    ///
    /// ```
    /// assert!(smemdesc_core::Arch::Sm103.has_tcgen05());
    /// assert!(!smemdesc_core::Arch::Sm120.has_tcgen05());
    /// ```
    pub const fn has_tcgen05(self) -> bool {
        matches!(self.limits().tcgen05.flag(), Some(true))
    }

    /// Whether `tcgen05.mma .kind::i8` exists (sm100a and sm110a, not the family target or sm103).
    ///
    /// ```
    /// assert!(smemdesc_core::Arch::Sm100.has_tcgen05_i8());
    /// assert!(!smemdesc_core::Arch::Sm103.has_tcgen05_i8());
    /// ```
    pub const fn has_tcgen05_i8(self) -> bool {
        matches!(self.limits().tcgen05_i8.flag(), Some(true))
    }

    /// Whether block-scaled `tcgen05.mma` may be spelled `.scale_vec::NX` (arch-specific
    /// targets); otherwise only `.block16`/`.block32` are legal (`sm_100f`).
    ///
    /// ```
    /// assert!(!smemdesc_core::Arch::Sm100f.scale_vec_spelling());
    /// ```
    pub const fn scale_vec_spelling(self) -> bool {
        matches!(self.limits().scale_vec_spelling.flag(), Some(true))
    }

    /// Why the arch cannot carry an SMEM tile (descriptors, TMA, Tensor Memory), if it cannot.
    ///
    /// ```
    /// use smemdesc_core::{Arch, base::ArchGap};
    /// assert_eq!(Arch::Sm120.gap(), Some(ArchGap::NoSmemDescriptor));
    /// assert_eq!(Arch::Sm90.gap(), None);
    /// ```
    pub const fn gap(self) -> Option<ArchGap> {
        match self {
            Arch::Sm107 => Some(ArchGap::NoPublicLimits),
            Arch::Sm120 | Arch::Sm121 => Some(ArchGap::NoSmemDescriptor),
            _ => None,
        }
    }

    /// Largest dynamic shared memory one CTA may opt into, in bytes, when a public source gives
    /// it ([`Arch::limits`] names the source).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Arch::Sm120.smem_per_cta(), Some(101_376));
    /// assert_eq!(smemdesc_core::Arch::Sm107.smem_per_cta(), None);
    /// ```
    pub const fn smem_per_cta(self) -> Option<u32> {
        self.limits().smem_per_cta.value()
    }

    /// Largest dynamic shared memory one CTA may opt into, in bytes (0 where no public source
    /// gives it: sm107, which every declaration refuses first).
    ///
    /// CUDA C++ Programming Guide, "Technical Specifications per Compute Capability" (CCCL
    /// `arch_traits.h`, CUTLASS `arch.h`): 227 KB (232 448 B) for compute capability 9.0, 10.x
    /// and 11.0, 99 KB (101 376 B) for 12.x.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Arch::Sm100.max_smem_per_cta(), 232_448);
    /// assert_eq!(smemdesc_core::Arch::Sm121.max_smem_per_cta(), 101_376);
    /// ```
    pub const fn max_smem_per_cta(self) -> u32 {
        match self.smem_per_cta() {
            Some(v) => v,
            None => 0,
        }
    }

    /// Tensor Memory columns per CTA (0 without Tensor Memory or without a source).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Arch::Sm103.tmem_columns(), 512);
    /// assert_eq!(smemdesc_core::Arch::Sm90.tmem_columns(), 0);
    /// ```
    pub const fn tmem_columns(self) -> u32 {
        match self.limits().tmem_columns.value() {
            Some(v) => v,
            None => 0,
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
