//! Pairing an A tile with a B tile into one MMA instruction: the checks that the two operand
//! declarations agree, and what the instruction needs (sm90: the `wgmma` mnemonic and its
//! immediates; sm100: the tcgen05 instruction descriptor).
//!
//! Sources (PTX ISA): `wgmma.mma_async` syntax (shape, `.dtype.atype.btype`, `imm-scale-a/b` for
//! the floating-point types, `imm-trans-a/b` only for `.f16`/`.bf16`, `.satfinite` only for
//! integers; accumulators: f16 → f16/f32, bf16/tf32 → f32, e4m3/e5m2 → f16/f32, s8/u8 → s32);
//! `tcgen05.mma` syntax (`.cta_group::{1,2}.kind::*`, `.block_scale.scale_vec::{1X,2X,4X}`, and
//! `.block32`/`.block16` for K = 96, where `.scale_vec::NX` is not defined) and
//! the instruction-descriptor rules of [`InstrDesc`].

use crate::base::arch::{Arch, Major};
use crate::base::dtype::ElementType;
use crate::base::error::Error;
use crate::mma::idesc::{AccumType, InstrDesc, ScaleFormat};
use crate::mma::idesc_codec::Idesc;
use crate::mma::idesc_error::IdescError;
use crate::mma::shape::{check_mma_shape, MmaKind, MmaShape, Operand};
use crate::tile::decl::TilePlan;

/// The settings of a pairing besides the two tiles.
///
/// ```
/// use smemdesc_core::*;
/// let o = PairOptions::new(AccumType::F32).negate(true, false);
/// assert!(o.negate_a && !o.negate_b && o.sf.is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PairOptions {
    /// The accumulator type.
    pub accum: AccumType,
    /// Negate A (sm90: `imm-scale-a = -1`; sm100: idesc bit 13).
    pub negate_a: bool,
    /// Negate B.
    pub negate_b: bool,
    /// Saturate (integer kinds; sm90 `.satfinite`).
    pub saturate: bool,
    /// Scale-factor format (sm100 block-scaled kinds; `None`: ue8m0 for them).
    pub sf: Option<ScaleFormat>,
    /// Values per scale factor (`.scale_vectorsize`; `None`: 16 for ue4m3, else 32). PTX allows
    /// 16 with ue8m0 too, for `kind::mxf4nvf4` (`.scale_vec::4X` / `.block16`).
    pub vec: Option<u32>,
}

impl PairOptions {
    /// No negate, no saturate, default scale format.
    ///
    /// ```
    /// assert!(!smemdesc_core::PairOptions::new(smemdesc_core::AccumType::S32).saturate);
    /// ```
    pub const fn new(accum: AccumType) -> PairOptions {
        PairOptions {
            accum,
            negate_a: false,
            negate_b: false,
            saturate: false,
            sf: None,
            vec: None,
        }
    }

    /// Sets negate A / B.
    ///
    /// ```
    /// let o = smemdesc_core::PairOptions::new(smemdesc_core::AccumType::F32).negate(false, true);
    /// assert!(o.negate_b);
    /// ```
    pub const fn negate(mut self, a: bool, b: bool) -> PairOptions {
        self.negate_a = a;
        self.negate_b = b;
        self
    }

    /// Sets saturate.
    ///
    /// ```
    /// assert!(smemdesc_core::PairOptions::new(smemdesc_core::AccumType::S32).saturate(true).saturate);
    /// ```
    pub const fn saturate(mut self, on: bool) -> PairOptions {
        self.saturate = on;
        self
    }

    /// Sets the scale-factor format.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// assert_eq!(PairOptions::new(AccumType::F32).scale_format(ScaleFormat::Ue4m3).sf, Some(ScaleFormat::Ue4m3));
    /// ```
    pub const fn scale_format(mut self, sf: ScaleFormat) -> PairOptions {
        self.sf = Some(sf);
        self
    }

    /// Sets the values per scale factor (16 or 32; checked by [`MmaPair::check`] against the PTX
    /// table "Valid combinations of scale_vectorsize with types and MMA-Kind").
    ///
    /// ```
    /// use smemdesc_core::*;
    /// assert_eq!(PairOptions::new(AccumType::F32).scale_vec(16).vec, Some(16));
    /// ```
    pub const fn scale_vec(mut self, vec: u32) -> PairOptions {
        self.vec = Some(vec);
        self
    }
}

/// One MMA instruction fed by an A tile and a B tile that agree.
///
/// ```
/// use smemdesc_core::*;
/// const A: TilePlan = TileDecl::new(Arch::Sm100, Operand::A, ElementType::BF16, Major::K, 128, 64).expect_valid();
/// const B: TilePlan = TileDecl::new(Arch::Sm100, Operand::B, ElementType::BF16, Major::K, 256, 64).expect_valid();
/// const P: MmaPair = MmaPair::new(&A, &B, PairOptions::new(AccumType::F32)).expect_valid();
/// assert_eq!((P.shape.m, P.shape.n, P.shape.k), (128, 256, 16));
/// assert_eq!(P.idesc().unwrap().raw(), 0x08400490); // D f32, bf16 x bf16, N>>3 = 32, M>>4 = 8
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MmaPair {
    /// Architecture.
    pub arch: Arch,
    /// The MMA kind.
    pub kind: MmaKind,
    /// M (from A), N (from B), K.
    pub shape: MmaShape,
    /// CTA group (sm100).
    pub cta_group: u32,
    /// A's element type (an `f32` tile is read as tf32).
    pub a: ElementType,
    /// B's element type.
    pub b: ElementType,
    /// A's major-ness.
    pub a_major: Major,
    /// B's major-ness.
    pub b_major: Major,
    /// Settings.
    pub options: PairOptions,
}

const fn tf32_of(t: ElementType) -> ElementType {
    match t {
        ElementType::F32 => ElementType::TF32,
        other => other,
    }
}

impl MmaPair {
    /// Pairs two validated tiles (unchecked; see [`MmaPair::check`]).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::F16, Major::Mn, 128, 64).build().unwrap();
    /// let p = MmaPair::new(&a, &b, PairOptions::new(AccumType::F16));
    /// assert_eq!((p.shape.m, p.shape.n, p.b_major), (64, 128, Major::Mn));
    /// ```
    pub const fn new(a: &TilePlan, b: &TilePlan, options: PairOptions) -> MmaPair {
        MmaPair {
            arch: a.decl.arch,
            kind: a.kind,
            shape: MmaShape::new(a.mma.m, b.mma.n, a.mma.k),
            cta_group: a.decl.cta_group,
            a: tf32_of(a.decl.dtype),
            b: tf32_of(b.decl.dtype),
            a_major: a.decl.major,
            b_major: b.decl.major,
            options,
        }
    }

    /// [`MmaPair::new`] followed by [`MmaPair::check`], including that the tiles agree with each
    /// other (operand roles, architecture, K, kind, CTA group; M is A's, N is B's). K is compared
    /// before the kind: tiles of one kind always share K, so a K mismatch names the clearer fact.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::S8, Major::K, 64, 64).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::E4M3, Major::K, 128, 64).build().unwrap();
    /// let e = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap_err();
    /// assert_eq!(e, IdescError::KindMismatch { a: MmaKind::I8, b: MmaKind::F8f6f4 });
    /// let h = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// let e = MmaPair::pair(&a, &h, PairOptions::new(AccumType::F32)).unwrap_err();
    /// assert_eq!(e, IdescError::ShapeMismatch { what: 'K', a: 32, b: 16 });
    /// ```
    pub const fn pair(
        a: &TilePlan,
        b: &TilePlan,
        options: PairOptions,
    ) -> Result<MmaPair, IdescError> {
        if !matches!(a.decl.operand, Operand::A) {
            return Err(IdescError::OperandSwapped { role: Operand::A });
        }
        if !matches!(b.decl.operand, Operand::B) {
            return Err(IdescError::OperandSwapped { role: Operand::B });
        }
        if !a.decl.arch.is(b.decl.arch) {
            return Err(IdescError::ArchMismatch {
                a: a.decl.arch,
                b: b.decl.arch,
            });
        }
        if a.mma.k != b.mma.k {
            return Err(IdescError::ShapeMismatch {
                what: 'K',
                a: a.mma.k,
                b: b.mma.k,
            });
        }
        if a.decl.cta_group != b.decl.cta_group {
            return Err(IdescError::CtaGroupMismatch {
                a: a.decl.cta_group,
                b: b.decl.cta_group,
            });
        }
        if a.kind as u8 != b.kind as u8 {
            return Err(IdescError::KindMismatch {
                a: a.kind,
                b: b.kind,
            });
        }
        let p = MmaPair::new(a, b, options);
        tri!(p.check());
        Ok(p)
    }

    /// Like [`MmaPair::pair`], panicking (a compile error in a `const` item) when illegal.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// const A: TilePlan = TileDecl::new(Arch::Sm90, Operand::A, ElementType::S8, Major::K, 64, 64).expect_valid();
    /// const B: TilePlan = TileDecl::new(Arch::Sm90, Operand::B, ElementType::U8, Major::K, 64, 64).expect_valid();
    /// const P: MmaPair = MmaPair::new(&A, &B, PairOptions::new(AccumType::S32)).expect_valid();
    /// assert_eq!(P.shape.k, 32);
    /// ```
    pub const fn expect_valid(self) -> MmaPair {
        match self.check() {
            Ok(()) => self,
            Err(e) => panic!("{}", e.summary()),
        }
    }

    /// The instruction-level rules: on sm100 the full instruction-descriptor validation (and an
    /// explicit scale format for `kind::mxf4nvf4`); on sm90 the `wgmma` shape, accumulator,
    /// negate (`imm-scale`) and `.satfinite` rules.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::S8, Major::K, 64, 64).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::S8, Major::K, 64, 64).build().unwrap();
    /// let p = MmaPair::new(&a, &b, PairOptions::new(AccumType::S32).negate(true, false));
    /// assert_eq!(p.check(), Err(IdescError::NegateNotForKind { kind: MmaKind::I8 }));
    /// ```
    pub const fn check(&self) -> Result<(), IdescError> {
        // PTX table "Valid combinations of scale_vectorsize with types and MMA-Kind":
        // mxf8f6f4 and mxf4 read UE8M0 per 32 values; mxf4nvf4 reads UE8M0 per 32 or 16, UE4M3
        // per 16; dense kinds have no scale factors.
        if let Some(vec) = self.options.vec {
            let ue4m3 = matches!(self.options.sf, Some(ScaleFormat::Ue4m3));
            let (ok, legal) = match self.kind {
                MmaKind::Mxf8f6f4 | MmaKind::Mxf4 => (vec == 32 && !ue4m3, "vec = 32 (ue8m0)"),
                MmaKind::Mxf4nvf4 => (
                    vec == 16 || (vec == 32 && !ue4m3),
                    "vec = 16 (ue8m0 or ue4m3, .scale_vec::4X) or vec = 32 (ue8m0, .scale_vec::2X)",
                ),
                _ => (false, "none (dense kinds have no scale factors)"),
            };
            if !ok {
                return Err(IdescError::ScaleVecNotForKind {
                    kind: self.kind,
                    sf: self.options.sf,
                    vec,
                    legal,
                });
            }
        }
        match self.arch.generation() {
            // PTX `tcgen05.mma`: "For .kind::mxf4nvf4, the qualifier .scale_vectorsize must be
            // explicitly specified"; a pair does not pick one for it (its scale tiles default to
            // ue4m3 while the descriptor's own default is ue8m0).
            Arch::Sm100 if matches!(self.kind, MmaKind::Mxf4nvf4) && self.options.sf.is_none() => {
                Err(IdescError::ScaleFormatNotForKind {
                    kind: self.kind,
                    sf: None,
                    legal: "sf = ue4m3 (one factor per 16 values, .scale_vec::4X) or sf = ue8m0 \
                            (per 32, .scale_vec::2X); PTX makes the scale vector of \
                            kind::mxf4nvf4 explicit",
                })
            }
            Arch::Sm90 => self.check_sm90(),
            _ => match self.instr().validate() {
                Ok(()) => Ok(()),
                Err(e) => Err(e),
            },
        }
    }

    const fn check_sm90(&self) -> Result<(), IdescError> {
        let o = self.options;
        if o.sf.is_some() {
            return Err(IdescError::NotOnSm90 {
                what: "a scale-factor format",
            });
        }
        if matches!(self.kind, MmaKind::F16 | MmaKind::Tf32) && !self.a.is(self.b) {
            return Err(IdescError::TypesDiffer {
                a: self.a,
                b: self.b,
            });
        }
        let ok = match self.a {
            ElementType::F16 | ElementType::E4M3 | ElementType::E5M2 => {
                matches!(o.accum, AccumType::F16 | AccumType::F32)
            }
            ElementType::S8 | ElementType::U8 => matches!(o.accum, AccumType::S32),
            _ => matches!(o.accum, AccumType::F32),
        };
        if !ok {
            return Err(IdescError::Sm90AccumNotForType {
                a: self.a,
                accum: o.accum,
            });
        }
        let int = matches!(self.kind, MmaKind::I8);
        if int && (o.negate_a || o.negate_b) {
            return Err(IdescError::NegateNotForKind { kind: self.kind });
        }
        if !int && o.saturate {
            return Err(IdescError::SaturateNotForKind { kind: self.kind });
        }
        match check_mma_shape(Arch::Sm90, self.a, self.kind, self.shape, 1, self.b_major) {
            Ok(()) => Ok(()),
            Err(Error::IllegalMmaM { m, legal, .. }) => Err(IdescError::IllegalM {
                kind: self.kind,
                cta_group: 1,
                m,
                legal: legal.text(),
            }),
            Err(Error::IllegalMmaN { n, legal, .. }) => Err(IdescError::IllegalN {
                kind: self.kind,
                cta_group: 1,
                n,
                legal: legal.text(),
            }),
            // K: 32 bytes of the element type; tiles of one kind always agree.
            Err(_) => Err(IdescError::ShapeMismatch {
                what: 'K',
                a: self.shape.k,
                b: self.a.mma_k(),
            }),
        }
    }

    /// The sm100 instruction descriptor's fields (meaningful for sm100 pairs).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::E4M3, Major::K, 128, 128).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::E2M1, Major::K, 64, 128).kind(MmaKind::F8f6f4).build().unwrap();
    /// let d = MmaPair::new(&a, &b, PairOptions::new(AccumType::F32)).instr();
    /// assert_eq!((d.a, d.b, d.m, d.n), (ElementType::E4M3, ElementType::E2M1, 128, 64));
    /// ```
    pub const fn instr(&self) -> InstrDesc {
        let o = self.options;
        let mut d = InstrDesc::new(
            self.kind,
            self.a,
            self.b,
            o.accum,
            self.shape.m,
            self.shape.n,
        )
        .majors(self.a_major, self.b_major)
        .negate(o.negate_a, o.negate_b)
        .saturate(o.saturate)
        .cta_group(self.cta_group)
        // The tiles' K = 96 (packed fp4) is the descriptor's K bit (bit 31); `validate` refuses
        // it for any other kind, CTA group or M.
        .k96(self.shape.k == 96);
        if let Some(sf) = o.sf {
            d.sf = Some(sf);
        }
        d
    }

    /// The sm100 instruction descriptor (`Err` on sm90 or when illegal).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// assert!(MmaPair::new(&a, &b, PairOptions::new(AccumType::F32)).idesc().is_err());
    /// ```
    pub const fn idesc(&self) -> Result<Idesc, IdescError> {
        match self.arch.generation() {
            Arch::Sm90 => Err(IdescError::ArchMismatch {
                a: Arch::Sm90,
                b: Arch::Sm100,
            }),
            _ => self.instr().encode(),
        }
    }

    /// sm90 `imm-trans-a`/`imm-trans-b`: 1 for an MN-major (transposed) operand, else 0 (only
    /// `.f16`/`.bf16` have these immediates).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::F16, Major::Mn, 64, 64).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(MmaPair::new(&a, &b, PairOptions::new(AccumType::F32)).imm_trans(), (1, 0));
    /// ```
    pub const fn imm_trans(&self) -> (u32, u32) {
        (
            matches!(self.a_major, Major::Mn) as u32,
            matches!(self.b_major, Major::Mn) as u32,
        )
    }

    /// sm90 `imm-scale-a`/`imm-scale-b`: -1 to negate, else 1 (floating-point types only).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::F16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(MmaPair::new(&a, &b, PairOptions::new(AccumType::F32).negate(false, true)).imm_scale(), (1, -1));
    /// ```
    pub const fn imm_scale(&self) -> (i32, i32) {
        (
            if self.options.negate_a { -1 } else { 1 },
            if self.options.negate_b { -1 } else { 1 },
        )
    }

    /// Whether the sm90 instruction takes `imm-trans-a/b` (`.f16`/`.bf16` only).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::E4M3, Major::K, 64, 64).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::E4M3, Major::K, 64, 64).build().unwrap();
    /// assert!(!MmaPair::new(&a, &b, PairOptions::new(AccumType::F32)).has_imm_trans());
    /// ```
    pub const fn has_imm_trans(&self) -> bool {
        matches!(self.kind, MmaKind::F16)
    }

    /// Whether the sm90 instruction takes `imm-scale-a/b` (every kind but the integer one).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::U8, Major::K, 64, 64).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::U8, Major::K, 64, 64).build().unwrap();
    /// assert!(!MmaPair::new(&a, &b, PairOptions::new(AccumType::S32)).has_imm_scale());
    /// ```
    pub const fn has_imm_scale(&self) -> bool {
        !matches!(self.kind, MmaKind::I8)
    }

    /// The instruction mnemonic as a [`core::fmt::Display`] value: sm90
    /// `wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16` (integers: `…k32{.satfinite}.s32.s8.u8`),
    /// sm100 `tcgen05.mma.cta_group::1.kind::f16` (block-scaled:
    /// `….kind::mxf8f6f4.block_scale.scale_vec::1X`).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 256, 64).build().unwrap();
    /// let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
    /// assert_eq!(p.mnemonic().to_string(), "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16");
    /// ```
    pub const fn mnemonic(&self) -> Mnemonic {
        Mnemonic(*self)
    }
}

/// The mnemonic of an [`MmaPair`]'s instruction (see [`MmaPair::mnemonic`]).
///
/// ```
/// use smemdesc_core::*;
/// let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::E2M1, Major::K, 128, 128).kind(MmaKind::Mxf8f6f4).build().unwrap();
/// let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::E4M3, Major::K, 128, 128).kind(MmaKind::Mxf8f6f4).build().unwrap();
/// let p = MmaPair::pair(&a, &b, PairOptions::new(AccumType::F32)).unwrap();
/// assert_eq!(p.mnemonic().to_string(), "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X");
/// // K = 96 (packed fp4, CTA pair, M = 256): the descriptor's K bit and the block-size qualifier
/// let t = |op, n| TileDecl::new(Arch::Sm100, op, ElementType::E2M1, Major::K, n, 192)
///     .kind(MmaKind::Mxf4).cta_group(2).mma(MmaShape::new(256, 256, 96)).build().unwrap();
/// let p = MmaPair::pair(&t(Operand::A, 128), &t(Operand::B, 128), PairOptions::new(AccumType::F32)).unwrap();
/// assert_eq!(p.mnemonic().to_string(), "tcgen05.mma.cta_group::2.kind::mxf4.block_scale.block32");
/// assert_eq!(p.idesc().unwrap().raw() >> 31, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mnemonic(MmaPair);

impl core::fmt::Display for Mnemonic {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let p = &self.0;
        match p.arch.generation() {
            Arch::Sm90 => {
                let sat = if p.options.saturate { ".satfinite" } else { "" };
                write!(
                    f,
                    "wgmma.mma_async.sync.aligned.m{}n{}k{}{sat}.{}.{}.{}",
                    p.shape.m,
                    p.shape.n,
                    p.shape.k,
                    p.options.accum.name(),
                    p.a.name(),
                    p.b.name()
                )
            }
            _ => {
                write!(
                    f,
                    "tcgen05.mma.cta_group::{}.kind::{}",
                    p.cta_group,
                    p.kind.name()
                )?;
                let v16 = matches!(p.scale_vec(), Some((_, 16)));
                // `.scale_vec::NX` is an arch-specific spelling (sm_100a, sm_103a, sm_110a); the
                // family target sm_100f takes only `.block16`/`.block32` (PTX ISA 8.8), which
                // every tcgen05 arch but sm100 is written with (sm100 keeps its spelling).
                let blocks = !matches!(p.arch, Arch::Sm100);
                let vec = match (p.kind, v16) {
                    (MmaKind::Mxf8f6f4, _) if blocks => "block32",
                    (MmaKind::Mxf8f6f4, _) => "scale_vec::1X",
                    // K = 96: `.scale_vec::NX` is defined for K = 64/128 only; the block-size
                    // forms name the 3 (block32) or 6 (block16) factors per row (PTX
                    // `tcgen05.mma` `.scale_vectorsize`, Table "Valid combinations of
                    // scale_vectorsize and shapes").
                    (MmaKind::Mxf4 | MmaKind::Mxf4nvf4, _) if p.shape.k == 96 || blocks => {
                        if v16 {
                            "block16"
                        } else {
                            "block32"
                        }
                    }
                    (MmaKind::Mxf4nvf4, true) => "scale_vec::4X",
                    (MmaKind::Mxf4 | MmaKind::Mxf4nvf4, false) => "scale_vec::2X",
                    _ => return Ok(()),
                };
                write!(f, ".block_scale.{vec}")
            }
        }
    }
}
