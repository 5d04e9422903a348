//! `#[smem_storage(arch = ...)]`: one CTA's shared memory as one struct declaration.
//!
//! A proc-macro sees tokens, not the constants of other items: it cannot know `TileA::BYTES`.
//! So this macro classifies each field by its *syntax* (an array `[T; N]`, a scalar or
//! `Mbarrier`, else an `#[smem_tile]` type) and emits `const` expressions that the compiler
//! evaluates: `smemdesc::StorageLayout::plan(...)` over the members' sizes and alignments
//! (a tile's own `BYTES`/`ALIGN`/`ARCH` through `__private::tile_member`, `size_of`/`align_of`),
//! then `.expect_fits()`, whose compile-time panic names every member with its size, offset and
//! alignment when the storage does not fit. Everything the macro itself can check (arguments,
//! field attributes) is a spanned error here.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use smemdesc_core::Arch;
use syn::ext::IdentExt;
use syn::spanned::Spanned;

/// Scalar types a member may have besides arrays, `Mbarrier` and tiles.
const SCALARS: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128", "f32", "f64",
];

enum Kind {
    /// `[T; N]`: plain bytes with an element stride.
    Array(Box<syn::Type>),
    /// A scalar, `Mbarrier` or `TmemSlot` (the `tcgen05.alloc` address word).
    Plain,
    /// An `#[smem_tile]` type, with the placement model requested (`None`: on its repeat).
    Tile(Option<(bool, Span)>),
    /// An `#[smem_epilogue_tile]` type (`#[smem(epilogue)]`): its stages' bytes and alignment.
    Epilogue,
}

struct Member {
    ident: syn::Ident,
    ty: syn::Type,
    kind: Kind,
    align: Option<syn::LitInt>,
    /// The field's `#[cfg(...)]` attributes: every item and offset term of the member is emitted
    /// under them, so the compiler counts the member exactly when its configuration holds.
    cfgs: Vec<syn::Attribute>,
}

/// `TmemSlot` members of a storage for an architecture without Tensor Memory (sm90): refused.
fn check_tmem(arch: Arch, fields: &[&syn::Field], errs: &mut Vec<syn::Error>) {
    for f in fields {
        if let Err(e) = smemdesc_grammar::storage::tmem_member(arch, &f.ty) {
            errs.push(e);
        }
    }
}

/// Whether `ty` names a scalar, `Mbarrier` or `TmemSlot`: a member of that type is plain data
/// (sized by `size_of`), and so is an array of it, which needs no zero-size check.
fn is_plain(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => p.path.segments.last().is_some_and(|s| {
            let s = s.ident.to_string();
            SCALARS.contains(&s.as_str()) || s == "Mbarrier" || s == "TmemSlot"
        }),
        _ => false,
    }
}

fn classify(f: &syn::Field, errs: &mut Vec<syn::Error>) -> Option<Member> {
    let ident = f.ident.clone()?;
    let a = smemdesc_grammar::storage::member_attrs(f, errs);
    // (the placement as the emitter takes it: `true` = absolute)
    let placement = a
        .placement
        .map(|(p, s)| (p == smemdesc_core::Placement::Absolute, s));
    let (align, epilogue) = (a.align, a.epilogue);
    let kind = match &f.ty {
        syn::Type::Array(a) => Kind::Array(a.elem.clone()),
        ty @ syn::Type::Path(p) if p.qself.is_none() => {
            if is_plain(ty) {
                Kind::Plain
            } else if epilogue.is_some() {
                Kind::Epilogue
            } else {
                Kind::Tile(placement)
            }
        }
        other => {
            errs.push(syn::Error::new(
                other.span(),
                "a #[smem_storage] member is an #[smem_tile] type, an array `[T; N]`, a scalar, `Mbarrier` or `TmemSlot`",
            ));
            return None;
        }
    };
    if let (Some(span), Kind::Array(_) | Kind::Plain) = (epilogue, &kind) {
        errs.push(syn::Error::new(
            span,
            format!(
                "`epilogue` applies to #[smem_epilogue_tile] members only; `{ident}` is plain data"
            ),
        ));
    }
    if let (Some((_, span)), Kind::Array(_) | Kind::Plain | Kind::Epilogue) = (placement, &kind) {
        errs.push(syn::Error::new(
            span,
            format!("`placement` applies to #[smem_tile] members only; `{ident}` is plain data"),
        ));
    }
    let cfgs = f
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .cloned()
        .collect();
    Some(Member {
        ident,
        ty: f.ty.clone(),
        kind,
        align,
        cfgs,
    })
}

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let arch = smemdesc_grammar::storage::storage_arch(attr, Span::call_site());
    let st: syn::DeriveInput = syn::parse2(item).map_err(|e| {
        syn::Error::new(
            e.span(),
            "#[smem_storage] applies to a struct with named fields (`struct S { a: TileA, full: [Mbarrier; 4] }`)",
        )
    })?;
    let mut errs = Vec::new();
    if let Err(e) = &arch {
        errs.push(e.clone());
    }
    if !st.generics.params.is_empty() {
        errs.push(syn::Error::new_spanned(
            &st.generics,
            "#[smem_storage] structs cannot be generic",
        ));
    }
    let fields = match &st.data {
        syn::Data::Struct(syn::DataStruct {
            fields: syn::Fields::Named(n),
            ..
        }) if !n.named.is_empty() => n.named.iter().collect::<Vec<_>>(),
        _ => {
            errs.push(syn::Error::new(
                st.ident.span(),
                "#[smem_storage] needs a struct with named fields, one per shared-memory member",
            ));
            Vec::new()
        }
    };
    if let Ok(a) = &arch {
        check_tmem(*a, &fields, &mut errs);
    }
    let members: Vec<Member> = fields
        .iter()
        .filter_map(|f| classify(f, &mut errs))
        .collect();
    let mut all = errs.into_iter();
    if let Some(mut e) = all.next() {
        for x in all {
            e.combine(x);
        }
        return Err(e);
    }
    let arch = crate::emit::arch_path(arch.expect("checked"));
    check_names(&members)?;
    Ok(emit(&st, &arch, &members))
}

/// The items a member generates must not collide with each other's or the storage's own.
fn check_names(members: &[Member]) -> syn::Result<()> {
    let mut taken: std::collections::HashMap<String, String> = [
        "LAYOUT",
        "BYTES",
        "ALIGN",
        "SLACK",
        "LAUNCH_BYTES",
        "aligned_base",
        "__SMEM_NUMBERS",
    ]
    .iter()
    .map(|n| (n.to_string(), "the storage".to_string()))
    .collect();
    // Two members that both carry `#[cfg]` may be alternatives (`#[cfg(a)] x`, `#[cfg(not(a))] x`):
    // only the compiler knows whether both are present, and it reports duplicates itself.
    let mut cfg_owned = std::collections::HashSet::new();
    for m in members {
        let f = m.ident.unraw().to_string();
        let up = f.to_uppercase();
        let mut names = vec![
            f.clone(),
            format!("{f}_ptr"),
            format!("{up}_OFFSET"),
            format!("{up}_BYTES"),
            format!("{up}_ALIGN"),
        ];
        match m.kind {
            Kind::Tile(_) => names.push(format!("{up}_DESC")),
            Kind::Array(_) => names.push(format!("{f}_at")),
            Kind::Plain | Kind::Epilogue => {}
        }
        for n in names {
            if !m.cfgs.is_empty() && !cfg_owned.insert(n.clone()) {
                continue;
            }
            if let Some(owner) = taken.insert(n.clone(), format!("member `{f}`")) {
                return Err(syn::Error::new(
                    m.ident.span(),
                    format!("member `{f}` generates `{n}`, which {owner} generates too; rename the member"),
                ));
            }
        }
    }
    Ok(())
}

fn emit(st: &syn::DeriveInput, arch: &TokenStream, members: &[Member]) -> TokenStream {
    let name = &st.ident;
    let vis = &st.vis;
    let attrs = st.attrs.iter().filter(|a| !a.path().is_ident("smem"));
    let name_str = name.to_string();
    // The number of members and each member's index, counting only members whose `#[cfg]`
    // holds: without any `#[cfg]` plain literals, else the length of `&[(), #[cfg(..)] (), ..]`,
    // which the compiler evaluates after configuration.
    let any_cfg = members.iter().any(|m| !m.cfgs.is_empty());
    let count = |upto: usize| -> TokenStream {
        if any_cfg {
            let units = members[..upto].iter().map(|m| {
                let c = &m.cfgs;
                quote!(#(#c)* ())
            });
            quote!({
                let units: &[()] = &[#(#units),*];
                units.len()
            })
        } else {
            let n = upto;
            quote!(#n)
        }
    };
    let n = count(members.len());
    // Fixed strings and numbers as tokens built once: a literal written inside `quote!` is
    // re-lexed (and validated) for every use, a large part of this macro's own run time.
    let lit = proc_macro2::Literal::string;
    let doc_layout =
        lit(" The checked layout (a compile error naming every member when it does not fit).");
    let doc_total_bytes = lit(" Bytes from the storage base to the end of the last member.");
    let doc_total_align = lit(" Alignment the storage base needs.");
    let doc_slack = lit(" Slack to align a 16-B aligned dynamic shared-memory base to `ALIGN`.");
    let doc_launch =
        lit(" `sharedMemBytes` to launch with when the kernel aligns its dynamic base itself.");
    let doc_aligned_base =
        lit(" The storage base for a dynamic shared-memory base address (rounded up to `ALIGN`).");
    let doc_bytes = lit("Bytes of the member.");
    let doc_align = lit("Alignment of the member's offset.");
    let doc_ptr = lit("Pointer to the member from the storage base pointer (which must be aligned to `ALIGN`; see `aligned_base`).");
    let doc_desc = lit("Descriptor of MMA subtile (0, 0), stage 0, for a storage base at address 0 (add `base >> 4` for another aligned base).");
    let zero = proc_macro2::Literal::u32_unsuffixed(0);
    let members_field = syn::Index::from(4);
    // Every number as a field of one tuple constant, `__SMEM_NUMBERS` (without `#[cfg]`): a
    // constant that reads a field costs the compiler about half of one that calls a method of
    // `LAYOUT`. With `#[cfg]` members (the tuple's arity is unknown here) the methods.
    let numbers = |field: usize, member: Option<usize>| -> TokenStream {
        let field = syn::Index::from(field);
        match member {
            None if !any_cfg => quote!(Self::__SMEM_NUMBERS.#field),
            Some(m) if !any_cfg => {
                let m = syn::Index::from(m);
                quote!(Self::__SMEM_NUMBERS.#members_field.#m.#field)
            }
            None => {
                let method = [
                    quote!(bytes),
                    quote!(align),
                    quote!(slack),
                    quote!(launch_bytes),
                ];
                let method = &method[field.index as usize];
                quote!(Self::LAYOUT.#method())
            }
            Some(m) => {
                let i = count(m);
                let method = [quote!(offset), quote!(member_bytes), quote!(member_align)];
                let method = &method[field.index as usize];
                quote!(Self::LAYOUT.#method(#i))
            }
        }
    };
    let numbers_item = if any_cfg {
        quote!()
    } else {
        let binds: Vec<_> = (0..members.len())
            .map(|i| format_ident!("m{}", i))
            .collect();
        let tys = binds.iter().map(|_| quote!((u32, u32, u32),));
        quote! {
            #[doc(hidden)]
            pub const __SMEM_NUMBERS: (u32, u32, u32, u32, (#(#tys)*)) = {
                let l = &Self::LAYOUT;
                let [#(#binds),*] = ::smemdesc::__private::member_numbers(l);
                (l.bytes(), l.align(), l.slack(), l.launch_bytes(), (#(#binds,)*))
            };
        }
    };
    let mut list = Vec::new();
    let mut items = Vec::new();
    for (idx, m) in members.iter().enumerate() {
        let cfg = &m.cfgs;
        let f = &m.ident;
        let fname = f.unraw().to_string();
        let ty = &m.ty;
        let upper = fname.to_uppercase();
        let off = format_ident!("{}_OFFSET", upper);
        let bytes = format_ident!("{}_BYTES", upper);
        let align_c = format_ident!("{}_ALIGN", upper);
        let ptr = format_ident!("{}_ptr", f);
        let at = format_ident!("{}_at", f);
        let span = m.ty.span();
        let member = match &m.kind {
            Kind::Tile(p) => {
                let pl = match p {
                    None => quote!(::core::option::Option::None),
                    Some((true, _)) => quote!(::core::option::Option::Some(
                        ::smemdesc::Placement::Absolute
                    )),
                    Some((false, _)) => quote!(::core::option::Option::Some(
                        ::smemdesc::Placement::Relative
                    )),
                };
                quote_spanned!(span=> ::smemdesc::__private::tile_member::<#ty>(#fname, #pl))
            }
            Kind::Array(elem) if !is_plain(elem) => {
                // A zero-sized element (an `#[smem_storage]` struct is a unit struct: its bytes
                // are constants, not a Rust size) would count 0 bytes: refused, not miscounted.
                let msg = format!(
                    "#[smem_storage] member `{fname}`: its element type `{}` is zero-sized (an #[smem_storage] struct, a unit struct or an empty array has no bytes of its own), so the array would take 0 bytes; legal elements: scalars, `Mbarrier`, #[smem_tile] structs and arrays of those; declare a nested storage's members in this storage",
                    quote!(#elem)
                );
                let espan = elem.span();
                let check = quote_spanned!(espan=> if ::core::mem::size_of::<#elem>() == 0 {
                    ::core::panic!(#msg)
                });
                quote_spanned!(span=> {
                    #check
                    ::smemdesc::StorageMember::sized(
                        #fname, ::core::mem::size_of::<#ty>(), ::core::mem::align_of::<#ty>()
                    )
                })
            }
            Kind::Epilogue => {
                quote_spanned!(span=> ::smemdesc::StorageMember::new(#fname, #ty::BYTES, #ty::ALIGN))
            }
            // Plain data, and arrays of it (never zero-sized elements: no check).
            Kind::Plain | Kind::Array(_) => quote_spanned!(span=> ::smemdesc::StorageMember::sized(
                #fname, ::core::mem::size_of::<#ty>(), ::core::mem::align_of::<#ty>()
            )),
        };
        let member = match &m.align {
            Some(a) => quote!(#member.at_least(#a)),
            None => member,
        };
        list.push(quote!(#(#cfg)* { #member }));
        let (off_v, bytes_v, align_v) = (
            numbers(0, Some(idx)),
            numbers(1, Some(idx)),
            numbers(2, Some(idx)),
        );
        let doc_off =
            format!("Byte offset of `{fname}` from the storage base (aligned to `ALIGN`).");
        items.push(quote! {
            #(#cfg)*
            #[doc = #doc_off]
            pub const #off: u32 = #off_v;
            #(#cfg)*
            #[doc = #doc_bytes]
            pub const #bytes: u32 = #bytes_v;
            #(#cfg)*
            #[doc = #doc_align]
            pub const #align_c: u32 = #align_v;
            #(#cfg)*
            #[doc = #doc_ptr]
            #[inline(always)]
            pub fn #ptr(base: *mut u8) -> *mut #ty {
                ::smemdesc::__private::member_ptr(base, Self::#off)
            }
        });
        match &m.kind {
            Kind::Tile(p) => {
                let model = match p {
                    Some((false, _)) => quote!(::smemdesc::Relative),
                    _ => quote!(::smemdesc::Absolute),
                };
                let desc = format_ident!("{}_DESC", upper);
                let doc = format!("`{fname}` placed at `base + {upper}_OFFSET` (`base`: the storage base address in the shared window, aligned to `ALIGN`): its descriptors, element addresses and TMA destinations.");
                items.push(quote! {
                    #(#cfg)*
                    #[doc = #doc]
                    #[inline(always)]
                    pub const fn #f(base: u32) -> ::smemdesc::smem::TileAt<#ty, #model> {
                        ::smemdesc::smem::TileAt::new_unvalidated(base.wrapping_add(Self::#off))
                    }
                    #(#cfg)*
                    #[doc = #doc_desc]
                    pub const #desc: u64 = Self::#f(#zero).desc(#zero, #zero, #zero);
                });
            }
            Kind::Array(elem) => {
                let doc =
                    format!("Shared-window address of `{fname}` for the storage base `base`.");
                let doc_at = format!("Shared-window address of element `i` of `{fname}`.");
                items.push(quote! {
                    #(#cfg)*
                    #[doc = #doc]
                    #[inline(always)]
                    pub const fn #f(base: u32) -> u32 {
                        base + Self::#off
                    }
                    #(#cfg)*
                    #[doc = #doc_at]
                    #[inline(always)]
                    pub const fn #at(base: u32, i: u32) -> u32 {
                        base + Self::#off + i * ::core::mem::size_of::<#elem>() as u32
                    }
                });
            }
            Kind::Plain | Kind::Epilogue => {
                let doc =
                    format!("Shared-window address of `{fname}` for the storage base `base`.");
                items.push(quote! {
                    #(#cfg)*
                    #[doc = #doc]
                    #[inline(always)]
                    pub const fn #f(base: u32) -> u32 {
                        base + Self::#off
                    }
                });
            }
        }
    }
    let (total_bytes, total_align, slack, launch) = (
        numbers(0, None),
        numbers(1, None),
        numbers(2, None),
        numbers(3, None),
    );
    quote! {
        #(#attrs)*
        #vis struct #name;

        impl #name {
            #[doc = #doc_layout]
            pub const LAYOUT: ::smemdesc::StorageLayout<#n> =
                ::smemdesc::StorageLayout::plan(#name_str, #arch, [#(#list),*]).expect_fits();
            #numbers_item
            #[doc = #doc_total_bytes]
            pub const BYTES: u32 = #total_bytes;
            #[doc = #doc_total_align]
            pub const ALIGN: u32 = #total_align;
            #[doc = #doc_slack]
            pub const SLACK: u32 = #slack;
            #[doc = #doc_launch]
            pub const LAUNCH_BYTES: u32 = #launch;
            #[doc = #doc_aligned_base]
            #[inline(always)]
            pub const fn aligned_base(dyn_base: u32) -> u32 {
                // `LAYOUT.aligned_base` from the constant: a kernel reads no layout value.
                (dyn_base + (Self::ALIGN - 1)) & !(Self::ALIGN - 1)
            }
            #(#items)*
        }

        impl ::smemdesc::smem::SmemStorage for #name {
            const BYTES: u32 = #name::BYTES;
            const ALIGN: u32 = #name::ALIGN;
            const LAUNCH_BYTES: u32 = #name::LAUNCH_BYTES;
        }

        const _: () = {
            let _ = #name::LAYOUT;
        };
    }
}
