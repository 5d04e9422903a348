//! `#[smem_mma(accum = …)] mod m { #[smem_tile(operand = A …)] …; #[smem_tile(operand = B …)] …; }`:
//! pairs the A and B tiles declared inside a module into one MMA instruction.
//!
//! Why a module: a proc-macro sees only its own input, never another item's constants. An
//! attribute on the enclosing module sees both `#[smem_tile]` declarations *before* they expand,
//! so it validates the pairing with the exact values at expansion time, points every error at the
//! argument at fault, and writes the mnemonic as a string literal (a template string of `asm!`,
//! or a `concat!` piece in `const` items, which a `const &str` is not). Tiles declared elsewhere can still be paired in a
//! `const` item with `smemdesc::MmaPair::pair(&A::PLAN, &B::PLAN, …)` (a `const` panic with a
//! static message instead of a spanned error).

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use quote::quote;
use smemdesc_core::{AccumType, IdescError, MmaPair, Operand, PairOptions, ScaleFormat, TilePlan};
use smemdesc_grammar::tile::{self as args, Decl};

/// Parsed `#[smem_mma(...)]` arguments with their spans.
struct Opts {
    accum: Option<(AccumType, Span)>,
    negate_a: Option<(bool, Span)>,
    negate_b: Option<(bool, Span)>,
    saturate: Option<(bool, Span)>,
    sf: Option<(ScaleFormat, Span)>,
    vec: Option<(u32, Span)>,
    cluster: Option<((u32, u32), Span)>,
    non_portable: Option<(bool, Span)>,
}

use smemdesc_core::MMA_KEYS as KEYS;

fn parse_opts(attr: TokenStream) -> syn::Result<Opts> {
    let mut o = Opts {
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
        let span = meta
            .path
            .get_ident()
            .map_or_else(Span::call_site, |i| i.span());
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
            Span::call_site(),
            format!("#[smem_mma] needs `accum`; accepted: {KEYS}"),
        ));
    }
    Ok(o)
}

/// The `#[smem_tile(...)]` (or, `scale = true`, `#[smem_scale_tile(...)]`) declarations at the
/// top level of a module body: their arguments, the span of the attribute's name, and the name of
/// the struct that follows.
pub(crate) fn find_tiles(
    body: &TokenStream,
    scale: bool,
) -> Vec<(TokenStream, Span, Option<Ident>)> {
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

/// Which argument an error concerns, as a span in the declarations or the attribute.
fn blame(e: &IdescError, a: &Decl, b: &Decl, o: &Opts) -> Span {
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
            o.accum.map_or_else(Span::call_site, |x| x.1)
        }
        IdescError::NegateNotForKind { .. } => {
            let set = |x: Option<(bool, Span)>| x.filter(|v| v.0).map(|v| v.1);
            or(set(o.negate_a), or(set(o.negate_b), Span::call_site()))
        }
        IdescError::SaturateNotForKind { .. } => o.saturate.map_or_else(Span::call_site, |x| x.1),
        IdescError::ScaleFormatNotForKind { .. } | IdescError::NotOnSm90 { .. } => {
            o.sf.map_or_else(Span::call_site, |x| x.1)
        }
        IdescError::ScaleVecNotForKind { .. } => or(
            o.vec.map(|x| x.1),
            o.sf.map_or_else(Span::call_site, |x| x.1),
        ),
        _ => Span::call_site(),
    }
}

/// The attribute's expansion: the module unchanged (its tiles expand as usual) plus the pairing's
/// items, or the module plus spanned errors.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut toks: Vec<TokenTree> = item.clone().into_iter().collect();
    let body_at = toks
        .iter()
        .rposition(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace));
    let is_mod = toks
        .iter()
        .any(|t| matches!(t, TokenTree::Ident(i) if i == "mod"));
    let Some(at) = body_at.filter(|_| is_mod) else {
        let mut ts = syn::Error::new(
            Span::call_site(),
            "#[smem_mma] applies to an inline module holding one #[smem_tile(operand = A, ..)] and \
             one #[smem_tile(operand = B, ..)] struct: `mod gemm { ... }`",
        )
        .to_compile_error();
        // Keep the item so that this is the only error.
        ts.extend(item);
        return ts;
    };
    let TokenTree::Group(body) = toks[at].clone() else {
        unreachable!("position found a group")
    };
    let extra = match pairing(attr, &body.stream()) {
        Ok(ts) => ts,
        Err(e) => e.to_compile_error(),
    };
    let mut inner = body.stream();
    inner.extend(extra);
    let mut g = Group::new(Delimiter::Brace, inner);
    g.set_span(body.span());
    toks[at] = TokenTree::Group(g);
    toks.into_iter().collect()
}

fn pairing(attr: TokenStream, body: &TokenStream) -> syn::Result<TokenStream> {
    let opts = parse_opts(attr)?;
    crate::mma_scan::refuse_cfg_tiles(body)?;
    let mut a: Option<(Decl, TilePlan, Ident)> = None;
    let mut b: Option<(Decl, TilePlan, Ident)> = None;
    for (args_ts, span, name) in find_tiles(body, false) {
        // A declaration that does not parse or build reports its own error when it expands.
        let Ok(decl) = args::parse(args_ts, span) else {
            return Ok(TokenStream::new());
        };
        let Ok(plan) = std::panic::catch_unwind(|| args::core_decl(&decl).build()) else {
            return Ok(TokenStream::new());
        };
        let Ok(plan) = plan else {
            return Ok(TokenStream::new());
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
        *slot = Some((decl, plan, name));
    }
    let (Some((da, pa, na)), Some((db, pb, nb))) = (a, b) else {
        return Err(syn::Error::new(
            Span::call_site(),
            "#[smem_mma] needs one #[smem_tile(operand = A, ..)] and one \
             #[smem_tile(operand = B, ..)] struct inside the module",
        ));
    };
    // An explicit instruction shape on one tile must agree with the extent the other tile owns:
    // M belongs to A, N to B.
    if let Some(m) = da.mma.filter(|m| m.shape.n != pb.mma.n) {
        let e = IdescError::ShapeMismatch {
            what: 'N',
            a: m.shape.n,
            b: pb.mma.n,
        };
        return Err(syn::Error::new(m.n, e));
    }
    if let Some(m) = db.mma.filter(|m| m.shape.m != pa.mma.m) {
        let e = IdescError::ShapeMismatch {
            what: 'M',
            a: pa.mma.m,
            b: m.shape.m,
        };
        return Err(syn::Error::new(m.m, e));
    }
    let mut po = PairOptions::new(opts.accum.map_or(AccumType::F32, |x| x.0)).negate(
        opts.negate_a.is_some_and(|x| x.0),
        opts.negate_b.is_some_and(|x| x.0),
    );
    po = po.saturate(opts.saturate.is_some_and(|x| x.0));
    if let Some((sf, _)) = opts.sf {
        po = po.scale_format(sf);
    }
    if let Some((v, _)) = opts.vec {
        po = po.scale_vec(v);
    }
    let mut pair =
        MmaPair::pair(&pa, &pb, po).map_err(|e| syn::Error::new(blame(&e, &da, &db, &opts), e))?;
    // No `vec` given with `sf = ue8m0`: an mxf4nvf4 pair reads UE8M0 per 16 values as well as 32
    // (PTX table "Valid combinations of scale_vectorsize with types and MMA-Kind"), so the scale
    // tiles of the module decide when they all state `vec = 16`.
    if opts.vec.is_none()
        && matches!(opts.sf, Some((ScaleFormat::Ue8m0, _)))
        && crate::mma_scan::scale_tiles_vec(body) == Some(16)
    {
        if let Ok(p16) = MmaPair::pair(&pa, &pb, po.scale_vec(16)) {
            (pair, po) = (p16, po.scale_vec(16));
        }
    }
    let mut ts = crate::mma_items::items(&pair, &na, &nb, &po)?;
    let (scale_ts, scale_names) = scale_tiles(&pair, body, (&pa, &na), (&pb, &nb))?;
    ts.extend(cluster_items(
        &opts,
        &pair,
        (&pa, &na),
        (&pb, &nb),
        &scale_names,
    )?);
    ts.extend(scale_ts);
    Ok(ts)
}

/// `cluster = (x, y)`: the multicast plan of both operands (the core's `Cluster::multicast`),
/// checked now (a spanned error naming the legal values), and for `cta_group::2` the CTA pair.
/// `scales`: the module's `#[smem_scale_tile]` structs, whose bytes every stage's barrier also
/// receives (each CTA loads its own scale factors: they are not multicast).
fn cluster_items(
    o: &Opts,
    pair: &MmaPair,
    a: (&TilePlan, &Ident),
    b: (&TilePlan, &Ident),
    scales: &[Ident],
) -> syn::Result<TokenStream> {
    use smemdesc_core::cluster::{Cluster, CtaPair};
    let mut ts = TokenStream::new();
    if pair.cta_group == 2 {
        CtaPair::new(pair.shape.m, pair.shape.n)
            .map_err(|e| syn::Error::new(Span::call_site(), e))?;
        let (m, n) = (pair.shape.m, pair.shape.n);
        ts.extend(quote! {
            /// The `cta_group::2` CTA pair: A split by M, B by N, SFA by M, SFB to both.
            pub const CTA_PAIR: ::smemdesc::cluster::CtaPair = match ::smemdesc::cluster::CtaPair::new(#m, #n) {
                Ok(p) => p,
                Err(_) => panic!("checked by #[smem_mma]"),
            };
        });
    }
    let Some(((x, y), span)) = o.cluster else {
        if let Some((_, s)) = o.non_portable {
            return Err(syn::Error::new(
                s,
                "`non_portable` applies to a `cluster = (x, y)`",
            ));
        }
        return Ok(ts);
    };
    if pair.cta_group == 2 {
        return Err(syn::Error::new(span, pair_cluster_refusal(x, y)));
    }
    let np = o.non_portable.is_some_and(|v| v.0);
    let c = if np {
        Cluster::non_portable(x, y)
    } else {
        Cluster::new(x, y)
    }
    .map_err(|e| syn::Error::new(span, e))?;
    for (op, (plan, _)) in [(Operand::A, a), (Operand::B, b)] {
        c.multicast(
            op,
            &plan.tile,
            Some((plan.tma.box_rows, plan.tma.box_inner)),
        )
        .map_err(|e| syn::Error::new(span, format!("cluster ({x}, {y}): {e}")))?;
    }
    let ctor = if np {
        quote!(non_portable)
    } else {
        quote!(new)
    };
    let (na, nb) = (a.1, b.1);
    ts.extend(quote! {
        /// The cluster (`x` CTAs along M, `y` along N).
        pub const CLUSTER: ::smemdesc::cluster::Cluster = match ::smemdesc::cluster::Cluster::#ctor(#x, #y) {
            Ok(c) => c,
            Err(_) => panic!("checked by #[smem_mma]"),
        };
        /// A's multicast: sharers, box slices, SMEM offsets, `ctaMask`s.
        pub const A_MULTICAST: ::smemdesc::cluster::Multicast = match CLUSTER.multicast(
            ::smemdesc::Operand::A, &<#na as ::smemdesc::SmemTile>::PLAN.tile, Some((<#na as ::smemdesc::SmemTile>::PLAN.tma.box_rows, <#na as ::smemdesc::SmemTile>::PLAN.tma.box_inner))) {
            Ok(m) => m,
            Err(_) => panic!("checked by #[smem_mma]"),
        };
        /// B's multicast.
        pub const B_MULTICAST: ::smemdesc::cluster::Multicast = match CLUSTER.multicast(
            ::smemdesc::Operand::B, &<#nb as ::smemdesc::SmemTile>::PLAN.tile, Some((<#nb as ::smemdesc::SmemTile>::PLAN.tma.box_rows, <#nb as ::smemdesc::SmemTile>::PLAN.tma.box_inner))) {
            Ok(m) => m,
            Err(_) => panic!("checked by #[smem_mma]"),
        };
        /// Bytes every CTA's full barrier expects per stage: both operands' whole tiles and,
        /// for a block-scaled pair, the module's `#[smem_scale_tile]` stages (each CTA loads its
        /// own scale factors with a plain, not multicast, TMA).
        pub const EXPECT_TX: u32 = ::smemdesc::cluster::Multicast::expect_tx_total(&A_MULTICAST, &B_MULTICAST)
            #(+ #scales::STAGE_BYTES)*;
    });
    Ok(ts)
}

/// Why `cluster = (x, y)` is refused with `cta_group = 2` tiles. A pair is the two CTAs whose
/// `%cluster_ctarank`s differ in bit 0 (ranks `2p`, `2p + 1`, neighbours along M), so the
/// cluster's M extent must be even; and the pair's multicast (A's M halves, B's N halves shared by
/// the `x / 2` pairs, every load signalling the leader's barrier) is not modelled by
/// `Cluster::multicast`, whose plan is per CTA.
fn pair_cluster_refusal(x: u32, y: u32) -> String {
    if x % 2 != 0 {
        format!(
            "cluster ({x}, {y}) with cta_group = 2 tiles: a CTA pair is two CTAs whose ranks differ \
             in bit 0 (neighbours along M), so the cluster's M extent x must be even (legal: x = \
             2, 4 or 8 with x * y <= 8); besides, `cluster` with cta_group = 2 is not modelled \
             yet: omit `cluster` (CTA_PAIR gives each CTA's halves and the leader's expect_tx) or \
             declare cta_group = 1 tiles"
        )
    } else {
        format!(
            "cluster ({x}, {y}) with cta_group = 2 tiles is not modelled yet: the pair's multicast \
             (B's N halves shared by the x / 2 pairs, every load signalling the leader CTA's \
             barrier) differs from the per-CTA plan `cluster` computes; legal: omit `cluster` \
             (CTA_PAIR gives each CTA's halves and the leader's expect_tx), or declare \
             cta_group = 1 tiles"
        )
    }
}

/// The `#[smem_scale_tile]`s of the module: each must hold the factors of its operand's tile
/// ([`MmaPair::check_scale_tile`]), checked at expansion time with a spanned error and again by
/// the compiler from the tiles' `PLAN` and the scale tile's `SCALE`. Returns the checks and the
/// scale tiles' names.
fn scale_tiles(
    pair: &MmaPair,
    body: &TokenStream,
    a: (&TilePlan, &Ident),
    b: (&TilePlan, &Ident),
) -> syn::Result<(TokenStream, Vec<Ident>)> {
    let mut ts = TokenStream::new();
    let mut names = Vec::new();
    for (args_ts, span, name) in find_tiles(body, true) {
        // A declaration that does not parse or build reports its own error when it expands.
        let Ok(args) = smemdesc_grammar::scale::parse(args_ts, span) else {
            continue;
        };
        let Ok(sf) = smemdesc_grammar::scale::core(&args).build() else {
            continue;
        };
        let Some(name) = name else {
            continue;
        };
        let (tile, tile_name) = match args.operand.value {
            Operand::A => a,
            Operand::B => b,
        };
        pair.check_scale_tile(tile, &sf).map_err(|e| {
            let at = match e {
                IdescError::ScaleTileFormat { .. } => args
                    .sf
                    .map(|s| s.span)
                    .or(args.vec.map(|v| v.span))
                    .unwrap_or(args.kind.span),
                IdescError::ScaleTileExtent { dim: 'K', .. } => args.tile.b.span,
                IdescError::ScaleTileExtent { .. } => args.tile.a.span,
                IdescError::ScaleTileCtaGroup { .. } => {
                    args.cta_group.map_or(args.kind.span, |c| c.span)
                }
                _ => args.kind.span,
            };
            syn::Error::new(at, e)
        })?;
        ts.extend(quote! {
            const _: () = match MMA.check_scale_tile(&<#tile_name as ::smemdesc::SmemTile>::PLAN, &#name::SCALE) {
                Ok(()) => (),
                Err(e) => panic!("{}", e.summary()),
            };
        });
        names.push(name);
    }
    Ok((ts, names))
}
