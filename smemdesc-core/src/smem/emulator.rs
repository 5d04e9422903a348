//! An emulator that reads a descriptor the way the tensor core does, written from the PTX
//! canonical layouts independently of the layout algebra.
//!
//! It is deliberately independent of the layout algebra: it decodes the raw 64-bit value, walks the
//! PTX canonical layout for the operand's major-ness with the decoded LBO/SBO, and applies the
//! swizzle to the absolute address with its own bit arithmetic (PTX ISA, wgmma "Shared Memory Matrix
//! Layout" / tcgen05 "Shared Memory Layout and Swizzling"): the 16-byte chunk bits `[4, 4+B)` (bits
//! `[5, 7)` for 128B with 32-byte atomicity) are XORed with the row bits `[7, 7+B)` of the address,
//! where the row phase is counted from the pattern start that `base_offset` names.

use crate::base::arch::Major;
use crate::base::dtype::ElementType;
use crate::base::error::Error;
use crate::base::swizzle::SwizzleMode;
use crate::layout::descriptor::SmemDescriptor;
use crate::smem::placement::Placement;
use crate::tile::smem_form::{SmemForm, ValueOffset};

/// The byte address the tensor core reads for element `(mn, k)` of the MMA operand described by
/// `desc`, for an operand of the given major-ness whose elements are `elem_bytes` wide.
///
/// ```
/// use smemdesc_core::{emulate_address, Arch, DescriptorFields, Major, SmemDescriptor, SwizzleMode};
/// // K-major SW128 bf16 at 0x400, SBO 1024: row 9 (second 8-row group, row 1), k = 0
/// let d = SmemDescriptor::encode(Arch::Sm90, DescriptorFields::new(0x400, 16, 1024, SwizzleMode::B128)).unwrap();
/// assert_eq!(emulate_address(d, Major::K, 2, 9, 0), Ok(0x400 + 1024 + 128 + 16));
/// ```
pub const fn emulate_address(
    desc: SmemDescriptor,
    major: Major,
    elem_bytes: u32,
    mn: u32,
    k: u32,
) -> Result<u32, Error> {
    let layout = match desc.layout() {
        Some(l) => l,
        None => {
            return Err(Error::UnknownLayoutCode {
                arch: desc.arch(),
                code: desc.layout_code(),
            })
        }
    };
    let start = desc.start_address();
    let (lbo, sbo) = (desc.lbo(), desc.sbo());
    let width = match layout {
        SwizzleMode::None => 16,
        SwizzleMode::B32 => 32,
        SwizzleMode::B64 => 64,
        SwizzleMode::B128 | SwizzleMode::B128Base32B => 128,
    };
    let off = match (major, layout) {
        (Major::K, SwizzleMode::None) => {
            // ((8,m),(T,2)):((1T,SBO),(1,LBO)): core matrices of 8 rows x 16 B, 128 B contiguous.
            let kb = k * elem_bytes;
            (mn / 8) * sbo + (mn % 8) * 16 + (kb / 16) * lbo + kb % 16
        }
        (Major::K, _) => {
            // ((8,m),(T,2)):((W·T,SBO),(1,T)): rows of `width` bytes, 8-row groups SBO apart.
            (mn / 8) * sbo + (mn % 8) * width + k * elem_bytes
        }
        (Major::Mn, SwizzleMode::None) => {
            // ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
            let mb = mn * elem_bytes;
            (mb / 16) * sbo + mb % 16 + (k % 8) * 16 + (k / 8) * lbo
        }
        (Major::Mn, SwizzleMode::B128Base32B) => {
            // ((T,8,m),(4,k)):((1,T,LBO),(8T,SBO)): 128 B rows, 4-row K groups.
            let mb = mn * elem_bytes;
            (mb / 128) * lbo + mb % 128 + (k % 4) * 128 + (k / 4) * sbo
        }
        (Major::Mn, _) => {
            // ((T,W,m),(8,k)):((1,T,LBO),(W·T,SBO))
            let mb = mn * elem_bytes;
            (mb / width) * lbo + mb % width + (k % 8) * width + (k / 8) * sbo
        }
    };
    let addr = start + off;
    let (row_bits, chunk_lo) = match layout {
        SwizzleMode::None => return Ok(addr),
        SwizzleMode::B32 => (1, 4),
        SwizzleMode::B64 => (2, 4),
        SwizzleMode::B128 => (3, 4),
        SwizzleMode::B128Base32B => (2, 5),
    };
    let mask = (1u32 << row_bits) - 1;
    let row = ((addr >> 7).wrapping_sub(desc.base_offset() as u32)) & mask;
    Ok(addr ^ (row << chunk_lo))
}

/// Where the tensor core reads value `(mn, k)` of the operand described by `desc` when the values
/// are `dtype` in SMEM form `form`: the cell the descriptor walk of [`emulate_address`] reaches
/// (cell `k / 2` for packed fp4, whose cells hold two K values), then the form's packing rule
/// ([`SmemForm::locate`]: padded values sit at `i · bits` of their 16-byte unit, packed values in
/// the nibble `k % 2`). Independent of the layout algebra, like [`emulate_address`].
///
/// ```
/// use smemdesc_core::*;
/// // packed fp4, K-major, no swizzle, LBO 128 (next 16-byte K core matrix), SBO 256
/// let d = SmemDescriptor::encode(Arch::Sm100, DescriptorFields::new(0x400, 128, 256, SwizzleMode::None)).unwrap();
/// // k = 37 is cell 18: second K core matrix (LBO), byte 2, high nibble
/// assert_eq!(emulate_value(d, Major::K, ElementType::E2M1, SmemForm::Packed, 0, 37),
///            Ok(ValueOffset { byte: 0x400 + 128 + 2, bit: 4, bits: 4 }));
/// ```
pub const fn emulate_value(
    desc: SmemDescriptor,
    major: Major,
    dtype: ElementType,
    form: SmemForm,
    mn: u32,
    k: u32,
) -> Result<ValueOffset, Error> {
    let vpc = form.values_per_cell();
    let cell = tri!(emulate_address(
        desc,
        major,
        form.cell_bytes(dtype),
        mn,
        k / vpc
    ));
    Ok(form.locate(dtype, cell, k % vpc))
}

/// Where a writer puts the byte at unswizzled offset `offset` of a tile starting at `tile_start`,
/// under each placement model ([`Placement`](crate::Placement)), computed with the emulator's own bit arithmetic:
/// [`Placement::Absolute`] (TMA) XORs the 16-byte chunk bits with the row bits of the **absolute**
/// address `tile_start + offset`; [`Placement::Relative`] XORs them with the row bits of `offset`
/// and adds `tile_start` afterwards. Read back with [`emulate_address`]: the measured rule is that a
/// descriptor with `base_offset` 0 reads absolute bytes and one with `(tile_start >> 7) & 7` reads
/// relative bytes.
///
/// ```
/// use smemdesc_core::{emulate_store, Placement, SwizzleMode};
/// // 32B swizzle, tile at 0x80 (row bit 7 set), byte 0 of the tile:
/// assert_eq!(emulate_store(Placement::Absolute, SwizzleMode::B32, 0x80, 0), 0x90);
/// assert_eq!(emulate_store(Placement::Relative, SwizzleMode::B32, 0x80, 0), 0x80);
/// ```
pub const fn emulate_store(
    placement: Placement,
    layout: SwizzleMode,
    tile_start: u32,
    offset: u32,
) -> u32 {
    let (row_bits, chunk_lo) = match layout {
        SwizzleMode::None => return tile_start + offset,
        SwizzleMode::B32 => (1, 4),
        SwizzleMode::B64 => (2, 4),
        SwizzleMode::B128 => (3, 4),
        SwizzleMode::B128Base32B => (2, 5),
    };
    let mask = (1u32 << row_bits) - 1;
    match placement {
        Placement::Absolute => {
            let a = tile_start + offset;
            a ^ (((a >> 7) & mask) << chunk_lo)
        }
        Placement::Relative => tile_start + (offset ^ (((offset >> 7) & mask) << chunk_lo)),
    }
}
