//! How an element type's values sit in shared memory: the **SMEM form**.
//!
//! The layout algebra lays out *cells*: whole bytes (or 2/4-byte words) that the swizzle and the
//! canonical layouts move around. A value of 8 bits or more is one cell. The 6- and 4-bit types
//! have two SMEM forms, chosen by the MMA kind. The byte-level facts below are the CUDA driver
//! documentation of `CUtensorMapDataType` (the TMA types that write these forms); the kinds'
//! instruction K (32 for `f8f6f4`, 64 for `mxf4`/`mxf4nvf4`) is the PTX ISA tcgen05 "Matrix
//! Shape" table:
//!
//! * **padded** ([`SmemForm::Padded16`], `kind::f8f6f4` and `kind::mxf8f6f4`): each 16-byte unit
//!   holds 16 values packed at its start — 8 bytes of fp4 (`16U4_ALIGN16B`: "8 byte gaps between
//!   every 8 byte chunk") or 12 bytes of fp6 (`16U6_ALIGN16B`: "4 byte gaps between every 12 byte
//!   chunk") — followed by padding. For the layout algebra a value is one 1-byte *slot*: 16 slots
//!   per 16 bytes, so descriptors, LBO/SBO and advances are those of an 8-bit type. Value `i` of a
//!   unit (`i` = slot address mod 16, which the swizzle preserves) occupies bits
//!   `[i·bits, (i+1)·bits)` of the unit.
//! * **packed** ([`SmemForm::Packed`], `kind::mxf4` and `kind::mxf4nvf4`, e2m1 only): two values
//!   per byte with no padding (`16U4_ALIGN8B`: "no gaps between packed values"). A cell is one byte
//!   holding two K-adjacent values, the lower K index in the low nibble; the layout algebra runs on
//!   bytes along K, so one instruction's 32 bytes of K are 64 values. These kinds are K-major only.
//!
//! The 8-bit container rule (one sub-byte value per byte) is the **Tensor Memory** format of
//! `tcgen05.cp`/`.ld` unpacking; it is not an SMEM form.
//!
//! ```
//! use smemdesc_core::{ElementType, MmaKind, SmemForm};
//! assert_eq!(ElementType::E2M1.smem_form(MmaKind::F8f6f4), SmemForm::Padded16);
//! assert_eq!(ElementType::E2M1.smem_form(MmaKind::Mxf4), SmemForm::Packed);
//! assert_eq!(ElementType::BF16.smem_form(MmaKind::F16), SmemForm::Whole);
//! assert_eq!(SmemForm::Packed.values_per_16_bytes(ElementType::E2M1), 32);
//! assert_eq!(SmemForm::Padded16.values_per_16_bytes(ElementType::E3M2), 16);
//! ```

use crate::base::arch::Major;
use crate::base::error::Error;
use crate::base::error_data::Legal;
use crate::base::swizzle::SwizzleMode;
use crate::tile::spec::{TileLayout, TileSpec};

pub use crate::base::smem_form::{SmemForm, ValueOffset};

impl TileSpec {
    /// Sets the SMEM form (default: [`SmemForm::dense`] of the element type). The packed form is
    /// for e2m1 K-major tiles of `kind::mxf4`/`mxf4nvf4`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm100, ElementType::E2M1, Major::K, 128, 256)
    ///     .form(SmemForm::Packed).build().unwrap();
    /// assert_eq!((t.mma_k(), t.mmas_k(), t.stage_bytes()), (64, 4, 128 * 128));
    /// ```
    pub const fn form(mut self, form: SmemForm) -> TileSpec {
        self.form = form;
        self
    }

    /// Sets the bytes of K one instruction reads: 32 (every kind), or 48 for the K = 96 packed
    /// fp4 instructions.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm100, ElementType::E2M1, Major::K, 128, 192)
    ///     .form(SmemForm::Packed).swizzle(SwizzleMode::None).mma_k_bytes(48).build().unwrap();
    /// assert_eq!((t.mma_k(), t.mmas_k()), (96, 2));
    /// ```
    pub const fn mma_k_bytes(mut self, bytes: u32) -> TileSpec {
        self.mma_k_bytes = bytes;
        self
    }

    /// The instruction's K in values (`mma_k_bytes` of cells).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).mma_k(), 16);
    /// ```
    #[inline]
    pub const fn mma_k(&self) -> u32 {
        self.form.values_in(self.dtype, self.mma_k_bytes)
    }
}

impl TileLayout {
    /// Where value `(mn, k)` lives, for any SMEM form: for whole types the byte of
    /// [`byte_offset`](Self::byte_offset); for padded fp4/fp6 the byte and bit of the value inside
    /// its 16-byte unit; for packed fp4 the byte and nibble (see [`SmemForm::locate`]).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm100, ElementType::E2M1, Major::K, 128, 128).build().unwrap();
    /// // padded: (0, 15) is the high nibble of byte 7, not byte 15
    /// assert_eq!(t.value_offset(0, 15), ValueOffset { byte: 7, bit: 4, bits: 4 });
    /// ```
    #[inline]
    pub const fn value_offset(&self, mn: u32, k: u32) -> ValueOffset {
        let vpc = self.spec().form.values_per_cell();
        let cell = self.smem_layout().byte_address(0, mn, k / vpc);
        self.spec().form.locate(self.spec().dtype, cell, k % vpc)
    }
}

/// Checks a spec's form against its element type and major-ness, and its instruction K bytes
/// (32, or 48 for packed fp4 K = 96).
pub(crate) const fn check_form(spec: &TileSpec) -> Result<(), Error> {
    let (form, dtype) = (spec.form, spec.dtype);
    if !form.admits(dtype) {
        return Err(Error::FormNotForElement { form, dtype });
    }
    if matches!(form, SmemForm::Packed) && matches!(spec.major, Major::Mn) {
        return Err(Error::MnMajorForbidden {
            arch: spec.arch,
            dtype,
        });
    }
    let packed = matches!(form, SmemForm::Packed);
    if !(spec.mma_k_bytes == 32 || (packed && spec.mma_k_bytes == 48)) {
        return Err(Error::IllegalMmaK {
            k: form.values_in(dtype, spec.mma_k_bytes),
            dtype,
            form,
            legal: if packed {
                Legal::K64Or96
            } else {
                Legal::K32Bytes
            },
        });
    }
    Ok(())
}

/// A 48-byte K block (K = 96 packed fp4) is laid out without swizzle: with any swizzle atom some
/// instruction's block crosses into the next atom along K (128 B is not a multiple of 48 B), and
/// the descriptor mode that addresses that atom (bit 52, "leading dimension stride mode: byte
/// address absolute", PTX ISA tcgen05 "Shared Memory Descriptor") is supported on sm_103a only
/// (its "Target ISA Note"). Without swizzle the K-major canonical layout steps K core matrices by
/// the relative LBO, so three 16-byte core matrices per row need no special mode: bit 52 stays 0.
pub(crate) const fn check_k_block(spec: &TileSpec, swizzle: SwizzleMode) -> Result<(), Error> {
    if spec.mma_k_bytes == 48 && !matches!(swizzle, SwizzleMode::None) {
        return Err(Error::KBlockCrossesAtom { swizzle });
    }
    Ok(())
}
