//! CLI messages that lead somewhere (issue 11): a `--base` error says what is wrong with the base
//! and how to fix it, and no output names an internal function.

use crate::common::*;

const TILE: [&str; 10] = [
    "tile", "--arch", "sm90", "--dtype", "bf16", "--tile", "128x64", "--major", "K", "--base",
];

fn tile_at(base: &str) -> (i32, String, String) {
    let mut argv = TILE.to_vec();
    argv.push(base);
    run(&argv)
}

#[test]
fn a_base_too_high_blames_the_base_not_the_layout() {
    // 128x64 bf16 K-major (2 x 4 subtiles of m64 x k16, 16384 B): subtile (1, 0) starts 8192 B
    // into the tile, so at 0x3ff80 it would start at 0x41f80 > 0x3fff0, the largest start the
    // descriptor's 14-bit field of 16-byte units holds ((2^14 - 1) x 16). The highest 128-aligned
    // base keeps the last subtile start, 8192 + 3 x 32 = 8288 B in, at or below 0x3fff0:
    // (0x3fff0 - 8288) rounded down to 128 = 0x3df80.
    let (code, _, err) = tile_at("0x3FF80");
    assert_ne!(code, 0);
    assert!(err.contains("--base"), "{err}");
    assert!(err.contains("0x3ff80 is too high"), "{err}");
    assert!(err.contains("place the tile at or below 0x3df80"), "{err}");
    assert!(!err.contains("layout is too large"), "{err}");
    // ... and that bound is exact: 0x3df80 works, the next 128 B up does not.
    assert_eq!(tile_at("0x3DF80").0, 0);
    assert_ne!(tile_at("0x3E000").0, 0);
}

#[test]
fn an_unaligned_base_says_what_the_128_bytes_are() {
    let (code, _, err) = tile_at("0x40");
    assert_ne!(code, 0);
    assert!(err.contains("0x40 is not a multiple of 128 B"), "{err}");
    assert!(err.contains("128-byte row of the swizzle pattern"), "{err}");
    assert!(err.contains("repeats every 256 to 1024 B"), "{err}");
    assert!(!err.contains("swizzle pattern's 128 B"), "{err}");
}

#[test]
fn no_output_names_an_internal_function() {
    let (code, out, _) = tile_at("0x400");
    assert_eq!(code, 0);
    assert!(out.contains("descriptors of each MMA subtile (mn, k) and stage, tile at base 0x400:"));
    assert!(!out.contains("try_desc"), "{out}");
}

/// Values too large for `u32` arithmetic are shown as the product of what was written (u64), not
/// saturated at 4294967295; a zero TMA box extent is called zero, not "too wide".
#[test]
fn large_and_zero_values_are_shown_as_written() {
    let tile = [
        "tile", "--arch", "sm90", "--dtype", "bf16", "--major", "K", "--tile", "128x64",
    ];
    let refused = |more: &[&str]| {
        let (code, _, err) = run(&[&tile[..], more].concat());
        assert_eq!(code, 2, "{more:?}: {err}");
        err
    };
    // 4294967295 x 16384 B (128 x 64 bf16) = 70368744161280 B.
    let err = refused(&["--stages", "4294967295"]);
    assert!(err.contains("= 70368744161280 B exceed"), "{err}");
    // K = 4294967295 bf16 values = 8589934590 B.
    let err = refused(&["--mma", "m64n256k4294967295"]);
    assert!(err.contains("is 8589934590 B of bf16"), "{err}");
    let err = refused(&["--tma-box", "0x0"]);
    assert!(err.contains("width 0 is not allowed"), "{err}");
    let err = refused(&["--tma-box", "0x64"]);
    assert!(err.contains("0 rows is not allowed"), "{err}");
    assert!(!err.contains("4294967295"), "{err}");
}
