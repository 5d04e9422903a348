//! `#[smem_tile(...)]` and `smem_plan!`: `key = value, ...` into a [`Decl`] (every value with
//! its span, every problem collected), the core's [`TileDecl`] it spells ([`core_decl`]) and a
//! core error spanned on the argument at fault ([`core_error`]).

use crate::value::{accepted, collect, int, named, pair, Errors, Value};
pub use crate::value::{Pair, Sp};
use proc_macro2::Span;
use proc_macro2::TokenStream;
use smemdesc_core::{
    Arch, Argument, ElementType, Error, Major, MmaKind, MmaShape, Operand, Order, SwizzleMode,
    TileDecl,
};

/// Every accepted key with the values it takes (for messages and the README table): the core's
/// table. Its `kind` line is the core's one list of kinds, not a copy that can drift:
///
/// ```
/// use smemdesc_core::MmaKind;
/// use smemdesc_grammar::tile::KEYS;
///
/// let listed = KEYS.iter().find(|(k, _)| *k == "kind").map(|(_, v)| *v);
/// let all: Vec<&str> = MmaKind::ALL.iter().map(|k| k.name()).collect();
/// assert_eq!(listed, Some(all.join(" | ").as_str()));
/// assert!(listed.unwrap().contains("f16"));
/// ```
pub const KEYS: &[(&str, &str)] = smemdesc_core::TILE_KEYS;

/// Keys that must be given.
const REQUIRED: &[&str] = &["arch", "operand", "dtype", "tile", "major"];

/// The `mma` argument with the spans of its parts (all the same for the `m64n256k16` form).
///
/// ```
/// use smemdesc_grammar::tile::parse;
///
/// let d = parse(
///     "arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = (64, 256)".parse().unwrap(),
///     proc_macro2::Span::call_site(),
/// )
/// .unwrap();
/// assert_eq!(d.mma.unwrap().shape.k, 16); // implied: 32 bytes of bf16
/// ```
#[derive(Clone, Copy)]
pub struct MmaArg {
    /// The instruction shape (K implied for `(M, N)`).
    pub shape: MmaShape,
    /// The span of the whole value.
    pub all: Span,
    /// The span of M.
    pub m: Span,
    /// The span of N.
    pub n: Span,
    /// The span of K (the whole tuple where it is implied).
    pub k: Span,
}

/// A parsed declaration: the arguments the user gave, each with its span.
///
/// ```
/// use smemdesc_core::{Arch, SwizzleMode};
/// use smemdesc_grammar::tile::parse;
///
/// let d = parse(
///     "arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, swizzle = 128B".parse().unwrap(),
///     proc_macro2::Span::call_site(),
/// )
/// .unwrap();
/// assert_eq!(d.arch.value, Arch::Sm90);
/// assert_eq!(d.swizzle.map(|s| s.value), Some(Some(SwizzleMode::B128)));
/// assert!(d.order.is_none() && d.global_dims.is_none());
/// ```
pub struct Decl {
    /// `arch = …`.
    pub arch: Sp<Arch>,
    /// `operand = A | B`.
    pub operand: Sp<Operand>,
    /// `dtype = …`.
    pub dtype: Sp<ElementType>,
    /// `tile = (MN, K)`.
    pub tile: Pair,
    /// `major = K | MN`.
    pub major: Sp<Major>,
    /// `Some(None)` for an explicit `swizzle = auto`.
    pub swizzle: Option<Sp<Option<SwizzleMode>>>,
    /// `order = mn_first | k_first`.
    pub order: Option<Sp<Order>>,
    /// `mma = …`.
    pub mma: Option<MmaArg>,
    /// `kind = …`.
    pub kind: Option<Sp<MmaKind>>,
    /// `stages = N`.
    pub stages: Option<Sp<u32>>,
    /// `tma_box = (rows, inner)`.
    pub tma_box: Option<Pair>,
    /// `cta_group = 1 | 2`.
    pub cta_group: Option<Sp<u32>>,
    /// `global_dims = (…)`: the global tensor's dims, `None` entries given at run time.
    pub global_dims: Option<GlobalList>,
    /// `global_strides = (…)`: its byte strides of dims 1.., `None` entries given at run time.
    pub global_strides: Option<GlobalList>,
}

/// A tuple of `u64` values or `_` (a run-time value), with the span of each entry and of the whole.
///
/// ```
/// use smemdesc_grammar::tile::parse;
///
/// let d = parse(
///     "arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, global_dims = (4096, _)"
///         .parse()
///         .unwrap(),
///     proc_macro2::Span::call_site(),
/// )
/// .unwrap();
/// let dims: Vec<Option<u64>> = d.global_dims.unwrap().items.iter().map(|i| i.value).collect();
/// assert_eq!(dims, [Some(4096), None]);
/// ```
pub struct GlobalList {
    /// Each entry: `None` for `_`.
    pub items: Vec<Sp<Option<u64>>>,
    /// The span of the whole tuple.
    pub all: Span,
}

/// Parses the macro's arguments. `site` is where errors about the whole declaration (a missing key)
/// point. Every problem is collected into the one error (`syn::Error::combine`).
///
/// ```
/// use smemdesc_grammar::tile::parse;
///
/// let e = parse("arch = sm90, operand = C".parse().unwrap(), proc_macro2::Span::call_site())
///     .err()
///     .unwrap();
/// assert!(e.to_string().starts_with("missing required argument(s): `dtype = "));
/// let all: Vec<String> = e.into_iter().map(|e| e.to_string()).collect();
/// assert_eq!(all[1], "unknown operand `C`; accepted: A | B");
/// ```
pub fn parse(input: TokenStream, site: Span) -> Result<Decl, syn::Error> {
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

/// The core declaration for the parsed arguments (only what was given; the core fills defaults).
///
/// ```
/// use smemdesc_grammar::tile::{core_decl, parse};
///
/// let d = parse(
///     "arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4".parse().unwrap(),
///     proc_macro2::Span::call_site(),
/// )
/// .unwrap();
/// let plan = core_decl(&d).build().unwrap();
/// assert_eq!(plan.decl.stages, 4);
/// ```
pub fn core_decl(d: &Decl) -> TileDecl {
    let mut t = TileDecl::new(
        d.arch.value,
        d.operand.value,
        d.dtype.value,
        d.major.value,
        d.tile.a.value,
        d.tile.b.value,
    );
    if let Some(Some(s)) = d.swizzle.map(|s| s.value) {
        t = t.swizzle(s);
    }
    if let Some(o) = d.order {
        t = t.order(o.value);
    }
    if let Some(m) = d.mma {
        t = t.mma(m.shape);
    }
    if let Some(k) = d.kind {
        t = t.kind(k.value);
    }
    if let Some(s) = d.stages {
        t = t.stages(s.value);
    }
    if let Some(b) = d.tma_box {
        t = t.tma_box(b.a.value, b.b.value);
    }
    if let Some(c) = d.cta_group {
        t = t.cta_group(c.value);
    }
    t
}

/// The compile error for a core error: the core's message, spanned on the value at fault (a
/// defaulted key's refusal says that the default does not fit).
///
/// ```
/// use proc_macro2::Span;
/// use smemdesc_grammar::tile::{core_decl, core_error, parse};
///
/// let d = parse(
///     "arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 0".parse().unwrap(),
///     Span::call_site(),
/// )
/// .unwrap();
/// let e = core_decl(&d).build().err().unwrap();
/// assert!(core_error(&d, &e, Span::call_site()).to_string().contains("stages"));
/// ```
pub fn core_error(d: &Decl, e: &Error, site: Span) -> syn::Error {
    let mut note = None;
    let mut defaulted = |key: &str, fallback: Span| {
        note = Some(format!(
            " (`{key}` was not given: its default does not fit; declare `{key} = ...` explicitly)"
        ));
        fallback
    };
    let span = match e.argument() {
        Argument::Arch => d.arch.span,
        Argument::Operand => d.operand.span,
        Argument::Dtype => d.dtype.span,
        Argument::Tile => d.tile.all,
        Argument::TileMn => d.tile.a.span,
        Argument::TileK => d.tile.b.span,
        Argument::Major => d.major.span,
        Argument::Swizzle => match d.swizzle {
            Some(s) => s.span,
            None => defaulted("swizzle", d.tile.all),
        },
        Argument::Order => match d.order {
            Some(o) => o.span,
            None => defaulted("order", d.major.span),
        },
        Argument::Mma => match d.mma {
            Some(m) => match e {
                Error::IllegalMmaM { .. } => m.m,
                Error::IllegalMmaN { .. } => m.n,
                Error::MmaKNot32Bytes { .. } | Error::IllegalMmaK { .. } => m.k,
                _ => m.all,
            },
            None => defaulted("mma", d.tile.a.span),
        },
        Argument::Kind => match d.kind {
            Some(k) => k.span,
            None => d.dtype.span,
        },
        Argument::Stages => match d.stages {
            Some(s) => s.span,
            None => d.tile.all,
        },
        Argument::TmaBox => match d.tma_box {
            Some(b) => match e {
                Error::TmaBoxWidth { .. } | Error::TmaPaddedBoxInner { .. } => b.b.span,
                Error::TmaBoxRowsOver256 { .. } | Error::TmaBoxRowsIllegal { .. } => b.a.span,
                _ => b.all,
            },
            None => defaulted("tma_box", d.tile.all),
        },
        Argument::CtaGroup => match d.cta_group {
            Some(c) => c.span,
            None => d.arch.span,
        },
        Argument::Use => site,
    };
    syn::Error::new(span, format!("{e}{}", note.unwrap_or_default()))
}
