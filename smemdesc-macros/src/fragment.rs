//! `#[smem_fragment_tile]`: an `mma.sync` operand tile read with `ldmatrix` (the core's
//! `fragment::LdmatrixTile`): parse the arguments, let the core choose or check the layout and
//! the bank verdicts, emit constants and `const fn`s that call the core.

use crate::emit::{dtype_path, major_path, swizzle_path};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use smemdesc_core::fragment::{
    FragOperand, ScaleType, ScaleVec, SyncArch, SyncKind, SyncShape, Writer,
};
use smemdesc_core::Major;
use smemdesc_grammar::fragment::parse;

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
