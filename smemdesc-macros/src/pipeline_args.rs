//! The arguments of `#[smem_pipeline(...)]`, parsed with their spans. This file exists twice,
//! byte for byte, in `smemdesc-macros/src` and `smemdesc-cli/src` (`.ci/run` compares them): the
//! macro and `smemdesc header --from` read one grammar, and each crate is packaged with its copy.
use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::Token;

/// Every key with the values it takes.
pub(crate) const PIPELINE_KEYS: &[(&str, &str)] = &[
    (
        "storage",
        "the `#[smem_storage]` type holding the loads and barriers",
    ),
    (
        "loads",
        "(name: Tile, name: scale ScaleTile, ..): storage members one stage loads",
    ),
    ("consumers", "consumer groups per CTA (warpgroups), >= 1"),
    (
        "consumer_threads",
        "threads per consumer group (default 128)",
    ),
    (
        "consumer_arrivals",
        "arrivals per group per release (default 1: one elected thread)",
    ),
    (
        "multicast",
        "(name, ..): loads multicast to the CTAs sharing them",
    ),
    ("cluster", "(x, y) (default (1, 1))"),
    ("cta_group", "1 or 2 (sm100 pair; default 1)"),
    ("tmem", "the CTA group allocating the Tensor Memory (sm100)"),
    ("stages", "stages (default: the loads')"),
    ("full", "the storage's full-barrier array (default `full`)"),
    (
        "empty",
        "the storage's empty-barrier array, or `none` (default `empty`)",
    ),
    (
        "expect_tx",
        "bytes a stage's full barrier expects (checked)",
    ),
    ("full_arrivals", "the full barriers' init count (checked)"),
    ("empty_arrivals", "the empty barriers' init count (checked)"),
];

/// One `name: Tile` (or `name: scale ScaleTile`) of `loads`.
pub(crate) struct LoadDecl {
    /// The storage member.
    pub(crate) name: syn::Ident,
    /// A scale-factor tile (bytes only).
    pub(crate) scale: bool,
    /// Its type.
    pub(crate) ty: syn::Type,
}

impl Parse for LoadDecl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name: syn::Ident = input.parse()?;
        input.parse::<Token![:]>()?;
        let scale = input.peek(syn::Ident) && input.peek2(syn::Ident) && {
            let f = input.fork();
            f.parse::<syn::Ident>()? == "scale"
        };
        if scale {
            input.parse::<syn::Ident>()?;
        }
        Ok(LoadDecl {
            name,
            scale,
            ty: input.parse()?,
        })
    }
}

enum Val {
    Int(syn::LitInt),
    Path(syn::Path),
    Loads(syn::token::Paren, Vec<LoadDecl>),
    Names(syn::token::Paren, Vec<syn::Ident>),
    Pair(syn::token::Paren, syn::LitInt, syn::LitInt),
}

struct Arg {
    key: syn::Ident,
    val: Val,
}

impl Parse for Arg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let key: syn::Ident = input.parse()?;
        let k = key.to_string();
        if !PIPELINE_KEYS.iter().any(|(n, _)| *n == k) {
            let list: Vec<&str> = PIPELINE_KEYS.iter().map(|(n, _)| *n).collect();
            return Err(syn::Error::new(
                key.span(),
                format!("unknown key `{k}`; accepted: {}", list.join(", ")),
            ));
        }
        input.parse::<Token![=]>()?;
        let val = match k.as_str() {
            "storage" | "full" | "empty" => Val::Path(input.parse()?),
            "loads" => {
                let c;
                let p = syn::parenthesized!(c in input);
                let l = Punctuated::<LoadDecl, Token![,]>::parse_terminated(&c)?;
                Val::Loads(p, l.into_iter().collect())
            }
            "multicast" => {
                let c;
                let p = syn::parenthesized!(c in input);
                let l = Punctuated::<syn::Ident, Token![,]>::parse_terminated(&c)?;
                Val::Names(p, l.into_iter().collect())
            }
            "cluster" => {
                let c;
                let p = syn::parenthesized!(c in input);
                let x: syn::LitInt = c.parse()?;
                c.parse::<Token![,]>()?;
                let y: syn::LitInt = c.parse()?;
                Val::Pair(p, x, y)
            }
            _ => Val::Int(input.parse()?),
        };
        Ok(Arg { key, val })
    }
}

fn int(l: &syn::LitInt) -> syn::Result<u32> {
    l.base10_parse::<u32>()
        .map_err(|_| syn::Error::new(l.span(), "expected an integer that fits u32"))
}

/// A number with its literal.
pub(crate) type Num = (u32, syn::LitInt);

/// Every key's value, the required ones checked and the multicast names resolved.
pub(crate) struct PipelineArgs {
    pub(crate) storage: syn::Path,
    pub(crate) lparen: syn::token::Paren,
    pub(crate) loads: Vec<LoadDecl>,
    pub(crate) cons_lit: syn::LitInt,
    pub(crate) threads_v: u32,
    pub(crate) arrivals_v: u32,
    /// Index of each multicast load, with the span of its name in `multicast`.
    pub(crate) mc_idx: Vec<(usize, Span)>,
    pub(crate) cluster: Option<(syn::token::Paren, u32, u32)>,
    pub(crate) cta_group: Option<Num>,
    pub(crate) tmem: Option<Num>,
    pub(crate) stages: Option<Num>,
    pub(crate) full: Option<syn::Path>,
    pub(crate) empty: Option<syn::Path>,
    pub(crate) expect_tx: Option<Num>,
    pub(crate) full_arr: Option<Num>,
    pub(crate) empty_arr: Option<Num>,
}

/// Parses the attribute's arguments; `site` is where a missing key is reported.
pub(crate) fn parse_args(attr: TokenStream, site: Span) -> syn::Result<PipelineArgs> {
    let args = Punctuated::<Arg, Token![,]>::parse_terminated.parse2(attr)?;
    let mut seen: Vec<String> = Vec::new();
    let (mut storage, mut loads, mut consumers) = (None, None, None);
    let (mut threads, mut arrivals, mut multicast, mut cluster) = (None, None, None, None);
    let (mut cta_group, mut tmem, mut stages, mut full, mut empty) = (None, None, None, None, None);
    let (mut expect_tx, mut full_arr, mut empty_arr) = (None, None, None);
    for a in args {
        let k = a.key.to_string();
        if seen.contains(&k) {
            return Err(syn::Error::new(
                a.key.span(),
                format!("duplicate key `{k}`"),
            ));
        }
        seen.push(k.clone());
        let kind_err = |what: &str| syn::Error::new(a.key.span(), format!("`{k}` takes {what}"));
        match (k.as_str(), a.val) {
            ("storage", Val::Path(p)) => storage = Some(p),
            ("full", Val::Path(p)) => full = Some(p),
            ("empty", Val::Path(p)) => empty = Some(p),
            ("loads", Val::Loads(p, l)) => loads = Some((p, l)),
            ("multicast", Val::Names(p, l)) => multicast = Some((p, l)),
            ("cluster", Val::Pair(p, x, y)) => cluster = Some((p, int(&x)?, int(&y)?)),
            ("consumers", Val::Int(l)) => consumers = Some((int(&l)?, l)),
            ("consumer_threads", Val::Int(l)) => threads = Some((int(&l)?, l)),
            ("consumer_arrivals", Val::Int(l)) => arrivals = Some((int(&l)?, l)),
            ("cta_group", Val::Int(l)) => cta_group = Some((int(&l)?, l)),
            ("tmem", Val::Int(l)) => tmem = Some((int(&l)?, l)),
            ("stages", Val::Int(l)) => stages = Some((int(&l)?, l)),
            ("expect_tx", Val::Int(l)) => expect_tx = Some((int(&l)?, l)),
            ("full_arrivals", Val::Int(l)) => full_arr = Some((int(&l)?, l)),
            ("empty_arrivals", Val::Int(l)) => empty_arr = Some((int(&l)?, l)),
            _ => return Err(kind_err("another kind of value (see the key table)")),
        }
    }
    let storage = storage.ok_or_else(|| {
        syn::Error::new(
            site,
            "#[smem_pipeline] needs `storage = StorageType` (a #[smem_storage] struct)",
        )
    })?;
    let (lparen, loads) = loads.ok_or_else(|| syn::Error::new(site, "#[smem_pipeline] needs `loads = (name: Tile, ..)`: the storage members one stage loads"))?;
    let (_, cons_lit) = consumers.ok_or_else(|| {
        syn::Error::new(
            site,
            "#[smem_pipeline] needs `consumers = N`: the consumer groups (warpgroups) per CTA",
        )
    })?;
    if loads.is_empty() {
        return Err(syn::Error::new(
            lparen.span.join(),
            "a stage loads nothing; declare its tiles with `loads = (name: Tile, ..)`",
        ));
    }
    if loads.len() > smemdesc_core::pipeline::MAX_LOADS {
        return Err(syn::Error::new(
            loads[smemdesc_core::pipeline::MAX_LOADS].name.span(),
            format!(
                "more than {} loads per stage",
                smemdesc_core::pipeline::MAX_LOADS
            ),
        ));
    }
    for (i, l) in loads.iter().enumerate() {
        if loads[..i].iter().any(|m| m.name == l.name) {
            return Err(syn::Error::new(
                l.name.span(),
                format!("load `{}` declared twice", l.name),
            ));
        }
    }
    let mc_idx: Vec<(usize, Span)> = match &multicast {
        None => Vec::new(),
        Some((_, names)) => names
            .iter()
            .map(|n| match loads.iter().position(|l| l.name == *n) {
                Some(i) => Ok((i, n.span())),
                None => Err(syn::Error::new(
                    n.span(),
                    format!("`{n}` is not one of the loads"),
                )),
            })
            .collect::<syn::Result<_>>()?,
    };
    let threads_v = threads.as_ref().map_or(128, |t| t.0);
    let arrivals_v = arrivals.as_ref().map_or(1, |t| t.0);
    if arrivals_v == 0 || threads_v == 0 || threads_v % arrivals_v != 0 {
        let l = arrivals
            .as_ref()
            .map(|a| a.1.span())
            .or(threads.as_ref().map(|t| t.1.span()))
            .unwrap_or(site);
        return Err(syn::Error::new(l, format!("consumer_arrivals = {arrivals_v} does not divide consumer_threads = {threads_v}: every arriving thread must be one of an even stride; legal: a divisor of {threads_v}")));
    }
    Ok(PipelineArgs {
        storage,
        lparen,
        loads,
        cons_lit,
        threads_v,
        arrivals_v,
        mc_idx,
        cluster,
        cta_group,
        tmem,
        stages,
        full,
        empty,
        expect_tx,
        full_arr,
        empty_arr,
    })
}
