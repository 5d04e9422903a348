//! The `#[smem_tile]` attribute, `smem_tile!` and `#[smem_storage]` macros of
//! [smemdesc](https://docs.rs/smemdesc).
//!
//! Use them through the `smemdesc` facade (`use smemdesc::smem_tile;`): the code they generate
//! names `::smemdesc::…` paths. This crate is thin on purpose: the `smemdesc-grammar` crate parses
//! the arguments (the grammar `smemdesc header --from` reads with too) into a
//! `smemdesc_core::TileDecl`, validated with `TileDecl::build` *at expansion time* (so every
//! illegal declaration is a compile error pointing at the argument at fault, with the core's
//! message naming the legal alternatives), and writes out the numbers the core computed. It holds
//! no layout knowledge of its own.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod emit;
mod epilogue;
mod fallback;
mod fragment;
mod global;
mod mma;
mod mma_items;
mod mma_scan;
mod pipeline;
mod scale;
mod storage;

use proc_macro::TokenStream;
use proc_macro2::Span;

/// Declares an SMEM operand tile: turns a unit (or empty) struct into correctly aligned storage for
/// all pipeline stages and attaches every constant a kernel and its host code need.
///
/// ```ignore
/// use smemdesc::smem_tile;
///
/// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
///             swizzle = 128B, mma = m64n256k16, stages = 4)]
/// pub struct TileA;
///
/// const D: u64 = TileA::desc(0, 1, 3, 2); // subtile (1, 3) of stage 2
/// ```
///
/// Arguments (`key = value`, any order; the first five are required):
///
/// | key | values | default |
/// |---|---|---|
/// | `arch` | `sm90`, `sm100` | required |
/// | `operand` | `A`, `B` | required |
/// | `dtype` | `f16 bf16 tf32 f32 e4m3 e5m2 s8 u8 e2m3 e3m2 e2m1` | required |
/// | `tile` | `(MN, K)` elements | required |
/// | `major` | `K`, `MN` | required |
/// | `swizzle` | `auto none 32B 64B 128B 128B_base32B` (or strings) | `auto` |
/// | `order` | `mn_first`, `k_first` | the TMA-friendly one |
/// | `mma` | `m64n256k16`, `(M, N)`, `(M, N, K)` | per operand |
/// | `kind` | `f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4` | the dtype's |
/// | `stages` | integer ≥ 1 | 1 |
/// | `tma_box` | `(rows, inner)` | the largest legal box |
/// | `cta_group` | `1`, `2` (sm100) | 1 |
/// | `global_dims` | `(dim0, dim1, …)` elements, innermost first, `_` = run time | none |
/// | `global_strides` | `(stride1, …)` bytes of dims 1.., `_` = run time | dense |
///
/// The struct gets `#[repr(C, align(ALIGN))]` and a private `[u8; BYTES]` field, `ZERO`/`new()`,
/// an impl of `smemdesc::SmemTile` that carries the constants (`DESC`, `LBO`, `SBO`, `STAGES`,
/// `TMA_BOX_DIM`, ... and the validated `PLAN`: `TileA::DESC` with the trait in scope, as
/// `smemdesc::prelude` puts it), inherent arrays with their exact lengths (`ADVANCE_MN`,
/// `ADVANCE_K`, `TMA_BOX_OFFSETS`, `TMA_BOX_COORDS`; `TENSOR_MAP` with `global_dims`),
/// `const fn desc(smem_addr, mn, k, stage)`, `const fn offset(mn, k)` and
/// `const fn value_offset(mn, k)` (the bits of a padded or packed fp6/fp4 value), and implements
/// `Default` (zeroed storage).
/// Write `#[smem_tile]` above any `#[derive]`: a `Default` in a derive below it is reported, one
/// above it the macro never sees (the compiler then reports the conflicting impls).
#[proc_macro_attribute]
pub fn smem_tile(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2 = proc_macro2::TokenStream::from(item);
    let site = Span::call_site();
    let parsed = smemdesc_grammar::tile::parse(attr.into(), site);
    let (shell, item_errors) = parse_struct(item2.clone(), &TILE_ITEM);
    let out = match parsed {
        Ok(decl) => guarded(&decl, || {
            match smemdesc_grammar::tile::core_decl(&decl).build() {
                Ok(plan) => match &shell {
                    Some(st) => emit::tile_struct(&decl, &plan, st, site),
                    None => Ok(proc_macro2::TokenStream::new()),
                },
                Err(e) => Err(smemdesc_grammar::tile::core_error(&decl, &e, site)),
            }
        }),
        Err(e) => Err(e),
    };
    // Every error together: the arguments' (or the core's) and the item's.
    let (items, errors) = match (out, item_errors) {
        (Ok(ts), None) => return ts.into(),
        (Ok(ts), Some(e)) => (Some(ts), e),
        (Err(mut a), Some(b)) => {
            a.combine(b);
            (None, a)
        }
        (Err(a), None) => (None, a),
    };
    match (items, shell) {
        // The declaration is legal, the item had a fault: the real items and the item's errors.
        (Some(ts), Some(_)) => {
            let mut out = errors.to_compile_error();
            out.extend(ts);
            out.into()
        }
        // Failed: the errors and the struct with stand-in items, so that no use site adds an error.
        (_, Some(st)) => fallback::tile_struct(errors, &st, site).into(),
        // Not a struct at all: the errors and the item as written.
        (_, None) => {
            let mut out = errors.to_compile_error();
            out.extend(item2);
            out.into()
        }
    }
}

/// The same arguments as [`macro@smem_tile`], as an expression: a `const` value of
/// `smemdesc::TilePlan` (the core's validated plan), for `const` items and generic code.
/// `global_dims`/`global_strides` are checked here too; build the map itself with
/// `smemdesc::TensorMap::for_tile(&PLAN, rank)`.
///
/// ```ignore
/// const B: smemdesc::TilePlan = smemdesc::smem_plan! {
///     arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4
/// };
/// ```
#[proc_macro]
pub fn smem_plan(input: TokenStream) -> TokenStream {
    let site = Span::call_site();
    let out = smemdesc_grammar::tile::parse(input.into(), site).and_then(|decl| {
        let core = smemdesc_grammar::tile::core_decl(&decl);
        guarded(&decl, || match core.build() {
            Ok(plan) => {
                smemdesc_grammar::global::check(&decl, &plan)?;
                Ok(emit::plan_literal(&plan))
            }
            Err(err) => Err(smemdesc_grammar::tile::core_error(&decl, &err, site)),
        })
    });
    match out {
        Ok(ts) => ts.into(),
        // All the errors, in a block that is still a `TilePlan`: nothing else is reported.
        Err(e) => fallback::plan_expr(e, site).into(),
    }
}

/// Pairs the A and B tiles declared inside a module into one MMA instruction and checks that they
/// agree; see the `smemdesc` facade for the full description.
///
/// ```ignore
/// #[smemdesc::smem_mma(accum = f32)]
/// mod gemm {
///     use smemdesc::smem_tile;
///     #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = m64n256k16)]
///     pub struct TileA;
///     #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K)]
///     pub struct TileB;
/// }
/// // gemm::mnemonic!() == "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16"
/// ```
#[proc_macro_attribute]
pub fn smem_mma(attr: TokenStream, item: TokenStream) -> TokenStream {
    mma::expand(attr.into(), item.into()).into()
}

/// Declares the SMEM tile of one operand's block-scale factors (`kind::mxf8f6f4`, `mxf4`,
/// `mxf4nvf4`): storage for all stages in the 512-byte-atom layout that
/// `tcgen05.cp .32x128b.warpx4` copies into Tensor Memory, with its copy descriptors and TMA plan
/// (the core's `ScaleTile`).
///
/// ```ignore
/// #[smemdesc::smem_scale_tile(kind = mxf4nvf4, operand = A, tile = (128, 256), stages = 4)]
/// struct SfA; // ue4m3, one factor per 16 values: 16 per row, 2048 B per stage
/// const D: u64 = SfA::copy_desc(0, 0, 1, 0);
/// ```
///
/// | key | values | default |
/// |---|---|---|
/// | `kind` | `mxf8f6f4`, `mxf4`, `mxf4nvf4` | required |
/// | `operand` | `A`, `B` | required |
/// | `tile` | `(MN, K)` of the operand tile, in its values | required |
/// | `sf` | `ue8m0`, `ue4m3` | `ue4m3` for `mxf4nvf4`, else `ue8m0` |
/// | `vec` | `16`, `32` | 16 for `ue4m3`, 32 for `ue8m0` |
/// | `stages` | integer ≥ 1 | 1 |
/// | `cta_group` | `1`, `2` | 1 |
#[proc_macro_attribute]
pub fn smem_scale_tile(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2 = proc_macro2::TokenStream::from(item);
    let site = Span::call_site();
    let (shell, item_errors) = parse_struct(
        item2.clone(),
        &ItemRules {
            attr: "smem_scale_tile",
            storage: true,
            example: "TileA",
        },
    );
    let out = match (
        smemdesc_grammar::scale::parse(attr.into(), site),
        shell,
        item_errors,
    ) {
        (Ok(args), Some(st), None) => scale::expand(&args, &st),
        (Err(mut a), _, Some(b)) => {
            a.combine(b);
            Err(a)
        }
        (Err(e), _, _) | (Ok(_), _, Some(e)) => Err(e),
        // parse_struct gives no struct only together with an error.
        (Ok(_), None, None) => Err(syn::Error::new(site, "expected a unit struct")),
    };
    match out {
        Ok(ts) => ts.into(),
        Err(e) => {
            let mut ts = e.to_compile_error();
            ts.extend(item2);
            ts.into()
        }
    }
}

/// Runs the core on a parsed declaration; a panic inside the core (e.g. arithmetic overflow on
/// absurd extents) becomes a compile error on the `tile` argument instead of a macro panic.
fn guarded(
    decl: &smemdesc_grammar::tile::Decl,
    f: impl FnOnce() -> syn::Result<proc_macro2::TokenStream>,
) -> syn::Result<proc_macro2::TokenStream> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(syn::Error::new(
            decl.tile.all,
            format!(
                "smemdesc-core overflowed evaluating this declaration: its sizes are far beyond \
                 shared memory; use a tile and stages that fit the {} B per CTA of {}",
                decl.arch.value.max_smem_per_cta(),
                decl.arch.value.name()
            ),
        ))
    })
}

/// What a struct-shaped attribute macro accepts of its item: its name (for messages), and whether
/// it generates the struct's storage (then it sets `repr` and implements `Default` itself, so the
/// item may have neither).
struct ItemRules {
    /// The attribute's name without `#[...]`.
    attr: &'static str,
    /// Whether the macro lays out storage (`repr`, `Default`) or declares a marker struct.
    storage: bool,
    /// A struct name for the messages' examples.
    example: &'static str,
}

/// `#[smem_tile]` and `#[smem_scale_tile]`: storage structs.
const TILE_ITEM: ItemRules = ItemRules {
    attr: "smem_tile",
    storage: true,
    example: "TileA",
};

/// Accepts `struct Name;`, `struct Name {}` or `struct Name();` without generics, `where` clause,
/// (for a storage macro) `repr` or derived `Default`, or a second application of the attribute.
/// Returns the struct's shell (name, visibility and the attributes the generated struct keeps;
/// `None` when the item is not even a type definition) and the errors about the item, each on the
/// tokens at fault, in the words of `rules.attr`.
fn parse_struct(
    item: proc_macro2::TokenStream,
    rules: &ItemRules,
) -> (Option<syn::DeriveInput>, Option<syn::Error>) {
    let at = format!("#[{}]", rules.attr);
    let ex = rules.example;
    let mut st: syn::DeriveInput = match syn::parse2(item) {
        Ok(st) => st,
        Err(e) => {
            let e = syn::Error::new(
                e.span(),
                format!("{at} applies to a unit struct (`struct {ex};`)"),
            );
            return (None, Some(e));
        }
    };
    let mut errs: Option<syn::Error> = None;
    let mut push = |e: syn::Error| match &mut errs {
        Some(all) => all.combine(e),
        None => errs = Some(e),
    };
    match &st.data {
        syn::Data::Struct(s) if s.fields.is_empty() => {}
        syn::Data::Struct(s) => push(syn::Error::new_spanned(
            &s.fields,
            if rules.storage {
                format!("{at} generates the struct's storage: declare it without fields (`struct {ex};`)")
            } else {
                format!("{at} declares a marker struct carrying constants: declare it without fields (`struct {ex};`)")
            },
        )),
        _ => push(syn::Error::new(
            st.ident.span(),
            format!("{at} applies to a unit struct (`struct {ex};`), not an enum or union"),
        )),
    }
    if !st.generics.params.is_empty() {
        push(syn::Error::new_spanned(
            &st.generics,
            format!("{at} structs cannot be generic"),
        ));
    }
    if let Some(w) = &st.generics.where_clause {
        push(syn::Error::new_spanned(
            w,
            format!("{at} structs cannot have a `where` clause (they are not generic); remove it"),
        ));
    }
    let mut kept = Vec::new();
    for a in std::mem::take(&mut st.attrs) {
        if rules.storage && a.path().is_ident("repr") {
            push(syn::Error::new_spanned(
                &a,
                format!("{at} sets the struct's `repr` (C, aligned to the swizzle pattern); remove this one"),
            ));
        } else if a
            .path()
            .segments
            .last()
            .is_some_and(|s| s.ident == rules.attr)
        {
            push(syn::Error::new_spanned(
                &a,
                format!("{at} is applied twice: one declaration per struct; remove this one"),
            ));
        } else if rules.storage && a.path().is_ident("derive") {
            kept.extend(without_default(a, &mut push));
        } else {
            kept.push(a);
        }
    }
    st.attrs = kept;
    (Some(st), errs)
}

/// The derives among `wanted` that none of `attrs`' `#[derive(...)]`s names: the ones a marker
/// macro may add without clashing with the user's own.
pub(crate) fn missing_derives(
    attrs: &[syn::Attribute],
    wanted: &[&str],
) -> Vec<proc_macro2::Ident> {
    use syn::punctuated::Punctuated;
    let mut have: Vec<String> = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        if let Ok(paths) =
            a.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
        {
            have.extend(
                paths
                    .iter()
                    .filter_map(|p| p.segments.last().map(|s| s.ident.to_string())),
            );
        }
    }
    wanted
        .iter()
        .filter(|w| !have.iter().any(|h| h == *w))
        .map(|w| proc_macro2::Ident::new(w, Span::call_site()))
        .collect()
}

/// A `#[derive(...)]` without `Default` (reported: the macro implements it, as zeroed storage);
/// `None` when nothing is left to derive.
fn without_default(a: syn::Attribute, push: &mut impl FnMut(syn::Error)) -> Option<syn::Attribute> {
    use syn::punctuated::Punctuated;
    let Ok(paths) = a.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
    else {
        return Some(a);
    };
    let (default, rest): (Vec<_>, Vec<_>) = paths
        .into_iter()
        .partition(|p| p.segments.last().is_some_and(|s| s.ident == "Default"));
    for p in &default {
        push(syn::Error::new_spanned(
            p,
            "#[smem_tile] implements `Default` itself (zeroed storage, the same as `ZERO`); \
             remove `Default` from this derive",
        ));
    }
    if default.is_empty() {
        return Some(a);
    }
    if rest.is_empty() {
        return None;
    }
    let mut a = a;
    a.meta = syn::parse_quote!(derive(#(#rest),*));
    Some(a)
}

/// Declares one CTA's shared memory: a struct whose named fields are `#[smem_tile]` types,
/// `Mbarrier`s, scalars and arrays, laid out in declaration order, each at the smallest offset
/// that honours its alignment (a tile: its swizzle pattern's repeat, or 128 B on sm90 with
/// `#[smem(placement = absolute)]` / `relative`; `#[smem(align = N)]` raises any member's).
/// The total plus the slack to align a 16-B dynamic base is checked against the per-CTA limit at
/// compile time: a storage that does not fit is a compile error naming every member with its size.
///
/// ```ignore
/// #[smem_storage(arch = sm90)]
/// pub struct Storage {
///     a: TileA,
///     b: TileB,
///     full: [smemdesc::Mbarrier; 4],
///     empty: [smemdesc::Mbarrier; 4],
/// }
/// const LAUNCH: u32 = Storage::LAUNCH_BYTES; // sharedMemBytes
/// let a = Storage::a(Storage::aligned_base(dyn_smem_base)); // TileAt<TileA>: desc(), address(), tma_dst()
/// ```
///
/// The struct becomes a unit struct with `LAYOUT`, `BYTES`, `ALIGN`, `SLACK`, `LAUNCH_BYTES`,
/// `aligned_base(dyn_base)`, and per member `NAME_OFFSET`, `NAME_BYTES`, `NAME_ALIGN`,
/// `name_ptr(base_ptr)`, `name(base) -> u32` (plain) / `TileAt<Tile>` (tile, plus `NAME_DESC`),
/// `name_at(base, i)` (arrays).
#[proc_macro_attribute]
pub fn smem_storage(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2 = proc_macro2::TokenStream::from(item);
    match storage::expand(attr.into(), item2.clone()) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Declares an `mma.sync` operand tile read with `ldmatrix` (sm80-sm120): the core chooses the
/// swizzle (or checks the given one) so the `ldmatrix` reads (and the writer, if named) are
/// conflict-free, and the struct gets the per-lane `ldmatrix` row offsets of every fragment of
/// every k-step and the registers they fill (the core's `fragment::LdmatrixTile`).
///
/// ```ignore
/// #[smemdesc::smem_fragment_tile(arch = sm80, mma = m16n8k16, dtype = bf16, operand = A,
///     tile = (64, 64), reader = ldmatrix_x4, writer = cp_async, conflict_free = true)]
/// struct As;
/// let off = As::ldmatrix_offset(0, lane); // ldmatrix.x4 #0: a0..a7 of fragment 0, k-step 0
/// ```
///
/// | key | values | default |
/// |---|---|---|
/// | `arch` | `sm80`, `sm86`, `sm89`, `sm90`, `sm120` | required |
/// | `mma` | `m16n8k4`, `m16n8k8`, `m16n8k16`, `m16n8k32`, `m16n8k64` | required |
/// | `dtype` | `f16`, `bf16`, `tf32`, `s8`, `u8`, `e4m3`, `e5m2`, ... | required |
/// | `kind` | `plain`, `f8f6f4`, `mxf8f6f4`, `mxf4`, `mxf4nvf4` | `plain` |
/// | `scale_vec`, `stype` | `1X`, `2X`, `4X`; `ue8m0`, `ue4m3` (block-scaled kinds; together) | the kind's (`mxf4nvf4`: none) |
/// | `operand` | `A`, `B`; `D`: an `M x N` tile of 16-bit results written with `stmatrix` | required |
/// | `major` | `K`, `MN` (`ldmatrix .trans`, 16-bit only; for `D`: row- or column-major) | `K` |
/// | `tile` | `(MN, K)` in elements | required |
/// | `reader` | `ldmatrix_x1`, `ldmatrix_x2`, `ldmatrix_x4`; for `D`: `stmatrix_x1/x2/x4` | `.x4` |
/// | `writer` | `cp_async`, `tma`, `st_shared_4`, `st_shared_8`, `st_shared_16` | none |
/// | `swizzle` | `auto`, `none`, `32B`, `64B`, `128B` | `auto` |
/// | `conflict_free` | `true`, `false`: a conflict is a compile error naming lanes and bank | `false` |
#[proc_macro_attribute]
pub fn smem_fragment_tile(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2 = proc_macro2::TokenStream::from(item);
    let site = Span::call_site();
    let (shell, item_errors) = parse_struct(
        item2.clone(),
        &ItemRules {
            attr: "smem_fragment_tile",
            storage: false,
            example: "As",
        },
    );
    let out = match (shell, item_errors) {
        (Some(st), None) => fragment::expand(attr.into(), &st, site),
        (_, Some(e)) => Err(e),
        (None, None) => Err(syn::Error::new(site, "expected a unit struct")),
    };
    match out {
        Ok(ts) => ts.into(),
        Err(e) => {
            let mut ts = e.to_compile_error();
            ts.extend(item2);
            ts.into()
        }
    }
}

/// Declares the epilogue's C/D tile (sm90): the shared-memory tile a `wgmma` `m64nNk*`
/// accumulator is written into (`stmatrix` / `st.shared`) and stored from (TMA store, TMA
/// reduce-add, plain loads). The core picks the widest swizzle whose every writer instruction is
/// conflict-free under the bank model (or checks the given one), checks the TMA store map's
/// `tma_swizzle` against it, and the struct gets the per-lane writer offsets, register pairs, TMA
/// store boxes and its storage footprint (`#[smem(epilogue)]` in [`macro@smem_storage`]).
///
/// ```ignore
/// #[smemdesc::smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 256, stages = 2,
///     writer = stmatrix_x4, reader = tma_store, tma_swizzle = 128B)]
/// struct C;
/// let off = C::writer_offset(0, warp, instr, lane);
/// ```
///
/// | key | values | default |
/// |---|---|---|
/// | `dtype` | `f16`, `bf16` (`stmatrix`, `st_shared_4`), `f32`, `u32`, `s32` (`st_shared_8`), `u64`, `s64` (`st_shared_16`) | required |
/// | `tile` | `(M, N)`: M a multiple of 64 (a warpgroup's rows), N dividing `wgmma_n` | required |
/// | `wgmma_n` | the accumulator's N | required |
/// | `major` | `n` (row-major), `m` (with `stmatrix_*_trans`) | `n` |
/// | `stages` | buffers | `1` |
/// | `writer` | `stmatrix_x1/x2/x4[_trans]`, `st_shared_4`, `st_shared_8`, `st_shared_16` | `stmatrix_x4` |
/// | `reader` | `tma_store`, `tma_reduce_{add,min,max,inc,dec,and,or,xor}` (each on the element types the PTX ISA allows it: a compile error names them), `loads` | `tma_store` |
/// | `swizzle` | `auto`, `none`, `32B`, `64B`, `128B` | `auto` |
/// | `tma_swizzle` | the TMA store map's swizzle: must equal the tile's | unchecked |
#[proc_macro_attribute]
pub fn smem_epilogue_tile(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2 = proc_macro2::TokenStream::from(item);
    let site = Span::call_site();
    let (shell, item_errors) = parse_struct(
        item2.clone(),
        &ItemRules {
            attr: "smem_epilogue_tile",
            storage: false,
            example: "CTile",
        },
    );
    let out = match (shell, item_errors) {
        (Some(st), None) => epilogue::expand(attr.into(), &st, site),
        (_, Some(e)) => Err(e),
        (None, None) => Err(syn::Error::new(site, "expected a unit struct")),
    };
    match out {
        Ok(ts) => ts.into(),
        Err(e) => {
            let mut ts = e.to_compile_error();
            ts.extend(item2);
            ts.into()
        }
    }
}

/// Declares the TMA → tensor-core pipeline over a `#[smem_storage]`: what one stage loads, the
/// consumers, the cluster and CTA group. The compiler derives every number of its barrier
/// protocol (init counts, `expect_tx`, the wait parities, which CTAs a consumer releases) with
/// the core's `PipelineSpec`; a stated number that would hang (`expect_tx`, `full_arrivals`,
/// `empty_arrivals`) and each illegal combination is a compile error on the key at fault. The
/// struct gets `SPEC`, `LAYOUT`, `STAGES`, `EXPECT_TX`, `FULL_ARRIVALS`, `EMPTY_ARRIVALS` and
/// the `smemdesc::pipeline::Pipeline` impl its run-time handles (`PipeAt`) use.
///
/// ```ignore
/// #[smem_pipeline(storage = Storage21, loads = (a: cl21::A, b: cl21::B), multicast = (b),
///                 cluster = (2, 1), consumers = 2)]
/// pub struct Pipe21;
/// ```
///
/// | key | values | default |
/// |---|---|---|
/// | `storage` | the `#[smem_storage]` type | required |
/// | `loads` | `(name: Tile, name: scale ScaleTile, ..)` storage members | required |
/// | `consumers` | consumer groups per CTA | required |
/// | `consumer_threads` | threads per group | 128 |
/// | `consumer_arrivals` | arrivals per group per release | 1 |
/// | `multicast` | `(name, ..)` loads multicast in the cluster | none |
/// | `cluster` | `(x, y)` | `(1, 1)` |
/// | `cta_group` | 1, 2 (sm100) | 1 |
/// | `tmem` | the CTA group allocating Tensor Memory | none |
/// | `stages` | stages | the loads' |
/// | `full`, `empty` | barrier arrays (`empty = none`: one stage only) | `full`, `empty` |
/// | `expect_tx`, `full_arrivals`, `empty_arrivals` | stated numbers, checked | none |
#[proc_macro_attribute]
pub fn smem_pipeline(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2 = proc_macro2::TokenStream::from(item);
    match pipeline::expand(attr.into(), item2.clone()) {
        Ok(ts) => ts.into(),
        Err(e) => {
            let err = e.to_compile_error();
            // The struct still exists, so its uses are not the errors reported.
            match syn::parse2::<syn::DeriveInput>(item2) {
                Ok(d) => {
                    let (vis, name) = (&d.vis, &d.ident);
                    quote::quote!(#err #vis struct #name;).into()
                }
                Err(_) => err.into(),
            }
        }
    }
}
