//! The f32 → 16-bit packing of two accumulator values into one `.b32` register (an A register
//! of a chained `wgmma`, a `stmatrix` register of the epilogue): round to nearest even, the
//! first value in the low half (PTX ISA, `cvt`: `cvt.rn.bf16x2.f32 d, a, b` puts `a` in the
//! upper half and `b` in the lower; on nvptx64 that instruction, elsewhere the same rounding in
//! integer arithmetic).

/// Packs two f32 into one 32-bit register: `lo` in bits 0..16, `hi` in bits 16..32.
///
/// ```
/// use smemdesc::accum::{Bf16x2, F16x2, Pack};
/// assert_eq!(Bf16x2::pack(1.0, -2.0), 0xC000_3F80);
/// assert_eq!(F16x2::pack(1.0, -2.0), 0xC000_3C00);
/// ```
pub trait Pack {
    /// `lo` and `hi` converted and packed.
    fn pack(lo: f32, hi: f32) -> u32;
}

/// bf16 × 2, round to nearest even (`cvt.rn.bf16x2.f32`; the chained `wgmma`'s
/// [`Conversion::F32ToBf16x2`](crate::fragment::Conversion::F32ToBf16x2)).
///
/// ```
/// use smemdesc::accum::{Bf16x2, Pack};
/// // 1 + 2^-8 is halfway between bf16 1.0 and 1 + 2^-7: to even, 1.0
/// assert_eq!(Bf16x2::pack(1.00390625, 0.0), 0x3F80);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bf16x2;

/// f16 × 2, round to nearest even (`cvt.rn.f16x2.f32`; the chained `wgmma`'s
/// [`Conversion::F32ToF16x2`](crate::fragment::Conversion::F32ToF16x2)).
///
/// ```
/// use smemdesc::accum::{F16x2, Pack};
/// assert_eq!(F16x2::pack(65504.0, 1.0e6), 0x7C00_7BFF); // f16 max, then +inf
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct F16x2;

impl Pack for Bf16x2 {
    #[inline(always)]
    fn pack(lo: f32, hi: f32) -> u32 {
        #[cfg(target_arch = "nvptx64")]
        {
            super::nvptx::cvt_bf16x2(lo, hi)
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            (bf16_rne(hi) as u32) << 16 | bf16_rne(lo) as u32
        }
    }
}

impl Pack for F16x2 {
    #[inline(always)]
    fn pack(lo: f32, hi: f32) -> u32 {
        #[cfg(target_arch = "nvptx64")]
        {
            super::nvptx::cvt_f16x2(lo, hi)
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            (f16_rne(hi) as u32) << 16 | f16_rne(lo) as u32
        }
    }
}

/// f32 → bf16, round to nearest even; a NaN stays a (quiet) NaN.
#[cfg(not(target_arch = "nvptx64"))]
fn bf16_rne(x: f32) -> u16 {
    let b = x.to_bits();
    if x.is_nan() {
        return (b >> 16) as u16 | 0x40;
    }
    // Below NaN, b + 0x8000 cannot carry out of 32 bits; a carry into the exponent is the
    // rounding up (to infinity past the largest finite bf16).
    (b.wrapping_add(0x7FFF + ((b >> 16) & 1)) >> 16) as u16
}

/// Rounds `q` (the kept bits) up by the dropped `rem` of `shift` bits, to nearest even.
#[cfg(not(target_arch = "nvptx64"))]
fn round_even(q: u32, rem: u32, shift: u32) -> u32 {
    let half = 1u32 << (shift - 1);
    if rem > half || (rem == half && q & 1 == 1) {
        q + 1
    } else {
        q
    }
}

/// f32 → f16 (IEEE binary16), round to nearest even, subnormals and overflow to infinity
/// included; a NaN stays a (quiet) NaN.
#[cfg(not(target_arch = "nvptx64"))]
fn f16_rne(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xFF) as i32;
    let man = b & 0x7F_FFFF;
    if exp == 0xFF {
        return sign | 0x7C00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15; // the f16 biased exponent
    if e >= 31 {
        return sign | 0x7C00;
    }
    if e <= 0 {
        // A subnormal f16 (or zero): units of 2^-24; the value is m·2^(exp - 150).
        let m = man | if exp == 0 { 0 } else { 0x80_0000 };
        let shift = (14 - e) as u32;
        if shift > 24 {
            return sign;
        }
        let q = round_even(m >> shift, m & ((1 << shift) - 1), shift);
        return sign | q as u16;
    }
    let q = round_even(((e as u32) << 10) | (man >> 13), man & 0x1FFF, 13);
    sign | q as u16
}

/// The two f16 halves of a `.b32` register as f32 (`lo` from bits 0..16): exact (every f16 is
/// an f32). On nvptx64 `cvt.f32.f16`, elsewhere the same in integer arithmetic.
#[inline(always)]
pub(crate) fn unpack_f16x2(r: u32) -> (f32, f32) {
    #[cfg(target_arch = "nvptx64")]
    {
        super::nvptx::cvt_f32_f16x2(r)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        (f16_to_f32(r as u16), f16_to_f32((r >> 16) as u16))
    }
}

/// f16 (IEEE binary16) bits → f32, exact; subnormals, infinities and NaN (kept quiet) included.
#[cfg(not(target_arch = "nvptx64"))]
fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1F) as u32;
    let man = (h & 0x3FF) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        // A subnormal: man·2^-24, exactly an f32 product.
        (0, m) => {
            // A subnormal: m·2^-24, exact in f32.
            let v = m as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        (0x1F, 0) => sign | 0x7F80_0000,
        (0x1F, m) => sign | 0x7FC0_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}
