//! Hostile input for the instruction-descriptor code: random 32-bit values read as every kind and
//! random field values never panic (overflow checks are on in tests); every raw value that
//! decodes to a legal descriptor re-encodes to exactly the same bits; and every illegal field
//! combination is refused rather than encoded.

use smemdesc::core::{AccumType, ElementType, Idesc, InstrDesc, Major, MmaKind, ScaleFormat};

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const KINDS: [MmaKind; 7] = MmaKind::ALL;

#[test]
fn random_raw_values_decode_or_refuse_and_legal_ones_round_trip() {
    let mut rng = Rng(0x5eed_1de5c);
    let (mut legal, mut decoded) = (0u32, 0u32);
    for _ in 0..100_000 {
        let random = rng.next() as u32;
        // Biased variant: reserved bits clear, no .ws shift, sparse/saturate rare, N and M legal.
        let n = (1 + rng.below(32) as u32) * 8;
        let m_dense = [64u32, 128, 256][rng.below(3) as usize];
        let m_bs = [128u32, 256][rng.below(2) as usize];
        let low = rng.next() as u32 & 0x0001_fff0 & !(1 << 6) & !(1 << 12);
        for kind in KINDS {
            let raw = if rng.below(2) == 0 {
                random
            } else if smemdesc::core::is_block_scaled(kind) {
                low | (n >> 3) << 17 | (1 << 23) | (m_bs >> 7) << 27
            } else {
                low | (n >> 3) << 17 | (m_dense >> 4) << 24
            };
            let i = Idesc::new(raw, kind);
            let _ = i.to_string();
            if let Ok(d) = i.decode() {
                decoded += 1;
                let _ = d.to_string();
                if let Ok(e) = d.encode() {
                    legal += 1;
                    assert_eq!(e.raw(), raw, "{kind:?} 0x{raw:08x} re-encodes differently");
                }
            }
        }
    }
    println!("{decoded} decodable readings, {legal} legal");
    assert!(
        legal > 10_000,
        "the generator reaches legal descriptors ({legal})"
    );
}

#[test]
fn random_fields_never_panic_and_illegal_never_encode() {
    let mut rng = Rng(42);
    let accums = [AccumType::F16, AccumType::F32, AccumType::S32];
    for _ in 0..200_000 {
        let kind = KINDS[rng.below(7) as usize];
        let a = ElementType::ALL[rng.below(11) as usize];
        let b = ElementType::ALL[rng.below(11) as usize];
        let c = accums[rng.below(3) as usize];
        let big = |r: &mut Rng| {
            if r.below(4) == 0 {
                r.next() as u32
            } else {
                r.below(300) as u32
            }
        };
        let mut d = InstrDesc::new(kind, a, b, c, big(&mut rng), big(&mut rng))
            .majors(
                if rng.below(2) == 0 {
                    Major::K
                } else {
                    Major::Mn
                },
                if rng.below(2) == 0 {
                    Major::K
                } else {
                    Major::Mn
                },
            )
            .negate(rng.below(2) == 0, rng.below(2) == 0)
            .saturate(rng.below(4) == 0)
            .sparse(rng.below(4) == 0)
            .k96(rng.below(8) == 0)
            .cta_group(big(&mut rng) % 4);
        if rng.below(3) == 0 {
            d.sf = None;
        } else if rng.below(2) == 0 {
            d.sf = Some(ScaleFormat::Ue4m3);
        }
        d.sf_a_id = big(&mut rng) % 6;
        d.sf_b_id = big(&mut rng) % 6;
        d.sparse_id = big(&mut rng) % 6;
        d.ws_shift = big(&mut rng) % 5;
        let _ = d.to_string();
        match d.encode() {
            Ok(i) => {
                // Legal: the bits decode back to the same fields (cta_group aside: not encoded).
                let back = i.decode().unwrap();
                assert_eq!(back.cta_group(d.cta_group), d, "{d}");
                // And every field fits its width: N and M are exact.
                assert_eq!(back.n, d.n);
                assert_eq!(back.m, d.m);
            }
            Err(e) => {
                let _ = e.to_string();
                assert!(!e.summary().is_empty() && !e.argument().is_empty());
            }
        }
    }
}

/// PTX ISA, tcgen05 "Sparse Matrices" -> "Sparsity selector": the selector "must be 0 for
/// .kind::i8 and .kind::f8f6f4" (both metadata layouts, M = 64 and M = 128 / 256); only
/// `kind::f16` and `kind::tf32` pick sub-columns with it. The builder and the decoder both refuse
/// a non-zero selector on the former.
#[test]
fn sparsity_selector_is_zero_for_i8_and_f8f6f4() {
    use ElementType::{E4M3, F16, S8, TF32};
    let i8 = InstrDesc::new(MmaKind::I8, S8, S8, AccumType::S32, 128, 64).sparse(true);
    let i8 = i8.expect_valid();
    assert!(i8.try_with_sparse_id(0).is_ok());
    for id in 1..4 {
        assert!(i8.try_with_sparse_id(id).is_err(), "i8 selector {id}");
    }
    let f8 = InstrDesc::new(MmaKind::F8f6f4, E4M3, E4M3, AccumType::F32, 128, 64).sparse(true);
    let f8 = f8.expect_valid();
    assert!(f8.try_with_sparse_id(0).is_ok());
    for id in 1..4 {
        assert!(f8.try_with_sparse_id(id).is_err(), "f8f6f4 selector {id}");
    }
    // f16 and tf32 take 0-3.
    let f16 = InstrDesc::new(MmaKind::F16, F16, F16, AccumType::F32, 128, 64).sparse(true);
    let tf32 = InstrDesc::new(MmaKind::Tf32, TF32, TF32, AccumType::F32, 128, 64).sparse(true);
    for id in 0..4 {
        assert!(f16.expect_valid().try_with_sparse_id(id).is_ok());
        assert!(tf32.expect_valid().try_with_sparse_id(id).is_ok());
    }
    // The reviewer's value, by hand from the PTX table: selector 3 (bits 0-1), sparse (bit 2),
    // D s32 (2 << 4), A s8 (1 << 7), B s8 (1 << 10), N 64 (8 << 17), M 128 (8 << 24).
    let raw = 3 | (1 << 2) | (2 << 4) | (1 << 7) | (1 << 10) | (8 << 17) | (8 << 24);
    assert_eq!(raw, 0x0810_04a7);
    let d = Idesc::new(raw, MmaKind::I8).decode().unwrap();
    assert!(d.validate().is_err(), "{d}");
    let raw_f8 = 1 | (1 << 2) | (1 << 4) | (8 << 17) | (8 << 24); // e4m3 x e4m3, D f32
    let d = Idesc::new(raw_f8, MmaKind::F8f6f4).decode().unwrap();
    assert!(d.validate().is_err(), "{d}");
}
