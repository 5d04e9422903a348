//! For `smemdesc header --from` ([`crate::header_src`]): what the file must satisfy before its
//! declarations are evaluated, where the macros (or the compiler) would refuse it or where a
//! source file alone cannot decide: smemdesc attributes named by a path other than
//! `smem_tile`/`smemdesc::smem_tile` (and the same for the other attributes), two smemdesc
//! attributes on one item, and `#[cfg]`/`#[cfg_attr]` on anything a header is computed from
//! (`header --from` has no build configuration to evaluate them with, so it refuses them rather
//! than count or drop a member). Also the `use … as …` renames a storage member may name a tile
//! by, and the text of the source path as the header's comments show it.

use super::header_loc::Src;
use crate::CliError;
use quote::ToTokens;

/// The attribute macros of smemdesc that `header --from` reads or skips.
const ATTRS: [&str; 6] = [
    "smem_tile",
    "smem_mma",
    "smem_storage",
    "smem_scale_tile",
    "smem_epilogue_tile",
    "smem_fragment_tile",
];

/// The smemdesc attribute `a` is (`None`: another attribute), or an error when its path names it
/// through something other than `name`, `smemdesc::name` or `::smemdesc::name`.
fn smemdesc_attr(src: &Src, a: &syn::Attribute) -> Result<Option<&'static str>, CliError> {
    let segs: Vec<String> = a
        .path()
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let Some(name) = ATTRS.iter().find(|n| segs.last().is_some_and(|l| l == *n)) else {
        return Ok(None);
    };
    match segs.as_slice() {
        [_] => Ok(Some(name)),
        [c, _] if c == "smemdesc" => Ok(Some(name)),
        _ => Err(src.err(
            a.pound_token.span,
            format!(
                "`#[{}]` is not smemdesc's attribute as far as `header --from` can tell; write \
                 `#[{name}]` (imported from smemdesc) or `#[smemdesc::{name}]`",
                a.path().to_token_stream().to_string().replace(' ', "")
            ),
        )),
    }
}

/// The first `#[cfg]` or `#[cfg_attr]` of `attrs`.
fn cfg_of(attrs: &[syn::Attribute]) -> Option<&syn::Attribute> {
    attrs
        .iter()
        .find(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"))
}

/// The error for `#[cfg]` on `what`.
fn cfg_error(src: &Src, c: &syn::Attribute, what: &str) -> CliError {
    src.err(
        c.pound_token.span,
        format!(
            "`#[cfg]` on {what}: `header --from` reads the source without a build configuration, \
             so it cannot tell whether this exists; remove the #[cfg] or generate the header from \
             a file without it"
        ),
    )
}

/// The smemdesc attribute of an item (at most one), checked: its path, no second one, and no
/// `#[cfg]` on an item that has one. `what` names the item in messages.
pub(crate) fn item_attr<'a>(
    src: &Src,
    attrs: &'a [syn::Attribute],
    what: &str,
) -> Result<Option<(&'static str, &'a syn::Attribute)>, CliError> {
    let mut found: Option<(&'static str, &syn::Attribute)> = None;
    for a in attrs {
        let Some(name) = smemdesc_attr(src, a)? else {
            continue;
        };
        if let Some((first, _)) = found {
            return Err(src.err(
                a.pound_token.span,
                format!(
                    "{what} has a second smemdesc attribute `#[{name}]` after `#[{first}]`; an \
                     item takes one (the macros refuse this too)"
                ),
            ));
        }
        found = Some((name, a));
    }
    if found.is_some() {
        if let Some(c) = cfg_of(attrs) {
            return Err(cfg_error(src, c, what));
        }
    }
    Ok(found)
}

/// Refuses `#[cfg]` on a storage member, or on a module or `const` item a header uses.
pub(crate) fn no_cfg(src: &Src, attrs: &[syn::Attribute], what: &str) -> Result<(), CliError> {
    match cfg_of(attrs) {
        Some(c) => Err(cfg_error(src, c, what)),
        None => Ok(()),
    }
}

/// `use` renames of a module: `(alias, path)` for every `use a::b::C as D;` (in groups too).
pub(crate) fn renames(items: &[syn::Item]) -> Vec<(String, syn::Path)> {
    fn walk(t: &syn::UseTree, prefix: &mut Vec<syn::Ident>, out: &mut Vec<(String, syn::Path)>) {
        match t {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.clone());
                walk(&p.tree, prefix, out);
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                let mut path = syn::Path {
                    leading_colon: None,
                    segments: Default::default(),
                };
                for i in prefix.iter().chain([&r.ident]) {
                    path.segments.push(syn::PathSegment::from(i.clone()));
                }
                out.push((r.rename.to_string(), path));
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    walk(t, prefix, out);
                }
            }
            syn::UseTree::Name(_) | syn::UseTree::Glob(_) => {}
        }
    }
    let mut out = Vec::new();
    for it in items {
        if let syn::Item::Use(u) = it {
            walk(&u.tree, &mut Vec::new(), &mut out);
        }
    }
    out
}

/// The source path as the header's comments show it: as given when that is harmless, else
/// quoted and escaped like a Rust string (`\` doubled, newlines as `\n`), so that no comment
/// line ends in a backslash (a line splice in C) or spans lines, and with `*/` broken up so that
/// it cannot end a block comment.
pub(crate) fn comment_path(path: &str) -> String {
    let plain = !path.contains("*/")
        && !path
            .chars()
            .any(|c| c.is_control() || c == '\\' || c == '"');
    if plain {
        path.to_owned()
    } else {
        format!("{path:?}").replace("*/", "*\\/")
    }
}

/// How deep brackets may nest, and how many unary operators may follow each other, in a file
/// `header --from` reads: the parser and the evaluator recurse once per level, so deeper input is
/// refused here, before parsing, instead of overflowing the stack.
pub(crate) const MAX_NESTING: usize = 128;

/// Refuses a file whose `( [ {` groups nest deeper than [`MAX_NESTING`] or that holds a run of
/// more than [`MAX_NESTING`] operator characters (`- - - … 1`), walking the tokens iteratively.
/// Text that does not lex is left to the parser's own error.
pub(crate) fn nesting(src: &Src, text: &str) -> Result<(), CliError> {
    let Ok(ts) = text.parse::<proc_macro2::TokenStream>() else {
        return Ok(());
    };
    let mut stack = vec![ts.into_iter()];
    let mut run = 0usize;
    while let Some(top) = stack.last_mut() {
        let Some(t) = top.next() else {
            stack.pop();
            continue;
        };
        match t {
            proc_macro2::TokenTree::Group(g) => {
                run = 0;
                if stack.len() >= MAX_NESTING {
                    return Err(src.err(
                        g.span_open(),
                        format!(
                            "brackets nest deeper than {MAX_NESTING} levels here; `header --from` \
                             reads at most {MAX_NESTING}"
                        ),
                    ));
                }
                stack.push(g.stream().into_iter());
            }
            proc_macro2::TokenTree::Punct(p) => {
                run += 1;
                if run > MAX_NESTING {
                    return Err(src.err(
                        p.span(),
                        format!(
                            "more than {MAX_NESTING} operators in a row here; `header --from` \
                             reads at most {MAX_NESTING}"
                        ),
                    ));
                }
            }
            _ => run = 0,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::comment_path;

    #[test]
    fn comment_paths_never_end_in_a_backslash_or_span_lines() {
        for p in ["dir\\", "a\nb.rs", "x*/y.rs", "c:\\k.rs\r"] {
            let c = comment_path(p);
            assert!(
                !c.ends_with('\\') && !c.contains('\n') && !c.contains('\r'),
                "{c}"
            );
            assert!(!c.contains("*/"), "{c}");
        }
        assert_eq!(comment_path("examples/k.rs"), "examples/k.rs");
        assert_eq!(comment_path("a\\"), "\"a\\\\\"");
    }
}
