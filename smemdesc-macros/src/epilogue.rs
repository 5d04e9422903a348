//! `#[smem_epilogue_tile]`: the C/D tile a `wgmma` accumulator is written into and stored from
//! (the core's `epilogue::EpilogueTile`): parse, let the core pick or check the swizzle against
//! the bank model and the TMA store's map, emit constants and `const fn`s that call the core.

use crate::emit::swizzle_path;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use smemdesc_core::epilogue::{CMajor, CType, EpiReader, EpiWriter, ReduceOp};
use smemdesc_grammar::epilogue::parse;

/// The path of a C type.
fn ctype_path(d: CType) -> TokenStream {
    let v = match d {
        CType::F16 => quote!(F16),
        CType::BF16 => quote!(BF16),
        CType::F32 => quote!(F32),
        CType::U32 => quote!(U32),
        CType::S32 => quote!(S32),
        CType::U64 => quote!(U64),
        CType::S64 => quote!(S64),
    };
    quote!(::smemdesc::epilogue::CType::#v)
}

/// The path of a TMA reduction.
fn reduce_op_path(op: ReduceOp) -> TokenStream {
    let v = match op {
        ReduceOp::Add => quote!(Add),
        ReduceOp::Min => quote!(Min),
        ReduceOp::Max => quote!(Max),
        ReduceOp::Inc => quote!(Inc),
        ReduceOp::Dec => quote!(Dec),
        ReduceOp::And => quote!(And),
        ReduceOp::Or => quote!(Or),
        ReduceOp::Xor => quote!(Xor),
    };
    quote!(::smemdesc::epilogue::ReduceOp::#v)
}

/// Expands `#[smem_epilogue_tile(...)]` on a unit struct.
pub(crate) fn expand(
    attr: TokenStream,
    st: &syn::DeriveInput,
    site: Span,
) -> Result<TokenStream, syn::Error> {
    let t = parse(attr, site)?;
    // Clone, Copy, Debug unless the user derives them already (a second derive would clash).
    let derives = crate::missing_derives(&st.attrs, &["Clone", "Copy", "Debug"]);
    let derive = if derives.is_empty() {
        quote!()
    } else {
        quote!(#[derive(#(#derives),*)])
    };
    let s = t.spec();
    let name = &st.ident;
    let vis = &st.vis;
    let attrs = &st.attrs;
    let dt = ctype_path(s.dtype);
    let sw = swizzle_path(t.swizzle());
    let (m, n, wn, stages) = (s.m, s.n, s.wgmma_n, s.stages);
    let major = match s.major {
        CMajor::N => quote!(::smemdesc::epilogue::CMajor::N),
        CMajor::M => quote!(::smemdesc::epilogue::CMajor::M),
    };
    let writer = match s.writer {
        EpiWriter::Stmatrix { num, trans } => {
            quote!(::smemdesc::epilogue::EpiWriter::Stmatrix { num: #num, trans: #trans })
        }
        EpiWriter::StShared { bytes } => {
            quote!(::smemdesc::epilogue::EpiWriter::StShared { bytes: #bytes })
        }
    };
    let reader = match s.reader {
        EpiReader::TmaStore => quote!(::smemdesc::epilogue::EpiReader::TmaStore),
        EpiReader::TmaReduce(op) => {
            let op = reduce_op_path(op);
            quote!(::smemdesc::epilogue::EpiReader::TmaReduce(#op))
        }
        EpiReader::Loads => quote!(::smemdesc::epilogue::EpiReader::Loads),
    };
    let stage_bytes = t.stage_bytes();
    let bytes = stage_bytes * stages;
    let align = t.align();
    let instrs = t.instructions();
    let chunks = t.chunks();
    let [bi, br] = t.tma_box_dim();
    let boxes = t.tma_boxes();
    let doc = format!(
        "C/D tile: {m}x{n} {} ({}-major) of an m64n{wn} accumulator, {stages} stage(s) of {stage_bytes} B, swizzle {} (conflict-free writer: {} x {} per warp per chunk), TMA store box [{bi}, {br}].",
        s.dtype.name(),
        s.major.name(),
        t.swizzle().name(),
        instrs,
        s.writer.name()
    );
    Ok(quote! {
        #(#attrs)*
        #[doc = #doc]
        #derive
        #vis struct #name;

        impl #name {
            /// The core's plan (checked when the macro expanded).
            /// (Checked when the macro expanded, in native code: the constant is its parts, so the
            /// compiler's const evaluator does not walk the tile again.)
            pub const EPILOGUE: ::smemdesc::epilogue::EpilogueTile = ::smemdesc::epilogue::EpilogueTile::__checked(
                ::smemdesc::epilogue::EpilogueSpec::new(#dt, #m, #n, #wn)
                    .major(#major)
                    .stages(#stages)
                    .writer(#writer)
                    .reader(#reader)
                    .swizzle(#sw),
                #sw,
            );
            /// The swizzle (picked or given; the TMA store map's).
            pub const SWIZZLE: ::smemdesc::SwizzleMode = #sw;
            /// Bytes of one stage.
            pub const STAGE_BYTES: u32 = #stage_bytes;
            /// Bytes of all stages (its `#[smem_storage]` footprint).
            pub const BYTES: u32 = #bytes;
            /// Alignment of the tile's base.
            pub const ALIGN: u32 = #align;
            /// Stages.
            pub const STAGES: u32 = #stages;
            /// Writer instructions per warp per chunk.
            pub const INSTRUCTIONS: u32 = #instrs;
            /// Chunks of the accumulator per tile.
            pub const CHUNKS: u32 = #chunks;
            /// The TMA store's `boxDim` (`[inner, rows]`).
            pub const TMA_BOX_DIM: [u32; 2] = [#bi, #br];
            /// TMA store boxes per stage.
            pub const TMA_BOXES: u32 = #boxes;
            /// Byte offset lane `lane` of warp `warp` of warpgroup `wg` passes to writer
            /// instruction `instr`.
            #[inline(always)]
            pub const fn writer_offset(wg: u32, warp: u32, instr: u32, lane: u32) -> u32 {
                Self::EPILOGUE.writer_offset(wg, warp, instr, lane)
            }
            /// The accumulator pair (`d[2p]`, `d[2p + 1]`) in register `q` of instruction `instr`
            /// of chunk `chunk` (constant indices only: in a run-time loop,
            /// `smemdesc::accum::WgmmaAcc::for_each_group`).
            #[inline(always)]
            pub const fn pair(chunk: u32, instr: u32, q: u32) -> u32 {
                Self::EPILOGUE.pair(chunk, instr, q)
            }
            /// Box `b`: SMEM offset and tile coordinates `(inner0, row0)`.
            #[inline(always)]
            pub const fn tma_box(b: u32) -> (u32, (u32, u32)) {
                Self::EPILOGUE.tma_box(b)
            }
        }
    })
}
