//! A `#[smem_storage]` member's own attribute, `#[smem(placement = …, align = N, epilogue)]`,
//! read for the macro and `smemdesc header --from` alike.

use proc_macro2::Span;
use smemdesc_core::Placement;
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
