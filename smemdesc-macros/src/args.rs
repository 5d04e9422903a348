//! Parsing `key = value, ...` into a [`Decl`]: token-level, spans kept for every value, every
//! problem collected (never the first only), never a panic.
//!
//! Values are read from raw token trees rather than through a `syn` grammar because the swizzle
//! spellings `128B`, `32B`, `128B_base32B` are integer literals with a suffix, and because an
//! error in one argument must not hide the errors in the others.

use proc_macro2::{Delimiter, Group, Ident, Literal, Span, TokenStream, TokenTree};
use smemdesc_core::{Arch, ElementType, Major, MmaKind, MmaShape, Operand, Order, SwizzleMode};

/// Every accepted key with the values it takes (for messages and the README table): the core's
/// table, which the CLI's `header --from` uses too.
pub(crate) const KEYS: &[(&str, &str)] = smemdesc_core::TILE_KEYS;

/// Keys that must be given.
const REQUIRED: &[&str] = &["arch", "operand", "dtype", "tile", "major"];

fn key_list(keys: &[(&str, &str)]) -> String {
    keys.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
}

fn accepted(key: &str) -> &'static str {
    KEYS.iter()
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
    fn error(&self, msg: impl std::fmt::Display) -> syn::Error {
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

    fn describe(&self) -> String {
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
#[derive(Clone, Copy)]
pub(crate) struct Sp<T> {
    pub value: T,
    pub span: Span,
}

/// The `mma` argument with the spans of its parts (all the same for the `m64n256k16` form).
#[derive(Clone, Copy)]
pub(crate) struct MmaArg {
    pub shape: MmaShape,
    pub all: Span,
    pub m: Span,
    pub n: Span,
    pub k: Span,
}

/// A `(a, b)` pair argument with the span of each part and of the whole.
#[derive(Clone, Copy)]
pub(crate) struct Pair {
    pub a: Sp<u32>,
    pub b: Sp<u32>,
    pub all: Span,
}

/// A parsed declaration: the arguments the user gave, each with its span.
pub(crate) struct Decl {
    pub arch: Sp<Arch>,
    pub operand: Sp<Operand>,
    pub dtype: Sp<ElementType>,
    pub tile: Pair,
    pub major: Sp<Major>,
    /// `Some(None)` for an explicit `swizzle = auto`.
    pub swizzle: Option<Sp<Option<SwizzleMode>>>,
    pub order: Option<Sp<Order>>,
    pub mma: Option<MmaArg>,
    pub kind: Option<Sp<MmaKind>>,
    pub stages: Option<Sp<u32>>,
    pub tma_box: Option<Pair>,
    pub cta_group: Option<Sp<u32>>,
    /// `global_dims = (…)`: the global tensor's dims, `None` entries given at run time.
    pub global_dims: Option<GlobalList>,
    /// `global_strides = (…)`: its byte strides of dims 1.., `None` entries given at run time.
    pub global_strides: Option<GlobalList>,
}

/// A tuple of `u64` values or `_` (a run-time value), with the span of each entry and of the whole.
pub(crate) struct GlobalList {
    pub items: Vec<Sp<Option<u64>>>,
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

/// Parses the macro's arguments. `site` is where errors about the whole declaration (a missing key)
/// point.
pub(crate) fn parse(input: TokenStream, site: Span) -> Result<Decl, syn::Error> {
    let mut errs = Errors::default();
    let given = collect(input, KEYS, REQUIRED, site, &mut errs);
    let get = |k: &str| given.iter().find(|(n, _, _)| n == k).map(|(_, _, v)| v);

    let arch = get("arch").and_then(|v| named(v, "arch", Arch::from_name, &mut errs));
    let operand = get("operand").and_then(|v| named(v, "operand", Operand::from_name, &mut errs));
    let dtype = get("dtype").and_then(|v| named(v, "dtype", ElementType::from_name, &mut errs));
    let tile = get("tile").and_then(|v| pair(v, "tile", "(MN, K)", &mut errs));
    let major = get("major").and_then(|v| named(v, "major", Major::from_name, &mut errs));
    let swizzle = get("swizzle").and_then(|v| {
        if v.word().is_some_and(|w| w == "auto") {
            return Some(Sp {
                value: None,
                span: v.span(),
            });
        }
        named(v, "swizzle", SwizzleMode::from_name, &mut errs).map(|s| Sp {
            value: Some(s.value),
            span: s.span,
        })
    });
    let order = get("order").and_then(|v| named(v, "order", Order::from_name, &mut errs));
    let kind = get("kind").and_then(|v| named(v, "kind", MmaKind::from_name, &mut errs));
    let stages = get("stages").and_then(|v| int(v, "stages", &mut errs));
    let tma_box = get("tma_box").and_then(|v| pair(v, "tma_box", "(rows, inner)", &mut errs));
    let cta_group = get("cta_group").and_then(|v| int(v, "cta_group", &mut errs));
    let mma =
        get("mma").and_then(|v| mma(v, dtype.map(|d| d.value), kind.map(|k| k.value), &mut errs));
    let global_dims = get("global_dims").and_then(|v| global_list(v, "global_dims", &mut errs));
    let global_strides =
        get("global_strides").and_then(|v| global_list(v, "global_strides", &mut errs));
    if let (Some(s), None) = (&global_strides, &global_dims) {
        errs.push(syn::Error::new(
            s.all,
            "`global_strides` needs `global_dims` (the strides are those of its dims 1..): `global_dims = (dim0, dim1, ...)`",
        ));
    }

    if let Some(e) = errs.0 {
        return Err(e);
    }
    match (arch, operand, dtype, tile, major) {
        (Some(arch), Some(operand), Some(dtype), Some(tile), Some(major)) => Ok(Decl {
            arch,
            operand,
            dtype,
            tile,
            major,
            swizzle,
            order,
            mma,
            kind,
            stages,
            tma_box,
            cta_group,
            global_dims,
            global_strides,
        }),
        // Unreachable: a missing or unparsable required argument pushed an error above.
        _ => Err(syn::Error::new(site, "incomplete declaration")),
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
                        crate::keyed::accepted_in(keys, &name)
                    ),
                ));
                continue;
            }
            None => {
                errs.push(syn::Error::new(
                    key.span(),
                    format!(
                        "`{name}` needs a value: `{name} = {}`",
                        crate::keyed::accepted_in(keys, &name)
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
            missing.push(format!("`{k} = {}`", crate::keyed::accepted_in(keys, k)));
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

/// `(a, b, ...)` (or a single value) of `u64` integers or `_`.
fn global_list(v: &Value, key: &str, errs: &mut Errors) -> Option<GlobalList> {
    let one = |item: &Value, errs: &mut Errors| -> Option<Sp<Option<u64>>> {
        let found = match item {
            Value::Ident(i) if i == "_" => {
                return Some(Sp {
                    value: None,
                    span: i.span(),
                })
            }
            Value::Int(l) if matches!(l.suffix(), "" | "u64" | "usize") => {
                match l.base10_parse::<u64>() {
                    Ok(value) => {
                        return Some(Sp {
                            value: Some(value),
                            span: l.span(),
                        })
                    }
                    Err(_) => format!("`{l}`, which does not fit in u64"),
                }
            }
            other => other.describe(),
        };
        errs.push(item.error(format!(
            "`{key}` takes integers or `_`, found {found}; accepted: {}",
            accepted(key)
        )));
        None
    };
    let (items, all): (Vec<&Value>, Span) = match v {
        Value::Tuple(g, items) => (items.iter().collect(), g.span()),
        other => (vec![other], other.span()),
    };
    let parsed: Vec<Option<Sp<Option<u64>>>> = items.iter().map(|i| one(i, errs)).collect();
    if items.is_empty() {
        errs.push(v.error(format!("`{key}` is empty; accepted: {}", accepted(key))));
        return None;
    }
    Some(GlobalList {
        items: parsed.into_iter().collect::<Option<Vec<_>>>()?,
        all,
    })
}

/// `mma = m64n256k16`, `mma = (M, N)` (K = 32 bytes of `dtype`) or `mma = (M, N, K)`.
fn mma(
    v: &Value,
    dtype: Option<ElementType>,
    kind: Option<MmaKind>,
    errs: &mut Errors,
) -> Option<MmaArg> {
    let bad = |errs: &mut Errors| {
        errs.push(v.error(format!(
            "`mma` takes an instruction shape, found {}; accepted: {}",
            v.describe(),
            accepted("mma")
        )));
        None
    };
    match v {
        Value::Ident(_) | Value::Str(_) => {
            let word = v.word().unwrap_or_default();
            match MmaShape::parse(&word) {
                Some(shape) => Some(MmaArg {
                    shape,
                    all: v.span(),
                    m: v.span(),
                    n: v.span(),
                    k: v.span(),
                }),
                None => bad(errs),
            }
        }
        Value::Tuple(g, items) if items.len() == 2 || items.len() == 3 => {
            let parts: Vec<Option<Sp<u32>>> = items.iter().map(|i| int(i, "mma", errs)).collect();
            let m = parts[0]?;
            let n = parts[1]?;
            let (k, k_span) = match parts.get(2) {
                Some(k) => {
                    let k = (*k)?;
                    (k.value, k.span)
                }
                // K is implied: one instruction reads 32 bytes of K in the kind's SMEM form
                // (64 for packed fp4).
                None => {
                    let d = dtype?;
                    let kind = kind.unwrap_or(MmaKind::of(d));
                    (d.smem_form(kind).values_in(d, 32), g.span())
                }
            };
            Some(MmaArg {
                shape: MmaShape::new(m.value, n.value, k),
                all: g.span(),
                m: m.span,
                n: n.span,
                k: k_span,
            })
        }
        _ => bad(errs),
    }
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

#[cfg(test)]
mod tests {
    use super::KEYS;
    use smemdesc_core::MmaKind;

    /// The `kind` line of the key table is the core's one list of kinds, not a copy that can
    /// drift (it must stay a `const` literal for the table).
    #[test]
    fn kind_values_are_mma_kind_all() {
        let listed = KEYS.iter().find(|(k, _)| *k == "kind").map(|(_, v)| *v);
        let all: Vec<&str> = MmaKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(listed, Some(all.join(" | ").as_str()));
    }
}
