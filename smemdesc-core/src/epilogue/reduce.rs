//! The C tile's element types and the TMA reductions (`cp.reduce.async.bulk.tensor`) a C tile
//! can be stored with, each with the element types the PTX ISA allows it on.
//!
//! The PTX ISA (`cp.reduce.async.bulk.tensor`, Description) names the element type of the
//! reduction through the tensor map, not the instruction, and gives this table:
//!
//! ```text
//! The following table describes the valid combinations of .redOp and element type:
//!
//! .redOp            Element type
//! .add              .u32, .s32, .u64, .f32, .f16, .bf16
//! .min, .max        .u32, .s32, .u64, .s64, .f16, .bf16
//! .inc, .dec        .u32
//! .and, .or, .xor   .b32, .b64
//! ```
//!
//! A tensor map has no `.b32`/`.b64` data type: the bitwise reductions take the integer types of
//! those widths a tensor map can name, and no float type: `UINT32`, `INT32` and `UINT64`, not
//! `INT64`. Measured on an H200 (driver 13.0; `gpu/device-logs/2026-11-27-reduce`): `.and`, `.or`
//! and `.xor` through an `INT64` map stop the kernel with an illegal instruction, through
//! `UINT64` they are exact (and `.min`/`.max` through `INT64` are exact).
//!
//! ```
//! use smemdesc_core::epilogue::{CType, ReduceOp};
//! assert!(ReduceOp::Max.allows(CType::BF16));
//! assert!(!ReduceOp::Max.allows(CType::F32)); // .max on .f32 is not in the table
//! assert_eq!(ReduceOp::Inc.legal_types(), &[CType::U32]);
//! ```

use crate::TensorMapDataType;

/// The element type of a C/D tile (and of the global tensor its TMA store or reduce writes).
///
/// ```
/// use smemdesc_core::epilogue::CType;
/// assert_eq!(CType::from_name("s32"), Some(CType::S32));
/// assert_eq!(CType::S64.bits(), 64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CType {
    /// IEEE half precision (`.f16`).
    F16,
    /// bfloat16 (`.bf16`).
    BF16,
    /// IEEE single precision (`.f32`).
    F32,
    /// Unsigned 32-bit integer (`.u32`).
    U32,
    /// Signed 32-bit integer (`.s32`, the integer MMA's accumulator).
    S32,
    /// Unsigned 64-bit integer (`.u64`).
    U64,
    /// Signed 64-bit integer (`.s64`).
    S64,
}

impl CType {
    /// Every C type, in declaration order.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::epilogue::CType::ALL.len(), 7);
    /// ```
    pub const ALL: [CType; 7] = [
        CType::F16,
        CType::BF16,
        CType::F32,
        CType::U32,
        CType::S32,
        CType::U64,
        CType::S64,
    ];

    /// Width of one element in bits.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::epilogue::CType::BF16.bits(), 16);
    /// ```
    #[inline]
    pub const fn bits(self) -> u32 {
        match self {
            CType::F16 | CType::BF16 => 16,
            CType::F32 | CType::U32 | CType::S32 => 32,
            CType::U64 | CType::S64 => 64,
        }
    }

    /// The name used in declarations (`"f16"`, `"bf16"`, `"f32"`, `"u32"`, `"s32"`, `"u64"`,
    /// `"s64"`); the PTX type is `.` and this name.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::epilogue::CType::U64.name(), "u64");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            CType::F16 => "f16",
            CType::BF16 => "bf16",
            CType::F32 => "f32",
            CType::U32 => "u32",
            CType::S32 => "s32",
            CType::U64 => "u64",
            CType::S64 => "s64",
        }
    }

    /// Parses a declaration name (also `fp16`, `half`, `fp32`, `i32`, `i64`).
    ///
    /// ```
    /// use smemdesc_core::epilogue::CType;
    /// assert_eq!(CType::from_name("i32"), Some(CType::S32));
    /// assert_eq!(CType::from_name("e4m3"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<CType> {
        Some(match name {
            "f16" | "fp16" | "half" => CType::F16,
            "bf16" => CType::BF16,
            "f32" | "fp32" => CType::F32,
            "u32" => CType::U32,
            "s32" | "i32" => CType::S32,
            "u64" => CType::U64,
            "s64" | "i64" => CType::S64,
            _ => return None,
        })
    }

    /// Whether the type is an integer.
    ///
    /// ```
    /// assert!(smemdesc_core::epilogue::CType::S32.is_integer());
    /// ```
    #[inline]
    pub const fn is_integer(self) -> bool {
        !matches!(self, CType::F16 | CType::BF16 | CType::F32)
    }

    /// The `cuTensorMapEncodeTiled` data type of a global tensor of this type.
    ///
    /// ```
    /// use smemdesc_core::{epilogue::CType, TensorMapDataType};
    /// assert_eq!(CType::S32.tensor_map_data_type(), TensorMapDataType::Int32);
    /// assert_eq!(CType::BF16.tensor_map_data_type().value(), 9);
    /// ```
    #[inline]
    pub const fn tensor_map_data_type(self) -> TensorMapDataType {
        match self {
            CType::F16 => TensorMapDataType::Float16,
            CType::BF16 => TensorMapDataType::Bfloat16,
            CType::F32 => TensorMapDataType::Float32,
            CType::U32 => TensorMapDataType::Uint32,
            CType::S32 => TensorMapDataType::Int32,
            CType::U64 => TensorMapDataType::Uint64,
            CType::S64 => TensorMapDataType::Int64,
        }
    }

    /// Equality usable in `const` context.
    ///
    /// ```
    /// assert!(smemdesc_core::epilogue::CType::U32.is(smemdesc_core::epilogue::CType::U32));
    /// ```
    #[inline]
    pub const fn is(self, other: CType) -> bool {
        self as u8 == other as u8
    }
}

/// A reduction of `cp.reduce.async.bulk.tensor` (`.redOp`).
///
/// ```
/// use smemdesc_core::epilogue::ReduceOp;
/// assert_eq!(ReduceOp::from_name("xor"), Some(ReduceOp::Xor));
/// assert_eq!(ReduceOp::Dec.name(), "dec");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// `.add`: `dst + src`.
    Add,
    /// `.min`.
    Min,
    /// `.max`.
    Max,
    /// `.inc`: `dst >= src ? 0 : dst + 1` (as `atom.inc`).
    Inc,
    /// `.dec`: `dst == 0 || dst > src ? src : dst - 1` (as `atom.dec`).
    Dec,
    /// `.and`: bitwise.
    And,
    /// `.or`: bitwise.
    Or,
    /// `.xor`: bitwise.
    Xor,
}

/// `.add`'s element types (PTX ISA table).
const ADD: [CType; 6] = [
    CType::U32,
    CType::S32,
    CType::U64,
    CType::F32,
    CType::F16,
    CType::BF16,
];
/// `.min`/`.max`'s element types.
const MIN_MAX: [CType; 6] = [
    CType::U32,
    CType::S32,
    CType::U64,
    CType::S64,
    CType::F16,
    CType::BF16,
];
/// `.inc`/`.dec`'s element types.
const INC_DEC: [CType; 1] = [CType::U32];
/// `.and`/`.or`/`.xor`'s: `.b32` and `.b64`, as the tensor map's integer types the hardware
/// takes for them (`INT64` is an illegal instruction, measured: see the module's text).
const BITWISE: [CType; 3] = [CType::U32, CType::S32, CType::U64];

impl ReduceOp {
    /// Every reduction, in the PTX ISA's order.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::epilogue::ReduceOp::ALL.len(), 8);
    /// ```
    pub const ALL: [ReduceOp; 8] = [
        ReduceOp::Add,
        ReduceOp::Min,
        ReduceOp::Max,
        ReduceOp::Inc,
        ReduceOp::Dec,
        ReduceOp::And,
        ReduceOp::Or,
        ReduceOp::Xor,
    ];

    /// The PTX `.redOp` without its dot (`"add"`, `"min"`, …).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::epilogue::ReduceOp::And.name(), "and");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ReduceOp::Add => "add",
            ReduceOp::Min => "min",
            ReduceOp::Max => "max",
            ReduceOp::Inc => "inc",
            ReduceOp::Dec => "dec",
            ReduceOp::And => "and",
            ReduceOp::Or => "or",
            ReduceOp::Xor => "xor",
        }
    }

    /// Parses a `.redOp` name (without the dot).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::epilogue::ReduceOp::from_name("mul"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<ReduceOp> {
        ReduceOp::ALL.into_iter().find(|o| o.name() == name)
    }

    /// The element types the PTX ISA allows this reduction on.
    ///
    /// ```
    /// use smemdesc_core::epilogue::{CType, ReduceOp};
    /// assert_eq!(ReduceOp::Xor.legal_types(), &[CType::U32, CType::S32, CType::U64]); // not s64: measured
    /// ```
    pub const fn legal_types(self) -> &'static [CType] {
        match self {
            ReduceOp::Add => &ADD,
            ReduceOp::Min | ReduceOp::Max => &MIN_MAX,
            ReduceOp::Inc | ReduceOp::Dec => &INC_DEC,
            ReduceOp::And | ReduceOp::Or | ReduceOp::Xor => &BITWISE,
        }
    }

    /// Whether the PTX ISA allows this reduction on `ty`.
    ///
    /// ```
    /// use smemdesc_core::epilogue::{CType, ReduceOp};
    /// assert!(ReduceOp::Add.allows(CType::F32));
    /// assert!(!ReduceOp::Add.allows(CType::S64));
    /// ```
    pub const fn allows(self, ty: CType) -> bool {
        let legal = self.legal_types();
        let mut i = 0;
        while i < legal.len() {
            if legal[i].is(ty) {
                return true;
            }
            i += 1;
        }
        false
    }

    /// The instruction a rank-`rank` tile-mode reduce from shared memory issues (no cache
    /// hint); its element type is the tensor map's
    /// ([`CType::tensor_map_data_type`]). `rank` outside 1..=5 gives `""`.
    ///
    /// ```
    /// use smemdesc_core::epilogue::ReduceOp;
    /// assert_eq!(ReduceOp::Min.mnemonic(2),
    ///            "cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group");
    /// ```
    pub const fn mnemonic(self, rank: u32) -> &'static str {
        macro_rules! m {
            ($op:literal) => {
                match rank {
                    1 => concat!(
                        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.",
                        $op,
                        ".tile.bulk_group"
                    ),
                    2 => concat!(
                        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.",
                        $op,
                        ".tile.bulk_group"
                    ),
                    3 => concat!(
                        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.",
                        $op,
                        ".tile.bulk_group"
                    ),
                    4 => concat!(
                        "cp.reduce.async.bulk.tensor.4d.global.shared::cta.",
                        $op,
                        ".tile.bulk_group"
                    ),
                    5 => concat!(
                        "cp.reduce.async.bulk.tensor.5d.global.shared::cta.",
                        $op,
                        ".tile.bulk_group"
                    ),
                    _ => "",
                }
            };
        }
        match self {
            ReduceOp::Add => m!("add"),
            ReduceOp::Min => m!("min"),
            ReduceOp::Max => m!("max"),
            ReduceOp::Inc => m!("inc"),
            ReduceOp::Dec => m!("dec"),
            ReduceOp::And => m!("and"),
            ReduceOp::Or => m!("or"),
            ReduceOp::Xor => m!("xor"),
        }
    }
}
