//! How an MMA kind reads an element type in shared memory (whole, padded or packed), and the TMA
//! data type that writes that form.

use crate::base::dtype::ElementType;
use crate::base::kind::MmaKind;
use crate::base::tma_types::TmaDataType;

/// The SMEM form of an operand's values (whole, padded or packed).
///
/// ```
/// use smemdesc_core::{ElementType, SmemForm};
/// assert_eq!(SmemForm::Whole.cell_bytes(ElementType::TF32), 4);
/// assert_eq!(SmemForm::Packed.values_per_cell(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmemForm {
    /// One value per `bits / 8` bytes (8-, 16- and 32-bit types).
    Whole,
    /// 16 sub-byte values packed at the start of each 16-byte unit, the rest padding.
    Padded16,
    /// Two 4-bit values per byte, no padding.
    Packed,
}

/// Where one value lives: the byte holding its lowest bit, the bit offset in that byte, and its
/// width. A field with `bit + bits > 8` continues into the following byte(s) (fp6 values of the
/// padded form may straddle two bytes).
///
/// ```
/// use smemdesc_core::{ElementType, SmemForm, ValueOffset};
/// // value 3 of a padded fp6 unit at 0x40: bits 18..24 of the unit
/// assert_eq!(SmemForm::Padded16.locate(ElementType::E3M2, 0x43, 0),
///            ValueOffset { byte: 0x42, bit: 2, bits: 6 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValueOffset {
    /// Byte holding the value's lowest bit.
    pub byte: u32,
    /// Bit offset of the value inside that byte (0..8).
    pub bit: u32,
    /// Width of the value in bits.
    pub bits: u32,
}

impl ValueOffset {
    /// The value's first bit counted from byte 0 (`byte · 8 + bit`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::ValueOffset { byte: 2, bit: 4, bits: 4 }.bit_address(), 20);
    /// ```
    pub const fn bit_address(&self) -> u64 {
        self.byte as u64 * 8 + self.bit as u64
    }
}

impl SmemForm {
    /// The form `kind` reads `dtype` in: packed for `mxf4`/`mxf4nvf4`, padded for the other
    /// kinds' sub-byte types, whole otherwise.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, MmaKind, SmemForm};
    /// assert_eq!(SmemForm::of(ElementType::E2M3, MmaKind::Mxf8f6f4), SmemForm::Padded16);
    /// ```
    pub const fn of(dtype: ElementType, kind: MmaKind) -> SmemForm {
        if matches!(kind, MmaKind::Mxf4 | MmaKind::Mxf4nvf4) {
            SmemForm::Packed
        } else {
            SmemForm::dense(dtype)
        }
    }

    /// The form of the dense kind of `dtype` (padded for sub-byte types).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, SmemForm};
    /// assert_eq!(SmemForm::dense(ElementType::E2M1), SmemForm::Padded16);
    /// ```
    pub const fn dense(dtype: ElementType) -> SmemForm {
        if dtype.bits() < 8 {
            SmemForm::Padded16
        } else {
            SmemForm::Whole
        }
    }

    /// Whether values of `dtype` can take this form.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, SmemForm};
    /// assert!(SmemForm::Packed.admits(ElementType::E2M1));
    /// assert!(!SmemForm::Packed.admits(ElementType::E3M2));
    /// assert!(!SmemForm::Whole.admits(ElementType::E2M1));
    /// ```
    pub const fn admits(self, dtype: ElementType) -> bool {
        match self {
            SmemForm::Whole => dtype.bits() >= 8,
            SmemForm::Padded16 => dtype.bits() < 8,
            SmemForm::Packed => dtype.bits() == 4,
        }
    }

    /// Bytes of one layout cell: the value's bytes for whole types, 1 for both sub-byte forms
    /// (always equal to [`ElementType::smem_bytes`] for an admitted type).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, SmemForm};
    /// assert_eq!(SmemForm::Padded16.cell_bytes(ElementType::E2M1), 1);
    /// ```
    pub const fn cell_bytes(self, dtype: ElementType) -> u32 {
        dtype.smem_bytes()
    }

    /// Values in one cell (2 for packed, else 1); packed cells pair K-adjacent values.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SmemForm::Padded16.values_per_cell(), 1);
    /// ```
    #[inline]
    pub const fn values_per_cell(self) -> u32 {
        match self {
            SmemForm::Packed => 2,
            _ => 1,
        }
    }

    /// Values in 16 bytes of SMEM (CuTe's `T` counted in values).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, SmemForm};
    /// assert_eq!(SmemForm::Whole.values_per_16_bytes(ElementType::BF16), 8);
    /// ```
    pub const fn values_per_16_bytes(self, dtype: ElementType) -> u32 {
        16 / self.cell_bytes(dtype) * self.values_per_cell()
    }

    /// Values in `bytes` bytes of K (e.g. one instruction's 32 bytes).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, SmemForm};
    /// assert_eq!(SmemForm::Packed.values_in(ElementType::E2M1, 48), 96);
    /// assert_eq!(SmemForm::Padded16.values_in(ElementType::E2M1, 32), 32);
    /// ```
    #[inline]
    pub const fn values_in(self, dtype: ElementType, bytes: u32) -> u32 {
        bytes / self.cell_bytes(dtype) * self.values_per_cell()
    }

    /// The `CUtensorMapDataType` TMA moves this form of `dtype` as (CUDA driver API, `cuda.h`):
    /// `16U4_ALIGN16B`/`16U6_ALIGN16B` for padded fp4/fp6, `16U4_ALIGN8B` for packed fp4.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, SmemForm, TmaDataType};
    /// assert_eq!(SmemForm::Padded16.tma_data_type(ElementType::E2M3), TmaDataType::U6x16Align16B);
    /// assert_eq!(SmemForm::Packed.tma_data_type(ElementType::E2M1), TmaDataType::U4x16Align8B);
    /// ```
    pub const fn tma_data_type(self, dtype: ElementType) -> TmaDataType {
        match self {
            SmemForm::Packed => TmaDataType::U4x16Align8B,
            SmemForm::Padded16 => {
                if dtype.bits() == 4 {
                    TmaDataType::U4x16Align16B
                } else {
                    TmaDataType::U6x16Align16B
                }
            }
            SmemForm::Whole => TmaDataType::of(dtype),
        }
    }

    /// Locates value `sub` (its index inside its cell: `k % 2` for packed, else 0) of the cell at
    /// byte address `cell_addr` — the packing rule of the form, applied after the layout (or the
    /// hardware) has placed the cell.
    ///
    /// ```
    /// use smemdesc_core::{ElementType, SmemForm, ValueOffset};
    /// // padded fp4: slot 0x1f is value 15 of the unit at 0x10 -> bits 60..64, i.e. byte 0x17, high nibble
    /// assert_eq!(SmemForm::Padded16.locate(ElementType::E2M1, 0x1f, 0), ValueOffset { byte: 0x17, bit: 4, bits: 4 });
    /// // packed fp4: the odd K value of a byte is its high nibble
    /// assert_eq!(SmemForm::Packed.locate(ElementType::E2M1, 0x1f, 1), ValueOffset { byte: 0x1f, bit: 4, bits: 4 });
    /// ```
    #[inline]
    pub const fn locate(self, dtype: ElementType, cell_addr: u32, sub: u32) -> ValueOffset {
        let bits = dtype.bits();
        match self {
            SmemForm::Whole => ValueOffset {
                byte: cell_addr,
                bit: 0,
                bits,
            },
            SmemForm::Packed => ValueOffset {
                byte: cell_addr,
                bit: (sub % 2) * 4,
                bits,
            },
            SmemForm::Padded16 => {
                let first = (cell_addr % 16) * bits;
                ValueOffset {
                    byte: cell_addr - cell_addr % 16 + first / 8,
                    bit: first % 8,
                    bits,
                }
            }
        }
    }

    /// The form's name (`whole`, `padded`, `packed`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SmemForm::Packed.name(), "packed");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            SmemForm::Whole => "whole",
            SmemForm::Padded16 => "padded",
            SmemForm::Packed => "packed",
        }
    }
}

impl ElementType {
    /// The SMEM form `kind` reads this type in (see [`SmemForm::of`]).
    ///
    /// ```
    /// use smemdesc_core::{ElementType, MmaKind, SmemForm};
    /// assert_eq!(ElementType::E2M1.smem_form(MmaKind::Mxf4nvf4), SmemForm::Packed);
    /// ```
    pub const fn smem_form(self, kind: MmaKind) -> SmemForm {
        SmemForm::of(self, kind)
    }
}
