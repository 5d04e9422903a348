//! `#[smem_pipeline(...)]`: a TMA → tensor-core pipeline over a `#[smem_storage]`.
//!
//! The macro sees tokens, not the tiles' constants, so it emits the core's `PipelineSpec` as a
//! `const` expression the compiler evaluates, and one `const` check per key that can be wrong,
//! spanned on that key's value: the build error of that class (a stated `expect_tx` that is not
//! the bytes that land, a multicast load no CTA expects, ...) is reported there, and
//! `LAYOUT` itself only fails for the classes no key covers. What the macro can check itself
//! (keys, duplicate names, value kinds) is a spanned error here.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use smemdesc_grammar::pipeline::{parse_args, Num, PipelineArgs};
use syn::ext::IdentExt;
use syn::spanned::Spanned;

/// The check classes: the core's `PipelineKey` (the one classification of the errors by key,
/// which `smemdesc::pipeline::__check` and `header --from` read too) as numbers.
mod class {
    use smemdesc_core::pipeline::PipelineKey as K;
    pub const EXPECT_TX: u32 = K::ExpectTx as u32;
    pub const FULL_ARRIVALS: u32 = K::FullArrivals as u32;
    pub const EMPTY_ARRIVALS: u32 = K::EmptyArrivals as u32;
    pub const MULTICAST: u32 = K::Multicast as u32;
    pub const LOAD: u32 = K::LoadType as u32;
    pub const NO_EMPTY: u32 = K::Empty as u32;
    pub const BUDGET: u32 = K::Stages as u32;
    pub const TMEM: u32 = K::Tmem as u32;
    pub const CTA_GROUP: u32 = K::CtaGroup as u32;
    pub const CLUSTER: u32 = K::Cluster as u32;
    pub const CONSUMERS: u32 = K::Consumers as u32;
    pub const CONSUMER_THREADS: u32 = K::ConsumerThreads as u32;
    pub const CONSUMER_ARRIVALS: u32 = K::ConsumerArrivals as u32;
}

/// The item must be a unit struct: the pipeline is a type whose items are its constants, and
/// an enum's variants or a struct's fields would be dropped without a word.
fn check_item(input: &syn::DeriveInput) -> syn::Result<()> {
    let (span, what) = match &input.data {
        syn::Data::Struct(d) if matches!(d.fields, syn::Fields::Unit) => return Ok(()),
        syn::Data::Struct(d) => (
            d.fields.span(),
            "a struct with fields (they would be dropped)",
        ),
        syn::Data::Enum(e) => (e.enum_token.span, "an enum (its variants would be dropped)"),
        syn::Data::Union(u) => (u.union_token.span, "a union (its fields would be dropped)"),
    };
    Err(syn::Error::new(
        span,
        format!("#[smem_pipeline] applies to a unit struct, not {what}: the pipeline is a type whose items are its constants and barrier accessors; legal: `struct {};`", input.ident.unraw()),
    ))
}

/// Expands the attribute; errors are spanned on the argument at fault.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let site = Span::call_site();
    let PipelineArgs {
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
    } = parse_args(attr, site)?;
    let input: syn::DeriveInput = syn::parse2(item)?;
    check_item(&input)?;
    let name = &input.ident;
    // `name` carrying `span` (a raw identifier stays raw).
    let name_at = |span: Span| {
        let mut n = name.clone();
        n.set_span(span);
        n
    };
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new(
            input.generics.span(),
            "#[smem_pipeline] takes a struct without generics",
        ));
    }
    let full_m = full.clone().unwrap_or_else(|| syn::parse_quote!(full));
    let no_empty = empty.as_ref().is_some_and(|p| p.is_ident("none"));
    let empty_m: syn::Path = empty
        .clone()
        .filter(|_| !no_empty)
        .unwrap_or_else(|| syn::parse_quote!(empty));
    // The members' items as `#[smem_storage]` names them (raw identifiers unraw'd).
    let member = |p: &syn::Path| {
        p.get_ident()
            .map_or(String::new(), |i| i.unraw().to_string())
    };
    let (full_s, empty_s) = (member(&full_m), member(&empty_m));
    let full_at = format_ident!("{}_at", full_s);
    let full_bytes = format_ident!("{}_BYTES", full_s.to_uppercase());
    let full_ptr = format_ident!("{}_ptr", full_s);
    let empty_at = format_ident!("{}_at", empty_s);
    let empty_bytes = format_ident!("{}_BYTES", empty_s.to_uppercase());
    let empty_ptr = format_ident!("{}_ptr", empty_s);

    // The spec, built from the loads' constants.
    let pl = quote!(::smemdesc::pipeline);
    let mut spec = quote!(#pl::PipelineSpec::new(#storage::LAYOUT.arch(), #cons_lit));
    if arrivals_v != 1 {
        spec.extend(quote!(.consumer_arrivals(#arrivals_v)));
    }
    if threads_v != 128 {
        spec.extend(quote!(.consumer_threads(#threads_v)));
    }
    if let Some((_, x, y)) = &cluster {
        spec.extend(quote!(.cluster(#x, #y)));
    }
    if let Some((_, l)) = &cta_group {
        spec.extend(quote!(.cta_group(#l)));
    }
    if let Some((_, l)) = &tmem {
        spec.extend(quote!(.tmem(#l)));
    }
    if let Some((_, l)) = &stages {
        spec.extend(quote!(.stages(#l)));
    }
    if no_empty {
        spec.extend(quote!(.no_empty_barriers()));
    }
    for (i, l) in loads.iter().enumerate() {
        let (n, ty) = (l.name.unraw().to_string(), &l.ty);
        let mut e = if l.scale {
            // Into its storage member, checked to hold every stage at TMA's alignment.
            let up = n.to_uppercase();
            let (mb, ma) = (format_ident!("{}_BYTES", up), format_ident!("{}_ALIGN", up));
            quote_spanned!(ty.span()=> #pl::PipelineLoad::bytes(#n, #ty::STAGE_BYTES, #ty::BYTES / #ty::STAGE_BYTES).into_member(#storage::#mb, #storage::#ma))
        } else {
            // The tile's plan: its layout, operand and CTA group.
            quote_spanned!(ty.span()=> #pl::PipelineLoad::plan(#n, &<#ty as ::smemdesc::SmemTile>::PLAN))
        };
        if mc_idx.iter().any(|m| m.0 == i) {
            e.extend(quote!(.multicast()));
        }
        spec.extend(quote!(.load(#e)));
    }
    // Checks, each on its key. Every token of a check carries the key's span, so the error
    // points at the key; the specs it checks are hidden associated consts of the struct
    // (`__SPEC_BASE`: the declaration without stated numbers; `__SPEC_<KEY>`: with one).
    let mut checks = Vec::new();
    let mut covered = 0u32;
    let mut check = |cls: u32, load: usize, span: Span, spec: &str| {
        covered |= 1 << cls;
        let n = name_at(span);
        let c = syn::Ident::new(spec, span);
        checks.push(quote_spanned!(span=>
            const _: () = ::smemdesc::pipeline::__check(&#n::#c, #cls, #load);
        ));
    };
    let base_spec = spec.clone();
    let mut stated_specs = Vec::new();
    let mut full_spec = quote!(Self::__SPEC_BASE);
    for (v, m, cls) in [
        (&expect_tx, "expect_tx", class::EXPECT_TX),
        (&full_arr, "full_arrivals", class::FULL_ARRIVALS),
        (&empty_arr, "empty_arrivals", class::EMPTY_ARRIVALS),
    ] {
        if let Some((_, l)) = v {
            let c = format!("__SPEC_{}", m.to_uppercase());
            let (ci, mi) = (format_ident!("{}", c), format_ident!("{}", m));
            stated_specs.push(quote! {
                #[doc(hidden)]
                pub const #ci: #pl::PipelineSpec = Self::__SPEC_BASE.#mi(#l);
            });
            full_spec.extend(quote!(.#mi(#l)));
            check(cls, usize::MAX, l.span(), &c);
        }
    }
    const BASE: &str = "__SPEC_BASE";
    for (i, sp) in &mc_idx {
        check(class::MULTICAST, *i, *sp, BASE);
    }
    for (i, l) in loads.iter().enumerate() {
        check(class::LOAD, i, l.ty.span(), BASE);
    }
    if no_empty {
        let sp = empty.as_ref().map_or(site, |p| p.span());
        check(class::NO_EMPTY, usize::MAX, sp, BASE);
    }
    let sp = stages.as_ref().map_or(lparen.span.join(), |s| s.1.span());
    check(class::BUDGET, usize::MAX, sp, BASE);
    if let Some((_, l)) = &tmem {
        check(class::TMEM, usize::MAX, l.span(), BASE);
    }
    if let Some((_, l)) = &cta_group {
        check(class::CTA_GROUP, usize::MAX, l.span(), BASE);
    }
    if let Some((p, _, _)) = &cluster {
        check(class::CLUSTER, usize::MAX, p.span.join(), BASE);
    }
    check(class::CONSUMERS, usize::MAX, cons_lit.span(), BASE);
    let lit_or_consumers = |n: &Option<Num>| n.as_ref().map_or(cons_lit.span(), |n| n.1.span());
    check(
        class::CONSUMER_THREADS,
        usize::MAX,
        lit_or_consumers(&threads),
        BASE,
    );
    check(
        class::CONSUMER_ARRIVALS,
        usize::MAX,
        lit_or_consumers(&arrivals),
        BASE,
    );
    // A multicast load's plan (`TileLoad::MULTICAST`, evaluated only where a kernel issues the
    // load) evaluated here, on its name in `multicast`, once the declaration is otherwise legal.
    for (i, sp) in &mc_idx {
        let ty = &loads[*i].ty;
        let (x, y) = cluster.as_ref().map_or((1, 1), |c| (c.1, c.2));
        let n = name_at(*sp);
        checks.push(quote_spanned!(*sp=>
            const _: () = if #n::__SPEC_BASE.build().is_ok() {
                let _ = ::smemdesc::pipeline::__multicast::<#ty>(#x, #y);
            };
        ));
    }

    // The loads' trait impls and the type list.
    let mut impls = Vec::new();
    let mut list = quote!(());
    for (i, l) in loads.iter().enumerate().rev() {
        list = quote!((#pl::Load<#i>, #list));
        let (n, ty) = (&l.name, &l.ty);
        if l.scale {
            impls.push(quote_spanned! {n.span()=>
                impl #pl::RawLoad<#i> for #name {
                    #[inline(always)]
                    fn stage_addr(base: u32, s: u32) -> u32 {
                        #storage::#n(base).wrapping_add(s.wrapping_mul(#ty::STAGE_BYTES))
                    }
                    const STAGE_BYTES: u32 = #ty::STAGE_BYTES;
                }
            });
        } else {
            let mc = if mc_idx.iter().any(|m| m.0 == i) {
                let (x, y) = cluster.as_ref().map_or((1, 1), |c| (c.1, c.2));
                quote!(::core::option::Option::Some(#pl::__multicast::<#ty>(#x, #y)))
            } else {
                quote!(::core::option::Option::None)
            };
            impls.push(quote_spanned! {n.span()=>
                impl #pl::RawLoad<#i> for #name {
                    #[inline(always)]
                    fn stage_addr(base: u32, s: u32) -> u32 {
                        #storage::#n(base).stage_addr(s)
                    }
                    const STAGE_BYTES: u32 = <#ty as ::smemdesc::SmemTile>::STAGE_BYTES;
                }
                impl #pl::TileLoad<#i> for #name {
                    type Tile = #ty;
                    #[inline(always)]
                    fn tile(base: u32) -> ::smemdesc::smem::TileAt<#ty> {
                        #storage::#n(base)
                    }
                    const MULTICAST: ::core::option::Option<::smemdesc::cluster::Multicast> = #mc;
                }
            });
        }
    }
    let empty_fn = if no_empty {
        quote!(#storage::#full_at(base, s))
    } else {
        quote!(#storage::#empty_at(base, s))
    };
    // Each barrier member is `[Mbarrier; N]` (its `_ptr` accessor's type: any other type is
    // refused by `MbarrierArray`), of one mbarrier per stage.
    // (a defaulted key's type check points at `storage`, whose member it is)
    let bar_check = |key: Option<&syn::Path>, label: &str, bytes: &syn::Ident, ptr: &syn::Ident| {
        let span = key.map_or(site, |p| p.span());
        let tspan = key.map_or(storage.span(), |p| p.span());
        let n = name_at(span);
        let st = &storage;
        let mut ptr = ptr.clone();
        ptr.set_span(tspan);
        let mut c = quote_spanned!(tspan=>
            const _: u32 = ::smemdesc::pipeline::PipelineSpec::__barrier_member(#st::#ptr);
        );
        c.extend(quote_spanned!(span=>
            const _: () = ::smemdesc::pipeline::__check_barriers(#label, #st::#bytes, &#n::__SPEC_BASE);
        ));
        c
    };
    let mut bar_checks = vec![bar_check(full.as_ref(), &full_s, &full_bytes, &full_ptr)];
    if !no_empty {
        bar_checks.push(bar_check(
            empty.as_ref(),
            &empty_s,
            &empty_bytes,
            &empty_ptr,
        ));
    }
    let group = if cta_group.as_ref().is_some_and(|c| c.0 == 2) {
        quote!(#pl::Pair)
    } else {
        quote!(#pl::Single)
    };
    let launch = if dependent.as_ref().is_some_and(|b| b.value) {
        quote!(#pl::Dependent)
    } else {
        quote!(#pl::Independent)
    };
    let vis = &input.vis;
    let attrs = &input.attrs;
    Ok(quote! {
        #(#attrs)*
        #vis struct #name;
        impl #name {
            #[doc(hidden)]
            pub const __SPEC_BASE: #pl::PipelineSpec = #base_spec;
            #(#stated_specs)*
            /// The declaration (the core's `PipelineSpec`).
            pub const SPEC: #pl::PipelineSpec = #full_spec;
            /// The checked protocol.
            pub const LAYOUT: #pl::PipelineLayout = #pl::__layout(&Self::SPEC, &Self::__SPEC_BASE, #covered);
            /// Stages.
            pub const STAGES: u32 = Self::LAYOUT.stages();
            /// Bytes each stage's full barrier expects (the leader's under `cta_group::2`).
            pub const EXPECT_TX: u32 = Self::LAYOUT.expect_tx(0);
            /// Init count of the full barriers.
            pub const FULL_ARRIVALS: u32 = Self::LAYOUT.full_arrivals();
            /// Init count of the empty barriers.
            pub const EMPTY_ARRIVALS: u32 = Self::LAYOUT.empty_arrivals();
            /// Threads per consumer group.
            pub const CONSUMER_THREADS: u32 = #threads_v;
        }
        const _: #pl::PipelineLayout = #name::LAYOUT;
        #(#checks)*
        #(#bar_checks)*
        impl #pl::Pipeline for #name {
            const LAYOUT: #pl::PipelineLayout = #name::LAYOUT;
            const CONSUMER_THREADS: u32 = #threads_v;
            type Loads = #list;
            type Group = #group;
            type Launch = #launch;
            #[inline(always)]
            fn full(base: u32, s: u32) -> u32 {
                #storage::#full_at(base, s)
            }
            #[inline(always)]
            fn empty(base: u32, s: u32) -> u32 {
                #empty_fn
            }
        }
        #(#impls)*
    })
}
