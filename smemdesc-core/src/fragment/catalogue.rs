//! The warp-level `mma.sync` instructions per architecture: shapes, kinds and operand types the
//! PTX ISA allows (section "Warp Level Matrix Multiply-Accumulate Instructions", `mma`: its syntax
//! block, "Target ISA notes" and Table "Valid combinations of .scale_vec_size and .kind
//! qualifier").

use super::{ScaleType, ScaleVec, SyncArch, SyncKind, SyncShape};
use crate::ElementType;

/// Why an `mma.sync` form is illegal; each variant names the legal choices.
///
/// ```
/// use smemdesc_core::ElementType;
/// use smemdesc_core::fragment::{MmaSync, SyncArch, SyncShape, SyncKind};
/// let e = MmaSync::new(SyncArch::Sm86, SyncShape::M16N8K32, ElementType::E4M3).unwrap_err();
/// assert!(e.to_string().contains("sm89"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FragError {
    /// The type pair is not legal for the shape and kind.
    IllegalType {
        /// The shape.
        shape: SyncShape,
        /// The kind.
        kind: SyncKind,
        /// The offending A or B type.
        dtype: ElementType,
        /// The legal types, in words.
        legal: &'static str,
    },
    /// The form exists, but not on this architecture.
    IllegalArch {
        /// The architecture asked for.
        arch: SyncArch,
        /// The oldest architecture that has it, in words.
        needs: &'static str,
    },
    /// The scale vector / scale type is not legal for the kind.
    IllegalScale {
        /// The kind.
        kind: SyncKind,
        /// The legal combinations, in words.
        legal: &'static str,
    },
}

impl FragError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            FragError::IllegalType {
                shape,
                kind,
                dtype,
                legal,
            } => {
                write!(f, "mma.sync.{}", shape.name())?;
                if !matches!(kind, SyncKind::Plain) {
                    write!(f, " kind::{}", kind.name())?;
                }
                write!(f, " does not take {}; legal: {legal}", dtype.name())
            }
            FragError::IllegalArch { arch, needs } => {
                write!(
                    f,
                    "this mma.sync form is not available on {}; it needs {needs}",
                    arch.name()
                )
            }
            FragError::IllegalScale { kind, legal } => {
                write!(
                    f,
                    "illegal scale vector for kind::{}; legal: {legal}",
                    kind.name()
                )
            }
        }
    }
}

/// One legal warp-level `mma.sync.aligned.m16n8kK.row.col` form: shape, kind, A and B types, and
/// for the block-scaled kinds the scale vector and scale type.
///
/// ```
/// use smemdesc_core::ElementType;
/// use smemdesc_core::fragment::{MmaSync, SyncArch, SyncShape};
/// const M: MmaSync = match MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::BF16) {
///     Ok(m) => m,
///     Err(_) => panic!(),
/// };
/// assert_eq!(M.reg_bits(), 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MmaSync {
    /// The architecture it was checked for.
    pub arch: SyncArch,
    /// The shape.
    pub shape: SyncShape,
    /// The kind.
    pub kind: SyncKind,
    /// A's element type.
    pub a: ElementType,
    /// B's element type.
    pub b: ElementType,
    /// For block-scaled kinds: the scale vector and the scale type.
    pub scale: Option<(ScaleVec, ScaleType)>,
}

const PLAIN_TYPES: &str = "m16n8k4: tf32; m16n8k8: f16, bf16, tf32; m16n8k16: f16, bf16, s8, u8, e4m3, e5m2 (fp8: sm89+); m16n8k32: s8, u8, e4m3, e5m2 (fp8: sm89+)";
const F8F6F4_TYPES: &str =
    "m16n8k32 with e4m3, e5m2, e3m2, e2m3, e2m1 (A and B chosen independently)";
const MXF4_TYPES: &str = "m16n8k64 with e2m1";

const fn is_f8f6f4(t: ElementType) -> bool {
    matches!(
        t,
        ElementType::E4M3
            | ElementType::E5M2
            | ElementType::E3M2
            | ElementType::E2M3
            | ElementType::E2M1
    )
}

impl MmaSync {
    /// The plain (no `.kind`) form with A and B of type `dtype`.
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::{MmaSync, SyncArch, SyncShape};
    /// assert!(MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K4, ElementType::TF32).is_ok());
    /// assert!(MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K4, ElementType::BF16).is_err());
    /// ```
    pub const fn new(
        arch: SyncArch,
        shape: SyncShape,
        dtype: ElementType,
    ) -> Result<MmaSync, FragError> {
        MmaSync::with_kind(arch, shape, SyncKind::Plain, dtype, dtype, None)
    }

    /// Any form: `kind`, A and B types (mixed where the ISA allows: `s8`×`u8`, `e4m3`×`e5m2`,
    /// any two `f8f6f4` types), and `scale` for the block-scaled kinds (`None` takes the PTX
    /// default: `1X` for `mxf8f6f4`, `2X` for `mxf4`; `mxf4nvf4` has no default).
    ///
    /// ```
    /// use smemdesc_core::ElementType as T;
    /// use smemdesc_core::fragment::*;
    /// let m = MmaSync::with_kind(SyncArch::Sm120, SyncShape::M16N8K64, SyncKind::Mxf4Nvf4,
    ///     T::E2M1, T::E2M1, Some((ScaleVec::X4, ScaleType::Ue4m3))).unwrap();
    /// assert_eq!(m.scale_block(), Some(16));
    /// assert!(MmaSync::with_kind(SyncArch::Sm90, SyncShape::M16N8K64, SyncKind::Mxf4,
    ///     T::E2M1, T::E2M1, None).is_err());
    /// ```
    pub const fn with_kind(
        arch: SyncArch,
        shape: SyncShape,
        kind: SyncKind,
        a: ElementType,
        b: ElementType,
        scale: Option<(ScaleVec, ScaleType)>,
    ) -> Result<MmaSync, FragError> {
        // Type legality per shape and kind.
        match kind {
            SyncKind::Plain => {
                let mut t = 0;
                while t < 2 {
                    let d = if t == 0 { a } else { b };
                    let ok = match shape {
                        SyncShape::M16N8K4 => matches!(d, ElementType::TF32),
                        SyncShape::M16N8K8 => {
                            matches!(d, ElementType::F16 | ElementType::BF16 | ElementType::TF32)
                        }
                        // PTX: `mma.sync.aligned.shape.row.col.dtype.f8type.f8type.ctype` with
                        // `.shape = {.m16n8k16, .m16n8k32}` (m16n8k16 since PTX ISA 8.7).
                        SyncShape::M16N8K16 => matches!(
                            d,
                            ElementType::F16
                                | ElementType::BF16
                                | ElementType::S8
                                | ElementType::U8
                                | ElementType::E4M3
                                | ElementType::E5M2
                        ),
                        SyncShape::M16N8K32 => matches!(
                            d,
                            ElementType::S8
                                | ElementType::U8
                                | ElementType::E4M3
                                | ElementType::E5M2
                        ),
                        SyncShape::M16N8K64 => false,
                    };
                    if !ok {
                        return Err(FragError::IllegalType {
                            shape,
                            kind,
                            dtype: d,
                            legal: PLAIN_TYPES,
                        });
                    }
                    t += 1;
                }
                // A and B of one family: both floating (same type), both integer, or both fp8.
                let int_a = matches!(a, ElementType::S8 | ElementType::U8);
                let int_b = matches!(b, ElementType::S8 | ElementType::U8);
                let f8_a = matches!(a, ElementType::E4M3 | ElementType::E5M2);
                let f8_b = matches!(b, ElementType::E4M3 | ElementType::E5M2);
                let same = (int_a && int_b) || (f8_a && f8_b) || a.is(b);
                if !same {
                    return Err(FragError::IllegalType {
                        shape,
                        kind,
                        dtype: b,
                        legal: "B of A's type (s8/u8 and e4m3/e5m2 may mix within their family)",
                    });
                }
                if (f8_a || f8_b) && !arch.has_fp8() {
                    return Err(FragError::IllegalArch {
                        arch,
                        needs: "sm89 or later (e4m3/e5m2 mma.sync)",
                    });
                }
                if scale.is_some() {
                    return Err(FragError::IllegalScale {
                        kind,
                        legal: "none (only kind::mxf8f6f4, mxf4, mxf4nvf4 are block-scaled)",
                    });
                }
                Ok(MmaSync {
                    arch,
                    shape,
                    kind,
                    a,
                    b,
                    scale: None,
                })
            }
            SyncKind::F8f6f4 | SyncKind::Mxf8f6f4 => {
                if !matches!(shape, SyncShape::M16N8K32) || !is_f8f6f4(a) || !is_f8f6f4(b) {
                    return Err(FragError::IllegalType {
                        shape,
                        kind,
                        dtype: if is_f8f6f4(a) { b } else { a },
                        legal: F8F6F4_TYPES,
                    });
                }
                if !matches!(arch, SyncArch::Sm120) {
                    return Err(FragError::IllegalArch {
                        arch,
                        needs: "sm120 (sm_120a)",
                    });
                }
                let scale = match (kind, scale) {
                    (SyncKind::F8f6f4, None) => None,
                    (SyncKind::Mxf8f6f4, None | Some((ScaleVec::X1, ScaleType::Ue8m0))) => {
                        Some((ScaleVec::X1, ScaleType::Ue8m0))
                    }
                    (SyncKind::F8f6f4, Some(_)) => {
                        return Err(FragError::IllegalScale {
                            kind,
                            legal: "none (kind::f8f6f4 is not block-scaled)",
                        })
                    }
                    _ => {
                        return Err(FragError::IllegalScale {
                            kind,
                            legal: "scale_vec::1X with ue8m0",
                        })
                    }
                };
                Ok(MmaSync {
                    arch,
                    shape,
                    kind,
                    a,
                    b,
                    scale,
                })
            }
            SyncKind::Mxf4 | SyncKind::Mxf4Nvf4 => {
                if !matches!(shape, SyncShape::M16N8K64)
                    || !matches!(a, ElementType::E2M1)
                    || !matches!(b, ElementType::E2M1)
                {
                    return Err(FragError::IllegalType {
                        shape,
                        kind,
                        dtype: if matches!(a, ElementType::E2M1) { b } else { a },
                        legal: MXF4_TYPES,
                    });
                }
                if !matches!(arch, SyncArch::Sm120) {
                    return Err(FragError::IllegalArch {
                        arch,
                        needs: "sm120 (sm_120a)",
                    });
                }
                let scale = match (kind, scale) {
                    (SyncKind::Mxf4, None | Some((ScaleVec::X2, ScaleType::Ue8m0))) => {
                        (ScaleVec::X2, ScaleType::Ue8m0)
                    }
                    // The PTX ISA table also lists ue8m0 with 4X, but ptxas -arch=sm_120a (CUDA
                    // 13.0) rejects it ("Illegal modifier '.scale_vec::4X' ... with type
                    // '.ue8m0'"); smemdesc follows the assembler.
                    (SyncKind::Mxf4Nvf4, Some((ScaleVec::X2, ScaleType::Ue8m0))) => {
                        (ScaleVec::X2, ScaleType::Ue8m0)
                    }
                    (SyncKind::Mxf4Nvf4, Some((ScaleVec::X4, ScaleType::Ue4m3))) => {
                        (ScaleVec::X4, ScaleType::Ue4m3)
                    }
                    (SyncKind::Mxf4, _) => {
                        return Err(FragError::IllegalScale {
                            kind,
                            legal: "scale_vec::2X with ue8m0",
                        })
                    }
                    _ => {
                        return Err(FragError::IllegalScale {
                            kind,
                            legal:
                                "scale_vec::2X with ue8m0, or scale_vec::4X with ue4m3 (no default)",
                        })
                    }
                };
                Ok(MmaSync {
                    arch,
                    shape,
                    kind,
                    a,
                    b,
                    scale: Some(scale),
                })
            }
        }
    }

    /// Bits one element occupies in the fragment registers: 16 (f16/bf16), 32 (tf32), 8 (8-bit
    /// types, and every `f8f6f4`/`mxf8f6f4` type, held in an 8-bit container), 4 (`mxf4`,
    /// `mxf4nvf4`: packed e2m1).
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::{MmaSync, SyncArch, SyncShape};
    /// let m = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K8, ElementType::TF32).unwrap();
    /// assert_eq!(m.reg_bits(), 32);
    /// ```
    pub const fn reg_bits(&self) -> u32 {
        match self.kind {
            SyncKind::Mxf4 | SyncKind::Mxf4Nvf4 => 4,
            SyncKind::F8f6f4 | SyncKind::Mxf8f6f4 => 8,
            SyncKind::Plain => match self.a {
                ElementType::TF32 | ElementType::F32 => 32,
                ElementType::F16 | ElementType::BF16 => 16,
                _ => 8,
            },
        }
    }

    /// Elements per 32-bit register (`32 / reg_bits`).
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::{MmaSync, SyncArch, SyncShape};
    /// let m = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K32, ElementType::S8).unwrap();
    /// assert_eq!(m.per_reg(), 4);
    /// ```
    pub const fn per_reg(&self) -> u32 {
        32 / self.reg_bits()
    }

    /// K values one scale factor covers (32 or 16), for block-scaled kinds.
    ///
    /// ```
    /// use smemdesc_core::ElementType as T;
    /// use smemdesc_core::fragment::*;
    /// let m = MmaSync::with_kind(SyncArch::Sm120, SyncShape::M16N8K32, SyncKind::Mxf8f6f4,
    ///     T::E4M3, T::E2M1, None).unwrap();
    /// assert_eq!(m.scale_block(), Some(32));
    /// ```
    pub const fn scale_block(&self) -> Option<u32> {
        match self.scale {
            Some((v, _)) => Some(self.shape.k() / v.count()),
            None => None,
        }
    }

    /// The PTX mnemonic up to the types (`mma.sync.aligned.kind::mxf4.block_scale.scale_vec::2X.m16n8k64.row.col`).
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::{MmaSync, SyncArch, SyncShape};
    /// let m = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::BF16).unwrap();
    /// let mut buf = [0u8; 96];
    /// assert_eq!(m.mnemonic(&mut buf), "mma.sync.aligned.m16n8k16.row.col");
    /// ```
    pub fn mnemonic<'b>(&self, buf: &'b mut [u8; 96]) -> &'b str {
        let mut n = 0;
        let mut push = |s: &str| {
            for &c in s.as_bytes() {
                if n < buf.len() {
                    buf[n] = c;
                    n += 1;
                }
            }
        };
        push("mma.sync.aligned.");
        if !matches!(self.kind, SyncKind::Plain) {
            push("kind::");
            push(self.kind.name());
            push(".");
        }
        if let Some((v, _)) = self.scale {
            push("block_scale.");
            push(v.name());
            push(".");
        }
        push(self.shape.name());
        push(".row.col");
        core::str::from_utf8(&buf[..n]).unwrap_or("")
    }
}
