//! The data an [`Error`](crate::Error) (and a [`TmemError`](crate::TmemError)) names besides its
//! numbers: what was indexed, the legal values, and where a TMA box's inner extent came from.
//!
//! Each is a field-less `Copy` enum whose text is a `const fn` of it, so the errors the checked
//! run-time forms return (`try_desc`, `try_offset`, `try_address`, `place`, …) are plain data: no
//! `&'static str` (a pointer to string bytes, which a GPU module would have to carry as `.global`
//! data, and which cuda-oxide cannot translate as a constant) and no `bool` (which cuda-oxide's
//! enum lowering refuses when it shares a byte with another variant's field). The messages are
//! the ones the strings gave.

/// What an [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange) or a
/// [`TmemError::OutOfRange`](crate::TmemError::OutOfRange) indexed.
///
/// ```
/// use smemdesc_core::*;
/// const T: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid();
/// let e = T.try_offset(64, 0).unwrap_err();
/// assert_eq!(e, Error::IndexOutOfRange { what: Indexed::ElementMn, index: 64, count: 64 });
/// assert_eq!(e.to_string(), "element (MN) index 64 out of range; legal indices are 0..64 [rule tile.index; smemdesc model, smemdesc-core/src/tile/decl.rs]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Indexed {
    /// The MMA subtile index along M/N (`"MMA subtile (MN)"`).
    SubtileMn,
    /// The MMA subtile index along K (`"MMA subtile (K)"`).
    SubtileK,
    /// The pipeline stage (`"stage"`).
    Stage,
    /// An element's M/N coordinate (`"element (MN)"`).
    ElementMn,
    /// An element's K coordinate (`"element (K)"`).
    ElementK,
    /// A TMA box of the tile (`"TMA box"`).
    TmaBox,
    /// A scale-factor atom along M/N (`"scale atom (MN)"`).
    ScaleAtomMn,
    /// A scale-factor atom along K (`"scale atom (K)"`).
    ScaleAtomK,
    /// A row of a Tensor Memory accumulator (`"row"`).
    Row,
    /// A column of the accumulator D (`"column of D"`).
    ColumnOfD,
    /// A thread of a `tcgen05.ld` warpgroup (`"thread"`).
    Thread,
    /// A register of one thread's `tcgen05.ld` (`"register"`).
    Register,
}

impl Indexed {
    /// The name the messages use.
    ///
    /// ```
    /// use smemdesc_core::Indexed;
    /// assert_eq!(Indexed::SubtileK.name(), "MMA subtile (K)");
    /// assert_eq!(Indexed::ColumnOfD.to_string(), "column of D");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Indexed::SubtileMn => "MMA subtile (MN)",
            Indexed::SubtileK => "MMA subtile (K)",
            Indexed::Stage => "stage",
            Indexed::ElementMn => "element (MN)",
            Indexed::ElementK => "element (K)",
            Indexed::TmaBox => "TMA box",
            Indexed::ScaleAtomMn => "scale atom (MN)",
            Indexed::ScaleAtomK => "scale atom (K)",
            Indexed::Row => "row",
            Indexed::ColumnOfD => "column of D",
            Indexed::Thread => "thread",
            Indexed::Register => "register",
        }
    }
}

impl core::fmt::Display for Indexed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The legal values an error states: the M, N and K sets of the instruction shapes
/// ([`Error::IllegalMmaM`](crate::Error::IllegalMmaM), `IllegalMmaN`, `IllegalMmaK`) and the
/// scale-factor combinations of a kind ([`Error::ScaleFormatIllegal`](crate::Error::ScaleFormatIllegal)).
///
/// ```
/// use smemdesc_core::*;
/// let e = check_mma_shape(Arch::Sm90, ElementType::BF16, MmaKind::F16, MmaShape::new(64, 12, 16), 1, Major::K);
/// assert!(matches!(e, Err(Error::IllegalMmaN { legal: Legal::NStep8, .. })));
/// assert_eq!(Legal::NStep8.text(), "8..=256 in steps of 8");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Legal {
    /// M: `"64"` (sm90).
    M64,
    /// M: `"64, 128"` (sm100, `cta_group::1`, dense kinds).
    M64Or128,
    /// M: `"128"` (sm100, `cta_group::1`, block-scaled kinds).
    M128,
    /// M: `"128, 256 (the CTA pair's M)"` (sm100, `cta_group::2`).
    M128Or256Pair,
    /// M: `"256 (K = 96 is only the PTX shape 256xNx96)"`.
    M256K96,
    /// N: `"8..=256 in steps of 8"`.
    NStep8,
    /// N: `"16..=256 in steps of 16"`.
    NStep16,
    /// N: `"32..=256 in steps of 32"`.
    NStep32,
    /// N: `"8, 24, and 16..=256 in steps of 16"` (`kind::i8`).
    NI8,
    /// K: `"64 or 96"` (packed fp4).
    K64Or96,
    /// K: `"64 (K = 96 only with cta_group = 2 and M = 256: the PTX shape 256xNx96)"`.
    K64NotPair,
    /// K: `"32 bytes of K (256 / bits)"`.
    K32Bytes,
    /// Scale factors: `"ue8m0 with vec 32"` (`kind::mxf8f6f4`, `kind::mxf4`).
    ScaleUe8m0Vec32,
    /// Scale factors: `"ue8m0 with vec 32 or 16, or ue4m3 with vec 16"` (`kind::mxf4nvf4`).
    ScaleMxf4nvf4,
    /// Scale factors: `"none (not a block-scaled kind: use mxf8f6f4, mxf4 or mxf4nvf4)"`.
    ScaleNone,
}

impl Legal {
    /// The text the messages show after `legal M: `, `legal N: `, `legal K: ` or `legal: `.
    ///
    /// ```
    /// use smemdesc_core::Legal;
    /// assert_eq!(Legal::M128Or256Pair.text(), "128, 256 (the CTA pair's M)");
    /// assert_eq!(Legal::K64Or96.to_string(), "64 or 96");
    /// ```
    pub const fn text(self) -> &'static str {
        match self {
            Legal::M64 => "64",
            Legal::M64Or128 => "64, 128",
            Legal::M128 => "128",
            Legal::M128Or256Pair => "128, 256 (the CTA pair's M)",
            Legal::M256K96 => "256 (K = 96 is only the PTX shape 256xNx96)",
            Legal::NStep8 => "8..=256 in steps of 8",
            Legal::NStep16 => "16..=256 in steps of 16",
            Legal::NStep32 => "32..=256 in steps of 32",
            Legal::NI8 => "8, 24, and 16..=256 in steps of 16",
            Legal::K64Or96 => "64 or 96",
            Legal::K64NotPair => {
                "64 (K = 96 only with cta_group = 2 and M = 256: the PTX shape 256xNx96)"
            }
            Legal::K32Bytes => "32 bytes of K (256 / bits)",
            Legal::ScaleUe8m0Vec32 => "ue8m0 with vec 32",
            Legal::ScaleMxf4nvf4 => "ue8m0 with vec 32 or 16, or ue4m3 with vec 16",
            Legal::ScaleNone => "none (not a block-scaled kind: use mxf8f6f4, mxf4 or mxf4nvf4)",
        }
    }
}

impl core::fmt::Display for Legal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.text())
    }
}

/// Where the inner extent of a refused padded-form TMA box came from
/// ([`Error::TmaPaddedBoxInner`](crate::Error::TmaPaddedBoxInner)): the declaration's `tma_box`,
/// or the swizzle atom when no box was given.
///
/// ```
/// use smemdesc_core::*;
/// // e2m1 K-major, K = 64: the 64B atom's 64 elements, not the 128 a 16U4_ALIGN16B box needs
/// let t = TileDecl::new(Arch::Sm100, Operand::A, ElementType::E2M1, Major::K, 128, 64).build();
/// assert!(matches!(t, Err(Error::TmaPaddedBoxInner { source: BoxSource::Swizzle, inner: 64, .. })));
/// assert_eq!(t.unwrap_err().argument(), Argument::Swizzle);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoxSource {
    /// The box was requested (`tma_box`).
    Requested,
    /// The box is the swizzle atom's width (no `tma_box` given).
    Swizzle,
}

impl BoxSource {
    /// Whether the box was requested (`tma_box`) rather than implied by the swizzle.
    ///
    /// ```
    /// assert!(smemdesc_core::BoxSource::Requested.is_requested());
    /// assert!(!smemdesc_core::BoxSource::Swizzle.is_requested());
    /// ```
    pub const fn is_requested(self) -> bool {
        matches!(self, BoxSource::Requested)
    }
}
