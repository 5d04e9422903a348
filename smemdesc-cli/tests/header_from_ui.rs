//! One grammar, one set of messages: `header --from` on the repository's compile-fail cases
//! (`tests/ui/fail_*.rs`) refuses each declaration the macros refuse with the macro's own first
//! message at the macro's position. The expected values are the committed `.stderr` files, which
//! the UI tests hold to what the compiler prints for the real macros.

use crate::common::run;
use std::path::PathBuf;

/// Cases whose first macro error `header --from` does not report, and why.
const NOT_THE_MACROS: &[(&str, &str)] = &[
    // The item's shape (fields, derives, `where`, a second attribute, generated names): the
    // macros check the struct they rewrite; `header --from` reads the attributes.
    (
        "fail_applied_twice.rs",
        "the CLI's own check of a second attribute (header_check.rs)",
    ),
    (
        "fail_derive_default.rs",
        "a derive the macro would conflict with",
    ),
    ("fail_where_clause.rs", "the struct's `where` clause"),
    ("fail_struct_shape.rs", "the struct's fields"),
    ("fail_pipe_enum.rs", "the pipeline item's shape"),
    ("fail_pipe_struct_fields.rs", "the pipeline item's shape"),
    (
        "fail_storage_name_collision.rs",
        "the names the macro generates",
    ),
    // `smem_plan!` is an expression: `header --from` reads items only.
    ("fail_global_plan_macro.rs", "smem_plan! expression"),
    ("fail_plan_macro.rs", "smem_plan! expression"),
    ("fail_plan_macro_all_args.rs", "smem_plan! expression"),
    // Several refused declarations: the CLI stops at the first of its passes (tiles and
    // epilogue tiles first), the compiler lists the macros' in expansion order.
    ("fail_macro_words.rs", "several refused declarations"),
    ("fail_mma_sm90_block16.rs", "several refused declarations"),
    // `#[cfg]` is the CLI's own refusal (it has no build configuration).
    ("fail_mma_pair_cfg_tile.rs", "the CLI's #[cfg] refusal"),
];

/// The first error of a `.stderr`: its message and `line:column`, when it is a macro's
/// (`error: …`; `error[E…]` is the compiler's own, from a use site or a `const` evaluation).
fn first_macro_error(stderr: &str) -> Option<(String, String)> {
    let mut lines = stderr.lines();
    let msg = lines.next()?.strip_prefix("error: ")?.to_owned();
    let at = lines.next()?.trim().strip_prefix("--> ")?;
    let pos = at.split_once(':')?.1.to_owned();
    Some((msg, pos))
}

#[test]
fn header_from_refuses_what_the_macros_refuse_with_their_message() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root.join("tests/ui"))
        .expect("tests/ui")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.starts_with("fail_") && n.ends_with(".rs")
        })
        .collect();
    cases.sort();
    let mut checked = 0;
    for case in &cases {
        let name = case.file_name().unwrap().to_str().unwrap();
        let stderr = std::fs::read_to_string(case.with_extension("stderr")).expect(".stderr");
        let Some((msg, pos)) = first_macro_error(&stderr) else {
            continue;
        };
        if NOT_THE_MACROS.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let path = case.to_str().unwrap();
        let (code, _, err) = run(&["header", "--from", path]);
        assert_eq!(code, 2, "{name}: accepted");
        let want = format!("error: {path}:{pos}: {msg}");
        assert!(
            err.lines().any(|l| l == want),
            "{name}: header --from does not say the macro's\n  {want}\nit says\n  {err}"
        );
        checked += 1;
    }
    // The macros' argument refusals among the cases (72 when this was written).
    assert!(
        checked >= 70,
        "only {checked} cases checked: tests/ui moved?"
    );
}
