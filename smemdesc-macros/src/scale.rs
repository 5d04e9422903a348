//! `#[smem_scale_tile]`: the block-scale-factor tile of one operand (the core's `ScaleTile`),
//! parsed with the same argument machinery as `#[smem_tile]` and emitted as storage plus
//! constants.

use proc_macro2::TokenStream;
use quote::quote;
use smemdesc_core::{Operand, ScaleFormat};
use smemdesc_grammar::scale::{core, error, ScaleArgs};

/// The same declaration as a `const` expression of `::smemdesc::ScaleDecl`.
fn core_expr(a: &ScaleArgs) -> TokenStream {
    let kind = crate::emit::kind_path(a.kind.value);
    let operand = match a.operand.value {
        Operand::A => quote!(A),
        Operand::B => quote!(B),
    };
    let (mn, k) = (a.tile.a.value, a.tile.b.value);
    let mut e = quote! {
        ::smemdesc::ScaleDecl::new(#kind, ::smemdesc::Operand::#operand, #mn, #k)
    };
    if let Some(f) = a.sf {
        let f = match f.value {
            ScaleFormat::Ue8m0 => quote!(Ue8m0),
            ScaleFormat::Ue4m3 => quote!(Ue4m3),
        };
        e = quote!(#e.format(::smemdesc::ScaleFormat::#f));
    }
    if let Some(v) = a.vec {
        let v = v.value;
        e = quote!(#e.vec(#v));
    }
    if let Some(s) = a.stages {
        let s = s.value;
        e = quote!(#e.stages(#s));
    }
    if let Some(c) = a.cta_group {
        let c = c.value;
        e = quote!(#e.cta_group(#c));
    }
    e
}

/// Expands `#[smem_scale_tile(...)]` on `st`.
pub(crate) fn expand(a: &ScaleArgs, st: &syn::DeriveInput) -> Result<TokenStream, syn::Error> {
    let t = core(a).build().map_err(|e| error(a, &e))?;
    let decl = core_expr(a);
    let name = &st.ident;
    let bytes = t.bytes() as usize;
    let (stage_bytes, vec, sf_k) = (t.stage_bytes(), t.vec, t.sf_k());
    let (mn_blocks, k_blocks, nsf) = (t.mn_blocks(), t.k_blocks(), t.factors_per_mma());
    let box_dim = t.tma_box();
    let boxes = t.tma_boxes();
    let box_offsets = (0..boxes).map(|b| t.tma_box_offset(b));
    let n_boxes = boxes as usize;
    let cp = t.copy_instruction();
    let summary = format!(
        "Scale factors ({}, one per {} values) of a {}x{} {} tile of kind::{}: {} B per stage x {} stages, {} atoms of 512 B per stage, each moved to Tensor Memory by `{}`.",
        t.format.name(),
        vec,
        t.tile_mn,
        t.tile_k,
        a.operand.value.name(),
        a.kind.value.name(),
        stage_bytes,
        t.stages,
        mn_blocks * k_blocks,
        cp,
    );
    let (storage, accessors) = crate::emit::storage(
        st,
        &summary,
        t.align(),
        &proc_macro2::Literal::usize_suffixed(bytes),
        crate::emit::StorageDocs {
            zero: quote! {
                /// Zeroed storage, for `static` (shared-memory) placement.
            },
            as_ptr: quote! {
                /// Address of the first byte (stage 0, atom (0, 0)).
            },
            more: TokenStream::new(),
        },
    );
    Ok(quote! {
        #storage

        impl #name {
            /// The validated core declaration (evaluated at compile time).
            pub const SCALE: ::smemdesc::ScaleTile = #decl.expect_valid();
            #accessors
            /// K-values per factor.
            pub const VEC: u32 = #vec;
            /// Factors per row of one stage.
            pub const SF_K: u32 = #sf_k;
            /// Factors one MMA instruction consumes per row (the scale-factor id steps).
            pub const FACTORS_PER_MMA: u32 = #nsf;
            /// 512-byte atoms along M/N and along K.
            pub const MN_BLOCKS: u32 = #mn_blocks;
            /// 512-byte atoms along K.
            pub const K_BLOCKS: u32 = #k_blocks;
            /// Bytes of one stage.
            pub const STAGE_BYTES: u32 = #stage_bytes;
            /// Bytes of all stages.
            pub const BYTES: u32 = #bytes as u32;
            /// `tcgen05.cp` of one atom.
            pub const COPY_INSTRUCTION: &'static str = #cp;
            /// `boxDim` (innermost first) of the rank-4 `UINT8` tensor map (see `ScaleTile::tma_box`).
            pub const TMA_BOX_DIM: [u32; 4] = [#(#box_dim),*];
            /// Former name of `TMA_BOX_DIM`.
            #[doc(hidden)]
            #[deprecated(since = "0.2.0", note = "renamed to `TMA_BOX_DIM` (the driver's `boxDim`, innermost first; user-facing shapes are (rows, inner))")]
            pub const TMA_BOX: [u32; 4] = Self::TMA_BOX_DIM;
            /// TMA boxes per stage (one per K atom).
            pub const TMA_BOXES: u32 = #boxes;
            /// SMEM offset of each box in its stage.
            pub const TMA_BOX_OFFSETS: [u32; #n_boxes] = [#(#box_offsets),*];
            /// The `tcgen05.cp` source descriptor of atom `(i, j)` of stage `stage` for storage at
            /// `smem_addr` (a compile error in `const` context, a panic otherwise, when out of range).
            #[inline]
            pub const fn copy_desc(smem_addr: u32, i: u32, j: u32, stage: u32) -> u64 {
                Self::SCALE.copy_desc_asserting(smem_addr, i, j, stage)
            }
            /// Byte offset (stage 0) of the factor that scales operand value `(mn, k)`.
            #[inline]
            pub const fn offset(mn: u32, k: u32) -> u32 {
                Self::SCALE.offset(mn, k)
            }
        }
    })
}
