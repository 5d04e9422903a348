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
use smemdesc_core::cluster::Cluster;
use smemdesc_core::Operand;
use smemdesc_grammar::mma::{parse_opts, MmaOpts, Paired};

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
    let site = Span::call_site();
    let opts = parse_opts(attr, site)?;
    crate::mma_scan::refuse_cfg_tiles(body)?;
    let Some(p) = smemdesc_grammar::mma::pair(&opts, body, site)? else {
        return Ok(TokenStream::new());
    };
    let (na, nb) = (&p.a.name, &p.b.name);
    let mut ts = crate::mma_items::items(&p.pair, na, nb, &p.po)?;
    let scales = smemdesc_grammar::mma_check::scale_tiles(&p, body)?;
    let cluster = smemdesc_grammar::mma_check::cluster(&opts, &p, site)?;
    ts.extend(cluster_items(&opts, &p, cluster, &scales));
    for (name, op) in &scales {
        let tile_name = match op {
            Operand::A => na,
            Operand::B => nb,
        };
        ts.extend(quote! {
            const _: () = match MMA.check_scale_tile(&<#tile_name as ::smemdesc::SmemTile>::PLAN, &#name::SCALE) {
                Ok(()) => (),
                Err(e) => panic!("{}", e.summary()),
            };
        });
    }
    Ok(ts)
}

/// `cluster = (x, y)`: the multicast plan of both operands (the core's `Cluster::multicast`,
/// checked by the grammar), and for `cta_group::2` the CTA pair. `scales`: the module's
/// `#[smem_scale_tile]` structs, whose bytes every stage's barrier also receives (each CTA loads
/// its own scale factors: they are not multicast).
fn cluster_items(
    o: &MmaOpts,
    p: &Paired,
    cluster: Option<Cluster>,
    scales: &[(Ident, Operand)],
) -> TokenStream {
    let pair = &p.pair;
    let mut ts = TokenStream::new();
    if pair.cta_group == 2 {
        let (m, n) = (pair.shape.m, pair.shape.n);
        ts.extend(quote! {
            /// The `cta_group::2` CTA pair: A split by M, B by N, SFA by M, SFB to both.
            pub const CTA_PAIR: ::smemdesc::cluster::CtaPair = match ::smemdesc::cluster::CtaPair::new(#m, #n) {
                Ok(p) => p,
                Err(_) => panic!("checked by #[smem_mma]"),
            };
        });
    }
    let (Some(c), Some(_)) = (cluster, o.cluster) else {
        return ts;
    };
    let (x, y) = (c.x(), c.y());
    let ctor = if o.non_portable.is_some_and(|v| v.0) {
        quote!(non_portable)
    } else {
        quote!(new)
    };
    let (na, nb) = (&p.a.name, &p.b.name);
    let scales = scales.iter().map(|(n, _)| n);
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
    ts
}
