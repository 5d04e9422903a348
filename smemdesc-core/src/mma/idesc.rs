//! tcgen05 instruction descriptors (the 32-bit `idesc` operand of `tcgen05.mma`), typed.
//!
//! Sources (PTX ISA, "Tensor Core 5th Generation Family Instructions"):
//! * "Instruction descriptor" (section 9.7.16.4.2, 9.7.17.4.2 in later ISA versions): the table for `.kind::tf32`, `.kind::f16`,
//!   `.kind::f8f6f4`, `.kind::i8` (bits 0-1 sparsity selector, 2 sparsity, 3 saturate, 4-5 D type,
//!   7-9 A type, 10-12 B type, 13/14 negate A/B, 15/16 transpose A/B, 17-22 N>>3, 24-28 M>>4,
//!   30-31 `.ws` max shift; 6, 23, 29 reserved), the table for `.kind::mxf8f6f4` (bits 4-5 B
//!   scale-factor id, 23 scale type, **27-28 M>>7 with 24-26 reserved**, 29-30 A scale-factor id)
//!   and the table for `.kind::mxf4`/`.kind::mxf4nvf4` (as mxf8f6f4 with E2M1 = 1, B type in bits
//!   10-11, scale-factor ids 0 or 2, bit 31 the K = 96 "K dimension" bit).
//! * "Matrix Shape" (9.7.16.2.1 / 9.7.17.2.1, table "Various combinations of .kind and shapes"): M, N of
//!   each kind and CTA group. For `cta_group::2`, N is {16, 32, …, 256} in steps of 16 for every
//!   kind but `.kind::i8`, which takes steps of 32.
//! * "Block Scaling for tcgen05.mma" → "Scale Factor A ID": which ids each scale-vector size allows.
//!
//! Where peers differ (settled from the PTX text above):
//! * **Block-scaled M**: PTX stores M>>7 in bits 27-28 (24-26 reserved); CUTLASS
//!   (`UMMA::InstrDescriptorBlockScaled`) writes M>>4 into bits 24-28. For the only legal M (128,
//!   256) both give the same bits; smemdesc encodes the PTX way and, decoding, reports bits 24-26
//!   as reserved (a CUTLASS descriptor for an illegal M such as 64 sets bit 26).
//! * **cta_group::2 N**: steps of 16 (CuTe DSL agrees; Mojo's step 32 is right only for
//!   `.kind::i8`).
//! * **Sparse selector of block-scaled kinds**: CUTLASS writes `sparse_id2` into bits 0-1; PTX
//!   marks them reserved. smemdesc follows PTX and refuses a selector there.
//! * MN-major is limited to e4m3, e5m2, s8, u8, f16, bf16, tf32 (CUTLASS), not the fp6/fp4 types;
//!   `kind::f16` takes one type for A and B (f16·f16 or bf16·bf16).
//! * ISA versions differ: older tables give `kind::f8f6f4` D = F32 only and `kind::mxf4nvf4` UE4M3
//!   only; the later tables (and the shape table of both) allow D = F16 and UE8M0 too, as CuTe's
//!   golden rows do. smemdesc follows the later text. The "Scale Factor A ID" section allows ids
//!   0-3 for block32 with K = 96 where the mxf4 descriptor table says "0 or 2"; smemdesc allows
//!   0-3 there (ue8m0, K = 96) and 0/2 otherwise.
//!
//! The descriptor does not record the CTA group; the `cta_group` field is kept for validation
//! only, and decoding assumes `cta_group::2` exactly when M = 256.

use crate::base::arch::Major;
use crate::base::dtype::ElementType;
use crate::mma::format::{format_code, is_block_scaled};
use crate::mma::idesc_error::IdescError;
use crate::mma::shape::{MmaKind, Operand};

pub use crate::base::kind::{AccumType, ScaleFormat};

/// A tcgen05 instruction descriptor, field by field.
///
/// Static fields come from the declaration; the run-time fields (`sparse_id`, `sf_a_id`,
/// `sf_b_id`) are usually set at issue time on the encoded [`Idesc`](crate::Idesc) with its `const fn` setters.
///
/// ```
/// use smemdesc_core::*;
/// const D: InstrDesc = InstrDesc::new(MmaKind::F16, ElementType::BF16, ElementType::BF16, AccumType::F32, 128, 256);
/// const I: Idesc = D.expect_valid();
/// // PTX table: D f32 (1 << 4), A/B bf16 (1 << 7, 1 << 10), N>>3 = 32 at bit 17, M>>4 = 8 at bit 24.
/// assert_eq!(I.raw(), (1 << 4) | (1 << 7) | (1 << 10) | (32 << 17) | (8 << 24));
/// assert_eq!(I.runtime64(), (I.raw() as u64) << 32);
/// assert_eq!(I.decode().unwrap(), D);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstrDesc {
    /// The MMA kind (not encoded: it is part of the opcode; it selects the table).
    pub kind: MmaKind,
    /// A's element type.
    pub a: ElementType,
    /// B's element type.
    pub b: ElementType,
    /// The accumulator type (block-scaled kinds: f32, not encoded).
    pub c: AccumType,
    /// M of the instruction (the CTA pair's M for `cta_group::2`).
    pub m: u32,
    /// N of the instruction.
    pub n: u32,
    /// A's major-ness (MN = transpose bit 15).
    pub a_major: Major,
    /// B's major-ness (MN = transpose bit 16).
    pub b_major: Major,
    /// Negate A (bit 13).
    pub negate_a: bool,
    /// Negate B (bit 14).
    pub negate_b: bool,
    /// Saturate (bit 3, `kind::i8`).
    pub saturate: bool,
    /// Sparse A (bit 2).
    pub sparse: bool,
    /// Scale-factor format (block-scaled kinds; `None` for dense kinds).
    pub sf: Option<ScaleFormat>,
    /// The K = 96 bit (bit 31, dense `mxf4`/`mxf4nvf4`, `cta_group::2`, M = 256).
    pub k96: bool,
    /// The CTA group (1 or 2), for validation; not encoded.
    pub cta_group: u32,
    /// Sparsity selector (bits 0-1, sparse `kind::f16` / `kind::tf32` only; 0 elsewhere), run time.
    pub sparse_id: u32,
    /// A scale-factor id (bits 29-30), run time.
    pub sf_a_id: u32,
    /// B scale-factor id (bits 4-5), run time.
    pub sf_b_id: u32,
    /// `.ws` B-reuse max shift (bits 30-31 of dense kinds); must be 0 (not modeled).
    pub ws_shift: u32,
}

/// Legal-M text and check for a kind / CTA group / sparsity (PTX "Matrix Shape" table).
#[inline]
const fn m_rule(kind: MmaKind, cta_group: u32, sparse: bool, m: u32) -> Result<(), &'static str> {
    let bs = is_block_scaled(kind);
    if cta_group == 1 {
        if bs {
            if m == 128 {
                return Ok(());
            }
            return Err("128");
        }
        if m == 64 || m == 128 {
            return Ok(());
        }
        return Err("64, 128");
    }
    if bs && sparse {
        if m == 256 {
            return Ok(());
        }
        return Err("256 (sparse block-scaled, cta_group::2)");
    }
    if m == 128 || m == 256 {
        return Ok(());
    }
    Err("128, 256 (the CTA pair's M)")
}

/// Legal-N check; `b_mn_8bit`: B is an MN-major 8-bit operand (N multiple of 16, or 32 for
/// `cta_group::2`, as smemdesc's tile rules).
#[inline]
const fn n_rule(
    kind: MmaKind,
    cta_group: u32,
    b_mn_8bit: bool,
    n: u32,
) -> Result<(), &'static str> {
    let i8 = matches!(kind, MmaKind::I8);
    let (lo, step, extras, text) = if cta_group == 2 {
        if i8 || b_mn_8bit {
            (32, 32, false, "32..=256 in steps of 32")
        } else {
            (16, 16, false, "16..=256 in steps of 16")
        }
    } else if b_mn_8bit {
        (16, 16, false, "16..=256 in steps of 16 (MN-major 8-bit B)")
    } else if i8 {
        (16, 16, true, "8, 16, 24, 32, then 48..=256 in steps of 16")
    } else {
        (8, 8, false, "8..=256 in steps of 8")
    };
    if (extras && (n == 8 || n == 24)) || (n >= lo && n <= 256 && n % step == 0) {
        Ok(())
    } else {
        Err(text)
    }
}

/// Whether `dtype` may be MN-major (transposed) under `kind`.
#[inline]
const fn may_transpose(kind: MmaKind, dtype: ElementType) -> bool {
    if matches!(kind, MmaKind::Mxf4 | MmaKind::Mxf4nvf4) {
        return false;
    }
    matches!(
        dtype,
        ElementType::E4M3
            | ElementType::E5M2
            | ElementType::S8
            | ElementType::U8
            | ElementType::F16
            | ElementType::BF16
            | ElementType::TF32
    )
}

impl InstrDesc {
    /// A dense or block-scaled descriptor with K-major A and B, no negate/saturate/sparsity,
    /// `cta_group::1` (`::2` when M = 256) and, for block-scaled kinds, `ue8m0` scale factors.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = InstrDesc::new(MmaKind::Mxf4nvf4, ElementType::E2M1, ElementType::E2M1, AccumType::F32, 256, 64);
    /// assert_eq!((d.cta_group, d.sf), (2, Some(ScaleFormat::Ue8m0)));
    /// ```
    #[inline]
    pub const fn new(
        kind: MmaKind,
        a: ElementType,
        b: ElementType,
        c: AccumType,
        m: u32,
        n: u32,
    ) -> InstrDesc {
        InstrDesc {
            kind,
            a,
            b,
            c,
            m,
            n,
            a_major: Major::K,
            b_major: Major::K,
            negate_a: false,
            negate_b: false,
            saturate: false,
            sparse: false,
            sf: if is_block_scaled(kind) {
                Some(ScaleFormat::Ue8m0)
            } else {
                None
            },
            k96: false,
            cta_group: if m == 256 { 2 } else { 1 },
            sparse_id: 0,
            sf_a_id: 0,
            sf_b_id: 0,
            ws_shift: 0,
        }
    }

    /// Sets both major-ness.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = InstrDesc::new(MmaKind::F16, ElementType::F16, ElementType::F16, AccumType::F16, 64, 8).majors(Major::Mn, Major::K);
    /// assert_eq!(d.encode().unwrap().raw() & (1 << 15), 1 << 15);
    /// ```
    #[inline]
    pub const fn majors(mut self, a: Major, b: Major) -> InstrDesc {
        self.a_major = a;
        self.b_major = b;
        self
    }

    /// Sets negate A / negate B.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = InstrDesc::new(MmaKind::I8, ElementType::S8, ElementType::S8, AccumType::S32, 64, 8).negate(true, false);
    /// assert!(d.validate().is_err()); // kind::i8 has no negate
    /// ```
    #[inline]
    pub const fn negate(mut self, a: bool, b: bool) -> InstrDesc {
        self.negate_a = a;
        self.negate_b = b;
        self
    }

    /// Sets saturate (`kind::i8` only).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = InstrDesc::new(MmaKind::I8, ElementType::S8, ElementType::U8, AccumType::S32, 128, 32).saturate(true);
    /// assert_eq!(d.encode().unwrap().raw() & 8, 8);
    /// ```
    #[inline]
    pub const fn saturate(mut self, on: bool) -> InstrDesc {
        self.saturate = on;
        self
    }

    /// Sets the scale-factor format (block-scaled kinds).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = InstrDesc::new(MmaKind::Mxf4nvf4, ElementType::E2M1, ElementType::E2M1, AccumType::F32, 128, 8).scale_format(ScaleFormat::Ue4m3);
    /// assert_eq!(d.encode().unwrap().raw() & (1 << 23), 0);
    /// ```
    #[inline]
    pub const fn scale_format(mut self, sf: ScaleFormat) -> InstrDesc {
        self.sf = Some(sf);
        self
    }

    /// Sets the CTA group (validation only; not encoded).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = InstrDesc::new(MmaKind::F16, ElementType::BF16, ElementType::BF16, AccumType::F32, 128, 24).cta_group(2);
    /// assert!(d.validate().is_err()); // cta_group::2 N steps by 16
    /// ```
    #[inline]
    pub const fn cta_group(mut self, cta_group: u32) -> InstrDesc {
        self.cta_group = cta_group;
        self
    }

    /// Sets sparsity (bit 2).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = InstrDesc::new(MmaKind::Tf32, ElementType::TF32, ElementType::TF32, AccumType::F32, 64, 8).sparse(true);
    /// assert_eq!(d.encode().unwrap().raw() & 4, 4);
    /// ```
    #[inline]
    pub const fn sparse(mut self, on: bool) -> InstrDesc {
        self.sparse = on;
        self
    }

    /// Sets the K = 96 bit (dense `mxf4`/`mxf4nvf4`, `cta_group::2`, M = 256).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = InstrDesc::new(MmaKind::Mxf4, ElementType::E2M1, ElementType::E2M1, AccumType::F32, 256, 128).k96(true);
    /// assert_eq!(d.encode().unwrap().raw() >> 31, 1);
    /// ```
    #[inline]
    pub const fn k96(mut self, on: bool) -> InstrDesc {
        self.k96 = on;
        self
    }

    /// The instruction's K (elements): 32 bytes of the input for dense kinds (tf32 8, f16 16,
    /// 8-bit 32), 64 for `mxf4`/`mxf4nvf4` (96 with the K bit); doubled when sparse.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// assert_eq!(InstrDesc::new(MmaKind::Tf32, ElementType::TF32, ElementType::TF32, AccumType::F32, 64, 8).k(), 8);
    /// assert_eq!(InstrDesc::new(MmaKind::Mxf4, ElementType::E2M1, ElementType::E2M1, AccumType::F32, 128, 8).k(), 64);
    /// ```
    #[inline]
    pub const fn k(&self) -> u32 {
        let dense = match self.kind {
            MmaKind::F16 => 16,
            MmaKind::Tf32 => 8,
            MmaKind::F8f6f4 | MmaKind::I8 | MmaKind::Mxf8f6f4 => 32,
            MmaKind::Mxf4 | MmaKind::Mxf4nvf4 => {
                if self.k96 {
                    96
                } else {
                    64
                }
            }
        };
        if self.sparse {
            dense * 2
        } else {
            dense
        }
    }

    /// Checks every field against the PTX tables (types, D type, negate, saturate, majors, M, N,
    /// scale format, K bit, run-time ids, reserved `.ws` shift). The first rule broken is reported.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let fp6_mn = InstrDesc::new(MmaKind::F8f6f4, ElementType::E3M2, ElementType::E4M3, AccumType::F32, 128, 64)
    ///     .majors(Major::Mn, Major::K);
    /// assert!(matches!(fp6_mn.validate(), Err(IdescError::MnMajorNotAllowed { operand: Operand::A, .. })));
    /// ```
    #[inline]
    pub const fn validate(&self) -> Result<(), IdescError> {
        let kind = self.kind;
        if format_code(kind, self.a).is_none() {
            return Err(IdescError::TypeNotForKind {
                operand: Operand::A,
                dtype: self.a,
                kind,
            });
        }
        if format_code(kind, self.b).is_none() {
            return Err(IdescError::TypeNotForKind {
                operand: Operand::B,
                dtype: self.b,
                kind,
            });
        }
        if matches!(kind, MmaKind::F16) && !self.a.is(self.b) {
            return Err(IdescError::TypesDiffer {
                a: self.a,
                b: self.b,
            });
        }
        let (accum_ok, legal) = match kind {
            MmaKind::F16 => {
                if matches!(self.a, ElementType::F16) {
                    (!matches!(self.c, AccumType::S32), "f16, f32")
                } else {
                    (matches!(self.c, AccumType::F32), "f32")
                }
            }
            MmaKind::F8f6f4 => (!matches!(self.c, AccumType::S32), "f16, f32"),
            MmaKind::I8 => (matches!(self.c, AccumType::S32), "s32"),
            _ => (matches!(self.c, AccumType::F32), "f32"),
        };
        if !accum_ok {
            return Err(IdescError::AccumNotForKind {
                kind,
                a: self.a,
                accum: self.c,
                legal,
            });
        }
        if (self.negate_a || self.negate_b) && matches!(kind, MmaKind::I8) {
            return Err(IdescError::NegateNotForKind { kind });
        }
        if self.saturate && !matches!(kind, MmaKind::I8) {
            return Err(IdescError::SaturateNotForKind { kind });
        }
        if matches!(self.a_major, Major::Mn) && !may_transpose(kind, self.a) {
            return Err(IdescError::MnMajorNotAllowed {
                operand: Operand::A,
                dtype: self.a,
                kind,
            });
        }
        if matches!(self.b_major, Major::Mn) && !may_transpose(kind, self.b) {
            return Err(IdescError::MnMajorNotAllowed {
                operand: Operand::B,
                dtype: self.b,
                kind,
            });
        }
        let cg = self.cta_group;
        if cg != 1 && cg != 2 {
            return Err(IdescError::CtaGroupInvalid { cta_group: cg });
        }
        if let Err(legal) = m_rule(kind, cg, self.sparse, self.m) {
            return Err(IdescError::IllegalM {
                kind,
                cta_group: cg,
                m: self.m,
                legal,
            });
        }
        let b_mn_8bit = matches!(self.b_major, Major::Mn) && self.b.bits() == 8;
        if let Err(legal) = n_rule(kind, cg, b_mn_8bit, self.n) {
            return Err(IdescError::IllegalN {
                kind,
                cta_group: cg,
                n: self.n,
                legal,
            });
        }
        tri!(self.check_scale());
        if self.ws_shift != 0 {
            return Err(IdescError::WsShiftNotModeled {
                shift: self.ws_shift,
            });
        }
        Ok(())
    }

    /// Scale format, K bit, scale-factor ids and the sparsity selector.
    #[inline]
    const fn check_scale(&self) -> Result<(), IdescError> {
        let kind = self.kind;
        let legal_sf = match kind {
            MmaKind::Mxf8f6f4 | MmaKind::Mxf4 => "ue8m0",
            MmaKind::Mxf4nvf4 => "ue8m0, ue4m3",
            _ => "none (dense kinds have no scale factors)",
        };
        let sf_ok = matches!(
            (kind, self.sf),
            (MmaKind::Mxf8f6f4 | MmaKind::Mxf4, Some(ScaleFormat::Ue8m0))
                | (MmaKind::Mxf4nvf4, Some(_))
                | (
                    MmaKind::F16 | MmaKind::Tf32 | MmaKind::F8f6f4 | MmaKind::I8,
                    None
                )
        );
        if !sf_ok {
            return Err(IdescError::ScaleFormatNotForKind {
                kind,
                sf: self.sf,
                legal: legal_sf,
            });
        }
        let mxf4 = matches!(kind, MmaKind::Mxf4 | MmaKind::Mxf4nvf4);
        if self.k96 && !(mxf4 && !self.sparse && self.cta_group == 2 && self.m == 256) {
            return Err(IdescError::K96NotAllowed {
                kind,
                cta_group: self.cta_group,
                m: self.m,
            });
        }
        // Scale Factor A/B ID: mxf8f6f4 (scale_vec::1X) any byte 0-3; mxf4 kinds 0 or 2
        // (2X half-words); ue4m3 (4X / block16 at K = 64) 0 only; K = 96 block32 0-3, block16 0/2.
        let (ok_mask, legal_ids) = if !is_block_scaled(kind) {
            (0b0001, "0 (dense kinds have no scale factors)")
        } else if matches!(kind, MmaKind::Mxf8f6f4) {
            (0b1111, "0, 1, 2, 3")
        } else {
            match (self.sf, self.k96) {
                (Some(ScaleFormat::Ue4m3), false) => (0b0001, "0 (ue4m3, scale_vec::4X)"),
                (Some(ScaleFormat::Ue8m0), true) => (0b1111, "0, 1, 2, 3 (block32, K = 96)"),
                _ => (0b0101, "0, 2"),
            }
        };
        if self.sf_a_id > 3 || (ok_mask >> self.sf_a_id) & 1 == 0 {
            return Err(IdescError::SfIdIllegal {
                operand: Operand::A,
                id: self.sf_a_id,
                legal: legal_ids,
            });
        }
        if self.sf_b_id > 3 || (ok_mask >> self.sf_b_id) & 1 == 0 {
            return Err(IdescError::SfIdIllegal {
                operand: Operand::B,
                id: self.sf_b_id,
                legal: legal_ids,
            });
        }
        // Sparsity selector (PTX ISA, tcgen05 "Sparse Matrices" -> "Sparsity selector", the
        // "Layout of the Sparsity Metadata Matrix" subsections for M = 64 and M = 128 / 256): the
        // selector picks sub-columns of the metadata only for `.kind::f16` and `.kind::tf32`; it
        // "must be 0 for .kind::i8 and .kind::f8f6f4" and "is assumed to be 0" for the
        // block-scaled kinds, whose descriptor bits 0-1 are reserved.
        let selector_kind = matches!(kind, MmaKind::F16 | MmaKind::Tf32);
        if self.sparse_id != 0 && (self.sparse_id > 3 || !self.sparse || !selector_kind) {
            return Err(IdescError::SparseIdIllegal {
                kind,
                id: self.sparse_id,
                sparse: self.sparse,
            });
        }
        Ok(())
    }
}
