//! Element types and their SMEM widths.

/// An operand element type.
///
/// Layout arithmetic uses [`ElementType::smem_bits`], the width of one layout *cell* in shared
/// memory; every length is then computed in bytes (or 16-byte units), never in elements. A 6- or
/// 4-bit value is not stored in a byte of its own: `kind::f8f6f4`/`mxf8f6f4` read the **padded**
/// form (16 values packed at the start of each 16-byte unit, the rest padding: one 1-byte slot per
/// value for the layout algebra), `kind::mxf4`/`mxf4nvf4` the **packed** form (two values per
/// byte). [`SmemForm`](crate::SmemForm) says which, and where each value's bits are; the 8-bit
/// container is the Tensor Memory format, not an SMEM one.
///
/// ```
/// use smemdesc_core::{ElementType, MmaKind, SmemForm};
/// assert_eq!(ElementType::BF16.bits(), 16);
/// assert_eq!(ElementType::E2M1.bits(), 4);
/// assert_eq!(ElementType::E2M1.smem_bits(), 8); // one 1-byte cell: a padded slot or a packed pair
/// assert_eq!(ElementType::E2M1.smem_form(MmaKind::Mxf4).values_per_16_bytes(ElementType::E2M1), 32);
/// assert_eq!(ElementType::TF32.per_16_bytes(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    /// IEEE half precision.
    F16,
    /// bfloat16.
    BF16,
    /// TensorFloat-32 (stored as 32 bits).
    TF32,
    /// `f32` operands, consumed by the tensor core as tf32.
    F32,
    /// FP8 E4M3.
    E4M3,
    /// FP8 E5M2.
    E5M2,
    /// Signed 8-bit integer.
    S8,
    /// Unsigned 8-bit integer.
    U8,
    /// FP6 E2M3 (sm100).
    E2M3,
    /// FP6 E3M2 (sm100).
    E3M2,
    /// FP4 E2M1 (sm100).
    E2M1,
}

impl ElementType {
    /// Every element type, in declaration order.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ElementType::ALL.len(), 11);
    /// ```
    pub const ALL: [ElementType; 11] = [
        ElementType::F16,
        ElementType::BF16,
        ElementType::TF32,
        ElementType::F32,
        ElementType::E4M3,
        ElementType::E5M2,
        ElementType::S8,
        ElementType::U8,
        ElementType::E2M3,
        ElementType::E3M2,
        ElementType::E2M1,
    ];

    /// Width of one value in bits.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ElementType::E3M2.bits(), 6);
    /// ```
    pub const fn bits(self) -> u32 {
        match self {
            ElementType::F16 | ElementType::BF16 => 16,
            ElementType::TF32 | ElementType::F32 => 32,
            ElementType::E4M3 | ElementType::E5M2 | ElementType::S8 | ElementType::U8 => 8,
            ElementType::E2M3 | ElementType::E3M2 => 6,
            ElementType::E2M1 => 4,
        }
    }

    /// Width of one layout cell in shared memory, in bits (sub-byte types: 8, the 1-byte slot of
    /// the padded form or the byte of a packed pair; see [`SmemForm`](crate::SmemForm)).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ElementType::E2M3.smem_bits(), 8);
    /// assert_eq!(smemdesc_core::ElementType::F16.smem_bits(), 16);
    /// ```
    #[inline]
    pub const fn smem_bits(self) -> u32 {
        let b = self.bits();
        if b < 8 {
            8
        } else {
            b
        }
    }

    /// Bytes one element occupies in shared memory.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ElementType::TF32.smem_bytes(), 4);
    /// ```
    #[inline]
    pub const fn smem_bytes(self) -> u32 {
        self.smem_bits() / 8
    }

    /// Cells per 16-byte unit (CuTe's `T` in the canonical layouts; values for every form but
    /// packed fp4, which has 32 values per 16 bytes).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ElementType::E4M3.per_16_bytes(), 16);
    /// ```
    #[inline]
    pub const fn per_16_bytes(self) -> u32 {
        128 / self.smem_bits()
    }

    /// Elements in the 32 bytes of K one MMA instruction reads (the instruction's K) in the dense
    /// kinds' form; packed fp4 (`kind::mxf4`) has K = 64 (see [`SmemForm::values_in`](crate::SmemForm::values_in)).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ElementType::BF16.mma_k(), 16);
    /// assert_eq!(smemdesc_core::ElementType::TF32.mma_k(), 8);
    /// assert_eq!(smemdesc_core::ElementType::E5M2.mma_k(), 32);
    /// ```
    #[inline]
    pub const fn mma_k(self) -> u32 {
        256 / self.smem_bits()
    }

    /// The name used in declarations.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ElementType::BF16.name(), "bf16");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ElementType::F16 => "f16",
            ElementType::BF16 => "bf16",
            ElementType::TF32 => "tf32",
            ElementType::F32 => "f32",
            ElementType::E4M3 => "e4m3",
            ElementType::E5M2 => "e5m2",
            ElementType::S8 => "s8",
            ElementType::U8 => "u8",
            ElementType::E2M3 => "e2m3",
            ElementType::E3M2 => "e3m2",
            ElementType::E2M1 => "e2m1",
        }
    }

    /// Parses a name (also `fp16`, `half`, `i8`, `fp8_e4m3`, ...).
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// assert_eq!(ElementType::from_name("fp8_e4m3"), Some(ElementType::E4M3));
    /// assert_eq!(ElementType::from_name("f64"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<ElementType> {
        Some(match name {
            "f16" | "fp16" | "half" => ElementType::F16,
            "bf16" => ElementType::BF16,
            "tf32" => ElementType::TF32,
            "f32" | "fp32" => ElementType::F32,
            "e4m3" | "fp8_e4m3" | "f8e4m3" => ElementType::E4M3,
            "e5m2" | "fp8_e5m2" | "f8e5m2" => ElementType::E5M2,
            "s8" | "i8" => ElementType::S8,
            "u8" => ElementType::U8,
            "e2m3" | "fp6_e2m3" => ElementType::E2M3,
            "e3m2" | "fp6_e3m2" => ElementType::E3M2,
            "e2m1" | "fp4_e2m1" | "fp4" => ElementType::E2M1,
            _ => return None,
        })
    }

    /// Equality usable in `const` context.
    ///
    /// ```
    /// assert!(smemdesc_core::ElementType::U8.is(smemdesc_core::ElementType::U8));
    /// ```
    pub const fn is(self, other: ElementType) -> bool {
        self as u8 == other as u8
    }
}
