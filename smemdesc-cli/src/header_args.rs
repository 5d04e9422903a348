//! The arguments of `#[smem_tile(...)]`, `#[smem_storage(...)]` and the other declaration
//! attributes read from a source file for `smemdesc header --from` ([`crate::header_src`]):
//! each attribute's tokens go through the grammar the macros parse with (`smemdesc-grammar`),
//! whose refusal (the macro's message, at the argument at fault) becomes a `FILE:LINE:COLUMN`
//! error.

use super::header_loc::Src;
use crate::CliError;
use proc_macro2::TokenStream;
use smemdesc_core::{Arch, TilePlan};
use syn::spanned::Spanned;

/// A validated tile of the file.
pub(crate) struct TileSrc {
    /// The core's plan.
    pub(crate) plan: TilePlan,
}

/// The tokens inside `#[attr(...)]` (none for a bare `#[attr]`).
pub(crate) fn tokens(src: &Src, attr: &syn::Attribute) -> Result<TokenStream, CliError> {
    match &attr.meta {
        syn::Meta::List(l) => Ok(l.tokens.clone()),
        syn::Meta::Path(_) => Ok(TokenStream::new()),
        syn::Meta::NameValue(nv) => Err(src.err(
            nv.eq_token.span,
            "expected the attribute's arguments in parentheses: `#[attr(key = value, ...)]`",
        )),
    }
}

/// The grammar's refusal `e` (its first error) at its span.
pub(crate) fn refusal(src: &Src, e: &syn::Error) -> CliError {
    src.err(e.span(), e)
}

/// `#[smem_tile(...)]`: the declaration built by the core, refused as the macro refuses it.
pub(crate) fn tile_decl(src: &Src, attr: &syn::Attribute) -> Result<TileSrc, CliError> {
    use smemdesc_grammar::tile::{core_decl, core_error, parse};
    let site = attr.span();
    let d = parse(tokens(src, attr)?, site).map_err(|e| refusal(src, &e))?;
    let plan = core_decl(&d)
        .build()
        .map_err(|e| refusal(src, &core_error(&d, &e, site)))?;
    smemdesc_grammar::global::check(&d, &plan).map_err(|e| refusal(src, &e))?;
    Ok(TileSrc { plan })
}

/// `#[smem_storage(arch = <arch>)]`, refused as the macro refuses it.
pub(crate) fn storage_arch(src: &Src, attr: &syn::Attribute) -> Result<Arch, CliError> {
    smemdesc_grammar::storage::storage_arch(tokens(src, attr)?, attr.span())
        .map_err(|e| refusal(src, &e))
}
