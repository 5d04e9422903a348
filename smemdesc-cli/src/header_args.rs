//! The arguments of `#[smem_tile(...)]`, `#[smem_mma(...)]` and `#[smem_storage(...)]` read from a
//! source file for `smemdesc header --from` ([`crate::header_src`]): the same keys and spellings
//! as the macros, each value looked up with the core's parsers (`Arch::from_name`,
//! `MmaShape::parse`, ...) and the declaration validated by [`TileDecl::build`].

use super::header_loc::Src;
use crate::CliError;
use proc_macro2::Span;
use quote::ToTokens;
use smemdesc_core::{
    AccumType, Arch, Argument, ElementType, Major, MmaKind, MmaShape, Operand, Order, PairOptions,
    ScaleFormat, SmemForm, SwizzleMode, TileDecl, TilePlan, TILE_KEYS,
};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Lit, Meta, Token};

/// A validated tile of the file and its explicit `mma` argument (with the value's span).
pub(crate) struct TileSrc {
    /// The core's plan.
    pub(crate) plan: TilePlan,
    /// `mma = …` as given, if given.
    pub(crate) mma: Option<(MmaShape, Span)>,
}

fn accepted(key: &str) -> &'static str {
    TILE_KEYS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("", |(_, v)| v)
}

fn shown(e: &Expr) -> String {
    e.to_token_stream().to_string()
}

/// The name a word-like value spells: an identifier, a string, or (for `swizzle`) an integer
/// with a suffix (`128B`).
pub(crate) fn word(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) if p.qself.is_none() => p
            .path
            .get_ident()
            .map(|i| i.to_string().trim_start_matches("r#").to_owned()),
        Expr::Lit(l) => match &l.lit {
            Lit::Str(s) => Some(s.value()),
            Lit::Int(i) => Some(i.to_string()),
            Lit::Bool(b) => Some(b.value.to_string()),
            _ => None,
        },
        Expr::Group(g) => word(&g.expr),
        _ => None,
    }
}

fn named<T>(
    src: &Src,
    e: &Expr,
    key: &str,
    from_name: fn(&str) -> Option<T>,
) -> Result<T, CliError> {
    let w = match e {
        Expr::Lit(l) if matches!(l.lit, Lit::Int(_)) && key != "swizzle" => None,
        _ => word(e),
    };
    w.as_deref().and_then(from_name).ok_or_else(|| {
        src.err(
            e.span(),
            format!("unknown {key} `{}`; accepted: {}", shown(e), accepted(key)),
        )
    })
}

pub(crate) fn int(src: &Src, e: &Expr, key: &str) -> Result<u32, CliError> {
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Int(l), ..
    }) = e
    {
        if matches!(l.suffix(), "" | "u32" | "usize") {
            if let Ok(v) = l.base10_parse::<u32>() {
                return Ok(v);
            }
        }
    }
    Err(src.err(
        e.span(),
        format!(
            "`{key}` takes an integer literal that fits u32, found `{}`; accepted: {}",
            shown(e),
            accepted(key)
        ),
    ))
}

fn ints(src: &Src, e: &Expr, key: &str, n: &[usize]) -> Result<Vec<u32>, CliError> {
    if let Expr::Tuple(t) = e {
        if n.contains(&t.elems.len()) {
            return t.elems.iter().map(|x| int(src, x, key)).collect();
        }
    }
    Err(src.err(
        e.span(),
        format!(
            "`{key}` takes `{key} = {}`, found `{}`",
            accepted(key),
            shown(e)
        ),
    ))
}

/// The key a core [`Argument`] corresponds to.
fn key_of(a: Argument) -> &'static str {
    match a {
        Argument::Arch => "arch",
        Argument::Operand => "operand",
        Argument::Dtype => "dtype",
        Argument::TileMn | Argument::TileK | Argument::Tile => "tile",
        Argument::Major => "major",
        Argument::Swizzle => "swizzle",
        Argument::Order => "order",
        Argument::Mma => "mma",
        Argument::Kind => "kind",
        Argument::Stages => "stages",
        Argument::TmaBox => "tma_box",
        Argument::CtaGroup => "cta_group",
        Argument::Use => "the tile's use",
    }
}

/// The `key = value` pairs of an attribute, duplicates and unknown keys refused.
pub(crate) fn pairs<'a>(
    src: &Src,
    metas: &'a Punctuated<Meta, Token![,]>,
    keys: &[&str],
) -> Result<Vec<(String, &'a Meta)>, CliError> {
    let mut out: Vec<(String, &Meta)> = Vec::new();
    for m in metas {
        let key = m
            .path()
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        if !keys.contains(&key.as_str()) {
            return Err(src.err(
                m.span(),
                format!(
                    "unknown key `{}`; accepted keys: {}",
                    m.path().to_token_stream(),
                    keys.join(", ")
                ),
            ));
        }
        if out.iter().any(|(k, _)| *k == key) {
            return Err(src.err(
                m.span(),
                format!("duplicate key `{key}`: each key may be given once"),
            ));
        }
        out.push((key, m));
    }
    Ok(out)
}

pub(crate) fn args(
    src: &Src,
    attr: &syn::Attribute,
) -> Result<Punctuated<Meta, Token![,]>, CliError> {
    if let Meta::Path(_) = attr.meta {
        return Ok(Punctuated::new());
    }
    attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        .map_err(|e| {
            src.err(
                e.span(),
                format!("#[{}(...)]: {e}", attr.path().to_token_stream()),
            )
        })
}

pub(crate) fn value<'a>(src: &Src, m: &'a Meta, key: &str) -> Result<&'a Expr, CliError> {
    match m {
        Meta::NameValue(nv) => Ok(&nv.value),
        _ => Err(src.err(
            m.span(),
            format!("`{key}` needs a value: `{key} = {}`", accepted(key)),
        )),
    }
}

/// `#[smem_tile(...)]` on struct `name`: the declaration built by the core.
pub(crate) fn tile_decl(
    src: &Src,
    attr: &syn::Attribute,
    name: &syn::Ident,
) -> Result<TileSrc, CliError> {
    let metas = args(src, attr)?;
    let keys: Vec<&str> = TILE_KEYS.iter().map(|(k, _)| *k).collect();
    let given = pairs(src, &metas, &keys)?;
    let get = |k: &str| -> Result<Option<&Expr>, CliError> {
        match given.iter().find(|(n, _)| n == k) {
            Some((_, m)) => value(src, m, k).map(Some),
            None => Ok(None),
        }
    };
    let need = |k: &str| -> Result<&Expr, CliError> {
        get(k)?.ok_or_else(|| {
            src.err(
                name.span(),
                format!(
                    "#[smem_tile] on `{name}`: missing required argument `{k} = {}`",
                    accepted(k)
                ),
            )
        })
    };
    let arch = named(src, need("arch")?, "arch", Arch::from_name)?;
    let operand = named(src, need("operand")?, "operand", Operand::from_name)?;
    let dtype = named(src, need("dtype")?, "dtype", ElementType::from_name)?;
    let tile = ints(src, need("tile")?, "tile", &[2])?;
    let major = named(src, need("major")?, "major", Major::from_name)?;
    let mut d = TileDecl::new(arch, operand, dtype, major, tile[0], tile[1]);
    if let Some(e) = get("swizzle")? {
        if word(e).as_deref() != Some("auto") {
            d = d.swizzle(named(src, e, "swizzle", SwizzleMode::from_name)?);
        }
    }
    if let Some(e) = get("order")? {
        d = d.order(named(src, e, "order", Order::from_name)?);
    }
    if let Some(e) = get("kind")? {
        d = d.kind(named(src, e, "kind", MmaKind::from_name)?);
    }
    if let Some(e) = get("stages")? {
        d = d.stages(int(src, e, "stages")?);
    }
    if let Some(e) = get("tma_box")? {
        let b = ints(src, e, "tma_box", &[2])?;
        d = d.tma_box(b[0], b[1]);
    }
    if let Some(e) = get("cta_group")? {
        d = d.cta_group(int(src, e, "cta_group")?);
    }
    let mut mma = None;
    if let Some(e) = get("mma")? {
        let shape = match e {
            Expr::Tuple(_) => {
                let v = ints(src, e, "mma", &[2, 3])?;
                // (M, N): K is 32 bytes of the kind's SMEM form, as the macro implies it.
                let kind = d.kind.unwrap_or(MmaKind::of(dtype));
                let k = v
                    .get(2)
                    .copied()
                    .unwrap_or(SmemForm::of(dtype, kind).values_in(dtype, 32));
                MmaShape::new(v[0], v[1], k)
            }
            _ => word(e)
                .as_deref()
                .and_then(MmaShape::parse)
                .ok_or_else(|| {
                    src.err(
                        e.span(),
                        format!(
                            "`mma` takes an instruction shape, found `{}`; accepted: {}",
                            shown(e),
                            accepted("mma")
                        ),
                    )
                })?,
        };
        d = d.mma(shape);
        mma = Some((shape, e.span()));
    }
    let plan = d.build().map_err(|e| {
        let key = key_of(e.argument());
        let span = get(key).ok().flatten().map_or(name.span(), |x| x.span());
        src.err(
            span,
            format!("#[smem_tile] on `{name}`: invalid {key}: {e}"),
        )
    })?;
    Ok(TileSrc { plan, mma })
}

/// What `#[smem_mma(...)]` declares: the pairing's options and its cluster.
pub(crate) struct MmaOpts {
    /// The options the core pairs the tiles with.
    pub(crate) po: PairOptions,
    /// `cluster = (x, y)` (CTAs along M, along N) with the value's span.
    pub(crate) cluster: Option<((u32, u32), Span)>,
    /// `non_portable`: a cluster of more than 8 CTAs.
    pub(crate) non_portable: bool,
}

/// `#[smem_mma(accum = …, negate_a, negate_b, saturate, sf = …, vec = …, cluster = (x, y),
/// non_portable)]`.
pub(crate) fn mma_options(src: &Src, attr: &syn::Attribute) -> Result<MmaOpts, CliError> {
    use smemdesc_core::MMA_KEYS as KEYS;
    let metas = args(src, attr)?;
    let given = pairs(
        src,
        &metas,
        // `cluster` / `non_portable`: the multicast plan (crate::header_cluster).
        &[
            "accum",
            "negate_a",
            "negate_b",
            "saturate",
            "sf",
            "vec",
            "cluster",
            "non_portable",
        ],
    )?;
    let flag = |k: &str| -> Result<bool, CliError> {
        match given.iter().find(|(n, _)| n == k).map(|(_, m)| *m) {
            None => Ok(false),
            Some(Meta::Path(_)) => Ok(true),
            Some(Meta::NameValue(syn::MetaNameValue {
                value:
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Bool(b), ..
                    }),
                ..
            })) => Ok(b.value),
            Some(m) => Err(src.err(
                m.span(),
                format!("`{k}` takes true or false; accepted: {KEYS}"),
            )),
        }
    };
    let word_of = |k: &str| -> Result<Option<(String, Span)>, CliError> {
        match given.iter().find(|(n, _)| n == k).map(|(_, m)| *m) {
            None => Ok(None),
            Some(Meta::NameValue(nv)) => match word(&nv.value) {
                Some(w) => Ok(Some((w, nv.value.span()))),
                None => Err(src.err(
                    nv.value.span(),
                    format!("`{k}` takes a name; accepted: {KEYS}"),
                )),
            },
            Some(m) => Err(src.err(m.span(), format!("`{k}` needs a value; accepted: {KEYS}"))),
        }
    };
    let (accum, span) = word_of("accum")?.ok_or_else(|| {
        src.err(
            attr.span(),
            format!("#[smem_mma] needs `accum`; accepted: {KEYS}"),
        )
    })?;
    let accum = AccumType::from_name(&accum).ok_or_else(|| {
        src.err(
            span,
            format!("unknown accum `{accum}`; accepted: f16, f32, s32"),
        )
    })?;
    let mut po = PairOptions::new(accum)
        .negate(flag("negate_a")?, flag("negate_b")?)
        .saturate(flag("saturate")?);
    if let Some((sf, span)) = word_of("sf")? {
        let sf = ScaleFormat::from_name(&sf)
            .ok_or_else(|| src.err(span, format!("unknown sf `{sf}`; accepted: ue8m0, ue4m3")))?;
        po = po.scale_format(sf);
    }
    if let Some((_, m)) = given.iter().find(|(n, _)| n == "vec") {
        po = po.scale_vec(int(src, value(src, m, "vec")?, "vec")?);
    }
    let cluster = match given.iter().find(|(n, _)| n == "cluster") {
        None => None,
        Some((_, m)) => {
            let e = value(src, m, "cluster")?;
            let xy = match e {
                Expr::Tuple(t) if t.elems.len() == 2 => t
                    .elems
                    .iter()
                    .map(|x| int(src, x, "cluster"))
                    .collect::<Result<Vec<u32>, _>>()
                    .ok(),
                _ => None,
            };
            let Some(xy) = xy else {
                return Err(src.err(
                    e.span(),
                    format!(
                        "`cluster` takes `(x, y)`: CTAs along M and along N, found `{}`",
                        shown(e)
                    ),
                ));
            };
            Some(((xy[0], xy[1]), e.span()))
        }
    };
    let non_portable = flag("non_portable")?;
    if cluster.is_none() && given.iter().any(|(n, _)| n == "non_portable") {
        return Err(src.err(
            attr.span(),
            "`non_portable` applies to a `cluster = (x, y)`",
        ));
    }
    Ok(MmaOpts {
        po,
        cluster,
        non_portable,
    })
}

/// `#[smem_storage(arch = <arch>)]` (any of `Arch::NAMES`).
pub(crate) fn storage_arch(src: &Src, attr: &syn::Attribute) -> Result<Arch, CliError> {
    let metas = args(src, attr)?;
    let given = pairs(src, &metas, &["arch"])?;
    match given.first() {
        Some((_, m)) => {
            let e = value(src, m, "arch")?;
            let arch = named(src, e, "arch", Arch::from_name)?;
            // As #[smem_storage] refuses it: no public source gives sm107's shared memory.
            if arch.smem_per_cta().is_none() {
                return Err(src.err(
                    e.span(),
                    format!(
                        "#[smem_storage] cannot check `arch = {}` against its shared memory per CTA: {}",
                        arch.name(),
                        smemdesc_core::base::ArchGap::NoPublicLimits.message()
                    ),
                ));
            }
            Ok(arch)
        }
        None => Err(src.err(
            attr.span(),
            "#[smem_storage] needs the architecture: `arch = sm90` or `arch = sm100`",
        )),
    }
}
