//! MMA instruction shapes: which M/N/K, kinds and major-ness each architecture accepts.
//!
//! Sources (PTX ISA): sm90 — "Asynchronous Warpgroup Level Matrix Multiply-Accumulate", section
//! "Matrix Shape" and the `.trans`/`imm-trans` rules of `wgmma.mma_async`; sm100 — "tcgen05 Matrix
//! Shape" (table of `.kind` × `.cta_group` shapes), "Transpose and Negate operations" and "Valid
//! Combinations of Type-Size, Major-ness and Swizzling". CUTLASS `cute/arch/mma_sm100_umma.hpp`
//! applies the same N rules for 8-bit MN-major B.

use crate::base::arch::{Arch, Major};
use crate::base::dtype::ElementType;
use crate::base::error::Error;
use crate::base::error_data::Legal;
use crate::base::swizzle::SwizzleMode;

pub use crate::base::kind::{MmaKind, Operand};

/// One MMA instruction's shape `M × N × K` (elements), as in `m64n256k16`.
///
/// ```
/// use smemdesc_core::MmaShape;
/// let s = MmaShape::parse("m64n256k16").unwrap();
/// assert_eq!((s.m, s.n, s.k), (64, 256, 16));
/// assert_eq!(MmaShape::parse("m64n256"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MmaShape {
    /// M.
    pub m: u32,
    /// N.
    pub n: u32,
    /// K.
    pub k: u32,
}

impl MmaShape {
    /// `m × n × k`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::MmaShape::new(64, 8, 16).n, 8);
    /// ```
    pub const fn new(m: u32, n: u32, k: u32) -> MmaShape {
        MmaShape { m, n, k }
    }

    /// Parses `mMnNkK` (e.g. `m128n256k32`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::MmaShape::parse("m128n8k32"), Some(smemdesc_core::MmaShape::new(128, 8, 32)));
    /// ```
    pub fn parse(text: &str) -> Option<MmaShape> {
        let rest = text.strip_prefix('m')?;
        let (m, rest) = rest.split_once('n')?;
        let (n, k) = rest.split_once('k')?;
        let num = |s: &str| -> Option<u32> {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        };
        Some(MmaShape {
            m: num(m)?,
            n: num(n)?,
            k: num(k)?,
        })
    }

    /// The operand's extent along M/N held by one CTA: M (A) or N (B), halved for `cta_group = 2`
    /// where the CTA pair splits both A's M and B's N.
    ///
    /// ```
    /// use smemdesc_core::{MmaShape, Operand};
    /// assert_eq!(MmaShape::new(256, 128, 16).operand_mn(Operand::A, 2), 128);
    /// assert_eq!(MmaShape::new(64, 128, 16).operand_mn(Operand::B, 1), 128);
    /// ```
    pub const fn operand_mn(self, operand: Operand, cta_group: u32) -> u32 {
        let e = match operand {
            Operand::A => self.m,
            Operand::B => self.n,
        };
        if cta_group == 2 {
            e / 2
        } else {
            e
        }
    }
}

/// A set of legal N values: `{lo, lo+step, .., 256}` plus, for i8, the small extras `8, 24`.
struct NSet {
    lo: u32,
    step: u32,
    extras: bool,
    legal: Legal,
}

impl NSet {
    const fn contains(&self, n: u32) -> bool {
        if self.extras && (n == 8 || n == 24) {
            return true;
        }
        n >= self.lo && n <= 256 && n % self.step == 0
    }
}

const fn n_set(arch: Arch, kind: MmaKind, cta_group: u32, b_mn_major_8bit: bool) -> NSet {
    const S8: NSet = NSet {
        lo: 8,
        step: 8,
        extras: false,
        legal: Legal::NStep8,
    };
    const S16: NSet = NSet {
        lo: 16,
        step: 16,
        extras: false,
        legal: Legal::NStep16,
    };
    const S32: NSet = NSet {
        lo: 32,
        step: 32,
        extras: false,
        legal: Legal::NStep32,
    };
    const I8: NSet = NSet {
        lo: 16,
        step: 16,
        extras: true,
        legal: Legal::NI8,
    };
    match (arch.generation(), kind) {
        (Arch::Sm90, MmaKind::I8) => I8,
        (Arch::Sm90, _) => S8,
        (_, MmaKind::I8) => {
            if cta_group == 2 {
                S32
            } else if b_mn_major_8bit {
                S16
            } else {
                I8
            }
        }
        (_, _) => {
            if cta_group == 2 {
                if b_mn_major_8bit {
                    S32
                } else {
                    S16
                }
            } else if b_mn_major_8bit {
                S16
            } else {
                S8
            }
        }
    }
}

const fn m_legal(arch: Arch, kind: MmaKind, cta_group: u32, m: u32) -> Result<(), Legal> {
    match arch.generation() {
        Arch::Sm90 => {
            if m == 64 {
                Ok(())
            } else {
                Err(Legal::M64)
            }
        }
        _ => {
            let mx = matches!(kind, MmaKind::Mxf8f6f4 | MmaKind::Mxf4 | MmaKind::Mxf4nvf4);
            if cta_group == 2 {
                if m == 128 || m == 256 {
                    Ok(())
                } else {
                    Err(Legal::M128Or256Pair)
                }
            } else if mx {
                if m == 128 {
                    Ok(())
                } else {
                    Err(Legal::M128)
                }
            } else if m == 64 || m == 128 {
                Ok(())
            } else {
                Err(Legal::M64Or128)
            }
        }
    }
}

/// Checks an instruction shape for `arch`, `kind` and `cta_group`; `b_major` is operand B's
/// major-ness (an 8-bit MN-major B restricts N on sm100).
///
/// ```
/// use smemdesc_core::{check_mma_shape, Arch, ElementType, Major, MmaKind, MmaShape};
/// let k = MmaKind::F16;
/// assert!(check_mma_shape(Arch::Sm90, ElementType::BF16, k, MmaShape::new(64, 256, 16), 1, Major::K).is_ok());
/// assert!(check_mma_shape(Arch::Sm90, ElementType::BF16, k, MmaShape::new(128, 256, 16), 1, Major::K).is_err());
/// assert!(check_mma_shape(Arch::Sm90, ElementType::BF16, k, MmaShape::new(64, 256, 32), 1, Major::K).is_err());
/// // packed fp4 K = 96: only 256xNx96 with cta_group 2
/// let (e2m1, mx) = (ElementType::E2M1, MmaKind::Mxf4);
/// assert!(check_mma_shape(Arch::Sm100, e2m1, mx, MmaShape::new(256, 128, 96), 2, Major::K).is_ok());
/// assert!(check_mma_shape(Arch::Sm100, e2m1, mx, MmaShape::new(128, 128, 96), 2, Major::K).is_err());
/// assert!(check_mma_shape(Arch::Sm100, e2m1, mx, MmaShape::new(128, 128, 96), 1, Major::K).is_err());
/// ```
pub const fn check_mma_shape(
    arch: Arch,
    dtype: ElementType,
    kind: MmaKind,
    shape: MmaShape,
    cta_group: u32,
    b_major: Major,
) -> Result<(), Error> {
    let form = crate::base::smem_form::SmemForm::of(dtype, kind);
    if let crate::base::smem_form::SmemForm::Packed = form {
        // kind::mxf4 / mxf4nvf4: 32 bytes of packed fp4 (K = 64), or 48 bytes (K = 96).
        if shape.k != 64 && shape.k != 96 {
            return Err(Error::IllegalMmaK {
                k: shape.k,
                dtype,
                form,
                legal: Legal::K64Or96,
            });
        }
    }
    if shape.k == 96 {
        // PTX tcgen05 "Matrix Shape" table: K1 = 96 exists only as the dense `cta_group::2`
        // shape 256xNxK1 of kind::mxf4 / mxf4nvf4 (and only on sm_103a, its Target ISA Note).
        if cta_group != 2 {
            return Err(Error::IllegalMmaK {
                k: shape.k,
                dtype,
                form,
                legal: Legal::K64NotPair,
            });
        }
        if shape.m != 256 {
            return Err(Error::IllegalMmaM {
                arch,
                kind,
                cta_group,
                m: shape.m,
                legal: Legal::M256K96,
            });
        }
    }
    let expected = form.values_in(dtype, 32);
    if !matches!(form, crate::base::smem_form::SmemForm::Packed) && shape.k != expected {
        return Err(Error::MmaKNot32Bytes {
            k: shape.k,
            dtype,
            expected,
        });
    }
    if let Err(legal) = m_legal(arch, kind, cta_group, shape.m) {
        return Err(Error::IllegalMmaM {
            arch,
            kind,
            cta_group,
            m: shape.m,
            legal,
        });
    }
    let b8 = matches!(b_major, Major::Mn) && dtype.smem_bits() == 8;
    let set = n_set(arch, kind, cta_group, b8);
    if !set.contains(shape.n) {
        return Err(Error::IllegalMmaN {
            arch,
            kind,
            cta_group,
            n: shape.n,
            legal: set.legal,
        });
    }
    Ok(())
}

/// Checks that an operand of `dtype` may be MN-major (transposed) with `swizzle` on `arch`.
///
/// * sm90: only f16/bf16 (`imm-trans-a/b` exist only for `.f16`/`.bf16`).
/// * sm100: 16- and 8-bit types with any swizzle but `128B_base32B`; 32-bit (tf32) only with
///   `128B_base32B`; 6/4-bit types never (PTX lists no MN-major layout for them, and CUTLASS limits
///   MN-major to e4m3, e5m2, s8, u8, f16, bf16, tf32 — smemdesc follows that stricter rule); the
///   `mxf4`/`mxf4nvf4` kinds never transpose.
///
/// ```
/// use smemdesc_core::{check_mn_major, Arch, ElementType, MmaKind, SwizzleMode};
/// assert!(check_mn_major(Arch::Sm90, ElementType::E4M3, MmaKind::F8f6f4, SwizzleMode::B128).is_err());
/// assert!(check_mn_major(Arch::Sm100, ElementType::E4M3, MmaKind::F8f6f4, SwizzleMode::B128).is_ok());
/// assert!(check_mn_major(Arch::Sm100, ElementType::TF32, MmaKind::Tf32, SwizzleMode::B128).is_err());
/// assert!(check_mn_major(Arch::Sm100, ElementType::TF32, MmaKind::Tf32, SwizzleMode::B128Base32B).is_ok());
/// ```
pub const fn check_mn_major(
    arch: Arch,
    dtype: ElementType,
    kind: MmaKind,
    swizzle: SwizzleMode,
) -> Result<(), Error> {
    let bits = dtype.bits();
    let ok_type = match arch.generation() {
        Arch::Sm90 => bits == 16,
        _ => {
            (bits == 16 || bits == 8 || bits == 32)
                && !matches!(kind, MmaKind::Mxf4 | MmaKind::Mxf4nvf4)
        }
    };
    if !ok_type {
        return Err(Error::MnMajorForbidden { arch, dtype });
    }
    let base32 = matches!(swizzle, SwizzleMode::B128Base32B);
    if matches!(arch.generation(), Arch::Sm100) && (bits == 32) != base32 {
        return Err(Error::SwizzleNotForOperand {
            swizzle,
            major: Major::Mn,
            dtype,
        });
    }
    Ok(())
}
