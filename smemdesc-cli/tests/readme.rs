//! The documented command-line examples are real: every `$ smemdesc ...` console block without
//! shell pipes in the README and the guide's chapters (`docs/guide/*.md`, the CLI chapter holds
//! most) reproduces byte for byte.

use crate::common::*;

#[test]
fn readme_examples_are_real_output() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut docs = vec![root.join("README.md")];
    let mut chapters: Vec<_> = std::fs::read_dir(root.join("docs/guide"))
        .expect("docs/guide")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    chapters.sort();
    docs.extend(chapters);
    let text: String = docs
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect();
    let cli = std::fs::read_to_string(root.join("docs/guide/cli.md")).expect("the CLI chapter");
    assert!(cli.contains("$ smemdesc decode") && cli.contains("$ smemdesc tile"));
    let mut checked = 0;
    for block in text.split("```console\n").skip(1) {
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
        assert_eq!(out, rest, "documented output of `smemdesc {cmd}` is stale");
        checked += 1;
    }
    println!("{checked} documented examples reproduced");
    assert!(checked >= 4, "the docs have their examples");
}
