//! The README's `## Command line` examples are real: every `$ smemdesc ...` block without shell
//! pipes reproduces byte for byte.

mod common;
use common::*;

#[test]
fn readme_examples_are_real_output() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(path).expect("README.md");
    let mut checked = 0;
    for block in readme.split("```console\n").skip(1) {
        let body = block.split("```").next().unwrap();
        let (first, rest) = body.split_once('\n').unwrap();
        let Some(cmd) = first.strip_prefix("$ smemdesc ") else {
            continue;
        };
        if cmd.contains(['|', ';', '"', '\'']) {
            continue; // shell constructs: not reproducible without a shell
        }
        let argv: Vec<&str> = cmd.split_whitespace().collect();
        let (code, out, err) = run(&argv);
        assert_eq!(code, 0, "{cmd}: {err}");
        assert_eq!(out, rest, "README output of `smemdesc {cmd}` is stale");
        checked += 1;
    }
    println!("{checked} README examples reproduced");
    assert!(checked >= 4, "README has its examples");
}
