//! Declaration → core → tokens. Every number written here is read off the core's [`TilePlan`]
//! at expansion time; nothing is derived in this crate.

use proc_macro2::{Delimiter, Group, Ident, Literal, Span, TokenStream, TokenTree};
use quote::quote;
use smemdesc_core::{Arch, ElementType, Major, MmaKind, Operand, Order, SwizzleMode, TilePlan};
use smemdesc_grammar::tile::Decl;

/// The same declaration as a `const` expression of `::smemdesc::TileDecl`.
pub(crate) fn decl_expr(d: &Decl) -> TokenStream {
    let arch = arch_path(d.arch.value);
    let operand = operand_path(d.operand.value);
    let dtype = dtype_path(d.dtype.value);
    let major = major_path(d.major.value);
    let (mn, k) = (d.tile.a.value, d.tile.b.value);
    let mut e = quote! {
        ::smemdesc::TileDecl::new(#arch, #operand, #dtype, #major, #mn, #k)
    };
    if let Some(Some(s)) = d.swizzle.map(|s| s.value) {
        let s = swizzle_path(s);
        e = quote! { #e.swizzle(#s) };
    }
    if let Some(o) = d.order {
        let o = order_path(o.value);
        e = quote! { #e.order(#o) };
    }
    if let Some(m) = d.mma {
        let (mm, mn, mk) = (m.shape.m, m.shape.n, m.shape.k);
        e = quote! { #e.mma(::smemdesc::MmaShape::new(#mm, #mn, #mk)) };
    }
    if let Some(k) = d.kind {
        let k = kind_path(k.value);
        e = quote! { #e.kind(#k) };
    }
    if let Some(s) = d.stages {
        let s = s.value;
        e = quote! { #e.stages(#s) };
    }
    if let Some(b) = d.tma_box {
        let (r, i) = (b.a.value, b.b.value);
        e = quote! { #e.tma_box(#r, #i) };
    }
    if let Some(c) = d.cta_group {
        let c = c.value;
        e = quote! { #e.cta_group(#c) };
    }
    e
}

/// `[a b c …]`: one bracket group of literals, built in one step (every token and group out of a
/// proc-macro costs build time).
fn flat(values: impl IntoIterator<Item = Literal>) -> Group {
    let tokens = values.into_iter().map(TokenTree::Literal).collect();
    Group::new(Delimiter::Bracket, tokens)
}

fn u(v: u32) -> Literal {
    Literal::u32_unsuffixed(v)
}

/// `[u16; n]` contents, or an error naming the value that does not fit (unreachable for legal
/// tiles: advances are 14-bit descriptor fields).
fn u16s(values: impl Iterator<Item = u32>, what: &str, site: Span) -> syn::Result<Vec<Literal>> {
    values
        .map(|v| {
            u16::try_from(v)
                .map(Literal::u16_unsuffixed)
                .map_err(|_| syn::Error::new(site, format!("{what} {v} does not fit in u16")))
        })
        .collect()
}

/// The documentation of the storage accessors that differs between the tile attributes: the
/// doc lines of `ZERO` and of `as_ptr`, and accessors emitted after `as_ptr`.
pub(crate) struct StorageDocs {
    pub(crate) zero: TokenStream,
    pub(crate) as_ptr: TokenStream,
    pub(crate) more: TokenStream,
}

/// The storage struct a tile attribute turns `item` into: its own attributes, a blank doc line
/// and `summary`, `#[repr(C, align(align))]`, a private `[u8; bytes]`, `bytes` a `usize` literal.
pub(crate) fn storage_struct(
    item: &syn::DeriveInput,
    summary: &str,
    align: u32,
    bytes: &Literal,
) -> TokenStream {
    let (attrs, vis, name) = (&item.attrs, &item.vis, &item.ident);
    let align = u(align);
    quote! {
        #(#attrs)*
        #[doc = ""]
        #[doc = #summary]
        #[repr(C, align(#align))]
        #vis struct #name {
            bytes: [u8; #bytes],
        }
    }
}

/// [`storage_struct`], and the storage accessors of its inherent impl: `ZERO`, `new`, `as_ptr`,
/// `docs.more`, `as_bytes`.
pub(crate) fn storage(
    item: &syn::DeriveInput,
    summary: &str,
    align: u32,
    bytes: &Literal,
    docs: StorageDocs,
) -> (TokenStream, TokenStream) {
    let storage = storage_struct(item, summary, align, bytes);
    let StorageDocs { zero, as_ptr, more } = docs;
    let accessors = quote! {
        #zero
        pub const ZERO: Self = Self { bytes: [0; #bytes] };
        /// Zeroed storage (same as [`ZERO`](Self::ZERO)).
        pub const fn new() -> Self {
            Self::ZERO
        }
        #as_ptr
        pub const fn as_ptr(&self) -> *const u8 {
            self.bytes.as_ptr()
        }
        #more
        /// The raw bytes of all stages.
        pub const fn as_bytes(&self) -> &[u8; #bytes] {
            &self.bytes
        }
    };
    (storage, accessors)
}

/// The storage struct, its inherent constants and its `SmemTile` impl.
pub(crate) fn tile_struct(
    d: &Decl,
    plan: &TilePlan,
    item: &syn::DeriveInput,
    site: Span,
) -> syn::Result<TokenStream> {
    smemdesc_grammar::global::check(d, plan)?;
    let global_items = crate::global::items(d);
    let t = &plan.tile;
    let tma = &plan.tma;
    let name = &item.ident;

    let stages = t.spec().stages;
    let bytes = t.bytes();
    let desc = Literal::u64_unsuffixed(t.base_descriptor().raw());
    let desc_hex = format!("{:#018x}", t.base_descriptor().raw());
    let (mmas_mn, mmas_k) = (t.mmas_mn(), t.mmas_k());
    let adv_mn = u16s((0..mmas_mn).map(|i| t.advance_mn(i)), "MN advance", site)?;
    let adv_k = u16s((0..mmas_k).map(|j| t.advance_k(j)), "K advance", site)?;
    let boxes = u(tma.boxes);
    let box_offsets: Vec<Literal> = (0..tma.boxes).map(|b| u(plan.box_offset(b))).collect();
    let spec = t.spec();
    let dec = &plan.decl;

    let summary = format!(
        "**SMEM tile** (`#[smem_tile]`): {} operand {}, {} {}×{} (MN×K), {}-major, {} swizzle, \
         {}; `mma` m{}n{}k{} kind::{}; {} stage(s) × {} B = {} B, aligned to {} B. Base \
         descriptor `{}` (LBO {} B, SBO {} B); TMA: {} box(es) of `boxDim = [{}, {}]` per stage, \
         {}. The constants are its `SmemTile` impl (`use smemdesc::prelude::*`).",
        dec.arch.name(),
        dec.operand.name(),
        dec.dtype.name(),
        spec.tile_mn,
        spec.tile_k,
        dec.major.name(),
        t.swizzle_mode().name(),
        spec.order.name(),
        plan.mma.m,
        plan.mma.n,
        plan.mma.k,
        plan.kind.name(),
        stages,
        t.stage_bytes(),
        bytes,
        t.align(),
        desc_hex,
        t.lbo(),
        t.sbo(),
        tma.boxes,
        tma.box_dim()[0],
        tma.box_dim()[1],
        tma.swizzle.name(),
    );

    let storage = storage_struct(
        item,
        &summary,
        t.align(),
        &Literal::usize_unsuffixed(bytes as usize),
    );
    let a = t.access();
    // Variant names (`Sm90`, `BF16`, …): the derived `Debug` of the core's enums is the variant.
    let v = |name: String| Ident::new(&name, Span::call_site());
    let (arch, operand) = (
        v(format!("{:?}", dec.arch)),
        v(format!("{:?}", dec.operand)),
    );
    let (dtype, major) = (v(format!("{:?}", dec.dtype)), v(format!("{:?}", dec.major)));
    let swizzle = v(format!("{:?}", t.swizzle_mode()));
    let (order, kind) = (
        v(format!("{:?}", spec.order)),
        v(format!("{:?}", plan.kind)),
    );
    // The numbers, in the order `__smem_tile_items!` reads them (one flat group: every token and
    // group out of a proc-macro costs build time): the struct's size, the base descriptor, and the
    // lengths of the four arrays. Every other constant is the `SmemTile` trait's, read off `PLAN`
    // and `ACCESS`.
    let numbers = [u(bytes), desc, u(mmas_mn), u(mmas_k), boxes];
    let numbers = flat(numbers);
    // `ACCESS` is `TileAccess::from_literal` of these (with `ARCH`, `SWIZZLE` and `DESC`).
    let access = flat(a.literal_numbers().map(u));
    let box_coords = flat((0..tma.boxes).flat_map(|b| {
        let (mn, k) = plan.box_coord(b);
        [u(mn), u(k)]
    }));
    let (adv_mn, adv_k, box_offsets) = (flat(adv_mn), flat(adv_k), flat(box_offsets));
    // `PLAN` is assembled from these and `ACCESS` (`TilePlan::from_literal`), not validated again.
    let literal = flat(plan.literal_numbers().map(u));
    // The fixed items (documentation, function bodies) come from `__smem_tile_items!`, which the
    // compiler expands: the attribute writes only the numbers, a fraction of the tokens.
    Ok(quote! {
        #storage
        ::smemdesc::__smem_tile_items! {
            #name [#arch #operand #dtype #major #swizzle #order #kind]
            #numbers
            #adv_mn #adv_k #box_offsets #box_coords
            #literal #access
            { #global_items }
        }
    })
}

/// `plan` as a `const` block of literals (`TileAccess::from_literal`, `TilePlan::from_literal`):
/// what `smem_plan!` writes, so the const evaluator copies numbers instead of re-running the
/// validation the macro already ran natively (`generated/tests/cases/macro_consts.rs` compares it with `build()`).
pub(crate) fn plan_literal(plan: &TilePlan) -> TokenStream {
    let t = &plan.tile;
    let a = t.access();
    let (arch, swizzle) = (arch_path(plan.decl.arch), swizzle_path(t.swizzle_mode()));
    let desc = Literal::u64_unsuffixed(a.desc);
    let access = a.literal_numbers().map(u);
    let literal = plan.literal_numbers().map(u);
    let (op, dtype, major) = (
        operand_path(plan.decl.operand),
        dtype_path(plan.decl.dtype),
        major_path(plan.decl.major),
    );
    let (order, kind) = (order_path(t.spec().order), kind_path(plan.kind));
    quote! {
        {
            const ACCESS: ::smemdesc::TileAccess =
                ::smemdesc::TileAccess::from_literal(#arch, #swizzle, #desc, [#(#access),*]);
            const PLAN: ::smemdesc::TilePlan = ::smemdesc::TilePlan::from_literal(
                #op, #dtype, #major, #order, #kind, &ACCESS, [#(#literal),*],
            );
            PLAN
        }
    }
}

/// `::smemdesc::Arch::<variant>` for `a` (the variant's name is its `Debug` text).
pub(crate) fn arch_path(a: Arch) -> TokenStream {
    let v = quote::format_ident!("{}", format!("{a:?}"));
    quote!(::smemdesc::Arch::#v)
}

fn operand_path(o: Operand) -> TokenStream {
    match o {
        Operand::A => quote!(::smemdesc::Operand::A),
        Operand::B => quote!(::smemdesc::Operand::B),
    }
}

pub(crate) fn dtype_path(d: ElementType) -> TokenStream {
    let v = match d {
        ElementType::F16 => quote!(F16),
        ElementType::BF16 => quote!(BF16),
        ElementType::TF32 => quote!(TF32),
        ElementType::F32 => quote!(F32),
        ElementType::E4M3 => quote!(E4M3),
        ElementType::E5M2 => quote!(E5M2),
        ElementType::S8 => quote!(S8),
        ElementType::U8 => quote!(U8),
        ElementType::E2M3 => quote!(E2M3),
        ElementType::E3M2 => quote!(E3M2),
        ElementType::E2M1 => quote!(E2M1),
    };
    quote!(::smemdesc::ElementType::#v)
}

pub(crate) fn major_path(m: Major) -> TokenStream {
    match m {
        Major::K => quote!(::smemdesc::Major::K),
        Major::Mn => quote!(::smemdesc::Major::Mn),
    }
}

fn order_path(o: Order) -> TokenStream {
    match o {
        Order::MnFirst => quote!(::smemdesc::Order::MnFirst),
        Order::KFirst => quote!(::smemdesc::Order::KFirst),
    }
}

pub(crate) fn swizzle_path(s: SwizzleMode) -> TokenStream {
    let v = match s {
        SwizzleMode::None => quote!(None),
        SwizzleMode::B32 => quote!(B32),
        SwizzleMode::B64 => quote!(B64),
        SwizzleMode::B128 => quote!(B128),
        SwizzleMode::B128Base32B => quote!(B128Base32B),
    };
    quote!(::smemdesc::SwizzleMode::#v)
}

pub(crate) fn kind_path(k: MmaKind) -> TokenStream {
    let v = match k {
        MmaKind::F16 => quote!(F16),
        MmaKind::Tf32 => quote!(Tf32),
        MmaKind::F8f6f4 => quote!(F8f6f4),
        MmaKind::I8 => quote!(I8),
        MmaKind::Mxf8f6f4 => quote!(Mxf8f6f4),
        MmaKind::Mxf4 => quote!(Mxf4),
        MmaKind::Mxf4nvf4 => quote!(Mxf4nvf4),
    };
    quote!(::smemdesc::MmaKind::#v)
}
