//! The element-type format codes of the tcgen05 instruction descriptor, per kind (the PTX ISA's
//! "Instruction descriptor" tables), and which kinds are block-scaled.

use crate::base::dtype::ElementType;
use crate::mma::shape::MmaKind;

/// Whether `kind` is block-scaled (`mxf8f6f4`, `mxf4`, `mxf4nvf4`).
///
/// ```
/// use smemdesc_core::{is_block_scaled, MmaKind};
/// assert!(is_block_scaled(MmaKind::Mxf4));
/// assert!(!is_block_scaled(MmaKind::F8f6f4));
/// ```
#[inline]
pub const fn is_block_scaled(kind: MmaKind) -> bool {
    matches!(kind, MmaKind::Mxf8f6f4 | MmaKind::Mxf4 | MmaKind::Mxf4nvf4)
}

/// Format codes per kind family (PTX instruction descriptor tables): family 0 = f16, 1 = tf32,
/// 2 = f8f6f4/mxf8f6f4, 3 = i8, 4 = mxf4/mxf4nvf4.
const FORMATS: [(u8, ElementType, u32); 13] = [
    (0, ElementType::F16, 0),
    (0, ElementType::BF16, 1),
    (1, ElementType::TF32, 2),
    (2, ElementType::E4M3, 0),
    (2, ElementType::E5M2, 1),
    (2, ElementType::E2M3, 3),
    (2, ElementType::E3M2, 4),
    (2, ElementType::E2M1, 5),
    (3, ElementType::U8, 0),
    (3, ElementType::S8, 1),
    (4, ElementType::E2M1, 1),
    // Sentinels that never match (family 255), keeping the table's length fixed.
    (255, ElementType::F32, 0),
    (255, ElementType::F32, 0),
];

#[inline]
const fn family(kind: MmaKind) -> u8 {
    match kind {
        MmaKind::F16 => 0,
        MmaKind::Tf32 => 1,
        MmaKind::F8f6f4 | MmaKind::Mxf8f6f4 => 2,
        MmaKind::I8 => 3,
        MmaKind::Mxf4 | MmaKind::Mxf4nvf4 => 4,
    }
}

/// The one table lookup: by type (`by_type = Some`) or by code.
#[inline]
const fn lookup(
    kind: MmaKind,
    by_type: Option<ElementType>,
    code: u32,
) -> Option<(ElementType, u32)> {
    let fam = family(kind);
    let mut i = 0;
    while i < FORMATS.len() {
        let (f, t, c) = FORMATS[i];
        if f == fam {
            let hit = match by_type {
                Some(want) => want.is(t),
                None => c == code,
            };
            if hit {
                return Some((t, c));
            }
        }
        i += 1;
    }
    None
}

/// The PTX format code of `dtype` under `kind` (bits 7-9 / 10-12), if `dtype` is an input of it.
///
/// ```
/// use smemdesc_core::{format_code, ElementType, MmaKind};
/// assert_eq!(format_code(MmaKind::F8f6f4, ElementType::E2M1), Some(5));
/// assert_eq!(format_code(MmaKind::Mxf4, ElementType::E2M1), Some(1)); // packed fp4: E2M1 = 1
/// assert_eq!(format_code(MmaKind::F16, ElementType::TF32), None);
/// ```
#[inline]
pub const fn format_code(kind: MmaKind, dtype: ElementType) -> Option<u32> {
    match lookup(kind, Some(dtype), 0) {
        Some((_, c)) => Some(c),
        None => None,
    }
}

/// The type a format code names under `kind`.
///
/// ```
/// use smemdesc_core::{format_type, ElementType, MmaKind};
/// assert_eq!(format_type(MmaKind::I8, 1), Some(ElementType::S8));
/// assert_eq!(format_type(MmaKind::F8f6f4, 2), None);
/// ```
#[inline]
pub const fn format_type(kind: MmaKind, code: u32) -> Option<ElementType> {
    match lookup(kind, None, code) {
        Some((t, _)) => Some(t),
        None => None,
    }
}
