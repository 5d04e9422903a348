//! Word-valued keys of the attribute macros whose keys live in a `(key, accepted values)` table
//! (`#[smem_fragment_tile]`, `#[smem_epilogue_tile]`): one parser and one message for both.

use crate::args::{Errors, Sp, Value};

/// The accepted values of `key` in a macro's key table (`(key, values)` pairs), or "".
pub(crate) fn accepted_in(keys: &[(&str, &'static str)], key: &str) -> &'static str {
    keys.iter().find(|(k, _)| *k == key).map_or("", |(_, v)| *v)
}

/// A word value of `key` parsed by `parse`, or an error on the value naming what `keys` accepts.
pub(crate) fn word_in<T>(
    keys: &[(&str, &'static str)],
    v: &Value,
    key: &str,
    parse: impl Fn(&str) -> Option<T>,
    errs: &mut Errors,
) -> Option<Sp<T>> {
    let found = v.word();
    match found.as_deref().and_then(&parse) {
        Some(value) => Some(Sp {
            value,
            span: v.span(),
        }),
        None => {
            errs.push(syn::Error::new(
                v.span(),
                format!(
                    "unknown {key} `{}`; accepted: {}",
                    found.unwrap_or_default(),
                    accepted_in(keys, key)
                ),
            ));
            None
        }
    }
}
