//! `#[smem_epilogue_tile]`: the C/D tile a `wgmma` accumulator is written into and stored from
//! (the core's `epilogue::EpilogueTile`): parse, let the core pick or check the swizzle against
//! the bank model and the TMA store's map, emit constants and `const fn`s that call the core.

use crate::args::{collect, Errors, Sp, Value};
use crate::emit::swizzle_path;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use smemdesc_core::epilogue::{
    CMajor, CType, EpiError, EpiReader, EpiWriter, EpilogueSpec, EpilogueTile, ReduceOp,
};
use smemdesc_core::EPI_KEYS;

const REQUIRED: &[&str] = &["dtype", "tile", "wgmma_n"];

fn accepted(key: &str) -> &'static str {
    crate::keyed::accepted_in(EPI_KEYS, key)
}

fn word<T>(
    v: &Value,
    key: &str,
    parse: impl Fn(&str) -> Option<T>,
    errs: &mut Errors,
) -> Option<Sp<T>> {
    crate::keyed::word_in(EPI_KEYS, v, key, parse, errs)
}

fn int(v: &Value, key: &str, errs: &mut Errors) -> Option<Sp<u32>> {
    if let Value::Int(i) = v {
        if let Ok(n) = i.base10_parse::<u32>() {
            return Some(Sp {
                value: n,
                span: v.span(),
            });
        }
    }
    errs.push(syn::Error::new(
        v.span(),
        format!("`{key}` takes an integer: {}", accepted(key)),
    ));
    None
}

fn pair(v: &Value, errs: &mut Errors) -> Option<Sp<(u32, u32)>> {
    if let Value::Tuple(g, items) = v {
        if let [Value::Int(a), Value::Int(b)] = items.as_slice() {
            if let (Ok(a), Ok(b)) = (a.base10_parse::<u32>(), b.base10_parse::<u32>()) {
                return Some(Sp {
                    value: (a, b),
                    span: g.span(),
                });
            }
        }
    }
    errs.push(syn::Error::new(
        v.span(),
        "`tile` takes `(M, N)`: two integers",
    ));
    None
}

use smemdesc_grammar::words::tile_swizzle as parse_swizzle;

fn parse(input: TokenStream, site: Span) -> Result<EpilogueTile, syn::Error> {
    let mut errs = Errors::default();
    let given = collect(input, EPI_KEYS, REQUIRED, site, &mut errs);
    let get = |k: &str| given.iter().find(|(n, _, _)| n == k).map(|(_, _, v)| v);
    let dtype = get("dtype").and_then(|v| word(v, "dtype", CType::from_name, &mut errs));
    let tile = get("tile").and_then(|v| pair(v, &mut errs));
    let wn = get("wgmma_n").and_then(|v| int(v, "wgmma_n", &mut errs));
    let major = get("major").and_then(|v| {
        word(
            v,
            "major",
            |s| match s {
                "n" | "N" => Some(CMajor::N),
                "m" | "M" => Some(CMajor::M),
                _ => None,
            },
            &mut errs,
        )
    });
    let stages = get("stages").and_then(|v| int(v, "stages", &mut errs));
    let writer = get("writer").and_then(|v| {
        word(
            v,
            "writer",
            smemdesc_grammar::words::epilogue_writer,
            &mut errs,
        )
    });
    let reader = get("reader").and_then(|v| word(v, "reader", EpiReader::from_name, &mut errs));
    let swizzle = get("swizzle").and_then(|v| word(v, "swizzle", parse_swizzle, &mut errs));
    let tma_sw = get("tma_swizzle")
        .and_then(|v| word(v, "tma_swizzle", |s| parse_swizzle(s).flatten(), &mut errs));
    if let Some(e) = errs.0 {
        return Err(e);
    }
    let (Some(dtype), Some(tile), Some(wn)) = (dtype, tile, wn) else {
        return Err(syn::Error::new(site, "incomplete declaration"));
    };
    let mut spec = EpilogueSpec::new(dtype.value, tile.value.0, tile.value.1, wn.value);
    if let Some(m) = major {
        spec = spec.major(m.value);
    }
    if let Some(s) = stages {
        spec = spec.stages(s.value);
    }
    if let Some(w) = writer {
        spec = spec.writer(w.value);
    }
    if let Some(r) = reader {
        spec = spec.reader(r.value);
    }
    if let Some(Sp { value: Some(s), .. }) = swizzle {
        spec = spec.swizzle(s);
    }
    if let Some(t) = tma_sw {
        spec = spec.tma_swizzle(t.value);
    }
    // The size bound first, with its own span: the core folds it into `Shape`.
    let one = EpilogueSpec::new(dtype.value, tile.value.0, tile.value.1, wn.value).bytes();
    let max = EpilogueSpec::MAX_BYTES as u64;
    let (eb, (m, n)) = (dtype.value.bits() / 8, tile.value);
    if one > max {
        let size = if one == u64::MAX {
            "overflows u64".to_owned()
        } else {
            format!("takes {one} B")
        };
        return Err(syn::Error::new(
            tile.span,
            format!(
                "C tile {m}x{n} of {}-byte {} {size}, more than sm90's {max} B of shared memory \
                 per CTA; legal: m x n x {eb} <= {max}",
                eb,
                dtype.value.name()
            ),
        ));
    }
    if spec.bytes() > max {
        let st = spec.stages;
        return Err(syn::Error::new(
            stages.map_or(site, |s| s.span),
            format!(
                "stages = {st} of a {one}-B C tile need more than sm90's {max} B of shared memory \
                 per CTA; legal: stages <= {}",
                max / one
            ),
        ));
    }
    spec.build().map_err(|e| {
        let or = |x: Option<Span>, y: Span| x.unwrap_or(y);
        let span = match e {
            EpiError::Shape { .. } => tile.span,
            EpiError::Stages => or(stages.map(|s| s.span), site),
            EpiError::StmatrixBits { .. } => dtype.span,
            EpiError::WriterMajor { .. } => {
                or(major.map(|m| m.span), or(writer.map(|w| w.span), site))
            }
            EpiError::MatrixCount { .. } | EpiError::StWidth { .. } => {
                or(writer.map(|w| w.span), site)
            }
            EpiError::Swizzle { .. } => or(swizzle.map(|s| s.span), site),
            EpiError::Conflict { .. } => {
                or(swizzle.map(|s| s.span), or(writer.map(|w| w.span), site))
            }
            EpiError::SwizzleMismatch { .. } => or(tma_sw.map(|s| s.span), site),
            EpiError::ReduceType { .. } => or(reader.map(|r| r.span), dtype.span),
        };
        syn::Error::new(span, e.to_string())
    })
}

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
