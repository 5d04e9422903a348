//! The 64-bit SMEM matrix descriptor: sm90 `wgmma` (CuTe `GmmaDescriptor`) and sm100 `tcgen05`
//! (CuTe `UMMA::SmemDescriptor`) encodings.
//!
//! | bits | sm90 | sm100 |
//! |---|---|---|
//! | 0–13 | start address >> 4 | start address >> 4 |
//! | 16–29 | LBO >> 4 | LBO >> 4 |
//! | 32–45 | SBO >> 4 | SBO >> 4 |
//! | 46–48 | reserved (0) | fixed `0b001` (version) |
//! | 49–51 | base offset | base offset |
//! | 52 | reserved | LBO mode (0 relative, 1 absolute) |
//! | 53–60 | reserved | fixed 0 |
//! | 61–63 | bits 62–63: layout type (0 none, 1 128B, 2 64B, 3 32B) | layout type (0 none, 1 128B_base32B, 2 128B, 4 64B, 6 32B) |
//!
//! Sources: PTX ISA, "Matrix Descriptor Format" (wgmma) and "Shared Memory Descriptor" (tcgen05);
//! CUTLASS `cute/arch/mma_sm90_desc.hpp`, `cute/arch/mma_sm100_desc.hpp`.

use crate::base::arch::Arch;
use crate::base::error::{Error, Field};
use crate::base::swizzle::SwizzleMode;

const FIELD_MASK: u64 = (1 << 14) - 1;

/// The descriptor's layout-type code for a swizzle mode on an architecture (`None` where the mode
/// does not exist there).
///
/// ```
/// use smemdesc_core::{layout_type_code, Arch, SwizzleMode};
/// assert_eq!(layout_type_code(Arch::Sm90, SwizzleMode::B128), Some(1));
/// assert_eq!(layout_type_code(Arch::Sm100, SwizzleMode::B128), Some(2));
/// assert_eq!(layout_type_code(Arch::Sm90, SwizzleMode::B128Base32B), None);
/// ```
#[inline]
pub const fn layout_type_code(arch: Arch, swizzle: SwizzleMode) -> Option<u8> {
    match (arch.generation(), swizzle) {
        (_, SwizzleMode::None) => Some(0),
        (Arch::Sm90, SwizzleMode::B128) => Some(1),
        (Arch::Sm90, SwizzleMode::B64) => Some(2),
        (Arch::Sm90, SwizzleMode::B32) => Some(3),
        (Arch::Sm90, SwizzleMode::B128Base32B) => None,
        (Arch::Sm100, SwizzleMode::B128Base32B) => Some(1),
        (Arch::Sm100, SwizzleMode::B128) => Some(2),
        (Arch::Sm100, SwizzleMode::B64) => Some(4),
        (Arch::Sm100, SwizzleMode::B32) => Some(6),
        // `generation()` is Sm90 or Sm100.
        _ => None,
    }
}

/// The swizzle mode for a descriptor layout-type code (inverse of [`layout_type_code`]).
///
/// ```
/// use smemdesc_core::{layout_type_from_code, Arch, SwizzleMode};
/// assert_eq!(layout_type_from_code(Arch::Sm100, 6), Some(SwizzleMode::B32));
/// assert_eq!(layout_type_from_code(Arch::Sm100, 3), None);
/// ```
#[inline]
pub const fn layout_type_from_code(arch: Arch, code: u8) -> Option<SwizzleMode> {
    match (arch.generation(), code) {
        (_, 0) => Some(SwizzleMode::None),
        (Arch::Sm90, 1) => Some(SwizzleMode::B128),
        (Arch::Sm90, 2) => Some(SwizzleMode::B64),
        (Arch::Sm90, 3) => Some(SwizzleMode::B32),
        (Arch::Sm100, 1) => Some(SwizzleMode::B128Base32B),
        (Arch::Sm100, 2) => Some(SwizzleMode::B128),
        (Arch::Sm100, 4) => Some(SwizzleMode::B64),
        (Arch::Sm100, 6) => Some(SwizzleMode::B32),
        _ => None,
    }
}

/// The fields of a descriptor, byte values (not 16-byte units).
///
/// ```
/// use smemdesc_core::{DescriptorFields, SwizzleMode};
/// let f = DescriptorFields::new(0x400, 16, 1024, SwizzleMode::B128);
/// assert_eq!(f.base_offset, 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DescriptorFields {
    /// Matrix start address in shared memory (bytes).
    pub start_address: u32,
    /// Leading dimension byte offset (bytes).
    pub lbo: u32,
    /// Stride dimension byte offset (bytes).
    pub sbo: u32,
    /// Matrix base offset (3 bits).
    pub base_offset: u8,
    /// Layout type (swizzle mode).
    pub layout: SwizzleMode,
    /// sm100 LBO mode: `false` relative (the only mode dense 32-byte-K layouts use), `true` absolute.
    pub lbo_absolute: bool,
}

impl DescriptorFields {
    /// Fields with base offset 0 and relative LBO.
    ///
    /// ```
    /// let f = smemdesc_core::DescriptorFields::new(0, 16, 1024, smemdesc_core::SwizzleMode::B128);
    /// assert!(!f.lbo_absolute);
    /// ```
    #[inline]
    pub const fn new(
        start_address: u32,
        lbo: u32,
        sbo: u32,
        layout: SwizzleMode,
    ) -> DescriptorFields {
        DescriptorFields {
            start_address,
            lbo,
            sbo,
            base_offset: 0,
            layout,
            lbo_absolute: false,
        }
    }
}

/// A 64-bit SMEM matrix descriptor for one architecture.
///
/// ```
/// use smemdesc_core::{Arch, DescriptorFields, SmemDescriptor, SwizzleMode};
/// let d = SmemDescriptor::encode(Arch::Sm90, DescriptorFields::new(0x400, 16, 1024, SwizzleMode::B128)).unwrap();
/// assert_eq!(d.raw(), 0x4000_0040_0001_0040);
/// assert_eq!(d.sbo(), 1024);
/// assert_eq!(d.layout(), Some(SwizzleMode::B128));
/// let again = SmemDescriptor::decode(Arch::Sm90, d.raw()).unwrap();
/// assert_eq!(again.fields().unwrap(), d.fields().unwrap());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmemDescriptor {
    arch: Arch,
    raw: u64,
}

#[inline]
const fn unit_field(field: Field, bytes: u32) -> Result<u64, Error> {
    if bytes % 16 != 0 {
        return Err(Error::FieldMisaligned { field, bytes });
    }
    let units = (bytes / 16) as u64;
    if units > FIELD_MASK {
        return Err(Error::FieldOverflow { field, bytes });
    }
    Ok(units)
}

impl SmemDescriptor {
    /// Encodes fields; fails on a misaligned or overflowing field, a base offset over 7 or a layout
    /// the architecture lacks. Nothing is truncated silently.
    ///
    /// ```
    /// use smemdesc_core::{Arch, DescriptorFields, Error, Field, SmemDescriptor, SwizzleMode};
    /// let too_far = DescriptorFields::new(0, 16, 1 << 18, SwizzleMode::B128);
    /// assert_eq!(SmemDescriptor::encode(Arch::Sm90, too_far),
    ///            Err(Error::FieldOverflow { field: Field::Sbo, bytes: 1 << 18 }));
    /// ```
    #[inline]
    pub const fn encode(arch: Arch, f: DescriptorFields) -> Result<SmemDescriptor, Error> {
        let start = tri!(unit_field(Field::StartAddress, f.start_address));
        let lbo = tri!(unit_field(Field::Lbo, f.lbo));
        let sbo = tri!(unit_field(Field::Sbo, f.sbo));
        let code = match layout_type_code(arch, f.layout) {
            Some(c) => c as u64,
            None => {
                return Err(Error::SwizzleNotOnArch {
                    swizzle: f.layout,
                    arch,
                })
            }
        };
        if f.base_offset > 7 {
            return Err(Error::ReservedBits {
                arch,
                bits: (f.base_offset as u64) << 49,
            });
        }
        let mut raw = start | (lbo << 16) | (sbo << 32) | ((f.base_offset as u64) << 49);
        match arch.generation() {
            Arch::Sm90 => {
                if f.lbo_absolute {
                    return Err(Error::ReservedBits {
                        arch,
                        bits: 1 << 52,
                    });
                }
                raw |= code << 62;
            }
            _ => {
                raw |= 1 << 46;
                if f.lbo_absolute {
                    raw |= 1 << 52;
                }
                raw |= code << 61;
            }
        }
        Ok(SmemDescriptor { arch, raw })
    }

    /// Wraps a raw value without any check (for decoding untrusted values; see
    /// [`reserved_bits`](Self::reserved_bits)).
    ///
    /// ```
    /// let d = smemdesc_core::SmemDescriptor::from_raw(smemdesc_core::Arch::Sm90, 1 << 14);
    /// assert_eq!(d.reserved_bits(), 1 << 14);
    /// ```
    #[inline]
    pub const fn from_raw(arch: Arch, raw: u64) -> SmemDescriptor {
        SmemDescriptor { arch, raw }
    }

    /// Decodes a raw value, rejecting reserved bits and unknown layout codes.
    ///
    /// ```
    /// use smemdesc_core::{Arch, SmemDescriptor};
    /// assert!(SmemDescriptor::decode(Arch::Sm100, 0x0000_4000_0001_0040).is_ok()); // version bit set
    /// assert!(SmemDescriptor::decode(Arch::Sm100, 0x0000_0000_0001_0040).is_err()); // version 0
    /// ```
    #[inline]
    pub const fn decode(arch: Arch, raw: u64) -> Result<SmemDescriptor, Error> {
        let d = SmemDescriptor { arch, raw };
        let bad = d.reserved_bits();
        if bad != 0 {
            return Err(Error::ReservedBits { arch, bits: bad });
        }
        if d.layout().is_none() {
            return Err(Error::UnknownLayoutCode {
                arch,
                code: d.layout_code(),
            });
        }
        Ok(d)
    }

    /// The architecture this descriptor is encoded for.
    ///
    /// ```
    /// let d = smemdesc_core::SmemDescriptor::from_raw(smemdesc_core::Arch::Sm100, 0);
    /// assert_eq!(d.arch(), smemdesc_core::Arch::Sm100);
    /// ```
    #[inline]
    pub const fn arch(self) -> Arch {
        self.arch
    }

    /// The 64-bit value to hand to the instruction.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SmemDescriptor::from_raw(smemdesc_core::Arch::Sm90, 7).raw(), 7);
    /// ```
    #[inline]
    pub const fn raw(self) -> u64 {
        self.raw
    }

    /// Start address in bytes.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SmemDescriptor::from_raw(smemdesc_core::Arch::Sm90, 0x40).start_address(), 0x400);
    /// ```
    #[inline]
    pub const fn start_address(self) -> u32 {
        ((self.raw & FIELD_MASK) as u32) << 4
    }

    /// Leading dimension byte offset in bytes.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SmemDescriptor::from_raw(smemdesc_core::Arch::Sm90, 1 << 16).lbo(), 16);
    /// ```
    #[inline]
    pub const fn lbo(self) -> u32 {
        (((self.raw >> 16) & FIELD_MASK) as u32) << 4
    }

    /// Stride dimension byte offset in bytes.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SmemDescriptor::from_raw(smemdesc_core::Arch::Sm90, 64 << 32).sbo(), 1024);
    /// ```
    #[inline]
    pub const fn sbo(self) -> u32 {
        (((self.raw >> 32) & FIELD_MASK) as u32) << 4
    }

    /// Matrix base offset (bits 49–51).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SmemDescriptor::from_raw(smemdesc_core::Arch::Sm90, 3 << 49).base_offset(), 3);
    /// ```
    #[inline]
    pub const fn base_offset(self) -> u8 {
        ((self.raw >> 49) & 7) as u8
    }

    /// sm100 version field (bits 46–48; must be 1). Always 0 on sm90, where those bits are reserved.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SmemDescriptor::from_raw(smemdesc_core::Arch::Sm100, 1 << 46).version(), 1);
    /// ```
    #[inline]
    pub const fn version(self) -> u8 {
        ((self.raw >> 46) & 7) as u8
    }

    /// sm100 LBO mode bit 52 (`true` = absolute). Reserved on sm90.
    ///
    /// ```
    /// assert!(!smemdesc_core::SmemDescriptor::from_raw(smemdesc_core::Arch::Sm100, 0).lbo_absolute());
    /// ```
    #[inline]
    pub const fn lbo_absolute(self) -> bool {
        (self.raw >> 52) & 1 == 1
    }

    /// The raw layout-type code (2 bits at 62 on sm90, 3 bits at 61 on sm100).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::SmemDescriptor::from_raw(smemdesc_core::Arch::Sm100, 2 << 61).layout_code(), 2);
    /// ```
    #[inline]
    pub const fn layout_code(self) -> u8 {
        match self.arch.generation() {
            Arch::Sm90 => (self.raw >> 62) as u8,
            _ => (self.raw >> 61) as u8,
        }
    }

    /// The layout type as a swizzle mode, or `None` for a code the architecture does not define.
    ///
    /// ```
    /// use smemdesc_core::{Arch, SmemDescriptor, SwizzleMode};
    /// assert_eq!(SmemDescriptor::from_raw(Arch::Sm90, 3 << 62).layout(), Some(SwizzleMode::B32));
    /// ```
    #[inline]
    pub const fn layout(self) -> Option<SwizzleMode> {
        layout_type_from_code(self.arch, self.layout_code())
    }

    /// Mask of the bits that are reserved (should be 0) or fixed (sm100 version) and hold the wrong
    /// value. Zero for a well-formed descriptor.
    ///
    /// ```
    /// use smemdesc_core::{Arch, SmemDescriptor};
    /// assert_eq!(SmemDescriptor::from_raw(Arch::Sm100, 0).reserved_bits(), 1 << 46); // version missing
    /// ```
    #[inline]
    pub const fn reserved_bits(self) -> u64 {
        let always: u64 = (3 << 14) | (3 << 30);
        match self.arch.generation() {
            Arch::Sm90 => self.raw & (always | (7 << 46) | (0x3ff << 52)),
            _ => (self.raw & (always | (0xff << 53))) | ((self.raw & (7 << 46)) ^ (1 << 46)),
        }
    }

    /// The swizzle row at which the matrix starts, counted from the pattern start that `base_offset`
    /// names: `((start_address >> 7) - base_offset) mod rows`, with `rows` the rows of one swizzle
    /// repeat (8 for 128B, 4 for 64B and 128B_base32B, 2 for 32B). `None` without swizzle or for an
    /// unknown layout code.
    ///
    /// Every MMA subtile starts on the first row of an atom (a K step of +32 B stays in that row),
    /// so for a descriptor smemdesc derives this is 0; anything else means the start address and
    /// `base_offset` disagree and the tensor core would swizzle with another phase than the data
    /// was written with. This is the phase the [emulator](crate::emulate_address) applies.
    ///
    /// ```
    /// use smemdesc_core::{Arch, DescriptorFields, SmemDescriptor, SwizzleMode};
    /// let d = SmemDescriptor::encode(Arch::Sm90, DescriptorFields::new(0x2020, 16, 1024, SwizzleMode::B128)).unwrap();
    /// assert_eq!(d.row_phase(), Some(0)); // aligned tile, K step of 32 B
    /// assert_eq!(d.with_base_offset(3).row_phase(), Some(5)); // base_offset says the pattern starts 3 rows later
    /// assert_eq!(d.with_start_address(0x2180).unwrap().with_base_offset(3).row_phase(), Some(0));
    /// ```
    #[inline]
    pub const fn row_phase(self) -> Option<u32> {
        let rows = match self.layout() {
            Some(SwizzleMode::B128) => 8,
            Some(SwizzleMode::B64) | Some(SwizzleMode::B128Base32B) => 4,
            Some(SwizzleMode::B32) => 2,
            _ => return None,
        };
        Some(((self.start_address() >> 7).wrapping_sub(self.base_offset() as u32)) % rows)
    }

    /// All fields, or an error for an unknown layout code.
    ///
    /// ```
    /// use smemdesc_core::{Arch, SmemDescriptor, SwizzleMode};
    /// let f = SmemDescriptor::from_raw(Arch::Sm90, 0x4000_0040_0001_0040).fields().unwrap();
    /// assert_eq!((f.start_address, f.lbo, f.sbo, f.layout), (0x400, 16, 1024, SwizzleMode::B128));
    /// ```
    #[inline]
    pub const fn fields(self) -> Result<DescriptorFields, Error> {
        let layout = match self.layout() {
            Some(l) => l,
            None => {
                return Err(Error::UnknownLayoutCode {
                    arch: self.arch,
                    code: self.layout_code(),
                })
            }
        };
        Ok(DescriptorFields {
            start_address: self.start_address(),
            lbo: self.lbo(),
            sbo: self.sbo(),
            base_offset: self.base_offset(),
            layout,
            lbo_absolute: match self.arch.generation() {
                Arch::Sm90 => false,
                _ => self.lbo_absolute(),
            },
        })
    }

    /// The same descriptor with another start address (what advancing to a subtile or stage does).
    ///
    /// ```
    /// use smemdesc_core::{Arch, SmemDescriptor};
    /// let d = SmemDescriptor::from_raw(Arch::Sm90, 0x4000_0040_0001_0000).with_start_address(0x420).unwrap();
    /// assert_eq!(d.raw(), 0x4000_0040_0001_0042);
    /// ```
    #[inline]
    pub const fn with_start_address(self, bytes: u32) -> Result<SmemDescriptor, Error> {
        let start = tri!(unit_field(Field::StartAddress, bytes));
        Ok(SmemDescriptor {
            arch: self.arch,
            raw: (self.raw & !FIELD_MASK) | start,
        })
    }

    /// The same descriptor with another base offset.
    ///
    /// ```
    /// use smemdesc_core::{Arch, SmemDescriptor};
    /// assert_eq!(SmemDescriptor::from_raw(Arch::Sm90, 0).with_base_offset(5).base_offset(), 5);
    /// ```
    #[inline]
    pub const fn with_base_offset(self, base_offset: u8) -> SmemDescriptor {
        SmemDescriptor {
            arch: self.arch,
            raw: (self.raw & !(7 << 49)) | (((base_offset & 7) as u64) << 49),
        }
    }
}

impl core::fmt::Display for SmemDescriptor {
    /// Prints every field by name.
    ///
    /// ```
    /// use smemdesc_core::{Arch, SmemDescriptor};
    /// let s = SmemDescriptor::from_raw(Arch::Sm90, 0x4000_0040_0001_0040).to_string();
    /// assert!(s.contains("start_address=0x400") && s.contains("sbo=1024") && s.contains("layout=128B"));
    /// ```
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} desc {:#018x}: start_address={:#x} lbo={} sbo={} base_offset={} layout=",
            self.arch.name(),
            self.raw,
            self.start_address(),
            self.lbo(),
            self.sbo(),
            self.base_offset()
        )?;
        match self.layout() {
            Some(l) => write!(f, "{}", l.name())?,
            None => write!(f, "?{}", self.layout_code())?,
        }
        if let Arch::Sm100 = self.arch.generation() {
            write!(
                f,
                " version={} lbo_mode={}",
                self.version(),
                if self.lbo_absolute() {
                    "absolute"
                } else {
                    "relative"
                }
            )?;
        }
        Ok(())
    }
}
