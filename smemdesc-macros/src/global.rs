//! `global_dims = (…)` / `global_strides = (…)`: the global tensor a tile's tensor map reads. The
//! core's `TensorMap` rules (every documented `cuTensorMapEncodeTiled` constraint) run at
//! expansion time on the constant entries (`smemdesc_grammar::global::check`), so a wrong stride
//! is a compile error on that token;
//! `_` entries are left for run time (`TENSOR_MAP.dim(i, v)` / `.stride(i, v)`, then `try_args`).

use proc_macro2::TokenStream;
use quote::quote;
use smemdesc_grammar::tile::Decl;

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
