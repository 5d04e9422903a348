//! Illegal tiles of every spec §11 class exit 2 with the core's message; malformed input gives a
//! clear error; nothing panics.

use crate::common::*;

fn tile_fails(extra: &[&str], phrase: &str) {
    let mut argv = vec!["tile"];
    argv.extend_from_slice(extra);
    let (code, out, err) = run(&argv);
    assert_eq!(code, 2, "{argv:?}: want exit 2, stdout {out}, stderr {err}");
    assert!(
        err.contains(phrase),
        "{argv:?}: stderr lacks `{phrase}`: {err}"
    );
    assert!(!err.contains("panicked"), "{argv:?} panicked: {err}");
    assert!(out.is_empty(), "{argv:?}: nothing on stdout for an error");
}

const SM90_BF16_K: &[&str] = &["--arch", "sm90", "--dtype", "bf16", "--major", "K"];

fn with(base: &[&'static str], extra: &[&'static str]) -> Vec<&'static str> {
    base.iter().chain(extra).copied().collect()
}

#[test]
fn spec_section_11_classes_exit_2_with_message() {
    let cases: &[(&[&str], &str)] = &[
        // TMA box wider than the swizzle atom (names the legal box).
        (
            &["--tile", "128x128", "--tma-box", "64x128"],
            "a box spans exactly one atom: 64 elements",
        ),
        // Tile extent not a whole number of atoms.
        (
            &["--tile", "128x96", "--swizzle", "128B"],
            "not a whole number of swizzle atoms",
        ),
        // Contiguous extent not a multiple of 16 B.
        (
            &["--tile", "128x100"],
            "is not a multiple of the 16 B chunk",
        ),
        // MMA K not 32 B.
        (
            &["--tile", "128x64", "--mma", "m64n128k32"],
            "one MMA instruction reads 32 B of K; use K = 16",
        ),
        // MMA M not a legal instruction shape.
        (&["--tile", "128x64", "--mma", "m128n128k16"], "legal M: 64"),
        // MMA N not a legal instruction shape.
        (&["--tile", "128x64", "--mma", "m64n100k16"], "legal N:"),
        // Tile not a whole number of MMA subtiles.
        (
            &["--tile", "96x64", "--mma", "m64n128k16"],
            "not a whole number of MMA subtiles of 64",
        ),
        // Overflowing start address / advance (14-bit field): the last subtile lies past 256 KiB.
        // (LBO/SBO/advances of one tile cannot overflow within the 227 KiB budget.)
        (
            &["--tile", "128x128", "--base", "0x3c000"],
            "0x3c000 is too high",
        ),
        // Total SMEM over the per-CTA limit.
        (
            &["--tile", "128x128", "--stages", "8"],
            "exceed the 232448 B of shared memory per CTA",
        ),
        // Stage count 0.
        (&["--tile", "128x64", "--stages", "0"], "stages = 0"),
        // Box rows > 256.
        (
            &["--tile", "512x64", "--tma-box", "512x64"],
            "boxDim is at most 256",
        ),
        // cta_group 2 on sm90.
        (
            &["--tile", "128x64", "--cta-group", "2"],
            "cta_group = 2 is not legal on sm90",
        ),
        // 128B_BASE32B on sm90.
        (
            &["--tile", "128x64", "--swizzle", "128B_base32B"],
            "does not exist on sm90",
        ),
        // Base not aligned for a swizzled tile.
        (
            &["--tile", "128x64", "--base", "0x48"],
            "not a multiple of 128 B: a swizzled tile starts on a 128-byte row of the swizzle pattern",
        ),
    ];
    for (extra, phrase) in cases {
        tile_fails(&with(SM90_BF16_K, extra), phrase);
    }
    // MN-major for a dtype that forbids it.
    tile_fails(
        &[
            "--arch", "sm90", "--dtype", "e4m3", "--major", "MN", "--tile", "128x64",
        ],
        "does not allow MN-major",
    );
    // dtype / kind mismatch.
    tile_fails(
        &[
            "--arch", "sm100", "--dtype", "bf16", "--major", "K", "--tile", "128x64", "--kind",
            "tf32",
        ],
        "is not an input type of kind::tf32",
    );
    // sm100 tf32 MN-major needs 128B_base32B.
    tile_fails(
        &[
            "--arch",
            "sm100",
            "--dtype",
            "tf32",
            "--major",
            "MN",
            "--tile",
            "128x64",
            "--swizzle",
            "128B",
        ],
        "must use 128B_base32B",
    );
    // The draw command reports the same errors.
    let (code, _, err) = run(&[
        "draw", "--arch", "sm90", "--dtype", "bf16", "--major", "K", "--tile", "128x100",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not a multiple of the 16 B chunk"), "{err}");
}

#[test]
fn malformed_and_unknown_input_is_a_clear_error() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "Usage"),
        (&["frobnicate"], "unrecognized subcommand"),
        (&["decode"], "required"),
        (&["decode", "--arch", "sm90"], "required"),
        (&["decode", "0xzz", "--arch", "sm90"], "malformed number"),
        (&["decode", "", "--arch", "sm90"], "empty number"),
        (&["decode", "-5", "--arch", "sm90"], "error"),
        (
            &["decode", "0x10000000000000000", "--arch", "sm90"],
            "malformed number",
        ),
        (&["decode", "0x40", "--arch", "sm80"], "unknown arch"),
        (
            &["decode", "0x40", "--arch", "sm90", "--colour"],
            "unexpected argument",
        ),
        (&["tile"], "required"),
        (
            &[
                "tile", "--arch", "sm90", "--dtype", "bf16", "--major", "K", "--tile", "128",
            ],
            "malformed extent pair",
        ),
        (
            &[
                "tile", "--arch", "sm90", "--dtype", "bf16", "--major", "K", "--tile", "128x",
            ],
            "empty number",
        ),
        (
            &[
                "tile", "--arch", "sm90", "--dtype", "bf16", "--major", "K", "--tile", "x",
            ],
            "empty number",
        ),
        (
            &[
                "tile",
                "--arch",
                "sm90",
                "--dtype",
                "bf16",
                "--major",
                "K",
                "--tile",
                "99999999999x64",
            ],
            "does not fit in 32 bits",
        ),
        (
            &[
                "tile", "--arch", "sm90", "--dtype", "f64", "--major", "K", "--tile", "128x64",
            ],
            "unknown dtype",
        ),
        (
            &[
                "tile", "--arch", "sm90", "--dtype", "bf16", "--major", "Q", "--tile", "128x64",
            ],
            "unknown major",
        ),
        (
            &[
                "tile",
                "--arch",
                "sm90",
                "--dtype",
                "bf16",
                "--major",
                "K",
                "--tile",
                "128x64",
                "--swizzle",
                "256B",
            ],
            "unknown swizzle",
        ),
        (
            &[
                "tile", "--arch", "sm90", "--dtype", "bf16", "--major", "K", "--tile", "128x64",
                "--mma", "64x128",
            ],
            "malformed MMA shape",
        ),
        (
            &[
                "tile", "--arch", "sm90", "--dtype", "bf16", "--major", "K", "--tile", "128x64",
                "--order", "diagonal",
            ],
            "unknown order",
        ),
        (
            &[
                "tile",
                "--arch",
                "sm90",
                "--dtype",
                "bf16",
                "--major",
                "K",
                "--tile",
                "128x64",
                "--operand",
                "C",
            ],
            "unknown operand",
        ),
        (
            &[
                "tile", "--arch", "sm90", "--dtype", "bf16", "--major", "K", "--tile", "128x64",
                "--base", "1k",
            ],
            "malformed number",
        ),
        (
            &[
                "tile",
                "--arch",
                "sm90",
                "--dtype",
                "bf16",
                "--major",
                "K",
                "--tile",
                "128x64",
                "--mma",
                "m64n128k16",
                "--mma-mn",
                "64",
            ],
            "cannot be used with",
        ),
        (
            &[
                "tile", "--arch", "sm90", "--dtype", "bf16", "--major", "K", "--tile", "0x64",
            ],
            "extent is 0",
        ),
        (
            &[
                "tile",
                "--arch",
                "sm90",
                "--dtype",
                "bf16",
                "--major",
                "K",
                "--tile",
                "128x64",
                "--base",
                "0xfffffc00",
            ],
            "0xfffffc00 is too high",
        ),
        (
            &[
                "tile",
                "--arch",
                "sm90",
                "--dtype",
                "bf16",
                "--major",
                "K",
                "--tile",
                "128x64",
                "--mma-mn",
                "4294967295",
                "--cta-group",
                "2",
            ],
            "error",
        ),
        (
            &[
                "draw",
                "--arch",
                "sm90",
                "--dtype",
                "bf16",
                "--major",
                "K",
                "--tile",
                "128x64",
                "--svg",
                "/nonexistent-dir/x.svg",
            ],
            "cannot write",
        ),
    ];
    for (argv, phrase) in cases {
        let (code, out, err) = run(argv);
        assert_eq!(code, 2, "{argv:?}: want exit 2; stdout {out} stderr {err}");
        assert!(
            err.contains(phrase),
            "{argv:?}: stderr lacks `{phrase}`: {err}"
        );
        assert!(!err.contains("panicked"), "{argv:?} panicked: {err}");
    }
}

#[test]
fn odd_but_parseable_values_never_panic() {
    // A sweep over extreme numbers: every run must exit 0 or 2, never panic.
    let nums = ["0", "1", "8", "16", "24", "4096", "65536", "4294967295"];
    for a in nums {
        for b in nums {
            let tile = format!("{a}x{b}");
            for cmd in ["tile", "draw"] {
                let (code, _, err) = run(&[
                    cmd, "--arch", "sm100", "--dtype", "e4m3", "--major", "MN", "--tile", &tile,
                    "--stages", b, "--base", a,
                ]);
                assert!(code == 0 || code == 2, "{tile}: exit {code}: {err}");
                assert!(!err.contains("panicked"), "{tile}: {err}");
            }
        }
    }
    for raw in [
        "0",
        "0xffffffffffffffff",
        "18446744073709551615",
        "0x4000004000010a40",
    ] {
        for arch in ["sm90", "sm100"] {
            let (code, out, err) = run(&["decode", raw, "--arch", arch]);
            assert_eq!(code, 0, "{raw} {arch}: {err}");
            assert!(out.contains("start_address"), "{out}");
        }
    }
}

/// A tile placed off its swizzle pattern's boundary gets base_offset 0 from `tile` by default
/// (absolute placement, what TMA writes: spec §7) and (P >> 7) & 7 with `--placement relative`;
/// `decode` of those descriptors must not warn about either, for every swizzle.
#[test]
fn unaligned_base_descriptors_decode_without_phase_warning() {
    // (swizzle, base, placement, base_offset: §7 — absolute 0; relative (base >> 7) & 7)
    for (swizzle, base, placement, want_bo) in [
        ("128B", "0x2180", "relative", 3u64),
        ("64B", "0x280", "relative", 5),
        ("32B", "0x180", "relative", 3),
        ("64B", "0x2100", "relative", 2),
        ("128B", "0x2180", "absolute", 0),
        ("64B", "0x280", "absolute", 0),
        ("32B", "0x180", "absolute", 0),
    ] {
        let (code, stdout, stderr) = run(&[
            "tile",
            "--arch",
            "sm90",
            "--operand",
            "A",
            "--dtype",
            "bf16",
            "--tile",
            "128x64",
            "--major",
            "K",
            "--swizzle",
            swizzle,
            "--mma",
            "m64n128k16",
            "--stages",
            "2",
            "--base",
            base,
            "--placement",
            placement,
            "--json",
        ]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(v_placement(&stdout), placement);
        let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let descs: Vec<&str> = v["descriptors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["desc"].as_str().unwrap())
            .collect();
        assert!(!descs.is_empty());
        for d in &descs {
            let raw = u64::from_str_radix(d.trim_start_matches("0x"), 16).unwrap();
            assert_eq!(raw >> 49 & 7, want_bo, "{swizzle} at {base}: {d}");
        }
        let mut args = vec!["decode"];
        args.extend(&descs);
        args.extend(["--arch", "sm90"]);
        let (code, text, _) = run(&args);
        assert_eq!(code, 0);
        assert!(
            text.contains("warnings: none"),
            "{swizzle} at {base}: {text}"
        );
        let right = match placement {
            "absolute" => "right for bytes written on absolute addresses",
            _ => "right for bytes written relative to a tile start",
        };
        assert!(text.contains(right), "{swizzle} at {base}: {text}");
    }
}

fn v_placement(json: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["placement"].as_str().unwrap().to_string()
}

/// A reader that closes the pipe before the report is written (`smemdesc draw … | head -c0`):
/// the CLI exits quietly with success instead of panicking ("failed printing to stdout").
#[test]
fn closed_stdout_pipe_is_not_a_panic() {
    use std::process::Stdio;
    let mut child = smemdesc()
        .args([
            "draw", "--arch", "sm90", "--dtype", "bf16", "--tile", "256x64", "--major", "K",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI starts");
    drop(child.stdout.take()); // the read end closes before the child writes
    let out = child.wait_with_output().expect("the CLI ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked"),
        "panicked on a closed pipe: {err}"
    );
    assert!(out.status.success(), "exit {:?}, stderr {err}", out.status);
}
