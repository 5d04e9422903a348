//! The arguments of `#[smem_pipeline(...)]`, parsed with their spans: the one grammar that
//! `smemdesc-macros` expands and `smemdesc header --from` evaluates.
//!
//! What the tokens alone decide is refused here (unknown and duplicate keys, a value of the wrong
//! kind, a missing required key, loads named twice, `stages = 0`, `consumer_arrivals` that does
//! not divide `consumer_threads`, ...); what needs the tiles' numbers is the core's
//! `PipelineSpec::build`, which each caller runs on the values returned here.
//!
//! ```
//! use smemdesc_grammar::pipeline::parse_args;
//!
//! let attr = "storage = Smem, loads = (a: TileA), consumers = 1, stages = 0".parse().unwrap();
//! let e = parse_args(attr, proc_macro2::Span::call_site()).err().unwrap();
//! assert!(e.to_string().starts_with("stages = 0: a pipeline needs at least one stage"));
//! ```
use proc_macro2::{Span, TokenStream};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::Token;

/// Every key with the values it takes (for messages and the guide's table).
///
/// ```
/// use smemdesc_grammar::pipeline::PIPELINE_KEYS;
///
/// let keys: Vec<&str> = PIPELINE_KEYS.iter().map(|(k, _)| *k).collect();
/// assert_eq!(&keys[..3], ["storage", "loads", "consumers"]); // the required ones
/// ```
pub const PIPELINE_KEYS: &[(&str, &str)] = &[
    (
        "storage",
        "the `#[smem_storage]` type holding the loads and barriers",
    ),
    (
        "loads",
        "(name: Tile, name: scale ScaleTile, ..): storage members one stage loads",
    ),
    (
        "consumers",
        "consumer groups per CTA (warpgroups), >= 1; consumers x consumer_threads <= 1024",
    ),
    (
        "consumer_threads",
        "threads per consumer group, 1..=1024 (default 128)",
    ),
    (
        "consumer_arrivals",
        "arrivals per group per release, a divisor of consumer_threads (default 1: one elected thread)",
    ),
    (
        "multicast",
        "(name, ..): loads multicast to the CTAs sharing them",
    ),
    ("cluster", "(x, y) (default (1, 1))"),
    ("cta_group", "1 or 2 (sm100 pair; default 1)"),
    ("tmem", "the CTA group allocating the Tensor Memory (sm100)"),
    ("stages", "stages, >= 1 (default: the loads')"),
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
    (
        "dependent",
        "true: a programmatic dependent launch, whose loads wait for griddepcontrol.wait (default false)",
    ),
];

/// One `name: Tile` (or `name: scale ScaleTile`) of `loads`.
///
/// ```
/// use smemdesc_grammar::pipeline::LoadDecl;
///
/// let l: LoadDecl = syn::parse_str("sfa: scale ScaleA").unwrap();
/// assert!(l.scale);
/// assert_eq!(l.name, "sfa");
/// ```
pub struct LoadDecl {
    /// The storage member.
    pub name: syn::Ident,
    /// A scale-factor tile (bytes only).
    pub scale: bool,
    /// Its type.
    pub ty: syn::Type,
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
    Bool(syn::LitBool),
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
        let k = key.unraw().to_string();
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
            "dependent" => Val::Bool(input.parse()?),
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

fn int(key: &str, l: &syn::LitInt) -> syn::Result<u32> {
    l.base10_parse::<u32>().map_err(|_| {
        syn::Error::new(
            l.span(),
            format!("`{key}` takes an integer in 0..=4294967295 (u32)"),
        )
    })
}

/// `what` of a key: its row of [`PIPELINE_KEYS`].
fn takes(key: &str) -> &'static str {
    PIPELINE_KEYS
        .iter()
        .find(|(n, _)| *n == key)
        .map_or("", |(_, w)| w)
}

/// A `full` or `empty` value: one storage member's name.
fn member(key: &str, p: &syn::Path) -> syn::Result<()> {
    match p.get_ident() {
        Some(_) => Ok(()),
        None => Err(syn::Error::new_spanned(
            p,
            format!("`{key}` takes the name of a storage member: {}", takes(key)),
        )),
    }
}

/// The divisors of `n` (for `n` up to the CTA's 1024 threads), as a list.
fn divisors(n: u32) -> String {
    let d: Vec<String> = (1..=n.min(1024))
        .filter(|d| n % d == 0)
        .map(|d| d.to_string())
        .collect();
    d.join(", ")
}

/// A number with its literal (the literal's span is where a refusal of it points).
///
/// ```
/// use smemdesc_grammar::pipeline::parse_args;
///
/// let attr = "storage = S, loads = (a: A), consumers = 1, stages = 4".parse().unwrap();
/// let (n, lit) = parse_args(attr, proc_macro2::Span::call_site()).unwrap().stages.unwrap();
/// assert_eq!((n, lit.to_string()), (4, "4".to_string()));
/// ```
pub type Num = (u32, syn::LitInt);

/// Every key's value, the required ones checked and the multicast names resolved.
///
/// ```
/// use smemdesc_grammar::pipeline::parse_args;
///
/// let attr = "storage = S, loads = (a: A, b: B), consumers = 2, multicast = (b), cluster = (2, 1)";
/// let args = parse_args(attr.parse().unwrap(), proc_macro2::Span::call_site()).unwrap();
/// assert_eq!(args.mc_idx.len(), 1);
/// assert_eq!(args.mc_idx[0].0, 1); // `b`, the second load
/// assert_eq!(args.cluster.map(|c| (c.1, c.2)), Some((2, 1)));
/// ```
pub struct PipelineArgs {
    /// `storage`: the `#[smem_storage]` type.
    pub storage: syn::Path,
    /// The parenthesis of `loads` (a refusal of the loads as a whole points at it).
    pub lparen: syn::token::Paren,
    /// `loads`, in order (at least one, at most the core's `MAX_LOADS`, no name twice).
    pub loads: Vec<LoadDecl>,
    /// `consumers` as written.
    pub cons_lit: syn::LitInt,
    /// `consumer_threads`' value (128 when not given).
    pub threads_v: u32,
    /// `consumer_arrivals`' value (1 when not given).
    pub arrivals_v: u32,
    /// `consumer_threads` as written (`None`: the default).
    pub threads: Option<Num>,
    /// `consumer_arrivals` as written (`None`: the default).
    pub arrivals: Option<Num>,
    /// Index of each multicast load, with the span of its name in `multicast`.
    pub mc_idx: Vec<(usize, Span)>,
    /// `cluster = (x, y)` with its parenthesis.
    pub cluster: Option<(syn::token::Paren, u32, u32)>,
    /// `cta_group`, if given.
    pub cta_group: Option<Num>,
    /// `tmem`, if given.
    pub tmem: Option<Num>,
    /// `stages`, if given.
    pub stages: Option<Num>,
    /// `full`: the full barriers' member, if given (one identifier).
    pub full: Option<syn::Path>,
    /// `empty`: the empty barriers' member or `none`, if given (one identifier).
    pub empty: Option<syn::Path>,
    /// `expect_tx`, if given.
    pub expect_tx: Option<Num>,
    /// `full_arrivals`, if given.
    pub full_arr: Option<Num>,
    /// `empty_arrivals`, if given.
    pub empty_arr: Option<Num>,
    /// `dependent = true`: a programmatic dependent launch (its handles need the wait's proof).
    pub dependent: Option<syn::LitBool>,
}

/// Parses the attribute's arguments; `site` is where a missing key is reported. The first
/// refusal is returned, spanned on the key or value at fault.
///
/// ```
/// use smemdesc_grammar::pipeline::parse_args;
///
/// let attr = "storage = S, loads = (a: A), consumers = 1, stagez = 2".parse().unwrap();
/// let e = parse_args(attr, proc_macro2::Span::call_site()).err().unwrap();
/// assert!(e.to_string().starts_with("unknown key `stagez`; accepted: storage, loads"));
/// ```
pub fn parse_args(attr: TokenStream, site: Span) -> syn::Result<PipelineArgs> {
    let args = Punctuated::<Arg, Token![,]>::parse_terminated.parse2(attr)?;
    let mut seen: Vec<String> = Vec::new();
    let (mut storage, mut loads, mut consumers) = (None, None, None);
    let (mut threads, mut arrivals, mut multicast, mut cluster) = (None, None, None, None);
    let (mut cta_group, mut tmem, mut stages, mut full, mut empty) = (None, None, None, None, None);
    let (mut expect_tx, mut full_arr, mut empty_arr) = (None, None, None);
    let mut dependent = None;
    for a in args {
        let k = a.key.unraw().to_string();
        if seen.contains(&k) {
            return Err(syn::Error::new(
                a.key.span(),
                format!("duplicate key `{k}`: each key may be given once"),
            ));
        }
        seen.push(k.clone());
        let kind_err = || syn::Error::new(a.key.span(), format!("`{k}` takes {}", takes(&k)));
        match (k.as_str(), a.val) {
            ("storage", Val::Path(p)) => storage = Some(p),
            ("full", Val::Path(p)) => full = Some(p),
            ("empty", Val::Path(p)) => empty = Some(p),
            ("loads", Val::Loads(p, l)) => loads = Some((p, l)),
            ("multicast", Val::Names(p, l)) => multicast = Some((p, l)),
            ("cluster", Val::Pair(p, x, y)) => cluster = Some((p, int(&k, &x)?, int(&k, &y)?)),
            ("consumers", Val::Int(l)) => consumers = Some((int(&k, &l)?, l)),
            ("consumer_threads", Val::Int(l)) => threads = Some((int(&k, &l)?, l)),
            ("consumer_arrivals", Val::Int(l)) => arrivals = Some((int(&k, &l)?, l)),
            ("cta_group", Val::Int(l)) => cta_group = Some((int(&k, &l)?, l)),
            ("tmem", Val::Int(l)) => tmem = Some((int(&k, &l)?, l)),
            ("stages", Val::Int(l)) => stages = Some((int(&k, &l)?, l)),
            ("dependent", Val::Bool(b)) => dependent = Some(b),
            ("expect_tx", Val::Int(l)) => expect_tx = Some((int(&k, &l)?, l)),
            ("full_arrivals", Val::Int(l)) => full_arr = Some((int(&k, &l)?, l)),
            ("empty_arrivals", Val::Int(l)) => empty_arr = Some((int(&k, &l)?, l)),
            _ => return Err(kind_err()),
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
                "more than {0} loads per stage; legal: at most {0} (the loads of one stage, `loads`)",
                smemdesc_core::pipeline::MAX_LOADS
            ),
        ));
    }
    for (i, l) in loads.iter().enumerate() {
        if loads[..i].iter().any(|m| m.name.unraw() == l.name.unraw()) {
            return Err(syn::Error::new(
                l.name.span(),
                format!(
                    "load `{}` declared twice in `loads`; legal: each storage member once",
                    l.name.unraw()
                ),
            ));
        }
    }
    let mut mc_idx: Vec<(usize, Span)> = Vec::new();
    for n in multicast.iter().flat_map(|m| &m.1) {
        match loads.iter().position(|l| l.name.unraw() == n.unraw()) {
            Some(i) if mc_idx.iter().any(|m| m.0 == i) => {
                return Err(syn::Error::new(
                    n.span(),
                    format!(
                        "`{}` is named twice in `multicast`; legal: each load at most once",
                        n.unraw()
                    ),
                ))
            }
            Some(i) => mc_idx.push((i, n.span())),
            None => {
                let names: Vec<String> = loads.iter().map(|l| l.name.unraw().to_string()).collect();
                return Err(syn::Error::new(
                    n.span(),
                    format!(
                        "`{}` is not one of the loads; legal in `multicast`: {}",
                        n.unraw(),
                        names.join(", ")
                    ),
                ));
            }
        }
    }
    if let Some((0, l)) = &stages {
        return Err(syn::Error::new(
            l.span(),
            "stages = 0: a pipeline needs at least one stage to load into; legal: stages >= 1, or no `stages` (the loads' stages)",
        ));
    }
    for (k, p) in [("full", &full), ("empty", &empty)] {
        if let Some(p) = p {
            member(k, p)?;
        }
    }
    // The two barrier arrays are two members: one array initialised with both counts would
    // be both protocols' barrier at once.
    let name = |p: &Option<syn::Path>, d: &str| {
        p.as_ref()
            .and_then(|p| p.get_ident())
            .map_or(d.to_string(), |i| i.unraw().to_string())
    };
    let (full_n, empty_n) = (name(&full, "full"), name(&empty, "empty"));
    if full_n == empty_n {
        let at = full.as_ref().or(empty.as_ref()).map_or(site, |p| p.span());
        return Err(syn::Error::new(
            at,
            format!("`full` and `empty` both name the storage member `{full_n}`: one mbarrier array would be initialised twice, with the full barriers' count and the empty barriers', for two protocols at once; legal: two distinct `[Mbarrier; STAGES]` members (or `empty = none` for one stage)"),
        ));
    }
    let threads_v = threads.as_ref().map_or(128, |t| t.0);
    let arrivals_v = arrivals.as_ref().map_or(1, |t| t.0);
    let at = |n: &Option<Num>| n.as_ref().map_or(site, |n| n.1.span());
    if threads_v == 0 {
        return Err(syn::Error::new(
            at(&threads),
            "consumer_threads = 0: a consumer group without threads never releases a stage (a hang); legal: 1..=1024 (a warpgroup: 128)",
        ));
    }
    if arrivals_v == 0 || threads_v % arrivals_v != 0 {
        let l = arrivals.as_ref().map_or(at(&threads), |a| a.1.span());
        let why = if arrivals_v == 0 {
            "no thread would arrive on the empty barriers (a hang)".to_string()
        } else {
            format!("the arriving threads are every (consumer_threads / consumer_arrivals)-th thread of a group (`Consumers::thread`), and {threads_v} / {arrivals_v} is not whole")
        };
        return Err(syn::Error::new(
            l,
            format!("consumer_arrivals = {arrivals_v} with consumer_threads = {threads_v}: {why}; legal: a divisor of {threads_v} ({})", divisors(threads_v)),
        ));
    }
    Ok(PipelineArgs {
        storage,
        lparen,
        loads,
        cons_lit,
        threads_v,
        arrivals_v,
        threads,
        arrivals,
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
        dependent,
    })
}
