//! The token-level reading of `key = value, ...` that every keyed attribute shares: raw values
//! with their spans, every problem collected (never the first only), never a panic.
//!
//! Values are read from raw token trees rather than through a `syn` grammar because the swizzle
//! spellings `128B`, `32B`, `128B_base32B` are integer literals with a suffix, and because an
//! error in one argument must not hide the errors in the others.

use proc_macro2::{Delimiter, Group, Ident, Literal, Span, TokenStream, TokenTree};

fn key_list(keys: &[(&str, &str)]) -> String {
    keys.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
}

/// The accepted values of `key` in the tile's and the scale tile's tables (for the shared
/// parsers' messages).
pub(crate) fn accepted(key: &str) -> &'static str {
    crate::tile::KEYS
        .iter()
        .chain(crate::scale::SCALE_KEYS)
        .find(|(k, _)| *k == key)
        .map(|(_, v)| *v)
        .unwrap_or("")
}

/// One raw value with its tokens.
pub(crate) enum Value {
    Ident(Ident),
    Int(syn::LitInt),
    Str(syn::LitStr),
    Tuple(Group, Vec<Value>),
    /// Anything else (or nothing): `eq` is the `=` span, used when `tokens` is empty.
    Other(TokenStream, Span),
}

impl Value {
    pub(crate) fn error(&self, msg: impl std::fmt::Display) -> syn::Error {
        match self {
            Value::Ident(i) => syn::Error::new(i.span(), msg),
            Value::Int(l) => syn::Error::new(l.span(), msg),
            Value::Str(s) => syn::Error::new(s.span(), msg),
            Value::Tuple(g, _) => syn::Error::new(g.span(), msg),
            Value::Other(ts, eq) if ts.is_empty() => syn::Error::new(*eq, msg),
            Value::Other(ts, _) => syn::Error::new_spanned(ts, msg),
        }
    }

    pub(crate) fn span(&self) -> Span {
        match self {
            Value::Ident(i) => i.span(),
            Value::Int(l) => l.span(),
            Value::Str(s) => s.span(),
            Value::Tuple(g, _) => g.span(),
            Value::Other(ts, eq) => ts.clone().into_iter().next().map_or(*eq, |t| t.span()),
        }
    }

    pub(crate) fn describe(&self) -> String {
        match self {
            Value::Ident(i) => format!("identifier `{i}`"),
            Value::Int(l) => format!("integer `{l}`"),
            Value::Str(s) => format!("string {:?}", s.value()),
            Value::Tuple(g, _) => format!("tuple `{}`", g),
            Value::Other(ts, _) if ts.is_empty() => "nothing".to_owned(),
            Value::Other(ts, _) => format!("`{ts}`"),
        }
    }

    /// The name a word-like value spells: an identifier, a string, or an integer with a suffix
    /// (`128B`). `None` for anything else.
    pub(crate) fn word(&self) -> Option<String> {
        match self {
            Value::Ident(i) => Some(i.to_string().trim_start_matches("r#").to_owned()),
            Value::Str(s) => Some(s.value()),
            Value::Int(l) => Some(l.to_string()),
            _ => None,
        }
    }

    fn from_tokens(tokens: Vec<TokenTree>, eq: Span) -> Value {
        if tokens.len() == 1 {
            match &tokens[0] {
                TokenTree::Ident(i) => return Value::Ident(i.clone()),
                TokenTree::Literal(l) => {
                    if let Some(v) = Value::from_literal(l) {
                        return v;
                    }
                }
                TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {
                    let items = split_commas(g.stream())
                        .into_iter()
                        .map(|(seg, sep)| Value::from_tokens(seg, sep.unwrap_or(g.span_close())))
                        .collect();
                    return Value::Tuple(g.clone(), items);
                }
                TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                    // A value passed through a `macro_rules!` fragment (`$x:literal`).
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    return Value::from_tokens(inner, eq);
                }
                _ => {}
            }
        }
        Value::Other(tokens.into_iter().collect(), eq)
    }

    fn from_literal(l: &Literal) -> Option<Value> {
        match syn::Lit::new(l.clone()) {
            syn::Lit::Int(i) => Some(Value::Int(i)),
            syn::Lit::Str(s) => Some(Value::Str(s)),
            _ => None,
        }
    }
}

/// Splits a token stream at top-level commas; each segment comes with the span of the comma that
/// ends it (if any). A trailing empty segment is dropped.
fn split_commas(ts: TokenStream) -> Vec<(Vec<TokenTree>, Option<Span>)> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for tt in ts {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == ',' => {
                out.push((std::mem::take(&mut cur), Some(p.span())));
            }
            _ => cur.push(tt),
        }
    }
    if !cur.is_empty() {
        out.push((cur, None));
    }
    out
}

/// A value with the span of the tokens that gave it.
///
/// ```
/// use smemdesc_grammar::tile::parse;
///
/// let d = parse(
///     "arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4".parse().unwrap(),
///     proc_macro2::Span::call_site(),
/// )
/// .unwrap();
/// assert_eq!(d.stages.map(|s| s.value), Some(4));
/// ```
#[derive(Clone, Copy)]
pub struct Sp<T> {
    /// The value.
    pub value: T,
    /// The span of its tokens.
    pub span: Span,
}

/// A `(a, b)` pair argument with the span of each part and of the whole.
///
/// ```
/// use smemdesc_grammar::tile::parse;
///
/// let d = parse(
///     "arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K".parse().unwrap(),
///     proc_macro2::Span::call_site(),
/// )
/// .unwrap();
/// assert_eq!((d.tile.a.value, d.tile.b.value), (128, 64));
/// ```
#[derive(Clone, Copy)]
pub struct Pair {
    /// The first integer.
    pub a: Sp<u32>,
    /// The second integer.
    pub b: Sp<u32>,
    /// The span of the whole `(a, b)`.
    pub all: Span,
}

/// Collects errors; `syn::Error::combine` reports them all.
#[derive(Default)]
pub(crate) struct Errors(pub(crate) Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, e: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }
}

/// Splits `key = value, ...` into (key, key ident, value) in the order given, reporting unknown
/// keys (with a "did you mean" from `keys`), duplicates (dropped), malformed pairs and missing
/// `required` keys into `errs`. Shared by `#[smem_tile]` and `#[smem_scale_tile]`.
pub(crate) fn collect(
    input: TokenStream,
    keys: &[(&'static str, &'static str)],
    required: &[&str],
    site: Span,
    errs: &mut Errors,
) -> Vec<(String, Ident, Value)> {
    let mut given: Vec<(String, Ident, Value)> = Vec::new();
    for (seg, comma) in split_commas(input) {
        let mut it = seg.into_iter();
        let Some(first) = it.next() else {
            if let Some(c) = comma {
                errs.push(syn::Error::new(
                    c,
                    "expected `key = value` before this comma",
                ));
            }
            continue;
        };
        let key = match first {
            TokenTree::Ident(i) => i,
            other => {
                errs.push(syn::Error::new(
                    other.span(),
                    format!(
                        "expected a key (`key = value`); accepted keys: {}",
                        key_list(keys)
                    ),
                ));
                continue;
            }
        };
        let name = key.to_string();
        if !keys.iter().any(|(k, _)| *k == name) {
            let hint = closest_key(&name, keys)
                .map(|k| format!("did you mean `{k}`? "))
                .unwrap_or_default();
            errs.push(syn::Error::new(
                key.span(),
                format!(
                    "unknown key `{name}`; {hint}accepted keys: {}",
                    key_list(keys)
                ),
            ));
            continue;
        }
        let eq = match it.next() {
            Some(TokenTree::Punct(p)) if p.as_char() == '=' => p.span(),
            Some(other) => {
                errs.push(syn::Error::new(
                    other.span(),
                    format!(
                        "expected `=` after `{name}` (`{name} = {}`)",
                        accepted_in(keys, &name)
                    ),
                ));
                continue;
            }
            None => {
                errs.push(syn::Error::new(
                    key.span(),
                    format!(
                        "`{name}` needs a value: `{name} = {}`",
                        accepted_in(keys, &name)
                    ),
                ));
                continue;
            }
        };
        let value = Value::from_tokens(it.collect(), eq);
        if given.iter().any(|(k, _, _)| *k == name) {
            errs.push(syn::Error::new(
                key.span(),
                format!("duplicate key `{name}`: each key may be given once"),
            ));
            continue;
        }
        given.push((name, key, value));
    }

    let mut missing = Vec::new();
    for k in required {
        if !given.iter().any(|(n, _, _)| n == k) {
            missing.push(format!("`{k} = {}`", accepted_in(keys, k)));
        }
    }
    if !missing.is_empty() {
        errs.push(syn::Error::new(
            site,
            format!("missing required argument(s): {}", missing.join(", ")),
        ));
    }
    given
}

/// A word value looked up by `from_name`.
pub(crate) fn named<T>(
    v: &Value,
    key: &str,
    from_name: fn(&str) -> Option<T>,
    errs: &mut Errors,
) -> Option<Sp<T>> {
    // Integer spellings (`128B`) are swizzle names only.
    let word = match v {
        Value::Int(_) if key != "swizzle" => None,
        _ => v.word(),
    };
    let Some(word) = word else {
        errs.push(v.error(format!(
            "`{key}` takes a name, found {}; accepted: {}",
            v.describe(),
            accepted(key)
        )));
        return None;
    };
    match from_name(&word) {
        Some(value) => Some(Sp {
            value,
            span: v.span(),
        }),
        None => {
            errs.push(v.error(format!(
                "unknown {key} `{word}`; accepted: {}",
                accepted(key)
            )));
            None
        }
    }
}

/// A non-negative integer that fits `u32` (no suffix, or `u32`/`usize`).
pub(crate) fn int(v: &Value, key: &str, errs: &mut Errors) -> Option<Sp<u32>> {
    let found = match v {
        Value::Int(l) if matches!(l.suffix(), "" | "u32" | "usize") => {
            match l.base10_parse::<u32>() {
                Ok(value) => {
                    return Some(Sp {
                        value,
                        span: l.span(),
                    })
                }
                Err(_) => format!("`{l}`, which does not fit in u32"),
            }
        }
        other => other.describe(),
    };
    errs.push(v.error(format!(
        "`{key}` takes an integer, found {found}; accepted: {}",
        accepted(key)
    )));
    None
}

/// `(a, b)` of integers.
pub(crate) fn pair(v: &Value, key: &str, shape: &str, errs: &mut Errors) -> Option<Pair> {
    if let Value::Tuple(g, items) = v {
        if items.len() == 2 {
            let a = int(&items[0], key, errs);
            let b = int(&items[1], key, errs);
            return Some(Pair {
                a: a?,
                b: b?,
                all: g.span(),
            });
        }
    }
    errs.push(v.error(format!(
        "`{key}` takes a pair of integers `{key} = {shape}`, found {}",
        v.describe()
    )));
    None
}

/// The accepted key nearest to `name` (edit distance ≤ 2), for "did you mean".
fn closest_key(name: &str, keys: &[(&'static str, &'static str)]) -> Option<&'static str> {
    keys.iter()
        .map(|(k, _)| (*k, edit_distance(name, k)))
        .filter(|(_, d)| *d <= 2)
        .min_by_key(|(_, d)| *d)
        .map(|(k, _)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

// Word-valued keys of the attributes whose keys live in a `(key, accepted values)` table
// (`#[smem_fragment_tile]`, `#[smem_epilogue_tile]`): one parser and one message for both.

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
