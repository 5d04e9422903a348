//! `global_dims = (…)` / `global_strides = (…)` of `#[smem_tile]` and `smem_plan!`: the global
//! tensor a tile's tensor map reads, checked against the tile's plan by the core's
//! [`TensorMap`] rules (every documented `cuTensorMapEncodeTiled` constraint) on the constant
//! entries, each refusal on the entry at fault; `_` entries are left for run time.

use crate::tile::{Decl, GlobalList};
use proc_macro2::Span;
use smemdesc_core::{TensorMap, TensorMapArg, TilePlan};

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

/// Checks the global arguments against the tile's plan: a refusal on the entry at fault.
///
/// ```
/// use proc_macro2::Span;
/// use smemdesc_grammar::{global::check, tile::{core_decl, parse}};
///
/// let d = parse(
///     "arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, global_dims = (4096, 4096), global_strides = (100)"
///         .parse()
///         .unwrap(),
///     Span::call_site(),
/// )
/// .unwrap();
/// let plan = core_decl(&d).build().unwrap();
/// assert!(check(&d, &plan).is_err()); // 100 B is not a multiple of 16
/// ```
pub fn check(d: &Decl, plan: &TilePlan) -> syn::Result<()> {
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
