//! Typed errors of tcgen05 instruction descriptors ([`crate::InstrDesc`]) and of A/B pairings.
//!
//! One variant per rule, carrying the values involved; `Display` names the argument and the legal
//! values, [`IdescError::summary`] is a static text for `const` panics, and
//! [`IdescError::argument`] names the argument at fault (the key of `smemdesc idesc` and of
//! `#[smem_mma]`).

use crate::base::arch::Arch;
use crate::base::dtype::ElementType;
use crate::mma::idesc::{AccumType, ScaleFormat};
use crate::mma::shape::{MmaKind, Operand};

/// Every way an instruction descriptor (or an A/B pairing) can be illegal.
///
/// ```
/// use smemdesc_core::{IdescError, MmaKind};
/// let e = IdescError::NegateNotForKind { kind: MmaKind::I8 };
/// assert_eq!(e.argument(), "negate");
/// assert!(e.to_string().contains("kind::i8"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IdescError {
    /// An operand's element type is not an input of the kind.
    TypeNotForKind {
        /// A or B.
        operand: Operand,
        /// The element type.
        dtype: ElementType,
        /// The kind.
        kind: MmaKind,
    },
    /// `kind::f16` takes A and B of the same type (f16·f16 or bf16·bf16).
    TypesDiffer {
        /// A's type.
        a: ElementType,
        /// B's type.
        b: ElementType,
    },
    /// The accumulator (D) type is not legal for the kind and input type.
    AccumNotForKind {
        /// The kind.
        kind: MmaKind,
        /// A's type.
        a: ElementType,
        /// The accumulator type.
        accum: AccumType,
        /// The legal accumulator types, as text.
        legal: &'static str,
    },
    /// Negate requested where the kind has no negate bit (`kind::i8`).
    NegateNotForKind {
        /// The kind.
        kind: MmaKind,
    },
    /// Saturate requested for a kind other than `kind::i8`.
    SaturateNotForKind {
        /// The kind.
        kind: MmaKind,
    },
    /// An MN-major (transposed) operand of a type or kind that may not transpose.
    MnMajorNotAllowed {
        /// A or B.
        operand: Operand,
        /// The element type.
        dtype: ElementType,
        /// The kind.
        kind: MmaKind,
    },
    /// `cta_group` is not 1 or 2.
    CtaGroupInvalid {
        /// The value given.
        cta_group: u32,
    },
    /// M is not a legal shape for the kind, CTA group and sparsity.
    IllegalM {
        /// The kind.
        kind: MmaKind,
        /// The CTA group.
        cta_group: u32,
        /// The M given.
        m: u32,
        /// The legal values, as text.
        legal: &'static str,
    },
    /// N is not a legal shape for the kind, CTA group and B's major-ness.
    IllegalN {
        /// The kind.
        kind: MmaKind,
        /// The CTA group.
        cta_group: u32,
        /// The N given.
        n: u32,
        /// The legal values, as text.
        legal: &'static str,
    },
    /// The scale-factor format is missing, given for a dense kind, or not legal for the kind.
    ScaleFormatNotForKind {
        /// The kind.
        kind: MmaKind,
        /// The format given (`None`: none given).
        sf: Option<ScaleFormat>,
        /// The legal formats, as text.
        legal: &'static str,
    },
    /// Pairing: a scale vector size (`vec`) the kind and factor type do not have.
    ScaleVecNotForKind {
        /// The kind.
        kind: MmaKind,
        /// The factor type given (`None`: the kind's default).
        sf: Option<ScaleFormat>,
        /// The values per factor given.
        vec: u32,
        /// The legal sizes, as text.
        legal: &'static str,
    },
    /// The K = 96 bit where PTX does not allow it.
    K96NotAllowed {
        /// The kind.
        kind: MmaKind,
        /// The CTA group.
        cta_group: u32,
        /// M.
        m: u32,
    },
    /// A scale-factor id outside the values the kind and scale format allow.
    SfIdIllegal {
        /// Scale factor of A or of B.
        operand: Operand,
        /// The id (0..=3, from bits 30-31 of the scale factors' TMEM address).
        id: u32,
        /// The legal ids, as text.
        legal: &'static str,
    },
    /// A sparsity selector on a dense MMA, on `kind::i8` / `kind::f8f6f4` (PTX: must be 0), on a
    /// block-scaled kind (PTX: bits 0-1 reserved), or above 3.
    SparseIdIllegal {
        /// The kind.
        kind: MmaKind,
        /// The selector given.
        id: u32,
        /// Whether the descriptor is sparse.
        sparse: bool,
    },
    /// The `.ws` B-reuse shift (bits 30-31): smemdesc models non-`.ws` `tcgen05.mma` only.
    WsShiftNotModeled {
        /// The shift code (1..=3).
        shift: u32,
    },
    /// Decoding: reserved bits are set.
    ReservedBits {
        /// The kind the descriptor was read as.
        kind: MmaKind,
        /// The offending bits.
        bits: u32,
    },
    /// Decoding: a format code that names no type of the kind.
    UnknownFormat {
        /// Which field: A, B.
        operand: Operand,
        /// The kind.
        kind: MmaKind,
        /// The code.
        code: u32,
    },
    /// Decoding: a D-type code that is not F16 (0), F32 (1) or S32 (2).
    UnknownAccum {
        /// The code.
        code: u32,
    },
    /// Pairing: the A and B tiles are for different architectures.
    ArchMismatch {
        /// A tile's architecture.
        a: Arch,
        /// B tile's architecture.
        b: Arch,
    },
    /// Pairing: the A and B tiles are for different MMA kinds.
    KindMismatch {
        /// A tile's kind.
        a: MmaKind,
        /// B tile's kind.
        b: MmaKind,
    },
    /// Pairing: the A and B tiles disagree on `cta_group`.
    CtaGroupMismatch {
        /// A tile's CTA group.
        a: u32,
        /// B tile's CTA group.
        b: u32,
    },
    /// Pairing: the tiles' instruction shapes disagree on M, N or K (`what` = `'M'`, `'N'`, `'K'`).
    ShapeMismatch {
        /// Which extent.
        what: char,
        /// From the A tile's `mma`.
        a: u32,
        /// From the B tile's `mma`.
        b: u32,
    },
    /// Pairing: a tile given as A is declared `operand = B`, or the reverse.
    OperandSwapped {
        /// The role it was given.
        role: Operand,
    },
    /// Pairing: the accumulator type is not legal on sm90 for the input types.
    Sm90AccumNotForType {
        /// A's type.
        a: ElementType,
        /// The accumulator type.
        accum: AccumType,
    },
    /// Pairing on sm90: a scale-factor format or sm100-only setting was given.
    NotOnSm90 {
        /// The setting.
        what: &'static str,
    },
    /// Pairing: a scale-factor tile declared for another operand or kind than the operand tile
    /// it is paired with.
    ScaleTileFor {
        /// The operand tile's role.
        operand: Operand,
        /// The scale tile's `operand`.
        sf_operand: Operand,
        /// The scale tile's `kind`.
        kind: MmaKind,
        /// The pair's kind.
        pair: MmaKind,
    },
    /// Pairing: a scale-factor tile whose factor type or vector size is not the instruction's.
    ScaleTileFormat {
        /// The operand.
        operand: Operand,
        /// The scale tile's factor type.
        format: ScaleFormat,
        /// The scale tile's values per factor.
        vec: u32,
        /// The instruction's factor type.
        pair: ScaleFormat,
        /// The instruction's values per factor.
        pair_vec: u32,
    },
    /// Pairing: a scale-factor tile that covers another `(MN, K)` extent than its operand tile
    /// (`dim` = `'M'`, `'N'` or `'K'`).
    ScaleTileExtent {
        /// The operand.
        operand: Operand,
        /// Which extent.
        dim: char,
        /// The scale tile's `tile` extent.
        sf: u32,
        /// The operand tile's extent.
        tile: u32,
    },
    /// Pairing: a scale-factor tile copied with another `cta_group` than the MMA's (PTX: every
    /// tcgen05 instruction of a kernel uses one `.cta_group`).
    ScaleTileCtaGroup {
        /// The operand.
        operand: Operand,
        /// The scale tile's CTA group.
        sf: u32,
        /// The pair's CTA group.
        pair: u32,
    },
    /// Pairing: scale factors of a K = 96 instruction (3 or 6 factors per row per instruction)
    /// are not modeled by the scale-factor tile, which steps whole TMEM words of 4 factors.
    ScaleTileK96 {
        /// The operand.
        operand: Operand,
    },
}

impl IdescError {
    /// The argument at fault, as the key of `smemdesc idesc` / `#[smem_mma]` (`kind`, `a`, `b`,
    /// `c`, `m`, `n`, `a_major`, `b_major`, `negate`, `saturate`, `sf`, `cta_group`, `k96`,
    /// `sf_id`, `sparse_id`, `ws`, `idesc`, `arch`, `mma`).
    ///
    /// ```
    /// use smemdesc_core::{IdescError, MmaKind};
    /// assert_eq!(IdescError::SaturateNotForKind { kind: MmaKind::F16 }.argument(), "saturate");
    /// ```
    pub const fn argument(&self) -> &'static str {
        match self {
            IdescError::TypeNotForKind { operand, .. }
            | IdescError::OperandSwapped { role: operand } => match operand {
                Operand::A => "a",
                Operand::B => "b",
            },
            IdescError::TypesDiffer { .. } => "b",
            IdescError::AccumNotForKind { .. } | IdescError::Sm90AccumNotForType { .. } => "c",
            IdescError::NegateNotForKind { .. } => "negate",
            IdescError::SaturateNotForKind { .. } => "saturate",
            IdescError::MnMajorNotAllowed { operand, .. } => match operand {
                Operand::A => "a_major",
                Operand::B => "b_major",
            },
            IdescError::CtaGroupInvalid { .. } | IdescError::CtaGroupMismatch { .. } => "cta_group",
            IdescError::IllegalM { .. } => "m",
            IdescError::IllegalN { .. } => "n",
            IdescError::ScaleFormatNotForKind { .. } => "sf",
            IdescError::ScaleVecNotForKind { .. } => "vec",
            IdescError::K96NotAllowed { .. } => "k96",
            IdescError::SfIdIllegal { .. } => "sf_id",
            IdescError::SparseIdIllegal { .. } => "sparse_id",
            IdescError::WsShiftNotModeled { .. } => "ws",
            IdescError::ReservedBits { .. }
            | IdescError::UnknownFormat { .. }
            | IdescError::UnknownAccum { .. } => "idesc",
            IdescError::ArchMismatch { .. } => "arch",
            IdescError::KindMismatch { .. } => "kind",
            IdescError::ShapeMismatch { .. } => "mma",
            IdescError::NotOnSm90 { .. } => "arch",
            IdescError::ScaleTileFor { .. }
            | IdescError::ScaleTileFormat { .. }
            | IdescError::ScaleTileExtent { .. }
            | IdescError::ScaleTileCtaGroup { .. }
            | IdescError::ScaleTileK96 { .. } => "sf_tile",
        }
    }

    /// A static one-line summary (for `const` panics, where values cannot be formatted).
    ///
    /// ```
    /// use smemdesc_core::{IdescError, MmaKind};
    /// let e = IdescError::KindMismatch { a: MmaKind::F16, b: MmaKind::Tf32 };
    /// assert_eq!(e.summary(), "A and B tiles are for different MMA kinds");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            IdescError::TypeNotForKind { .. } => "operand type is not an input of this MMA kind",
            IdescError::TypesDiffer { .. } => "kind::f16 takes A and B of one type (f16 or bf16)",
            IdescError::AccumNotForKind { .. } => "accumulator type not legal for this kind",
            IdescError::NegateNotForKind { .. } => "kind::i8 has no negate",
            IdescError::SaturateNotForKind { .. } => "saturate exists only for kind::i8",
            IdescError::MnMajorNotAllowed { .. } => {
                "operand may not be MN-major for this type/kind"
            }
            IdescError::CtaGroupInvalid { .. } => "cta_group must be 1 or 2",
            IdescError::IllegalM { .. } => "M is not a legal tcgen05 shape",
            IdescError::IllegalN { .. } => "N is not a legal tcgen05 shape",
            IdescError::ScaleFormatNotForKind { .. } => {
                "scale-factor format not legal for this kind"
            }
            IdescError::ScaleVecNotForKind { .. } => "scale vector size not legal for this kind",
            IdescError::K96NotAllowed { .. } => {
                "K = 96 needs kind::mxf4/mxf4nvf4, cta_group 2, M 256"
            }
            IdescError::SfIdIllegal { .. } => "scale-factor id not legal for this kind",
            IdescError::SparseIdIllegal { .. } => {
                "sparsity selector needs a sparse kind::f16 or kind::tf32 MMA"
            }
            IdescError::WsShiftNotModeled { .. } => ".ws B-reuse shift is not modeled",
            IdescError::ReservedBits { .. } => "instruction descriptor has reserved bits set",
            IdescError::UnknownFormat { .. } => "unknown A/B format code",
            IdescError::UnknownAccum { .. } => "unknown D format code",
            IdescError::ArchMismatch { .. } => "A and B tiles are for different architectures",
            IdescError::KindMismatch { .. } => "A and B tiles are for different MMA kinds",
            IdescError::CtaGroupMismatch { .. } => "A and B tiles have different cta_group",
            IdescError::ShapeMismatch { .. } => {
                "A and B tiles are declared for different MMA shapes"
            }
            IdescError::OperandSwapped { .. } => "tile declared for the other operand",
            IdescError::Sm90AccumNotForType { .. } => "accumulator type not legal for wgmma",
            IdescError::NotOnSm90 { .. } => "setting exists only on sm100 (tcgen05)",
            IdescError::ScaleTileFor { .. } => "scale-factor tile is for another operand or kind",
            IdescError::ScaleTileFormat { .. } => {
                "scale-factor tile's factor type or vector size is not the instruction's"
            }
            IdescError::ScaleTileExtent { .. } => {
                "scale-factor tile covers another extent than its operand tile"
            }
            IdescError::ScaleTileCtaGroup { .. } => {
                "scale-factor tile's cta_group is not the MMA's"
            }
            IdescError::ScaleTileK96 { .. } => "scale factors of K = 96 are not modeled",
        }
    }
}
