//! `global_dims = (…)` / `global_strides = (…)`: the global tensor a tile's tensor map reads. The
//! core's [`TensorMap`] rules (every documented `cuTensorMapEncodeTiled` constraint) run at
//! expansion time on the constant entries, so a wrong stride is a compile error on that token;
//! `_` entries are left for run time (`TENSOR_MAP.dim(i, v)` / `.stride(i, v)`, then `try_args`).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use smemdesc_core::{TensorMap, TensorMapArg, TilePlan};
use smemdesc_grammar::tile::{Decl, GlobalList};

/// The core tensor map the declaration's global arguments describe (`None` without `global_dims`),
/// or the error for a wrong number of entries.
fn core_map(d: &Decl, plan: &TilePlan) -> syn::Result<Option<TensorMap>> {
    let Some(dims) = &d.global_dims else {
        return Ok(None);
    };
    let rank = dims.items.len();
    if !(2..=5).contains(&rank) {
        return Err(syn::Error::new(
            dims.all,
            format!(
                "`global_dims` has {rank} entr{}, but tensorRank of a tile's tensor map is 2 to 5 (dim 0 the tile's contiguous dimension, dim 1 the other, then batch dims); legal: 2 to 5 entries",
                if rank == 1 { "y" } else { "ies" }
            ),
        ));
    }
    let mut m = TensorMap::for_tile(plan, rank as u32);
    for (i, v) in dims.items.iter().enumerate() {
        if let Some(v) = v.value {
            m = m.dim(i as u32, v);
        }
    }
    if let Some(strides) = &d.global_strides {
        if strides.items.len() != rank - 1 {
            return Err(syn::Error::new(
                strides.all,
                format!(
                    "`global_strides` has {} entries but `global_dims` has {rank} dims: globalStrides holds the byte stride of each dim after the first; legal: {} entr{}",
                    strides.items.len(),
                    rank - 1,
                    if rank == 2 { "y" } else { "ies" }
                ),
            ));
        }
        if strides.items.iter().any(|s| s.value.is_none()) {
            m = m.runtime_strides();
        }
        for (i, v) in strides.items.iter().enumerate() {
            if let Some(v) = v.value {
                m = m.stride(i as u32, v);
            }
        }
    }
    Ok(Some(m))
}

fn entry_span(list: &GlobalList, i: u32) -> Span {
    list.items.get(i as usize).map_or(list.all, |s| s.span)
}

/// Checks the global arguments against the tile's plan: a compile error on the entry at fault.
pub(crate) fn check(d: &Decl, plan: &TilePlan) -> syn::Result<()> {
    let Some(m) = core_map(d, plan)? else {
        return Ok(());
    };
    let Some(dims) = &d.global_dims else {
        return Ok(());
    };
    match m.check() {
        Ok(()) => Ok(()),
        Err(e) => {
            let (span, note) = match (e.argument(), &d.global_strides) {
                (TensorMapArg::GlobalDim(i), _) => (entry_span(dims, i), ""),
                (TensorMapArg::GlobalStrides(i), Some(s)) => (entry_span(s, i), ""),
                (TensorMapArg::GlobalStrides(_), None) => (
                    dims.all,
                    " (the dense stride of these `global_dims`; give `global_strides = (...)` to pad rows)",
                ),
                _ => (dims.all, ""),
            };
            Err(syn::Error::new(span, format!("{e}{note}")))
        }
    }
}

/// The inherent items for a tile with global arguments: `TENSOR_MAP` (checked again in `const`).
pub(crate) fn items(d: &Decl) -> TokenStream {
    let Some(dims) = &d.global_dims else {
        return TokenStream::new();
    };
    let rank = dims.items.len() as u32;
    let mut e =
        quote! { ::smemdesc::TensorMap::for_tile(&<Self as ::smemdesc::SmemTile>::PLAN, #rank) };
    for (i, v) in dims.items.iter().enumerate() {
        if let Some(v) = v.value {
            let i = i as u32;
            e = quote! { #e.dim(#i, #v) };
        }
    }
    if let Some(strides) = &d.global_strides {
        if strides.items.iter().any(|s| s.value.is_none()) {
            e = quote! { #e.runtime_strides() };
        }
        for (i, v) in strides.items.iter().enumerate() {
            if let Some(v) = v.value {
                let i = i as u32;
                e = quote! { #e.stride(#i, #v) };
            }
        }
    }
    quote! {
        /// The tensor map that loads this tile from the declared global tensor (`global_dims`,
        /// `global_strides`), every constant entry checked against `cuTensorMapEncodeTiled`'s
        /// rules at compile time. Set the run-time (`_`) entries and the address, then `try_args()`.
        pub const TENSOR_MAP: ::smemdesc::TensorMap = #e.expect_valid();
    }
}
