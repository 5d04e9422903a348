//! The names of the register-fragment path: architectures, `mma.sync` shapes, kinds, scale
//! vectors and scale types.

/// An architecture that runs warp-level `mma.sync` (the register-fragment path).
///
/// Unlike [`Arch`](crate::Arch), which names the descriptor-based tensor cores, this also covers
/// Ampere and Ada, and consumer Blackwell (sm120), which has `mma.sync` but no `wgmma`/`tcgen05`.
///
/// ```
/// use smemdesc_core::fragment::SyncArch;
/// assert_eq!(SyncArch::from_name("sm_89"), Some(SyncArch::Sm89));
/// assert_eq!(SyncArch::Sm120.name(), "sm120");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyncArch {
    /// Ampere datacenter (A100).
    Sm80,
    /// Ampere consumer (RTX 30xx).
    Sm86,
    /// Ada (RTX 40xx, L4): adds FP8 `mma.sync`.
    Sm89,
    /// Hopper (`mma.sync` alongside `wgmma`).
    Sm90,
    /// Consumer Blackwell (RTX 50xx): adds `kind::f8f6f4` and the block-scaled kinds (`sm_120a`).
    Sm120,
}

impl SyncArch {
    /// Every architecture, oldest first.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::SyncArch::ALL.len(), 5);
    /// ```
    pub const ALL: [SyncArch; 5] = [
        SyncArch::Sm80,
        SyncArch::Sm86,
        SyncArch::Sm89,
        SyncArch::Sm90,
        SyncArch::Sm120,
    ];

    /// The lower-case name (`sm80`, ...).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::SyncArch::Sm86.name(), "sm86");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            SyncArch::Sm80 => "sm80",
            SyncArch::Sm86 => "sm86",
            SyncArch::Sm89 => "sm89",
            SyncArch::Sm90 => "sm90",
            SyncArch::Sm120 => "sm120",
        }
    }

    /// Parses `sm80`, `sm_80`, `sm90a`, `sm_120a`, ... in any letter case (`SM_90A`).
    ///
    /// ```
    /// use smemdesc_core::fragment::SyncArch;
    /// assert_eq!(SyncArch::from_name("sm_120a"), Some(SyncArch::Sm120));
    /// assert_eq!(SyncArch::from_name("SM_90A"), Some(SyncArch::Sm90));
    /// assert_eq!(SyncArch::from_name("sm75"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<SyncArch> {
        // `sm`/`SM` in any letter case, an optional `_`, the number, an optional `a`/`A`.
        let n = match name.get(..2) {
            Some(p) if p.eq_ignore_ascii_case("sm") => &name[2..],
            _ => return None,
        };
        let n = n.strip_prefix('_').unwrap_or(n);
        let n = n.strip_suffix(['a', 'A']).unwrap_or(n);
        Some(match n {
            "80" => SyncArch::Sm80,
            "86" => SyncArch::Sm86,
            "89" => SyncArch::Sm89,
            "90" => SyncArch::Sm90,
            "120" => SyncArch::Sm120,
            _ => return None,
        })
    }

    /// Whether the architecture has FP8 (`e4m3`/`e5m2`) `mma.sync` (PTX: "requires `sm_89` or
    /// higher").
    ///
    /// ```
    /// use smemdesc_core::fragment::SyncArch;
    /// assert!(!SyncArch::Sm86.has_fp8() && SyncArch::Sm90.has_fp8());
    /// ```
    pub const fn has_fp8(self) -> bool {
        !matches!(self, SyncArch::Sm80 | SyncArch::Sm86)
    }

    /// Whether the architecture has `stmatrix` (PTX: "`stmatrix` requires `sm_90` or higher").
    ///
    /// ```
    /// use smemdesc_core::fragment::SyncArch;
    /// assert!(!SyncArch::Sm89.has_stmatrix() && SyncArch::Sm120.has_stmatrix());
    /// ```
    pub const fn has_stmatrix(self) -> bool {
        matches!(self, SyncArch::Sm90 | SyncArch::Sm120)
    }

    /// The most shared memory one thread block can use (dynamic, opted in), in bytes: the CUDA C++
    /// Programming Guide's "Maximum amount of shared memory per thread block" per compute
    /// capability — 163 KiB on 8.0, 99 KiB on 8.6, 8.9 and 12.0, 227 KiB on 9.0.
    ///
    /// ```
    /// use smemdesc_core::fragment::SyncArch;
    /// assert_eq!(SyncArch::Sm80.max_smem_per_block(), 163 * 1024);
    /// assert_eq!(SyncArch::Sm86.max_smem_per_block(), 99 * 1024);
    /// ```
    pub const fn max_smem_per_block(self) -> u32 {
        match self {
            SyncArch::Sm80 => 163 * 1024,
            SyncArch::Sm86 | SyncArch::Sm89 | SyncArch::Sm120 => 99 * 1024,
            SyncArch::Sm90 => 227 * 1024,
        }
    }
}

/// An `mma.sync` shape (`M = 16`, `N = 8` for every shape smemdesc supports).
///
/// ```
/// use smemdesc_core::fragment::SyncShape;
/// assert_eq!(SyncShape::from_name("m16n8k32"), Some(SyncShape::M16N8K32));
/// assert_eq!(SyncShape::M16N8K64.k(), 64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyncShape {
    /// `m16n8k4` (tf32).
    M16N8K4,
    /// `m16n8k8` (f16, bf16, tf32).
    M16N8K8,
    /// `m16n8k16` (f16, bf16, s8, u8).
    M16N8K16,
    /// `m16n8k32` (s8, u8, e4m3, e5m2; sm120's `f8f6f4`/`mxf8f6f4`).
    M16N8K32,
    /// `m16n8k64` (sm120's `mxf4`/`mxf4nvf4`).
    M16N8K64,
}

impl SyncShape {
    /// Every shape.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::SyncShape::ALL.len(), 5);
    /// ```
    pub const ALL: [SyncShape; 5] = [
        SyncShape::M16N8K4,
        SyncShape::M16N8K8,
        SyncShape::M16N8K16,
        SyncShape::M16N8K32,
        SyncShape::M16N8K64,
    ];

    /// The PTX spelling.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::SyncShape::M16N8K8.name(), "m16n8k8");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            SyncShape::M16N8K4 => "m16n8k4",
            SyncShape::M16N8K8 => "m16n8k8",
            SyncShape::M16N8K16 => "m16n8k16",
            SyncShape::M16N8K32 => "m16n8k32",
            SyncShape::M16N8K64 => "m16n8k64",
        }
    }

    /// Parses the PTX spelling.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::SyncShape::from_name("m16n8k4").unwrap().k(), 4);
    /// ```
    pub fn from_name(name: &str) -> Option<SyncShape> {
        SyncShape::ALL.into_iter().find(|s| s.name() == name)
    }

    /// `K` (in elements).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::SyncShape::M16N8K16.k(), 16);
    /// ```
    pub const fn k(self) -> u32 {
        match self {
            SyncShape::M16N8K4 => 4,
            SyncShape::M16N8K8 => 8,
            SyncShape::M16N8K16 => 16,
            SyncShape::M16N8K32 => 32,
            SyncShape::M16N8K64 => 64,
        }
    }
}

/// The `.kind` qualifier of an `mma.sync` (none before sm120).
///
/// ```
/// use smemdesc_core::fragment::SyncKind;
/// assert_eq!(SyncKind::from_name("mxf4nvf4"), Some(SyncKind::Mxf4Nvf4));
/// assert!(SyncKind::Mxf4.is_block_scaled() && !SyncKind::F8f6f4.is_block_scaled());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyncKind {
    /// No `.kind` qualifier: the sm80-era forms.
    Plain,
    /// `.kind::f8f6f4` (sm120a): fp8/fp6/fp4 in 8-bit containers, `m16n8k32`.
    F8f6f4,
    /// `.kind::mxf8f6f4.block_scale` (sm120a): as `f8f6f4`, one `ue8m0` scale per 32 K values.
    Mxf8f6f4,
    /// `.kind::mxf4.block_scale` (sm120a): packed e2m1, `m16n8k64`, `ue8m0` per 32 K values.
    Mxf4,
    /// `.kind::mxf4nvf4.block_scale` (sm120a): packed e2m1, `m16n8k64`, `ue8m0` per 32
    /// (`scale_vec::2X`) or `ue4m3` per 16 (`4X`). (The PTX table also lists `ue8m0` with `4X`;
    /// ptxas for `sm_120a` rejects it, so smemdesc does.)
    Mxf4Nvf4,
}

impl SyncKind {
    /// Every kind.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::SyncKind::ALL.len(), 5);
    /// ```
    pub const ALL: [SyncKind; 5] = [
        SyncKind::Plain,
        SyncKind::F8f6f4,
        SyncKind::Mxf8f6f4,
        SyncKind::Mxf4,
        SyncKind::Mxf4Nvf4,
    ];

    /// The PTX spelling after `kind::` (`""` for [`SyncKind::Plain`]).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::SyncKind::Mxf8f6f4.name(), "mxf8f6f4");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            SyncKind::Plain => "",
            SyncKind::F8f6f4 => "f8f6f4",
            SyncKind::Mxf8f6f4 => "mxf8f6f4",
            SyncKind::Mxf4 => "mxf4",
            SyncKind::Mxf4Nvf4 => "mxf4nvf4",
        }
    }

    /// Parses a kind (`plain` or `""` for none; an optional `kind::` prefix).
    ///
    /// ```
    /// use smemdesc_core::fragment::SyncKind;
    /// assert_eq!(SyncKind::from_name("kind::f8f6f4"), Some(SyncKind::F8f6f4));
    /// ```
    pub fn from_name(name: &str) -> Option<SyncKind> {
        let n = name.strip_prefix("kind::").unwrap_or(name);
        if n == "plain" {
            return Some(SyncKind::Plain);
        }
        SyncKind::ALL.into_iter().find(|k| k.name() == n)
    }

    /// Whether the kind takes scale factors (`.block_scale`).
    ///
    /// ```
    /// assert!(smemdesc_core::fragment::SyncKind::Mxf8f6f4.is_block_scaled());
    /// ```
    pub const fn is_block_scaled(self) -> bool {
        matches!(
            self,
            SyncKind::Mxf8f6f4 | SyncKind::Mxf4 | SyncKind::Mxf4Nvf4
        )
    }
}

/// A `.scale_vec_size`: how many scale factors each row of A (column of B) has per instruction.
///
/// ```
/// use smemdesc_core::fragment::ScaleVec;
/// assert_eq!(ScaleVec::X4.count(), 4);
/// assert_eq!(ScaleVec::X2.name(), "scale_vec::2X");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScaleVec {
    /// `scale_vec::1X`: one factor per row (`M x 1` scale_A).
    X1,
    /// `scale_vec::2X`: two per row.
    X2,
    /// `scale_vec::4X`: four per row.
    X4,
}

impl ScaleVec {
    /// Number of scale factors per row of A (column of B).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::ScaleVec::X1.count(), 1);
    /// ```
    pub const fn count(self) -> u32 {
        match self {
            ScaleVec::X1 => 1,
            ScaleVec::X2 => 2,
            ScaleVec::X4 => 4,
        }
    }

    /// The scale vector named `1X`, `2X` or `4X` (or the PTX qualifier `scale_vec::2X`): the
    /// spelling of the `scale_vec` key and of `smemdesc fragment --scale-vec`.
    ///
    /// ```
    /// use smemdesc_core::fragment::ScaleVec;
    /// assert_eq!(ScaleVec::from_name("4X"), Some(ScaleVec::X4));
    /// assert_eq!(ScaleVec::from_name("scale_vec::2X"), Some(ScaleVec::X2));
    /// assert_eq!(ScaleVec::from_name("3X"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<ScaleVec> {
        match name.strip_prefix("scale_vec::").unwrap_or(name) {
            "1X" => Some(ScaleVec::X1),
            "2X" => Some(ScaleVec::X2),
            "4X" => Some(ScaleVec::X4),
            _ => None,
        }
    }

    /// The PTX qualifier.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::ScaleVec::X1.name(), "scale_vec::1X");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ScaleVec::X1 => "scale_vec::1X",
            ScaleVec::X2 => "scale_vec::2X",
            ScaleVec::X4 => "scale_vec::4X",
        }
    }
}

/// The scale-factor type `.stype` of a block-scaled `mma.sync`.
///
/// ```
/// assert_eq!(smemdesc_core::fragment::ScaleType::Ue4m3.name(), "ue4m3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScaleType {
    /// `ue8m0` (MX formats).
    Ue8m0,
    /// `ue4m3` (NVFP4).
    Ue4m3,
}

impl ScaleType {
    /// The scale type named `ue8m0` or `ue4m3`.
    ///
    /// ```
    /// use smemdesc_core::fragment::ScaleType;
    /// assert_eq!(ScaleType::from_name("ue4m3"), Some(ScaleType::Ue4m3));
    /// assert_eq!(ScaleType::from_name("e4m3"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<ScaleType> {
        match name {
            "ue8m0" => Some(ScaleType::Ue8m0),
            "ue4m3" => Some(ScaleType::Ue4m3),
            _ => None,
        }
    }
    /// The PTX spelling.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::ScaleType::Ue8m0.name(), "ue8m0");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ScaleType::Ue8m0 => "ue8m0",
            ScaleType::Ue4m3 => "ue4m3",
        }
    }
}
