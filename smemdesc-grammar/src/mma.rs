//! `#[smem_mma(...)] mod m { ... }`: its arguments ([`parse_opts`]), the tiles of the module
//! body ([`find_tiles`]) and their pairing into one instruction, every refusal spanned on the
//! argument at fault ([`pair`]); the cluster and scale-tile checks are [`crate::mma_check`].

use crate::tile::{self, Decl};
use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use smemdesc_core::{
    AccumType, Arch, IdescError, MmaPair, Operand, PairOptions, ScaleFormat, TilePlan,
};

/// Parsed `#[smem_mma(...)]` arguments with their spans.
///
/// ```
/// use smemdesc_core::AccumType;
/// use smemdesc_grammar::mma::parse_opts;
///
/// let o = parse_opts("accum = f32, negate_a, cluster = (2, 1)".parse().unwrap(), proc_macro2::Span::call_site()).unwrap();
/// assert_eq!(o.accum.map(|a| a.0), Some(AccumType::F32));
/// assert_eq!(o.negate_a.map(|n| n.0), Some(true));
/// assert_eq!(o.cluster.map(|c| c.0), Some((2, 1)));
/// ```
pub struct MmaOpts {
    /// `accum = f16 | f32 | s32` (required).
    pub accum: Option<(AccumType, Span)>,
    /// `negate_a` (or `negate_a = true | false`).
    pub negate_a: Option<(bool, Span)>,
    /// `negate_b`.
    pub negate_b: Option<(bool, Span)>,
    /// `saturate`.
    pub saturate: Option<(bool, Span)>,
    /// `sf = ue8m0 | ue4m3`.
    pub sf: Option<(ScaleFormat, Span)>,
    /// `vec = 16 | 32`.
    pub vec: Option<(u32, Span)>,
    /// `cluster = (x, y)`: CTAs along M, along N.
    pub cluster: Option<((u32, u32), Span)>,
    /// `non_portable`: a cluster of more than 8 CTAs.
    pub non_portable: Option<(bool, Span)>,
}

use smemdesc_core::MMA_KEYS as KEYS;

/// Parses `#[smem_mma(...)]`'s arguments (the first refusal, on its key; a missing `accum` on
/// `site`).
///
/// ```
/// use smemdesc_grammar::mma::parse_opts;
///
/// let e = parse_opts("accum = f64".parse().unwrap(), proc_macro2::Span::call_site()).err().unwrap();
/// assert_eq!(e.to_string(), "unknown accum `f64`; accepted: f16, f32, s32");
/// ```
pub fn parse_opts(attr: TokenStream, site: Span) -> syn::Result<MmaOpts> {
    let mut o = MmaOpts {
        accum: None,
        negate_a: None,
        negate_b: None,
        saturate: None,
        sf: None,
        vec: None,
        cluster: None,
        non_portable: None,
    };
    let mut seen: Vec<String> = Vec::new();
    let parser = syn::meta::parser(|meta| {
        let key = meta
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        let span = meta.path.get_ident().map_or(site, |i| i.span());
        // A key given twice is refused on its second occurrence (as `#[smem_tile]` does).
        if seen.contains(&key) {
            return Err(syn::Error::new(
                span,
                format!("duplicate key `{key}`: each key may be given once"),
            ));
        }
        seen.push(key.clone());
        let flag = |meta: &syn::meta::ParseNestedMeta| -> syn::Result<(bool, Span)> {
            if meta.input.peek(syn::Token![=]) {
                let b: syn::LitBool = meta.value()?.parse()?;
                Ok((b.value, b.span))
            } else {
                Ok((true, span))
            }
        };
        match key.as_str() {
            "accum" => {
                let v: Ident = meta.value()?.parse()?;
                let t = AccumType::from_name(&v.to_string()).ok_or_else(|| {
                    syn::Error::new(
                        v.span(),
                        format!("unknown accum `{v}`; accepted: f16, f32, s32"),
                    )
                })?;
                o.accum = Some((t, v.span()));
            }
            "negate_a" => o.negate_a = Some(flag(&meta)?),
            "negate_b" => o.negate_b = Some(flag(&meta)?),
            "saturate" => o.saturate = Some(flag(&meta)?),
            "non_portable" => o.non_portable = Some(flag(&meta)?),
            "cluster" => {
                let v = meta.value()?;
                let content;
                let paren = syn::parenthesized!(content in v);
                let span = paren.span.join();
                let bad =
                    || syn::Error::new(span, "`cluster` takes `(x, y)`: CTAs along M and along N");
                let x: syn::LitInt = content.parse().map_err(|_| bad())?;
                content.parse::<syn::Token![,]>().map_err(|_| bad())?;
                let y: syn::LitInt = content.parse().map_err(|_| bad())?;
                if !content.is_empty() {
                    return Err(bad());
                }
                o.cluster = Some(((x.base10_parse()?, y.base10_parse()?), span));
            }
            "sf" => {
                let v: Ident = meta.value()?.parse()?;
                let s = ScaleFormat::from_name(&v.to_string()).ok_or_else(|| {
                    syn::Error::new(
                        v.span(),
                        format!("unknown sf `{v}`; accepted: ue8m0, ue4m3"),
                    )
                })?;
                o.sf = Some((s, v.span()));
            }
            "vec" => {
                let v: syn::LitInt = meta.value()?.parse()?;
                match v.base10_parse::<u32>() {
                    Ok(n @ (16 | 32)) => o.vec = Some((n, v.span())),
                    _ => {
                        return Err(syn::Error::new(
                            v.span(),
                            format!("vec = {v} is not a scale vector size; accepted: 16, 32"),
                        ))
                    }
                }
            }
            _ => return Err(meta.error(format!("unknown key `{key}`; accepted: {KEYS}"))),
        }
        Ok(())
    });
    syn::parse::Parser::parse2(parser, attr)?;
    if o.accum.is_none() {
        return Err(syn::Error::new(
            site,
            format!("#[smem_mma] needs `accum`; accepted: {KEYS}"),
        ));
    }
    Ok(o)
}

/// The `#[smem_tile(...)]` (or, `scale = true`, `#[smem_scale_tile(...)]`) declarations at the
/// top level of a module body: their arguments, the span of the attribute's name, and the name of
/// the struct that follows.
///
/// ```
/// use smemdesc_grammar::mma::find_tiles;
///
/// let body = "#[smem_tile(arch = sm90)] pub struct TileA; #[smemdesc::smem_scale_tile(kind = mxf4)] struct Sf;";
/// let tiles = find_tiles(&body.parse().unwrap(), false);
/// assert_eq!(tiles.len(), 1);
/// assert_eq!(tiles[0].0.to_string(), "arch = sm90");
/// assert_eq!(tiles[0].2.as_ref().map(|n| n.to_string()).as_deref(), Some("TileA"));
/// ```
pub fn find_tiles(body: &TokenStream, scale: bool) -> Vec<(TokenStream, Span, Option<Ident>)> {
    let attr = if scale {
        "smem_scale_tile"
    } else {
        "smem_tile"
    };
    let toks: Vec<TokenTree> = body.clone().into_iter().collect();
    let mut out = Vec::new();
    for (at, w) in toks.windows(2).enumerate() {
        let (TokenTree::Punct(p), TokenTree::Group(g)) = (&w[0], &w[1]) else {
            continue;
        };
        if p.as_char() != '#' || g.delimiter() != Delimiter::Bracket {
            continue;
        }
        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
        // `path::to::smem_tile(args)`: the last ident before the parenthesised group.
        if let [.., TokenTree::Ident(name), TokenTree::Group(a)] = inner.as_slice() {
            if name == attr && a.delimiter() == Delimiter::Parenthesis {
                let mut rest = toks[at + 2..].iter();
                let mut st = None;
                while let Some(t) = rest.next() {
                    if matches!(t, TokenTree::Ident(i) if i == "struct") {
                        if let Some(TokenTree::Ident(n)) = rest.next() {
                            st = Some(n.clone());
                        }
                        break;
                    }
                }
                out.push((a.stream(), name.span(), st));
            }
        }
    }
    out
}

/// One tile of a `#[smem_mma]` module: its arguments, its plan and its struct's name.
///
/// ```
/// use smemdesc_grammar::mma::{pair, parse_opts};
///
/// let site = proc_macro2::Span::call_site();
/// let body = "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)] struct A;
///             #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K)] struct B;";
/// let o = parse_opts("accum = f32".parse().unwrap(), site).unwrap();
/// let p = pair(&o, &body.parse().unwrap(), site).unwrap().unwrap();
/// assert_eq!(p.b.name.to_string(), "B");
/// assert_eq!(p.b.plan.decl.tile_mn, 256);
/// ```
pub struct PairTile {
    /// The tile's arguments.
    pub decl: Decl,
    /// The core's plan of it.
    pub plan: TilePlan,
    /// The struct's name.
    pub name: Ident,
}

/// The pairing of a `#[smem_mma]` module's A and B tiles.
///
/// ```
/// use smemdesc_grammar::mma::{pair, parse_opts};
///
/// let site = proc_macro2::Span::call_site();
/// let body = "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = m64n256k16)] struct A;
///             #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K)] struct B;";
/// let o = parse_opts("accum = f32".parse().unwrap(), site).unwrap();
/// let p = pair(&o, &body.parse().unwrap(), site).unwrap().unwrap();
/// assert_eq!(p.pair.mnemonic().to_string(), "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16");
/// ```
pub struct Paired {
    /// The core's pairing.
    pub pair: MmaPair,
    /// The options it was paired with (`vec = 16` added where the module's scale tiles say so).
    pub po: PairOptions,
    /// The A tile.
    pub a: PairTile,
    /// The B tile.
    pub b: PairTile,
}

/// Pairs the A and B `#[smem_tile]`s at the top level of a module `body` with the options `o`,
/// as `#[smem_mma]` does at expansion: `Ok(None)` when a tile does not parse or build (it
/// reports its own error where it expands); a refusal of the pairing on the argument at fault
/// (`site`: the attribute, for what has no argument).
///
/// ```
/// use smemdesc_grammar::mma::{pair, parse_opts};
///
/// let site = proc_macro2::Span::call_site();
/// let body = "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)] struct A;";
/// let o = parse_opts("accum = f32".parse().unwrap(), site).unwrap();
/// let e = pair(&o, &body.parse().unwrap(), site).err().unwrap();
/// assert!(e.to_string().starts_with("#[smem_mma] needs one #[smem_tile(operand = A, ..)] and one"));
/// ```
pub fn pair(o: &MmaOpts, body: &TokenStream, site: Span) -> syn::Result<Option<Paired>> {
    let mut a: Option<PairTile> = None;
    let mut b: Option<PairTile> = None;
    for (args_ts, span, name) in find_tiles(body, false) {
        // A declaration that does not parse or build reports its own error when it expands.
        let Ok(decl) = tile::parse(args_ts, span) else {
            return Ok(None);
        };
        let Ok(plan) = std::panic::catch_unwind(|| tile::core_decl(&decl).build()) else {
            return Ok(None);
        };
        let Ok(plan) = plan else {
            return Ok(None);
        };
        let name =
            name.ok_or_else(|| syn::Error::new(span, "#[smem_tile] must be on a struct here"))?;
        let slot = match decl.operand.value {
            Operand::A => &mut a,
            Operand::B => &mut b,
        };
        if slot.is_some() {
            return Err(syn::Error::new(
                decl.operand.span,
                format!(
                    "#[smem_mma] pairs one A tile with one B tile; operand = {} appears twice",
                    decl.operand.value.name()
                ),
            ));
        }
        *slot = Some(PairTile { decl, plan, name });
    }
    let (Some(a), Some(b)) = (a, b) else {
        return Err(syn::Error::new(
            site,
            "#[smem_mma] needs one #[smem_tile(operand = A, ..)] and one \
             #[smem_tile(operand = B, ..)] struct inside the module",
        ));
    };
    // An explicit instruction shape on one tile must agree with the extent the other tile owns:
    // M belongs to A, N to B.
    if let Some(m) = a.decl.mma.filter(|m| m.shape.n != b.plan.mma.n) {
        let e = IdescError::ShapeMismatch {
            what: 'N',
            a: m.shape.n,
            b: b.plan.mma.n,
        };
        return Err(syn::Error::new(m.n, e));
    }
    if let Some(m) = b.decl.mma.filter(|m| m.shape.m != a.plan.mma.m) {
        let e = IdescError::ShapeMismatch {
            what: 'M',
            a: a.plan.mma.m,
            b: m.shape.m,
        };
        return Err(syn::Error::new(m.m, e));
    }
    let mut po = PairOptions::new(o.accum.map_or(AccumType::F32, |x| x.0)).negate(
        o.negate_a.is_some_and(|x| x.0),
        o.negate_b.is_some_and(|x| x.0),
    );
    po = po.saturate(o.saturate.is_some_and(|x| x.0));
    if let Some((sf, _)) = o.sf {
        po = po.scale_format(sf);
    }
    if let Some((v, _)) = o.vec {
        po = po.scale_vec(v);
    }
    let mut pair = MmaPair::pair(&a.plan, &b.plan, po)
        .map_err(|e| syn::Error::new(blame(&e, &a.decl, &b.decl, o, site), e))?;
    // No `vec` given with `sf = ue8m0`: an mxf4nvf4 pair reads UE8M0 per 16 values as well as 32
    // (PTX table "Valid combinations of scale_vectorsize with types and MMA-Kind"), so the scale
    // tiles of the module decide when they all state `vec = 16`.
    if o.vec.is_none()
        && matches!(o.sf, Some((ScaleFormat::Ue8m0, _)))
        && scale_tiles_vec(body) == Some(16)
    {
        if let Ok(p16) = MmaPair::pair(&a.plan, &b.plan, po.scale_vec(16)) {
            (pair, po) = (p16, po.scale_vec(16));
        }
    }
    // sm100: the instruction descriptor (its refusal has no argument of its own).
    if pair.arch.generation() == Arch::Sm100 {
        pair.idesc().map_err(|e| syn::Error::new(site, e))?;
    }
    Ok(Some(Paired { pair, po, a, b }))
}

/// The vector size every `#[smem_scale_tile]` of the module states with `vec = N` (`None`: none
/// states one, or they differ: the pair keeps its default and the tile check names the mismatch).
fn scale_tiles_vec(body: &TokenStream) -> Option<u32> {
    let mut vecs = find_tiles(body, true)
        .into_iter()
        .filter_map(|(args_ts, span, _)| {
            crate::scale::parse(args_ts, span)
                .ok()
                .and_then(|a| a.vec.map(|v| v.value))
        });
    let first = vecs.next()?;
    vecs.all(|v| v == first).then_some(first)
}

/// Which argument an error concerns, as a span in the declarations or the attribute.
fn blame(e: &IdescError, a: &Decl, b: &Decl, o: &MmaOpts, site: Span) -> Span {
    let or = |x: Option<Span>, y: Span| x.unwrap_or(y);
    match e {
        IdescError::ArchMismatch { .. } => b.arch.span,
        IdescError::KindMismatch { .. } => or(b.kind.map(|k| k.span), b.dtype.span),
        IdescError::CtaGroupMismatch { .. } => or(
            b.cta_group.map(|c| c.span),
            or(a.cta_group.map(|c| c.span), b.arch.span),
        ),
        IdescError::ShapeMismatch { .. } => {
            or(b.mma.map(|m| m.k), or(a.mma.map(|m| m.k), b.dtype.span))
        }
        IdescError::TypeNotForKind {
            operand: Operand::A,
            ..
        } => a.dtype.span,
        IdescError::TypeNotForKind { .. } | IdescError::TypesDiffer { .. } => b.dtype.span,
        IdescError::MnMajorNotAllowed {
            operand: Operand::A,
            ..
        } => a.major.span,
        IdescError::MnMajorNotAllowed { .. } => b.major.span,
        IdescError::IllegalM { .. } => or(a.mma.map(|m| m.m), a.tile.a.span),
        IdescError::IllegalN { .. } => or(b.mma.map(|m| m.n), b.tile.a.span),
        IdescError::AccumNotForKind { .. } | IdescError::Sm90AccumNotForType { .. } => {
            o.accum.map_or(site, |x| x.1)
        }
        IdescError::NegateNotForKind { .. } => {
            let set = |x: Option<(bool, Span)>| x.filter(|v| v.0).map(|v| v.1);
            or(set(o.negate_a), or(set(o.negate_b), site))
        }
        IdescError::SaturateNotForKind { .. } => o.saturate.map_or(site, |x| x.1),
        IdescError::ScaleFormatNotForKind { .. } | IdescError::NotOnSm90 { .. } => {
            o.sf.map_or(site, |x| x.1)
        }
        IdescError::ScaleVecNotForKind { .. } => or(o.vec.map(|x| x.1), o.sf.map_or(site, |x| x.1)),
        _ => site,
    }
}
