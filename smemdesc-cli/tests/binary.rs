//! The binary prints what `smemdesc_cli::execute` returns and exits with its status: the other
//! tests run the command line in-process (`common::run`), so this one runs the built binary on
//! every kind of outcome and compares.

use crate::common::{run, run_binary, tmp_dir, WORKED_EXAMPLE};

#[test]
fn the_binary_prints_what_execute_returns() {
    let dir = tmp_dir("binary");
    // A (legal: the macro's keys) scale-factor tile, which `header --from` skips with a warning
    // on stderr.
    let scale = dir.join("scale.rs");
    std::fs::write(
        &scale,
        "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]\n\
         struct T;\n\
         #[smem_scale_tile(kind = mxf4nvf4, operand = A, tile = (128, 256))]\n\
         struct S;\n",
    )
    .unwrap();
    let scale = scale.to_str().unwrap();
    let ptx = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/panic.ptx");
    let im2col = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/im2col.tsv");
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (
            vec!["decode", "0x4000004000010a40", "--arch", "sm90"],
            0,
            "a report",
        ),
        (
            vec!["decode", "0x4000004000010a40", "--json"],
            0,
            "JSON, arch from bit 46",
        ),
        (
            vec!["decode", "--idesc", "0x0"],
            1,
            "no kind reads it as legal",
        ),
        (vec!["decode", "0x+1"], 2, "an error of the command"),
        (vec!["decode", "--bogus"], 2, "clap's usage error"),
        (vec!["bogus"], 2, "an unknown subcommand"),
        (vec!["--help"], 0, "help"),
        (vec!["decode", "--help"], 0, "a subcommand's help"),
        (vec!["--version"], 0, "version"),
        ([&["tile"], WORKED_EXAMPLE].concat(), 0, "a tile"),
        (
            [&["tile", "--json"], WORKED_EXAMPLE].concat(),
            0,
            "a tile in JSON",
        ),
        ([&["draw"], WORKED_EXAMPLE].concat(), 0, "a drawing"),
        (
            vec!["tmem", "--m", "128", "--n", "256", "--load", "32x32b.x16"],
            0,
            "a warning on stderr beside the report",
        ),
        (
            vec!["tmem", "--m", "128", "--n", "512", "--load", "32x32b"],
            2,
            "a tmem error",
        ),
        (vec!["header", "--from", scale], 0, "a header and a warning"),
        (vec!["check-ptx", ptx], 1, "check-ptx finds something"),
        (
            vec!["tensormap", "check", "--im2col", im2col],
            0,
            "rows judged",
        ),
        (
            vec![
                "fragment",
                "--arch",
                "sm80",
                "--mma",
                "m16n8k16",
                "--operand",
                "A",
                "--dtype",
                "bf16",
            ],
            0,
            "a grid",
        ),
    ];
    for (args, status, what) in &cases {
        let binary = run_binary(args);
        assert_eq!(binary.0, *status, "{what}: {args:?}: {}", binary.2);
        assert_eq!(run(args), binary, "{what}: {args:?}");
    }
    // The warnings are there to compare: not every case is quiet on stderr.
    let (_, _, err) = run_binary(cases[12].0.as_slice());
    assert!(
        err.starts_with("warning: one accumulator stage is 256 registers"),
        "{err}"
    );
    let (_, out, err) = run_binary(&["header", "--from", scale]);
    assert!(
        err.contains("#[smem_scale_tile] struct `S` skipped"),
        "{err}"
    );
    assert!(out.contains("namespace"), "{out}");
}
