//! Advice is checked (issue 11): a message that offers an alternative offers only one that is
//! legal. `smemdesc tile --arch sm100 --operand B --dtype tf32 --tile 16x32 --major MN` said "or a
//! narrower swizzle", and every narrower swizzle is then refused for MN-major tf32.
//!
//! Independent of how the core finds its suggestion, this test reads the message, builds the
//! declaration again with the swizzle it names, and, when it says none is legal, tries every
//! narrower swizzle itself.

use smemdesc::core::*;

const NARROWER_THAN: [(SwizzleMode, &[SwizzleMode]); 5] = [
    (SwizzleMode::None, &[]),
    (SwizzleMode::B32, &[SwizzleMode::None]),
    (SwizzleMode::B64, &[SwizzleMode::B32, SwizzleMode::None]),
    (
        SwizzleMode::B128,
        &[SwizzleMode::B64, SwizzleMode::B32, SwizzleMode::None],
    ),
    (
        SwizzleMode::B128Base32B,
        &[SwizzleMode::B64, SwizzleMode::B32, SwizzleMode::None],
    ),
];

/// The swizzle the declaration resolves to (what the error was raised for).
fn resolved(d: TileDecl, e: &Error) -> SwizzleMode {
    if let Error::MmaNarrowerThanAtom { swizzle, .. } = e {
        return *swizzle;
    }
    if let Some(s) = d.swizzle {
        return s;
    }
    let contiguous = match d.major {
        Major::K => d.tile_k,
        Major::Mn => d.tile_mn,
    };
    if d.arch == Arch::Sm100 && d.major == Major::Mn && d.dtype.smem_bits() == 32 {
        SwizzleMode::B128Base32B
    } else {
        select_swizzle(d.dtype, contiguous).unwrap()
    }
}

/// Checks the advice of one rejected declaration; returns whether it offered a swizzle.
fn check(d: TileDecl, e: &Error) -> bool {
    let msg = e.to_string();
    if !msg.contains("narrower swizzle") {
        return false;
    }
    if let Some(rest) = msg.split("or the narrower swizzle ").nth(1) {
        let name = rest.split([' ', ')', ';', ',']).next().unwrap();
        let s = SwizzleMode::from_name(name).unwrap_or_else(|| panic!("{msg}"));
        assert!(
            d.swizzle(s).build().is_ok(),
            "{d:?}: suggests {name}, which is refused: {msg}"
        );
        return true;
    }
    assert!(
        msg.contains("(no narrower swizzle is legal here)"),
        "{d:?}: offers an unchecked narrower swizzle: {msg}"
    );
    let cur = resolved(d, e);
    let narrower = NARROWER_THAN.iter().find(|(s, _)| *s == cur).unwrap().1;
    for &s in narrower {
        assert!(
            d.swizzle(s).build().is_err(),
            "{d:?}: says no narrower swizzle is legal, but {} is: {msg}",
            s.name()
        );
    }
    false
}

#[test]
fn mn_major_tf32_on_sm100_offers_no_narrower_swizzle() {
    let d = TileDecl::new(
        Arch::Sm100,
        Operand::B,
        ElementType::TF32,
        Major::Mn,
        16,
        32,
    );
    let e = d.build().unwrap_err();
    assert!(matches!(e, Error::TileNotWholeAtoms { .. }), "{e}");
    assert!(!check(d, &e), "{e}");
    // The facts the message rests on: every narrower swizzle is refused for MN-major tf32.
    for s in [SwizzleMode::B64, SwizzleMode::B32, SwizzleMode::None] {
        assert!(d.swizzle(s).build().is_err());
    }
}

#[test]
fn a_legal_narrower_swizzle_is_named() {
    let d = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 96)
        .swizzle(SwizzleMode::B128);
    let e = d.build().unwrap_err();
    assert!(check(d, &e), "{e}");
    assert!(e.to_string().contains("or the narrower swizzle 64B"), "{e}");
}

#[test]
fn every_suggestion_over_a_grid_is_legal() {
    let mut rejected = 0;
    let mut offered = 0;
    for arch in [Arch::Sm90, Arch::Sm100] {
        for operand in [Operand::A, Operand::B] {
            for dtype in [
                ElementType::F16,
                ElementType::BF16,
                ElementType::TF32,
                ElementType::E4M3,
                ElementType::S8,
            ] {
                for major in [Major::K, Major::Mn] {
                    for sw in [
                        None,
                        Some(SwizzleMode::None),
                        Some(SwizzleMode::B32),
                        Some(SwizzleMode::B64),
                        Some(SwizzleMode::B128),
                        Some(SwizzleMode::B128Base32B),
                    ] {
                        for mn in [16, 32, 48, 64, 96, 128, 192] {
                            for k in [16, 32, 48, 64, 96, 128] {
                                let mut d = TileDecl::new(arch, operand, dtype, major, mn, k);
                                if let Some(s) = sw {
                                    d = d.swizzle(s);
                                }
                                if let Err(e) = d.build() {
                                    rejected += 1;
                                    offered += check(d, &e) as u32;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(rejected > 1000 && offered > 50, "{rejected} {offered}");
    println!("{rejected} rejected declarations, {offered} offered a narrower swizzle, all legal");
}
