//! `#[smem_storage(arch = …)]` and a member's own attribute, `#[smem(placement = …, align = N,
//! epilogue)]`, read for the macro and `smemdesc header --from` alike.

use proc_macro2::{Span, TokenStream, TokenTree};
use smemdesc_core::{Arch, Placement};
use syn::spanned::Spanned;

/// What a member's `#[smem(...)]` attributes say, each key with the span a refusal points at.
///
/// ```
/// use smemdesc_core::Placement;
/// use smemdesc_grammar::storage::member_attrs;
///
/// let f: syn::Field = syn::parse::Parser::parse_str(
///     syn::Field::parse_named,
///     "#[smem(placement = relative, align = 1024)] a: TileA",
/// )
/// .unwrap();
/// let mut errs = Vec::new();
/// let m = member_attrs(&f, &mut errs);
/// assert!(errs.is_empty());
/// assert_eq!(m.placement.map(|p| p.0), Some(Placement::Relative));
/// assert_eq!(m.align.map(|a| a.to_string()), Some("1024".to_string()));
/// assert!(m.epilogue.is_none());
/// ```
pub struct MemberAttrs {
    /// `placement = absolute | relative`, with the value's span.
    pub placement: Option<(Placement, Span)>,
    /// `align = N`: a power of two in 1..=2^31 (refused otherwise), as written.
    pub align: Option<syn::LitInt>,
    /// `epilogue` (the member is an `#[smem_epilogue_tile]`), with its span.
    pub epilogue: Option<Span>,
}

/// `#[smem(placement = absolute | relative, align = N, epilogue)]` on a field: each key at most
/// once over all of the field's `#[smem]` attributes (a second one is refused, not taken). Each
/// attribute's first refusal is pushed to `errs`, in source order.
///
/// ```
/// use smemdesc_grammar::storage::member_attrs;
///
/// let f: syn::Field = syn::parse::Parser::parse_str(
///     syn::Field::parse_named,
///     "#[smem(align = 16)] #[smem(align = 48)] a: TileA",
/// )
/// .unwrap();
/// let mut errs = Vec::new();
/// member_attrs(&f, &mut errs);
/// assert_eq!(errs[0].to_string(), "duplicate #[smem] key `align`: each key may be given once per member");
/// ```
pub fn member_attrs(f: &syn::Field, errs: &mut Vec<syn::Error>) -> MemberAttrs {
    let (mut placement, mut align, mut epilogue) = (None, None, None);
    let mut seen: Vec<String> = Vec::new();
    for a in f.attrs.iter().filter(|a| a.path().is_ident("smem")) {
        let r = a.parse_nested_meta(|m| {
            if let Some(key) = m.path.get_ident().map(|i| i.to_string()) {
                if seen.contains(&key) {
                    return Err(m.error(format!(
                        "duplicate #[smem] key `{key}`: each key may be given once per member"
                    )));
                }
                seen.push(key);
            }
            if m.path.is_ident("placement") {
                let v: syn::Ident = m.value()?.parse()?;
                placement = Some(match v.to_string().as_str() {
                    "absolute" => (Placement::Absolute, v.span()),
                    "relative" => (Placement::Relative, v.span()),
                    _ => {
                        return Err(syn::Error::new(
                            v.span(),
                            format!("unknown placement `{v}`; legal: absolute (TMA-written data, 128-B aligned on sm90), relative (pattern restarts at the tile start)"),
                        ))
                    }
                });
                Ok(())
            } else if m.path.is_ident("align") {
                let v: syn::LitInt = m.value()?.parse()?;
                match v.base10_parse::<u32>() {
                    Ok(n) if n.is_power_of_two() => align = Some(v),
                    _ => {
                        return Err(syn::Error::new(
                            v.span(),
                            format!("align = {v} is not a power of two in 1..=2^31; legal: 8, 16, 128, 1024, ..."),
                        ))
                    }
                }
                Ok(())
            } else if m.path.is_ident("epilogue") {
                epilogue = Some(m.path.span());
                Ok(())
            } else {
                Err(m.error("unknown #[smem] key; legal: placement = absolute | relative, align = <power of two>, epilogue"))
            }
        });
        if let Err(e) = r {
            errs.push(e);
        }
    }
    MemberAttrs {
        placement,
        align,
        epilogue,
    }
}

/// `#[smem_storage(arch = <arch>)]`'s argument: an arch whose shared memory per CTA a public
/// source gives (`site`: where a missing one points).
///
/// ```
/// use smemdesc_core::Arch;
/// use smemdesc_grammar::storage::storage_arch;
///
/// let site = proc_macro2::Span::call_site();
/// assert_eq!(storage_arch("arch = sm90".parse().unwrap(), site).unwrap(), Arch::Sm90);
/// let e = storage_arch("".parse().unwrap(), site).err().unwrap();
/// assert!(e.to_string().starts_with("#[smem_storage] needs the architecture: expected `arch = <arch>`"));
/// ```
pub fn storage_arch(attr: TokenStream, site: Span) -> syn::Result<Arch> {
    let toks: Vec<TokenTree> = attr.into_iter().collect();
    let legal = format!("expected `arch = <arch>`, one of {}", Arch::NAMES);
    match toks.as_slice() {
        [TokenTree::Ident(k), TokenTree::Punct(eq), TokenTree::Ident(v)]
            if k == "arch" && eq.as_char() == '=' =>
        {
            let arch = Arch::from_name(&v.to_string()).ok_or_else(|| {
                syn::Error::new(
                    v.span(),
                    format!("unknown arch `{v}`; legal: {}", Arch::NAMES),
                )
            })?;
            // A storage is checked against the arch's shared memory per CTA: an arch whose
            // size no public source gives (sm107) is refused, not guessed.
            if arch.smem_per_cta().is_none() {
                return Err(syn::Error::new(
                    v.span(),
                    format!(
                        "#[smem_storage] cannot check `arch = {}` against its shared memory per CTA: {}",
                        arch.name(),
                        smemdesc_core::base::ArchGap::NoPublicLimits.message()
                    ),
                ));
            }
            Ok(arch)
        }
        [] => Err(syn::Error::new(
            site,
            format!("#[smem_storage] needs the architecture: {legal}"),
        )),
        _ => {
            let span = toks
                .iter()
                .map(|t| t.span())
                .reduce(|a, b| a.join(b).unwrap_or(a))
                .unwrap_or(site);
            Err(syn::Error::new(span, legal))
        }
    }
}

/// Whether `ty` is `TmemSlot` or an array (of arrays) of it (parenthesised too).
fn is_tmem_slot(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Paren(p) => is_tmem_slot(&p.elem),
        syn::Type::Group(g) => is_tmem_slot(&g.elem),
        syn::Type::Array(a) => is_tmem_slot(&a.elem),
        syn::Type::Path(p) if p.qself.is_none() => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "TmemSlot"),
        _ => false,
    }
}

/// A storage member of type `ty` for `arch`: a `TmemSlot` (or an array of them) is refused where
/// the arch has no Tensor Memory (sm90), on the type.
///
/// ```
/// use smemdesc_core::Arch;
/// use smemdesc_grammar::storage::tmem_member;
///
/// let ty: syn::Type = syn::parse_str("[TmemSlot; 2]").unwrap();
/// assert!(tmem_member(Arch::Sm100, &ty).is_ok());
/// assert!(tmem_member(Arch::Sm90, &ty).unwrap_err().to_string().contains("Tensor Memory exists"));
/// ```
pub fn tmem_member(arch: Arch, ty: &syn::Type) -> syn::Result<()> {
    if arch.has_tcgen05() || !is_tmem_slot(ty) {
        return Ok(());
    }
    Err(syn::Error::new(
        ty.span(),
        format!(
            "`TmemSlot` holds a `tcgen05.alloc` Tensor Memory address, and Tensor Memory exists \
             on the tcgen05 arches only (sm100, sm100f, sm103, sm110); this storage is for {} \
             (legal: arch = sm100, or remove the member)",
            arch.name()
        ),
    ))
}
