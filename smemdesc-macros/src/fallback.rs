//! What a failed declaration still emits next to its `compile_error!`s, so that those errors are
//! the only ones (the way `thiserror` falls back): the struct with every item of a legal stand-in
//! declaration, so use sites (`Tile::DESC`, `<Tile as SmemTile>::BYTES`, ...) resolve; and for
//! `smem_plan!` a block that reports every error and still has the type `TilePlan`.

use crate::emit;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use smemdesc_core::{Arch, ElementType, Major, Operand};
use smemdesc_grammar::tile::{Decl, Pair, Sp};

/// The stand-in declaration: sm90, operand A, bf16, 64 × 64, K-major (legal: checked by
/// `stand_in_is_legal`). Its numbers are never used: the build fails on the real errors.
fn stand_in(site: Span) -> Decl {
    let sp = |value| Sp { value, span: site };
    Decl {
        arch: Sp {
            value: Arch::Sm90,
            span: site,
        },
        operand: Sp {
            value: Operand::A,
            span: site,
        },
        dtype: Sp {
            value: ElementType::BF16,
            span: site,
        },
        tile: Pair {
            a: sp(64),
            b: sp(64),
            all: site,
        },
        major: Sp {
            value: Major::K,
            span: site,
        },
        swizzle: None,
        order: None,
        global_dims: None,
        global_strides: None,
        mma: None,
        kind: None,
        stages: None,
        tma_box: None,
        cta_group: None,
    }
}

/// `errors` followed by the struct `item` (its name, visibility and kept attributes) with the
/// stand-in declaration's items; the errors alone if even that cannot be emitted.
pub(crate) fn tile_struct(errors: syn::Error, item: &syn::DeriveInput, site: Span) -> TokenStream {
    let mut ts = errors.to_compile_error();
    let d = stand_in(site);
    if let Ok(plan) = smemdesc_grammar::tile::core_decl(&d).build() {
        if let Ok(items) = emit::tile_struct(&d, &plan, item, site) {
            ts.extend(items);
        }
    }
    ts
}

/// A `smem_plan!` expression that reports every error in `errors` and is still a `TilePlan`
/// (the stand-in's), so the errors are the only ones.
pub(crate) fn plan_expr(errors: syn::Error, site: Span) -> TokenStream {
    let errors = errors.to_compile_error();
    let e = emit::decl_expr(&stand_in(site));
    quote! {
        {
            #errors
            const PLAN: ::smemdesc::TilePlan = #e.expect_valid();
            PLAN
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stand_in_is_legal() {
        assert!(
            smemdesc_grammar::tile::core_decl(&stand_in(Span::call_site()))
                .build()
                .is_ok()
        );
    }
}
