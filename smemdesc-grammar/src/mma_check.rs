//! The checks of a `#[smem_mma]` module beyond its pairing: `cluster = (x, y)` (the core's
//! `Cluster::multicast` of both operands, and the `cta_group::2` pair) and the module's
//! `#[smem_scale_tile]`s against the pair (`MmaPair::check_scale_tile`), each refusal spanned
//! on the argument at fault.

use crate::mma::{find_tiles, MmaOpts, Paired};
use proc_macro2::{Ident, Span, TokenStream};
use smemdesc_core::cluster::{Cluster, CtaPair};
use smemdesc_core::{IdescError, Operand};

/// The module's cluster, checked: `Ok(None)` without `cluster = (x, y)`; for a `cta_group::2`
/// pair the CTA pair is checked too (`site`: the attribute, where that refusal points).
///
/// ```
/// use smemdesc_grammar::{mma::{pair, parse_opts}, mma_check::cluster};
///
/// let site = proc_macro2::Span::call_site();
/// let body = "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)] struct A;
///             #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K)] struct B;";
/// let o = parse_opts("accum = f32, cluster = (2, 1)".parse().unwrap(), site).unwrap();
/// let p = pair(&o, &body.parse().unwrap(), site).unwrap().unwrap();
/// assert_eq!(cluster(&o, &p, site).unwrap().map(|c| c.size()), Some(2));
/// ```
pub fn cluster(o: &MmaOpts, p: &Paired, site: Span) -> syn::Result<Option<Cluster>> {
    let pair = &p.pair;
    if pair.cta_group == 2 {
        CtaPair::new(pair.shape.m, pair.shape.n).map_err(|e| syn::Error::new(site, e))?;
    }
    let Some(((x, y), span)) = o.cluster else {
        if let Some((_, s)) = o.non_portable {
            return Err(syn::Error::new(
                s,
                "`non_portable` applies to a `cluster = (x, y)`",
            ));
        }
        return Ok(None);
    };
    if pair.cta_group == 2 {
        return Err(syn::Error::new(span, pair_cluster_refusal(x, y)));
    }
    let np = o.non_portable.is_some_and(|v| v.0);
    // The tiles' arch bounds the cluster (portable 8; non-portable 16 where a source gives it).
    let c =
        Cluster::for_arch(p.a.plan.decl.arch, x, y, np).map_err(|e| syn::Error::new(span, e))?;
    for (op, plan) in [(Operand::A, &p.a.plan), (Operand::B, &p.b.plan)] {
        c.multicast(
            op,
            &plan.tile,
            Some((plan.tma.box_rows, plan.tma.box_inner)),
        )
        .map_err(|e| syn::Error::new(span, format!("cluster ({x}, {y}): {e}")))?;
    }
    Ok(Some(c))
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

/// The `#[smem_scale_tile]`s of the module `body`: each must hold the factors of its operand's
/// tile ([`MmaPair::check_scale_tile`]); returns each one's name and operand. A scale tile that
/// does not parse or build is passed over (it reports its own error where it expands).
///
/// [`MmaPair::check_scale_tile`]: smemdesc_core::MmaPair::check_scale_tile
///
/// ```
/// use smemdesc_grammar::{mma::{pair, parse_opts}, mma_check::scale_tiles};
///
/// let site = proc_macro2::Span::call_site();
/// let body = "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)] struct A;
///             #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K)] struct B;";
/// let o = parse_opts("accum = f32".parse().unwrap(), site).unwrap();
/// let p = pair(&o, &body.parse().unwrap(), site).unwrap().unwrap();
/// assert!(scale_tiles(&p, &body.parse().unwrap()).unwrap().is_empty());
/// ```
pub fn scale_tiles(p: &Paired, body: &TokenStream) -> syn::Result<Vec<(Ident, Operand)>> {
    let mut names = Vec::new();
    for (args_ts, span, name) in find_tiles(body, true) {
        let Ok(args) = crate::scale::parse(args_ts, span) else {
            continue;
        };
        let Ok(sf) = crate::scale::core(&args).build() else {
            continue;
        };
        let Some(name) = name else {
            continue;
        };
        let tile = match args.operand.value {
            Operand::A => &p.a.plan,
            Operand::B => &p.b.plan,
        };
        p.pair.check_scale_tile(tile, &sf).map_err(|e| {
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
        names.push((name, args.operand.value));
    }
    Ok(names)
}
