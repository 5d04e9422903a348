//! The kinds of MMA a tile is read by and of its operands, and the block-scale/accumulator
//! formats: vocabulary shared by the tile, instruction and error types.

use crate::base::arch::Arch;
use crate::base::dtype::ElementType;

/// Which MMA operand a tile holds.
///
/// ```
/// use smemdesc_core::Operand;
/// assert_eq!(Operand::from_name("B"), Some(Operand::B));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A (M × K).
    A,
    /// B (N × K).
    B,
}

impl Operand {
    /// `"A"` or `"B"`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Operand::A.name(), "A");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Operand::A => "A",
            Operand::B => "B",
        }
    }

    /// Parses `A`/`a` or `B`/`b`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Operand::from_name("a"), Some(smemdesc_core::Operand::A));
    /// ```
    pub fn from_name(name: &str) -> Option<Operand> {
        match name {
            "A" | "a" => Some(Operand::A),
            "B" | "b" => Some(Operand::B),
            _ => None,
        }
    }
}

/// The MMA kind (`tcgen05.mma .kind::*`; on sm90 the kind follows the element type).
///
/// ```
/// use smemdesc_core::{ElementType, MmaKind};
/// assert_eq!(MmaKind::of(ElementType::E5M2), MmaKind::F8f6f4);
/// assert_eq!(MmaKind::from_name("i8"), Some(MmaKind::I8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaKind {
    /// f16/bf16 inputs.
    F16,
    /// tf32 inputs.
    Tf32,
    /// e4m3, e5m2, e2m3, e3m2, e2m1 inputs (6/4-bit types in the padded SMEM form).
    F8f6f4,
    /// s8/u8 inputs.
    I8,
    /// Block-scaled fp8/fp6/fp4 (sm100).
    Mxf8f6f4,
    /// Block-scaled packed fp4 (sm100).
    Mxf4,
    /// Block-scaled packed fp4 with ue4m3 scales (sm100).
    Mxf4nvf4,
}

impl MmaKind {
    /// Every kind, in declaration order (the order of the PTX `.kind` list: dense kinds, then the
    /// block-scaled ones).
    ///
    /// ```
    /// use smemdesc_core::MmaKind;
    /// assert_eq!(MmaKind::ALL.len(), 7);
    /// assert!(MmaKind::ALL.iter().all(|k| MmaKind::from_name(k.name()) == Some(*k)));
    /// ```
    pub const ALL: [MmaKind; 7] = [
        MmaKind::F16,
        MmaKind::Tf32,
        MmaKind::F8f6f4,
        MmaKind::I8,
        MmaKind::Mxf8f6f4,
        MmaKind::Mxf4,
        MmaKind::Mxf4nvf4,
    ];

    /// The dense kind that takes `dtype`.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, MmaKind};
    /// assert_eq!(MmaKind::of(ElementType::F32), MmaKind::Tf32);
    /// ```
    pub const fn of(dtype: ElementType) -> MmaKind {
        match dtype {
            ElementType::F16 | ElementType::BF16 => MmaKind::F16,
            ElementType::TF32 | ElementType::F32 => MmaKind::Tf32,
            ElementType::S8 | ElementType::U8 => MmaKind::I8,
            _ => MmaKind::F8f6f4,
        }
    }

    /// The PTX name (`f16`, `tf32`, `f8f6f4`, `i8`, `mxf8f6f4`, `mxf4`, `mxf4nvf4`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::MmaKind::Mxf4nvf4.name(), "mxf4nvf4");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            MmaKind::F16 => "f16",
            MmaKind::Tf32 => "tf32",
            MmaKind::F8f6f4 => "f8f6f4",
            MmaKind::I8 => "i8",
            MmaKind::Mxf8f6f4 => "mxf8f6f4",
            MmaKind::Mxf4 => "mxf4",
            MmaKind::Mxf4nvf4 => "mxf4nvf4",
        }
    }

    /// Parses a PTX kind name.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::MmaKind::from_name("tf32"), Some(smemdesc_core::MmaKind::Tf32));
    /// ```
    pub fn from_name(name: &str) -> Option<MmaKind> {
        Some(match name {
            "f16" => MmaKind::F16,
            "tf32" => MmaKind::Tf32,
            "f8f6f4" => MmaKind::F8f6f4,
            "i8" => MmaKind::I8,
            "mxf8f6f4" => MmaKind::Mxf8f6f4,
            "mxf4" => MmaKind::Mxf4,
            "mxf4nvf4" => MmaKind::Mxf4nvf4,
            _ => return None,
        })
    }

    /// The input types, as text for messages.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::MmaKind::I8.inputs(), "s8, u8");
    /// ```
    pub const fn inputs(self) -> &'static str {
        match self {
            MmaKind::F16 => "f16, bf16",
            MmaKind::Tf32 => "tf32, f32",
            MmaKind::F8f6f4 | MmaKind::Mxf8f6f4 => "e4m3, e5m2, e2m3, e3m2, e2m1",
            MmaKind::I8 => "s8, u8",
            MmaKind::Mxf4 | MmaKind::Mxf4nvf4 => "e2m1 (packed)",
        }
    }

    /// Whether `dtype` is an input of this kind.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, MmaKind};
    /// assert!(MmaKind::Mxf8f6f4.accepts(ElementType::E2M3));
    /// assert!(!MmaKind::F16.accepts(ElementType::E4M3));
    /// ```
    pub const fn accepts(self, dtype: ElementType) -> bool {
        match self {
            MmaKind::Mxf8f6f4 => matches!(MmaKind::of(dtype), MmaKind::F8f6f4),
            MmaKind::Mxf4 | MmaKind::Mxf4nvf4 => matches!(dtype, ElementType::E2M1),
            _ => self as u8 == MmaKind::of(dtype) as u8,
        }
    }

    /// Whether the kind exists on `arch`: the block-scaled kinds are tcgen05 only, `kind::i8`
    /// of tcgen05 exists on sm100a and sm110a only ([`Arch::has_tcgen05_i8`]), and an arch
    /// without wgmma or tcgen05 (sm120, sm121; sm107, unsourced) has none.
    ///
    /// ```
    /// use smemdesc_core::{Arch, MmaKind};
    /// assert!(!MmaKind::Mxf4.on(Arch::Sm90));
    /// assert!(MmaKind::Mxf4nvf4.on(Arch::Sm103));
    /// assert!(!MmaKind::I8.on(Arch::Sm103));
    /// assert!(!MmaKind::F16.on(Arch::Sm120));
    /// ```
    pub const fn on(self, arch: Arch) -> bool {
        match arch {
            Arch::Sm90 => matches!(
                self,
                MmaKind::F16 | MmaKind::Tf32 | MmaKind::F8f6f4 | MmaKind::I8
            ),
            _ => arch.has_tcgen05() && (!matches!(self, MmaKind::I8) || arch.has_tcgen05_i8()),
        }
    }
}

/// The accumulator (matrix D) type of an MMA.
///
/// ```
/// use smemdesc_core::AccumType;
/// assert_eq!(AccumType::from_name("f32"), Some(AccumType::F32));
/// assert_eq!(AccumType::S32.code(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccumType {
    /// f16 (code 0).
    F16,
    /// f32 (code 1).
    F32,
    /// s32 (code 2).
    S32,
}

impl AccumType {
    /// The PTX D-type code (bits 4-5 of a dense descriptor).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::AccumType::F16.code(), 0);
    /// ```
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// `f16`, `f32` or `s32`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::AccumType::F32.name(), "f32");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            AccumType::F16 => "f16",
            AccumType::F32 => "f32",
            AccumType::S32 => "s32",
        }
    }

    /// Parses `f16`, `f32`, `s32` (also `fp16`, `fp32`, `i32`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::AccumType::from_name("i32"), Some(smemdesc_core::AccumType::S32));
    /// ```
    pub fn from_name(name: &str) -> Option<AccumType> {
        Some(match name {
            "f16" | "fp16" => AccumType::F16,
            "f32" | "fp32" => AccumType::F32,
            "s32" | "i32" => AccumType::S32,
            _ => return None,
        })
    }
}

/// The scale-factor format of a block-scaled kind (bit 23).
///
/// ```
/// use smemdesc_core::ScaleFormat;
/// assert_eq!(ScaleFormat::from_name("ue4m3"), Some(ScaleFormat::Ue4m3));
/// assert_eq!(ScaleFormat::Ue8m0.code(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScaleFormat {
    /// UE4M3 (code 0; `kind::mxf4nvf4` only, one factor per 16 K values).
    Ue4m3,
    /// UE8M0 (code 1; one factor per 32 K values).
    Ue8m0,
}

impl ScaleFormat {
    /// The bit-23 code.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ScaleFormat::Ue4m3.code(), 0);
    /// ```
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// `ue4m3` or `ue8m0`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ScaleFormat::Ue8m0.name(), "ue8m0");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ScaleFormat::Ue4m3 => "ue4m3",
            ScaleFormat::Ue8m0 => "ue8m0",
        }
    }

    /// Parses `ue4m3` or `ue8m0`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ScaleFormat::from_name("e8m0"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<ScaleFormat> {
        match name {
            "ue4m3" => Some(ScaleFormat::Ue4m3),
            "ue8m0" => Some(ScaleFormat::Ue8m0),
            _ => None,
        }
    }
}
