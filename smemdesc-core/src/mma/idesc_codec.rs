//! Encoding and decoding of tcgen05 instruction descriptors: [`InstrDesc`] ↔ [`Idesc`] (the 32
//! bits with the kind whose table they follow), the 64-bit run-time form and the `const fn`
//! setters for the run-time fields. Bit positions: PTX ISA "Instruction descriptor" tables (see
//! `idesc.rs`).

use crate::base::arch::Major;
use crate::mma::format::{format_code, format_type, is_block_scaled};
use crate::mma::idesc::{AccumType, InstrDesc, ScaleFormat};
use crate::mma::idesc_error::IdescError;
use crate::mma::shape::{MmaKind, Operand};

#[inline]
const fn flag(b: bool) -> u32 {
    b as u32
}

#[inline]
const fn major_of(bit: u32) -> Major {
    if bit == 1 {
        Major::Mn
    } else {
        Major::K
    }
}

impl InstrDesc {
    /// Validates and packs the descriptor.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// // idesc.tsv row 1: tf32 tf32 -> f32, M 64, N 8, K/K.
    /// let i = InstrDesc::new(MmaKind::Tf32, ElementType::TF32, ElementType::TF32, AccumType::F32, 64, 8).encode().unwrap();
    /// assert_eq!(i.raw(), 0x04020910);
    /// ```
    #[inline]
    pub const fn encode(&self) -> Result<Idesc, IdescError> {
        tri!(self.validate());
        Ok(Idesc {
            raw: self.pack(),
            kind: self.kind,
        })
    }

    /// Like [`InstrDesc::encode`] but panics (a compile error in a `const` item) when invalid.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// const I: Idesc = InstrDesc::new(MmaKind::I8, ElementType::S8, ElementType::U8, AccumType::S32, 128, 48).expect_valid();
    /// assert_eq!(I.raw() >> 24, 128 >> 4);
    /// ```
    #[inline]
    pub const fn expect_valid(&self) -> Idesc {
        match self.encode() {
            Ok(i) => i,
            Err(e) => panic!("{}", e.summary()),
        }
    }

    /// Packs the fields without validation (callers validate first).
    #[inline]
    const fn pack(&self) -> u32 {
        let a = match format_code(self.kind, self.a) {
            Some(c) => c,
            None => 0,
        };
        let b = match format_code(self.kind, self.b) {
            Some(c) => c,
            None => 0,
        };
        let common = SPARSE.put(flag(self.sparse))
            | A_FORMAT.put(a)
            | B_FORMAT.put(b)
            | NEGATE_A.put(flag(self.negate_a))
            | NEGATE_B.put(flag(self.negate_b))
            | A_MAJOR.put(flag(matches!(self.a_major, Major::Mn)))
            | B_MAJOR.put(flag(matches!(self.b_major, Major::Mn)))
            | N_DIM.put(self.n >> 3);
        if is_block_scaled(self.kind) {
            let sf = match self.sf {
                Some(s) => s.code(),
                None => 0,
            };
            common
                | SF_B_ID.put(self.sf_b_id)
                | SF_FORMAT.put(sf)
                | M_DIM_BS.put(self.m >> 7)
                | SF_A_ID.put(self.sf_a_id)
                | K96.put(flag(self.k96))
        } else {
            common
                | SPARSE_ID.put(self.sparse_id)
                | SATURATE.put(flag(self.saturate))
                | C_FORMAT.put(self.c.code())
                | M_DIM.put(self.m >> 4)
                | WS_SHIFT.put(self.ws_shift)
        }
    }
}

/// An encoded instruction descriptor with the kind it was encoded for (the 32 bits alone do not
/// say which table applies).
///
/// ```
/// use smemdesc_core::*;
/// let i = Idesc::new(0x08820000, MmaKind::Mxf8f6f4); // idesc_block_scaled.tsv row 100001
/// let d = i.decode().unwrap();
/// assert_eq!((d.a, d.m, d.n, d.sf), (ElementType::E4M3, 128, 8, Some(ScaleFormat::Ue8m0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Idesc {
    raw: u32,
    kind: MmaKind,
}

impl Idesc {
    /// Wraps raw bits read as `kind` (nothing is checked until [`Idesc::decode`]).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Idesc::new(7, smemdesc_core::MmaKind::F16).raw(), 7);
    /// ```
    #[inline]
    pub const fn new(raw: u32, kind: MmaKind) -> Idesc {
        Idesc { raw, kind }
    }

    /// The 32 bits.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// assert_eq!(Idesc::new(0x04020910, MmaKind::Tf32).raw(), 0x04020910);
    /// ```
    #[inline]
    pub const fn raw(&self) -> u32 {
        self.raw
    }

    /// The kind whose table the bits follow.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// assert_eq!(Idesc::new(0, MmaKind::I8).kind(), MmaKind::I8);
    /// ```
    #[inline]
    pub const fn kind(&self) -> MmaKind {
        self.kind
    }

    /// The 64-bit run-time form CUTLASS passes to `tcgen05.mma` (`idesc << 32`; the low half is
    /// unused for these instructions).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// assert_eq!(Idesc::new(0x04020910, MmaKind::Tf32).runtime64(), 0x04020910_0000_0000);
    /// ```
    #[inline]
    pub const fn runtime64(&self) -> u64 {
        (self.raw as u64) << 32
    }

    /// Sets the A and B scale-factor ids from the scale factors' TMEM addresses (bits 30-31 of a
    /// TMEM address are the byte within the 32-bit column; CUTLASS
    /// `make_runtime_instr_desc_block_scaled` does the same), checking them against the kind.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let i = InstrDesc::new(MmaKind::Mxf4, ElementType::E2M1, ElementType::E2M1, AccumType::F32, 128, 64).expect_valid();
    /// let r = i.try_with_sf_tmem(0x8000_0010, 0x0000_0020).unwrap();
    /// assert_eq!(r.raw(), i.raw() | (2 << 29));
    /// assert!(i.try_with_sf_tmem(0x4000_0000, 0).is_err()); // id 1: mxf4 takes 0 or 2
    /// ```
    #[inline]
    pub const fn try_with_sf_tmem(
        self,
        tsfa_addr: u32,
        tsfb_addr: u32,
    ) -> Result<Idesc, IdescError> {
        let mut d = tri!(self.decode());
        d.sf_a_id = tsfa_addr >> 30;
        d.sf_b_id = tsfb_addr >> 30;
        d.encode()
    }

    /// The unchecked fast path of [`Idesc::try_with_sf_tmem`] for the issuing thread: two masks and
    /// shifts, no validation (meaningful only for block-scaled kinds; check the addresses once
    /// with the checked form).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let i = Idesc::new(0x08820000, MmaKind::Mxf8f6f4);
    /// assert_eq!(i.with_sf_tmem_wrapping(0xC000_0000, 0x4000_0000).raw(), 0x08820000 | (3 << 29) | (1 << 4));
    /// ```
    #[inline]
    pub const fn with_sf_tmem_wrapping(self, tsfa_addr: u32, tsfb_addr: u32) -> Idesc {
        let raw = (self.raw & !((3 << 29) | (3 << 4)))
            | ((tsfa_addr >> 30) << 29)
            | ((tsfb_addr >> 30) << 4);
        Idesc {
            raw,
            kind: self.kind,
        }
    }

    /// Former name of [`with_sf_tmem_wrapping`](Self::with_sf_tmem_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `with_sf_tmem_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline]
    pub const fn with_sf_tmem_unchecked(self, tsfa_addr: u32, tsfb_addr: u32) -> Idesc {
        self.with_sf_tmem_wrapping(tsfa_addr, tsfb_addr)
    }

    /// Sets the sparsity selector (bits 0-1), checked: 0-3 for sparse `kind::f16` / `kind::tf32`;
    /// PTX requires 0 for `kind::i8` and `kind::f8f6f4` and reserves the bits elsewhere.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let i = InstrDesc::new(MmaKind::F16, ElementType::F16, ElementType::F16, AccumType::F32, 128, 64).sparse(true).expect_valid();
    /// assert_eq!(i.try_with_sparse_id(3).unwrap().raw() & 3, 3);
    /// ```
    #[inline]
    pub const fn try_with_sparse_id(self, id: u32) -> Result<Idesc, IdescError> {
        let mut d = tri!(self.decode());
        d.sparse_id = id;
        d.encode()
    }

    /// Reads the fields (the inverse of [`InstrDesc::encode`]); refuses reserved bits and unknown
    /// codes, but does not apply the shape and legality rules (call [`InstrDesc::validate`]).
    /// `cta_group` is taken as 2 when M = 256, else 1.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let e = Idesc::new(0x0880_0000 | (1 << 26), MmaKind::Mxf8f6f4).decode();
    /// assert!(matches!(e, Err(IdescError::ReservedBits { bits: 0x0400_0000, .. })));
    /// ```
    #[inline]
    pub const fn decode(&self) -> Result<InstrDesc, IdescError> {
        let raw = self.raw;
        let kind = self.kind;
        let bs = is_block_scaled(kind);
        let reserved = reserved_mask(kind);
        if raw & reserved != 0 {
            return Err(IdescError::ReservedBits {
                kind,
                bits: raw & reserved,
            });
        }
        let a_code = A_FORMAT.get(raw);
        let b_code = B_FORMAT.get(raw);
        let a = match format_type(kind, a_code) {
            Some(t) => t,
            None => {
                return Err(IdescError::UnknownFormat {
                    operand: Operand::A,
                    kind,
                    code: a_code,
                })
            }
        };
        let b = match format_type(kind, b_code) {
            Some(t) => t,
            None => {
                return Err(IdescError::UnknownFormat {
                    operand: Operand::B,
                    kind,
                    code: b_code,
                })
            }
        };
        let m = if bs {
            M_DIM_BS.get(raw) << 7
        } else {
            M_DIM.get(raw) << 4
        };
        let mut d = InstrDesc::new(kind, a, b, AccumType::F32, m, N_DIM.get(raw) << 3);
        d.sparse = SPARSE.get(raw) == 1;
        d.negate_a = NEGATE_A.get(raw) == 1;
        d.negate_b = NEGATE_B.get(raw) == 1;
        d.a_major = major_of(A_MAJOR.get(raw));
        d.b_major = major_of(B_MAJOR.get(raw));
        if bs {
            d.sf_b_id = SF_B_ID.get(raw);
            d.sf = Some(if SF_FORMAT.get(raw) == 1 {
                ScaleFormat::Ue8m0
            } else {
                ScaleFormat::Ue4m3
            });
            d.sf_a_id = SF_A_ID.get(raw);
            d.k96 = K96.get(raw) == 1;
        } else {
            d.sparse_id = SPARSE_ID.get(raw);
            d.saturate = SATURATE.get(raw) == 1;
            d.c = match C_FORMAT.get(raw) {
                0 => AccumType::F16,
                1 => AccumType::F32,
                2 => AccumType::S32,
                code => return Err(IdescError::UnknownAccum { code }),
            };
            d.ws_shift = WS_SHIFT.get(raw);
        }
        Ok(d)
    }
}

impl core::fmt::Display for InstrDesc {
    /// `kind::f16 D f32, A bf16 K-major, B bf16 K-major, M 128 N 256 K 16` plus the set flags.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = InstrDesc::new(MmaKind::F16, ElementType::BF16, ElementType::BF16, AccumType::F32, 128, 256);
    /// assert_eq!(d.to_string(), "kind::f16 D f32, A bf16 K-major, B bf16 K-major, M 128 N 256 K 16, cta_group::1");
    /// ```
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "kind::{} D {}, A {} {}-major, B {} {}-major, M {} N {} K {}, cta_group::{}",
            self.kind.name(),
            self.c.name(),
            self.a.name(),
            self.a_major.name(),
            self.b.name(),
            self.b_major.name(),
            self.m,
            self.n,
            self.k(),
            self.cta_group
        )?;
        let flags = [
            (self.negate_a, ", negate A"),
            (self.negate_b, ", negate B"),
            (self.saturate, ", saturate"),
            (self.sparse, ", sparse"),
            (self.k96, ", K=96"),
        ];
        for (on, text) in flags {
            if on {
                f.write_str(text)?;
            }
        }
        if let Some(sf) = self.sf {
            write!(
                f,
                ", scale {} (ids A {} B {})",
                sf.name(),
                self.sf_a_id,
                self.sf_b_id
            )?;
        }
        if self.sparse_id != 0 {
            write!(f, ", sparsity selector {}", self.sparse_id)?;
        }
        Ok(())
    }
}

impl core::fmt::Display for Idesc {
    /// `0x…` followed by the decoded fields, or the reason it does not decode.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let s = Idesc::new(0x04020910, MmaKind::Tf32).to_string();
    /// assert!(s.starts_with("0x04020910 kind::tf32 D f32, A tf32 K-major"));
    /// ```
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.decode() {
            Ok(d) => write!(f, "0x{:08x} {}", self.raw, d),
            Err(e) => write!(f, "0x{:08x} (kind::{}: {})", self.raw, self.kind.name(), e),
        }
    }
}

/// One field of an instruction descriptor: its name, bit range and what it holds.
///
/// ```
/// use smemdesc_core::{idesc_fields, MmaKind};
/// let n = idesc_fields(MmaKind::F16).iter().find(|f| f.name == "n").unwrap();
/// assert_eq!((n.lo, n.width, n.reserved), (17, 6, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IdescField {
    /// Name (the CLI's field name).
    pub name: &'static str,
    /// Lowest bit.
    pub lo: u32,
    /// Width in bits.
    pub width: u32,
    /// Whether PTX reserves these bits (they must be 0).
    pub reserved: bool,
    /// What the field holds (PTX table wording).
    pub meaning: &'static str,
}

impl IdescField {
    /// The field's raw value in `raw`.
    ///
    /// ```
    /// use smemdesc_core::{idesc_fields, MmaKind};
    /// let m = idesc_fields(MmaKind::Tf32).iter().find(|f| f.name == "m").unwrap();
    /// assert_eq!(m.get(0x04020910), 4); // M>>4 = 64>>4
    /// ```
    #[inline]
    pub const fn get(&self, raw: u32) -> u32 {
        (raw >> self.lo) & ((1 << self.width) - 1)
    }

    /// `value` (truncated to the field's width) in the field's position.
    ///
    /// ```
    /// use smemdesc_core::{idesc_fields, MmaKind};
    /// let n = idesc_fields(MmaKind::I8).iter().find(|f| f.name == "n").unwrap();
    /// assert_eq!(n.put(64 >> 3), 8 << 17);
    /// ```
    #[inline]
    pub const fn put(&self, value: u32) -> u32 {
        (value & ((1 << self.width) - 1)) << self.lo
    }

    /// The field's bits.
    ///
    /// ```
    /// use smemdesc_core::{idesc_fields, MmaKind};
    /// assert_eq!(idesc_fields(MmaKind::F16)[0].mask(), 0b11);
    /// ```
    #[inline]
    pub const fn mask(&self) -> u32 {
        self.put(u32::MAX)
    }
}

#[inline]
const fn fld(name: &'static str, lo: u32, width: u32, meaning: &'static str) -> IdescField {
    IdescField {
        name,
        lo,
        width,
        reserved: false,
        meaning,
    }
}

#[inline]
const fn res(name: &'static str, lo: u32, width: u32) -> IdescField {
    IdescField {
        name,
        lo,
        width,
        reserved: true,
        meaning: "reserved, 0",
    }
}

// Every bit position, once (PTX ISA "Instruction descriptor" tables).
const SPARSE_ID: IdescField = fld("sparse_id", 0, 2, "sparsity selector (if sparse)");
const SPARSE: IdescField = fld("sparse", 2, 1, "dense = 0, sparse = 1");
const SATURATE: IdescField = fld("saturate", 3, 1, "saturate (kind::i8 only)");
const C_FORMAT: IdescField = fld("c_format", 4, 2, "D type: F16 = 0, F32 = 1, S32 = 2");
const SF_B_ID: IdescField = fld(
    "sf_b_id",
    4,
    2,
    "B scale-factor id (byte in the TMEM column)",
);
const A_FORMAT: IdescField = fld("a_format", 7, 3, "A type code");
const B_FORMAT: IdescField = fld("b_format", 10, 3, "B type code");
const B_FORMAT_MXF4: IdescField = fld("b_format", 10, 2, "B type code");
const NEGATE_A: IdescField = fld("negate_a", 13, 1, "negate A");
const NEGATE_B: IdescField = fld("negate_b", 14, 1, "negate B");
const A_MAJOR: IdescField = fld("a_major", 15, 1, "transpose A: 0 = K-major, 1 = MN-major");
const B_MAJOR: IdescField = fld("b_major", 16, 1, "transpose B: 0 = K-major, 1 = MN-major");
const N_DIM: IdescField = fld("n", 17, 6, "N >> 3");
const SF_FORMAT: IdescField = fld("sf_format", 23, 1, "scale type: UE4M3 = 0, UE8M0 = 1");
const M_DIM: IdescField = fld("m", 24, 5, "M >> 4");
const M_DIM_BS: IdescField = fld("m", 27, 2, "M >> 7");
const SF_A_ID: IdescField = fld(
    "sf_a_id",
    29,
    2,
    "A scale-factor id (byte in the TMEM column)",
);
const WS_SHIFT: IdescField = fld("ws_shift", 30, 2, "max B-reuse shift of .ws (0 = none)");
const K96: IdescField = fld("k96", 31, 1, "K: 0 = 64 (dense) / 128 (sparse), 1 = 96");

const DENSE_FIELDS: [IdescField; 16] = [
    SPARSE_ID,
    SPARSE,
    SATURATE,
    C_FORMAT,
    res("reserved6", 6, 1),
    A_FORMAT,
    B_FORMAT,
    NEGATE_A,
    NEGATE_B,
    A_MAJOR,
    B_MAJOR,
    N_DIM,
    res("reserved23", 23, 1),
    M_DIM,
    res("reserved29", 29, 1),
    WS_SHIFT,
];

const MXF8F6F4_FIELDS: [IdescField; 17] = [
    res("reserved0", 0, 2),
    SPARSE,
    res("reserved3", 3, 1),
    SF_B_ID,
    res("reserved6", 6, 1),
    A_FORMAT,
    B_FORMAT,
    NEGATE_A,
    NEGATE_B,
    A_MAJOR,
    B_MAJOR,
    N_DIM,
    SF_FORMAT,
    // CUTLASS writes M >> 4 into bits 24-28; for M = 128/256 these three bits are 0 either way.
    res("reserved24", 24, 3),
    M_DIM_BS,
    SF_A_ID,
    res("reserved31", 31, 1),
];

const MXF4_FIELDS: [IdescField; 18] = [
    res("reserved0", 0, 2),
    SPARSE,
    res("reserved3", 3, 1),
    SF_B_ID,
    res("reserved6", 6, 1),
    A_FORMAT,
    B_FORMAT_MXF4,
    res("reserved12", 12, 1),
    NEGATE_A,
    NEGATE_B,
    A_MAJOR,
    B_MAJOR,
    N_DIM,
    SF_FORMAT,
    res("reserved24", 24, 3),
    M_DIM_BS,
    SF_A_ID,
    K96,
];

/// The fields of a `kind` descriptor, lowest bit first, covering all 32 bits (PTX ISA
/// "Instruction descriptor" tables: dense kinds; `mxf8f6f4`; `mxf4`/`mxf4nvf4`).
///
/// ```
/// use smemdesc_core::{idesc_fields, MmaKind};
/// for k in [MmaKind::I8, MmaKind::Mxf8f6f4, MmaKind::Mxf4nvf4] {
///     assert_eq!(idesc_fields(k).iter().map(|f| f.width).sum::<u32>(), 32);
///     assert_eq!(idesc_fields(k).iter().fold(0, |m, f| m | f.mask()), u32::MAX);
/// }
/// ```
#[inline]
pub const fn idesc_fields(kind: MmaKind) -> &'static [IdescField] {
    match kind {
        MmaKind::Mxf8f6f4 => &MXF8F6F4_FIELDS,
        MmaKind::Mxf4 | MmaKind::Mxf4nvf4 => &MXF4_FIELDS,
        _ => &DENSE_FIELDS,
    }
}

/// The reserved bits of a `kind` descriptor (from [`idesc_fields`]).
#[inline]
const fn reserved_mask(kind: MmaKind) -> u32 {
    let fields = idesc_fields(kind);
    let mut mask = 0;
    let mut i = 0;
    while i < fields.len() {
        if fields[i].reserved {
            mask |= fields[i].mask();
        }
        i += 1;
    }
    mask
}
