//! `#[smem_fragment_tile]`: an `mma.sync` operand tile read with `ldmatrix` (the core's
//! `fragment::LdmatrixTile`): parse the arguments, let the core choose or check the layout and
//! the bank verdicts, emit constants and `const fn`s that call the core.

use crate::args::{collect, Errors, Sp, Value};
use crate::emit::{dtype_path, major_path, swizzle_path};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use smemdesc_core::fragment::{
    FragOperand, LdmatrixTile, MmaSync, ScaleType, ScaleVec, SyncArch, SyncKind, SyncShape,
    TileError, Writer,
};
use smemdesc_core::{ElementType, Major, FRAG_KEYS};

const REQUIRED: &[&str] = &["arch", "mma", "dtype", "operand", "tile"];

fn word<T>(
    v: &Value,
    key: &str,
    parse: impl Fn(&str) -> Option<T>,
    errs: &mut Errors,
) -> Option<Sp<T>> {
    crate::keyed::word_in(FRAG_KEYS, v, key, parse, errs)
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
        "`tile` takes `(MN, K)`: two integers",
    ));
    None
}

/// The parsed, checked declaration.
struct FragDecl {
    tile: LdmatrixTile,
    mma: MmaSync,
    /// `scale_vec` and `stype` as given.
    given_scale: Option<(ScaleVec, ScaleType)>,
    op: FragOperand,
    major: Major,
    mn: u32,
    k: u32,
    num: u32,
    writer: Option<Writer>,
    /// Whether every reader instruction is conflict-free (the bank walk, run once).
    reader_free: bool,
}

use smemdesc_grammar::words::tile_swizzle as parse_swizzle;

fn parse(input: TokenStream, site: Span) -> Result<FragDecl, syn::Error> {
    let mut errs = Errors::default();
    let given = collect(input, FRAG_KEYS, REQUIRED, site, &mut errs);
    let get = |k: &str| given.iter().find(|(n, _, _)| n == k).map(|(_, _, v)| v);
    let arch = get("arch").and_then(|v| word(v, "arch", SyncArch::from_name, &mut errs));
    let shape = get("mma").and_then(|v| word(v, "mma", SyncShape::from_name, &mut errs));
    let dtype = get("dtype").and_then(|v| word(v, "dtype", ElementType::from_name, &mut errs));
    let kind = get("kind").and_then(|v| word(v, "kind", SyncKind::from_name, &mut errs));
    let op = get("operand").and_then(|v| {
        word(
            v,
            "operand",
            |s| match s {
                "A" => Some(FragOperand::A),
                "B" => Some(FragOperand::B),
                "C" | "D" => Some(FragOperand::C),
                _ => None,
            },
            &mut errs,
        )
    });
    let major = get("major").and_then(|v| word(v, "major", Major::from_name, &mut errs));
    let tile = get("tile").and_then(|v| pair(v, &mut errs));
    let reader = get("reader").and_then(|v| {
        word(
            v,
            "reader",
            smemdesc_grammar::words::fragment_reader,
            &mut errs,
        )
    });
    let writer = get("writer").and_then(|v| {
        word(
            v,
            "writer",
            smemdesc_grammar::words::fragment_writer,
            &mut errs,
        )
    });
    let swizzle = get("swizzle").and_then(|v| word(v, "swizzle", parse_swizzle, &mut errs));
    let scale_vec =
        get("scale_vec").and_then(|v| word(v, "scale_vec", ScaleVec::from_name, &mut errs));
    let stype = get("stype").and_then(|v| word(v, "stype", ScaleType::from_name, &mut errs));
    let cf = get("conflict_free").and_then(|v| {
        word(
            v,
            "conflict_free",
            |s| match s {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            &mut errs,
        )
    });
    if let Some(e) = errs.0 {
        return Err(e);
    }
    let (Some(arch), Some(shape), Some(dtype), Some(op), Some(tile)) =
        (arch, shape, dtype, op, tile)
    else {
        return Err(syn::Error::new(site, "incomplete declaration"));
    };
    let kind_v = kind.map_or(SyncKind::Plain, |k| k.value);
    // The scale vector and type go together (one without the other is refused on it).
    let scale = match (scale_vec, stype) {
        (Some(v), Some(t)) => Some((v.value, t.value)),
        (None, None) => None,
        (Some(v), None) => {
            return Err(syn::Error::new(
                v.span,
                "scale_vec needs its scale type: stype = ue8m0 | ue4m3",
            ))
        }
        (None, Some(t)) => {
            return Err(syn::Error::new(
                t.span,
                "stype needs its scale vector: scale_vec = 1X | 2X | 4X",
            ))
        }
    };
    let mma = MmaSync::with_kind(
        arch.value,
        shape.value,
        kind_v,
        dtype.value,
        dtype.value,
        scale,
    )
    .map_err(|e| {
        let span = match e {
            smemdesc_core::fragment::FragError::IllegalArch { .. } => arch.span,
            smemdesc_core::fragment::FragError::IllegalScale { .. } => scale_vec
                .map(|v| v.span)
                .or(kind.map(|k| k.span))
                .unwrap_or(site),
            smemdesc_core::fragment::FragError::IllegalType { .. } => dtype.span,
        };
        syn::Error::new(span, e.to_string())
    })?;
    let major_v = major.map_or(Major::K, |m| m.value);
    let is_d = matches!(op.value, FragOperand::C);
    if let Some(r) = reader {
        if r.value.1 != is_d {
            return Err(syn::Error::new(
                r.span,
                if is_d {
                    "operand D (results) is written with stmatrix: reader = stmatrix_x1 | stmatrix_x2 | stmatrix_x4"
                } else {
                    "A and B are read with ldmatrix: reader = ldmatrix_x1 | ldmatrix_x2 | ldmatrix_x4"
                },
            ));
        }
    }
    let num = reader.map_or(4, |r| r.value.0);
    let (mn, k) = tile.value;
    let t = LdmatrixTile::new(
        mma,
        op.value,
        major_v,
        mn,
        k,
        swizzle.and_then(|s| s.value),
        num,
    )
    .map_err(|e| {
        let span = match e {
            TileError::TransNeeds16Bit { .. } => major.map_or(site, |m| m.span),
            TileError::MatrixCount { .. } => reader.map_or(site, |r| r.span),
            TileError::StmatrixArch { .. } => arch.span,
            TileError::Swizzle { .. } => swizzle.map_or(site, |s| s.span),
            _ => tile.span,
        };
        syn::Error::new(span, e.to_string())
    })?;
    let writer_v = writer.map(|w| w.value);
    // The reader's bank walk, once per declaration (the macro runs unoptimised in a debug build).
    // A swizzle `LdmatrixTile::new` chose is the first whose reader it found conflict-free; a
    // given one, or the unswizzled fallback, is walked here.
    let chosen = swizzle.and_then(|s| s.value).is_none();
    let reader_checked = if chosen && t.layout().swizzle.is_swizzled() {
        Ok(())
    } else {
        t.check_reader()
    };
    let reader_free = reader_checked.is_ok();
    if cf.is_some_and(|c| c.value) {
        let span = cf.map_or(site, |c| c.span);
        let reader_res = reader_checked;
        let writer_res = writer_v.map_or(Ok(()), |w| t.check_writer(w));
        if let Err(e) = reader_res.and(writer_res) {
            return Err(syn::Error::new(
                span,
                format!(
                    "conflict_free: {e} (layout: {} rows x {} B, swizzle {})",
                    t.layout().rows,
                    t.layout().row_bytes,
                    t.layout().swizzle.name()
                ),
            ));
        }
    }
    if let Some(w) = writer_v {
        // TMA writes a swizzle mode's layout as is; anything else is not a TMA box.
        if let Err(e) = t.check_writer(w).map(|_| ()).or_else(|e| match (w, e) {
            (Writer::Tma, e) => Err(e),
            _ => Ok(()),
        }) {
            return Err(syn::Error::new(
                writer.map_or(site, |w| w.span),
                e.to_string(),
            ));
        }
    }
    Ok(FragDecl {
        tile: t,
        mma,
        given_scale: scale,
        op: op.value,
        major: major_v,
        mn,
        k,
        num,
        writer: writer_v,
        reader_free,
    })
}

fn arch_path(a: SyncArch) -> TokenStream {
    let v = match a {
        SyncArch::Sm80 => quote!(Sm80),
        SyncArch::Sm86 => quote!(Sm86),
        SyncArch::Sm89 => quote!(Sm89),
        SyncArch::Sm90 => quote!(Sm90),
        SyncArch::Sm120 => quote!(Sm120),
    };
    quote!(::smemdesc::fragment::SyncArch::#v)
}

fn shape_path(s: SyncShape) -> TokenStream {
    let v = match s {
        SyncShape::M16N8K4 => quote!(M16N8K4),
        SyncShape::M16N8K8 => quote!(M16N8K8),
        SyncShape::M16N8K16 => quote!(M16N8K16),
        SyncShape::M16N8K32 => quote!(M16N8K32),
        SyncShape::M16N8K64 => quote!(M16N8K64),
    };
    quote!(::smemdesc::fragment::SyncShape::#v)
}

fn kind_path(k: SyncKind) -> TokenStream {
    let v = match k {
        SyncKind::Plain => quote!(Plain),
        SyncKind::F8f6f4 => quote!(F8f6f4),
        SyncKind::Mxf8f6f4 => quote!(Mxf8f6f4),
        SyncKind::Mxf4 => quote!(Mxf4),
        SyncKind::Mxf4Nvf4 => quote!(Mxf4Nvf4),
    };
    quote!(::smemdesc::fragment::SyncKind::#v)
}

/// Expands `#[smem_fragment_tile(...)]` on a unit struct.
pub(crate) fn expand(
    attr: TokenStream,
    st: &syn::DeriveInput,
    site: Span,
) -> Result<TokenStream, syn::Error> {
    let d = parse(attr, site)?;
    // Clone, Copy, Debug unless the user derives them already (a second derive would clash).
    let derives = crate::missing_derives(&st.attrs, &["Clone", "Copy", "Debug"]);
    let derive = if derives.is_empty() {
        quote!()
    } else {
        quote!(#[derive(#(#derives),*)])
    };
    let name = &st.ident;
    let vis = &st.vis;
    let attrs = &st.attrs;
    let (arch, shape, kind) = (
        arch_path(d.mma.arch),
        shape_path(d.mma.shape),
        kind_path(d.mma.kind),
    );
    let dt = dtype_path(d.mma.a);
    let op = match d.op {
        FragOperand::A => quote!(::smemdesc::fragment::FragOperand::A),
        FragOperand::B => quote!(::smemdesc::fragment::FragOperand::B),
        FragOperand::C => quote!(::smemdesc::fragment::FragOperand::C),
    };
    let major = major_path(d.major);
    let sw = swizzle_path(d.tile.layout().swizzle);
    let (mn, k, num) = (d.mn, d.k, d.num);
    let l = d.tile.layout();
    let bytes = l.bytes() as usize;
    let (rows, row_bytes) = (l.rows, l.row_bytes);
    let instrs = d.tile.instructions();
    let ksteps = d.tile.ksteps();
    let trans = d.tile.trans();
    let mnemonic = format!(
        "{}.sync.aligned.m8n8.x{num}{}.shared.b16",
        if matches!(d.op, FragOperand::C) {
            "stmatrix"
        } else {
            "ldmatrix"
        },
        if trans { ".trans" } else { "" }
    );
    let reader_free = d.reader_free;
    let writer_items = match d.writer {
        Some(w) => {
            let issues = d.tile.writer_issues(w).unwrap_or(0);
            let wexpr = match w {
                Writer::CpAsync16 => quote!(::smemdesc::fragment::Writer::CpAsync16),
                Writer::Tma => quote!(::smemdesc::fragment::Writer::Tma),
                Writer::StShared { bytes } => {
                    quote!(::smemdesc::fragment::Writer::StShared { bytes: #bytes })
                }
            };
            quote! {
                /// The writer.
                pub const WRITER: ::smemdesc::fragment::Writer = #wexpr;
                /// Warp issues the writer needs for the tile (0 for TMA).
                pub const WRITER_ISSUES: u32 = #issues;
                /// Byte offset lane `lane` writes in writer issue `issue` (tile in row order).
                #[inline(always)]
                pub const fn writer_offset(issue: u32, lane: u32) -> u32 {
                    Self::TILE.writer_address(Self::WRITER, issue, lane)
                }
            }
        }
        None => quote!(),
    };
    // The scale vector and type as given (`None`: the kind's default), as the plan was checked.
    let scale = match d.given_scale {
        None => quote!(::core::option::Option::None),
        Some((v, t)) => {
            let v = match v {
                ScaleVec::X1 => quote!(::smemdesc::fragment::ScaleVec::X1),
                ScaleVec::X2 => quote!(::smemdesc::fragment::ScaleVec::X2),
                ScaleVec::X4 => quote!(::smemdesc::fragment::ScaleVec::X4),
            };
            let t = match t {
                ScaleType::Ue8m0 => quote!(::smemdesc::fragment::ScaleType::Ue8m0),
                ScaleType::Ue4m3 => quote!(::smemdesc::fragment::ScaleType::Ue4m3),
            };
            quote!(::core::option::Option::Some((#v, #t)))
        }
    };
    let doc = format!(
        "`ldmatrix` operand tile: {} {} of `mma.sync.{}` ({}), {mn}x{k} {}-major, {rows} rows x {row_bytes} B, swizzle {}; {instrs} x `{mnemonic}`.",
        d.op.name(),
        d.mma.a.name(),
        d.mma.shape.name(),
        d.mma.arch.name(),
        if matches!(d.major, Major::K) { "K" } else { "MN" },
        l.swizzle.name()
    );
    Ok(quote! {
        #(#attrs)*
        #[doc = #doc]
        #derive
        #vis struct #name;

        impl #name {
            /// The core's plan (checked when the macro expanded).
            pub const TILE: ::smemdesc::fragment::LdmatrixTile = {
                let mma = match ::smemdesc::fragment::MmaSync::with_kind(#arch, #shape, #kind, #dt, #dt, #scale) {
                    ::core::result::Result::Ok(m) => m,
                    ::core::result::Result::Err(_) => panic!("checked by #[smem_fragment_tile]"),
                };
                let t = match ::smemdesc::fragment::LdmatrixTile::new(mma, #op, #major, #mn, #k, ::core::option::Option::Some(#sw), #num) {
                    ::core::result::Result::Ok(t) => t,
                    ::core::result::Result::Err(_) => panic!("checked by #[smem_fragment_tile]"),
                };
                t
            };
            /// Bytes of the tile.
            pub const BYTES: usize = #bytes;
            /// Stored rows and bytes per row.
            pub const ROWS: u32 = #rows;
            /// Bytes per stored row.
            pub const ROW_BYTES: u32 = #row_bytes;
            /// The swizzle (chosen or given).
            pub const SWIZZLE: ::smemdesc::SwizzleMode = #sw;
            /// Alignment the tile's base needs: 1024 B, the 128B swizzle's repeat, which every
            /// offset here (`ldmatrix_offset`, `writer_offset`) and a TMA writer assume.
            pub const ALIGN: u32 = 1024;
            /// `ldmatrix` instructions for the whole tile (k-step major).
            pub const INSTRUCTIONS: u32 = #instrs;
            /// k-steps of the tile.
            pub const KSTEPS: u32 = #ksteps;
            /// The `ldmatrix` mnemonic (`stmatrix` for a D tile).
            pub const LDMATRIX: &'static str = #mnemonic;
            /// Whether every `ldmatrix` (`stmatrix`) of the tile is conflict-free per the model.
            pub const READER_CONFLICT_FREE: bool = #reader_free;
            /// Byte offset (from the 1024-B-aligned tile base) lane `lane` passes to
            /// `ldmatrix` number `instr`.
            #[inline(always)]
            pub const fn ldmatrix_offset(instr: u32, lane: u32) -> u32 {
                Self::TILE.address(instr, lane)
            }
            /// Register `d` of `ldmatrix` number `instr`: `(kstep, fragment, reg)`, the 32-bit
            /// register `reg` of the fragment at index `fragment` along MN.
            #[inline(always)]
            pub const fn dest(instr: u32, d: u32) -> (u32, u32, u32) {
                Self::TILE.dest(instr, d)
            }
            #writer_items
        }
    })
}
