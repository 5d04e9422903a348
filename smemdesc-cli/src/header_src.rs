//! `smemdesc header --from FILE`: the declarations of a Rust source file as one C/C++ header.
//!
//! The file is parsed with `syn` (never compiled or expanded). Every `#[smem_tile(...)]` struct,
//! `#[smem_mma(...)]` inline module and `#[smem_storage(...)]` struct, in any inline module, is
//! evaluated through the core the way the macros do it ([`TileDecl::build`], [`MmaPair::pair`],
//! [`StorageLayout::plan`]), and becomes a namespace that mirrors its Rust path. Storage members
//! that are not tiles: `Mbarrier`, the scalars `u8 … u64`, `i8 … i64`, `f32`, `f64`, and arrays of
//! those (nested too) whose lengths are integer expressions over literals and the file's own
//! `const` items ([`crate::header_eval`]). Anything else is an error that names the item, the
//! position and what is supported.

use super::header::{check_ident, item, render_tree, scalar, tile_items, Ns, Val};
use super::header_args::{mma_options, storage_arch, tile_decl, TileSrc};
use super::header_eval::{plain_layout, resolve, Consts, Named, Plain};
use super::tile::report_placed;
use crate::CliError;
use proc_macro2::Span;
use smemdesc_core::{Arch, MmaPair, Placement, StorageMember, TilePlan};
use std::path::Path;

/// Where a span is, as `FILE:LINE:COLUMN`.
pub(crate) struct Src<'a> {
    pub(crate) file: &'a str,
}

impl Src<'_> {
    /// An error at `span`.
    pub(crate) fn err(&self, span: Span, msg: impl std::fmt::Display) -> CliError {
        let p = span.start();
        CliError(format!("{}:{}:{}: {msg}", self.file, p.line, p.column + 1))
    }
}

/// The last segment of an attribute's path (`smemdesc::smem_tile` → `smem_tile`).
fn attr_name(a: &syn::Attribute) -> String {
    a.path()
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

fn find_attr<'a>(attrs: &'a [syn::Attribute], name: &str) -> Option<&'a syn::Attribute> {
    attrs.iter().find(|a| attr_name(a) == name)
}

/// Rust identifier as written (`r#type` → `type`).
fn ident(i: &syn::Ident) -> String {
    i.to_string().trim_start_matches("r#").to_owned()
}

/// Every tile of the file, with its module path.
struct Tiles(Vec<Named<TileSrc>>);

/// Pass 1: the `const` items and the tiles (the tiles' arguments are literals; storages and
/// pairings refer to tiles anywhere in the file).
fn collect<'f>(
    src: &Src,
    items: &'f [syn::Item],
    path: &mut Vec<String>,
    consts: &mut Consts<'f>,
    tiles: &mut Tiles,
) -> Result<(), CliError> {
    for it in items {
        match it {
            syn::Item::Const(c) => consts.0.push((path.clone(), ident(&c.ident), &c.expr)),
            syn::Item::Struct(s) => {
                if let Some(a) = find_attr(&s.attrs, "smem_tile") {
                    let t = tile_decl(src, a, &s.ident)?;
                    tiles.0.push((path.clone(), ident(&s.ident), t));
                }
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    path.push(ident(&m.ident));
                    collect(src, inner, path, consts, tiles)?;
                    path.pop();
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Pass 2: the namespaces, in file order.
fn build(
    cx: &Cx,
    items: &[syn::Item],
    path: &mut Vec<String>,
    ns: &mut Ns,
) -> Result<(), CliError> {
    for it in items {
        match it {
            syn::Item::Struct(s) => {
                let name = ident(&s.ident);
                if find_attr(&s.attrs, "smem_tile").is_some() {
                    let t = tile_of(cx, path, &name);
                    check_ident(&name, "item name").map_err(|e| cx.src.err(s.ident.span(), e.0))?;
                    let (summary, items) = tile_items(&t.plan, 0, Placement::Absolute)?;
                    ns.children.push(Ns {
                        name,
                        summary: format!("#[smem_tile] {summary}"),
                        items,
                        children: Vec::new(),
                    });
                } else if let Some(a) = find_attr(&s.attrs, "smem_storage") {
                    check_ident(&name, "item name").map_err(|e| cx.src.err(s.ident.span(), e.0))?;
                    ns.children.push(storage(cx, a, s, path)?);
                } else if find_attr(&s.attrs, "smem_scale_tile").is_some() {
                    eprintln!(
                        "warning: {}: #[smem_scale_tile] struct `{name}` skipped: `header --from` does not support scale-factor tiles",
                        cx.src.file
                    );
                }
            }
            syn::Item::Mod(m) => {
                let Some((_, inner)) = &m.content else {
                    continue;
                };
                let name = ident(&m.ident);
                path.push(name.clone());
                let mut child = Ns {
                    name: name.clone(),
                    summary: format!("mod {name}"),
                    items: Vec::new(),
                    children: Vec::new(),
                };
                build(cx, inner, path, &mut child)?;
                if let Some(a) = find_attr(&m.attrs, "smem_mma") {
                    let (summary, items) = pairing(cx, a, inner, path)?;
                    child.summary = summary;
                    child.items = items;
                }
                path.pop();
                if !child.items.is_empty() || !child.children.is_empty() {
                    check_ident(&name, "module name")
                        .map_err(|e| cx.src.err(m.ident.span(), e.0))?;
                    ns.children.push(child);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// What pass 2 reads: where errors point, the file's `const` items and its tiles.
struct Cx<'a> {
    src: Src<'a>,
    consts: Consts<'a>,
    tiles: Tiles,
}

/// The tile `name` declared directly in module `path` (pass 1 found it).
fn tile_of<'c>(cx: &'c Cx, path: &[String], name: &str) -> &'c TileSrc {
    cx.tiles
        .0
        .iter()
        .find(|(p, n, _)| p == path && n == name)
        .map(|(_, _, t)| t)
        .expect("pass 1 collected every tile")
}

/// `#[smem_mma]` on module `path`: its summary and items (the tiles are its children already).
fn pairing(
    cx: &Cx,
    attr: &syn::Attribute,
    body: &[syn::Item],
    path: &[String],
) -> Result<(String, Vec<super::header::Item>), CliError> {
    let po = mma_options(&cx.src, attr)?;
    type Slot<'t> = Option<(&'t TileSrc, String)>;
    let (mut a, mut b): (Slot, Slot) = (None, None);
    for it in body {
        let syn::Item::Struct(s) = it else { continue };
        if find_attr(&s.attrs, "smem_tile").is_none() {
            continue;
        }
        let name = ident(&s.ident);
        let t = tile_of(cx, path, &name);
        let slot = match t.plan.decl.operand {
            smemdesc_core::Operand::A => &mut a,
            smemdesc_core::Operand::B => &mut b,
        };
        if slot.is_some() {
            return Err(cx.src.err(
                s.ident.span(),
                format!(
                    "#[smem_mma] pairs one A tile with one B tile; operand = {} appears twice",
                    t.plan.decl.operand.name()
                ),
            ));
        }
        *slot = Some((t, name));
    }
    let (Some((ta, na)), Some((tb, nb))) = (a, b) else {
        return Err(cx.src.err(
            attr.pound_token.span,
            "#[smem_mma] needs one #[smem_tile(operand = A, ..)] and one #[smem_tile(operand = B, ..)] struct directly inside the module",
        ));
    };
    // M belongs to A, N to B: an explicit shape on the other tile must agree (as the macro checks).
    if let Some((m, span)) = ta.mma.filter(|(m, _)| m.n != tb.plan.mma.n) {
        let e = smemdesc_core::IdescError::ShapeMismatch {
            what: 'N',
            a: m.n,
            b: tb.plan.mma.n,
        };
        return Err(cx.src.err(span, e));
    }
    if let Some((m, span)) = tb.mma.filter(|(m, _)| m.m != ta.plan.mma.m) {
        let e = smemdesc_core::IdescError::ShapeMismatch {
            what: 'M',
            a: ta.plan.mma.m,
            b: m.m,
        };
        return Err(cx.src.err(span, e));
    }
    let p = MmaPair::pair(&ta.plan, &tb.plan, po).map_err(|e| {
        cx.src
            .err(attr.pound_token.span, format!("#[smem_mma]: {e}"))
    })?;
    let mnemonic = p.mnemonic().to_string();
    let mut items = vec![
        scalar(
            "MMA_M",
            "unsigned int",
            p.shape.m.into(),
            "instruction M (the CTA pair's for cta_group 2)",
        ),
        scalar("MMA_N", "unsigned int", p.shape.n.into(), "instruction N"),
        scalar(
            "MMA_K",
            "unsigned int",
            p.shape.k.into(),
            "instruction K, elements",
        ),
        scalar("CTA_GROUP", "unsigned int", p.cta_group.into(), "CTA group"),
        item(
            "MNEMONIC",
            "char",
            Val::Str(mnemonic.clone()),
            "instruction mnemonic",
        ),
    ];
    match p.arch {
        Arch::Sm90 => {
            let (ta_, tb_) = p.imm_trans();
            let (sa, sb) = p.imm_scale();
            let mut imms = Vec::new();
            if p.has_imm_scale() {
                imms.extend([sa.to_string(), sb.to_string()]);
            }
            if p.has_imm_trans() {
                imms.extend([ta_.to_string(), tb_.to_string()]);
            }
            items.extend([
                scalar("IMM_TRANS_A", "unsigned int", ta_.into(), "wgmma imm-trans-a (1: A MN-major)"),
                scalar("IMM_TRANS_B", "unsigned int", tb_.into(), "wgmma imm-trans-b (1: B MN-major)"),
                item("IMM_SCALE_A", "int", Val::Signed(sa.into()), "wgmma imm-scale-a (-1: negate A)"),
                item("IMM_SCALE_B", "int", Val::Signed(sb.into()), "wgmma imm-scale-b (-1: negate B)"),
                item(
                    "WGMMA_IMMS",
                    "char",
                    Val::Str(imms.join(", ")),
                    "the immediates this wgmma takes after scale-d (imm-scale-a, imm-scale-b[, imm-trans-a, imm-trans-b]; none for integer types)",
                ),
            ]);
        }
        Arch::Sm100 => {
            let i = p.idesc().map_err(|e| {
                cx.src
                    .err(attr.pound_token.span, format!("#[smem_mma]: {e}"))
            })?;
            items.extend([
                item(
                    "IDESC",
                    "unsigned int",
                    Val::Scalar(i.raw().into(), true),
                    "tcgen05 instruction descriptor (32 bits)",
                ),
                item(
                    "IDESC64",
                    "unsigned long long",
                    Val::Scalar(i.runtime64(), true),
                    "its 64-bit run-time form (IDESC << 32)",
                ),
            ]);
        }
    }
    Ok((format!("#[smem_mma] {na} x {nb}: {mnemonic}"), items))
}

/// The kind of one storage member.
enum Kind<'c> {
    Tile(&'c TileSrc, Option<Placement>),
    Plain(Plain),
}

/// A field's `#[smem]` settings: the placement (with its span) and the alignment.
type FieldAttrs = (Option<(Placement, Span)>, Option<u32>);

/// `#[smem(placement = …, align = N)]` on a field.
fn field_attrs(src: &Src, f: &syn::Field) -> Result<FieldAttrs, CliError> {
    let (mut placement, mut align) = (None, None);
    for a in f.attrs.iter().filter(|a| a.path().is_ident("smem")) {
        a.parse_nested_meta(|m| {
            if m.path.is_ident("placement") {
                let v: syn::Ident = m.value()?.parse()?;
                placement = Some(match v.to_string().as_str() {
                    "absolute" => (Placement::Absolute, v.span()),
                    "relative" => (Placement::Relative, v.span()),
                    _ => return Err(syn::Error::new(v.span(), format!("unknown placement `{v}`; legal: absolute, relative"))),
                });
                Ok(())
            } else if m.path.is_ident("align") {
                let v: syn::LitInt = m.value()?.parse()?;
                match v.base10_parse::<u32>() {
                    Ok(n) if n.is_power_of_two() => align = Some(n),
                    _ => return Err(syn::Error::new(v.span(), format!("align = {v} is not a power of two in 1..=2^31; legal: 8, 16, 128, 1024, ..."))),
                }
                Ok(())
            } else {
                Err(m.error("unknown #[smem] key; legal: placement = absolute | relative, align = <power of two>"))
            }
        })
        .map_err(|e| src.err(e.span(), e))?;
    }
    Ok((placement, align))
}

/// `#[smem_storage(arch = …)] struct S { … }` in module `path`.
fn storage(
    cx: &Cx,
    attr: &syn::Attribute,
    s: &syn::ItemStruct,
    path: &[String],
) -> Result<Ns, CliError> {
    let src = &cx.src;
    let arch = storage_arch(src, attr)?;
    let sname = ident(&s.ident);
    let syn::Fields::Named(fields) = &s.fields else {
        return Err(src.err(
            s.ident.span(),
            "#[smem_storage] needs a struct with named fields, one per shared-memory member",
        ));
    };
    if !s.generics.params.is_empty() {
        return Err(src.err(s.ident.span(), "#[smem_storage] structs cannot be generic"));
    }
    let mut members = Vec::new();
    let mut kinds = Vec::new();
    for f in &fields.named {
        let fname = f.ident.as_ref().map(ident).unwrap_or_default();
        let span = f.ident.as_ref().map_or_else(Span::call_site, |i| i.span());
        check_ident(&fname, "member name").map_err(|e| src.err(span, e.0))?;
        let (placement, align) = field_attrs(src, f)?;
        let plain = plain_layout(src, &cx.consts, path, &f.ty)?;
        let (member, kind) = match plain {
            Some(p) => {
                if let Some((_, sp)) = placement {
                    return Err(src.err(sp, format!("`placement` applies to #[smem_tile] members only; `{fname}` is plain data")));
                }
                let sized = |x: u64| usize::try_from(x).unwrap_or(usize::MAX);
                (
                    StorageMember::sized(leak(&fname), sized(p.bytes), sized(p.align)),
                    Kind::Plain(p),
                )
            }
            None => {
                let mut ty = &f.ty;
                while let syn::Type::Paren(syn::TypeParen { elem, .. })
                | syn::Type::Group(syn::TypeGroup { elem, .. }) = ty
                {
                    ty = elem;
                }
                // plain_layout refused every other type already; stay total anyway.
                let syn::Type::Path(tp) = ty else {
                    return Err(src.err(span, format!("member `{fname}`: type not supported")));
                };
                let t = resolve(&cx.tiles.0, path, &tp.path)
                    .map_err(|e| src.err(span, format!("member `{fname}`: {e}")))?;
                let Some((_, _, t)) = t else {
                    return Err(src.err(
                        span,
                        format!(
                            "member `{fname}`: `{}` is not an #[smem_tile] struct of this file; a member is an #[smem_tile] struct, `Mbarrier`, u8..u64, i8..i64, f32, f64, or an array of those with a constant length",
                            quote::ToTokens::to_token_stream(&f.ty)
                        ),
                    ));
                };
                let pl = placement.map(|p| p.0);
                (
                    StorageMember::tile(leak(&fname), t.plan.tile, pl),
                    Kind::Tile(t, pl),
                )
            }
        };
        let member = match align {
            Some(a) => member.at_least(a),
            None => member,
        };
        members.push(member);
        kinds.push(kind);
    }
    if members.is_empty() {
        return Err(src.err(s.ident.span(), "#[smem_storage] needs at least one member"));
    }
    let l = super::header_eval::plan_storage(leak(&sname), arch, &members)
        .map_err(|m| src.err(s.ident.span(), m))?;
    let mut items = vec![
        scalar(
            "BYTES",
            "unsigned int",
            l.bytes.into(),
            "bytes from the storage base to the end of the last member",
        ),
        scalar(
            "ALIGN",
            "unsigned int",
            l.align.into(),
            "alignment the storage base needs",
        ),
        scalar(
            "SLACK",
            "unsigned int",
            l.slack.into(),
            "bytes to align a 16-byte aligned dynamic shared-memory base to ALIGN",
        ),
        scalar(
            "LAUNCH_BYTES",
            "unsigned int",
            l.launch_bytes.into(),
            "sharedMemBytes when the kernel aligns its dynamic base itself (BYTES + SLACK)",
        ),
    ];
    for ((m, off), kind) in members.iter().zip(&l.offsets).zip(&kinds) {
        let up = m.name.to_uppercase();
        items.extend([
            scalar(
                format!("{up}_OFFSET"),
                "unsigned int",
                (*off).into(),
                format!("byte offset of `{}` from the storage base", m.name),
            ),
            scalar(
                format!("{up}_BYTES"),
                "unsigned int",
                m.bytes.into(),
                format!("bytes of `{}`", m.name),
            ),
            scalar(
                format!("{up}_ALIGN"),
                "unsigned int",
                m.align.into(),
                format!("alignment of `{}`'s offset", m.name),
            ),
        ]);
        match kind {
            Kind::Plain(p) => {
                if let Some((len, stride)) = p.array {
                    items.extend([
                        scalar(
                            format!("{up}_LEN"),
                            "unsigned int",
                            len,
                            format!("elements of `{}`", m.name),
                        ),
                        scalar(
                            format!("{up}_STRIDE"),
                            "unsigned int",
                            stride,
                            format!(
                                "bytes per element of `{}` (element i at OFFSET + i * STRIDE)",
                                m.name
                            ),
                        ),
                    ]);
                }
            }
            Kind::Tile(t, pl) => items.extend(member_descs(&t.plan, m.name, *off, *pl, &up)?),
        }
    }
    let summary = format!(
        "#[smem_storage] {sname} ({}): {} members, offsets from the storage base (aligned to ALIGN); tile descriptors for a base at address 0 (add base >> 4 for another aligned base)",
        arch.name(),
        members.len()
    );
    Ok(Ns {
        name: sname,
        summary,
        items,
        children: Vec::new(),
    })
}

/// A tile member's descriptors at its offset: `DESC`, `DESCS[stage][mn][k]`, `BASE_OFFSET`.
fn member_descs(
    plan: &TilePlan,
    name: &str,
    off: u32,
    pl: Option<Placement>,
    up: &str,
) -> Result<Vec<super::header::Item>, CliError> {
    // On its repeat (no placement) both models agree; the absolute one is the macro's too.
    let placement = pl.unwrap_or(Placement::Absolute);
    let r = report_placed(plan, off, placement)
        .map_err(|e| CliError(format!("member `{name}` at offset {off}: {}", e.0)))?;
    let descs = super::header::desc_table(plan, &r)?;
    let t = &plan.tile;
    let dims = vec![
        t.spec().stages as usize,
        t.mmas_mn() as usize,
        t.mmas_k() as usize,
    ];
    Ok(vec![
        item(
            format!("{up}_DESC"),
            "unsigned long long",
            Val::Scalar(descs[0], true),
            format!("descriptor of `{name}`'s subtile (0, 0), stage 0, at its offset"),
        ),
        item(
            format!("{up}_DESCS"),
            "unsigned long long",
            Val::Array(descs, dims, true),
            format!("descriptor of `{name}`'s subtile [stage][mn][k] at its offset"),
        ),
        scalar(
            format!("{up}_BASE_OFFSET"),
            "unsigned int",
            r.base_offset.into(),
            format!(
                "descriptor base_offset of `{name}` ({} placement)",
                match placement {
                    Placement::Absolute => "absolute",
                    Placement::Relative => "relative",
                }
            ),
        ),
    ])
}

/// A `'static` name for the core's `StorageMember` (the process is short-lived).
fn leak(s: &str) -> &'static str {
    String::leak(s.to_owned())
}

/// The header for every declaration in `file`, under namespace `name` (default: the file stem).
pub fn header_from(file: &Path, name: Option<&str>) -> Result<String, CliError> {
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError(format!("cannot read --from {shown}: {e}")))?;
    let src = Src { file: &shown };
    let ast = syn::parse_file(&text)
        .map_err(|e| src.err(e.span(), format!("not a Rust source file: {e}")))?;
    let top = match name {
        Some(n) => n.to_owned(),
        None => file
            .file_stem()
            .map(|s| s.to_string_lossy().replace('-', "_"))
            .unwrap_or_default(),
    };
    check_ident(
        &top,
        if name.is_some() {
            "--name"
        } else {
            "namespace from the file name (give --name)"
        },
    )?;
    let mut consts = Consts(Vec::new());
    let mut tiles = Tiles(Vec::new());
    collect(&src, &ast.items, &mut Vec::new(), &mut consts, &mut tiles)?;
    let cx = Cx { src, consts, tiles };
    let mut ns = Ns {
        name: top,
        summary: format!("declarations of {shown}"),
        items: Vec::new(),
        children: Vec::new(),
    };
    build(&cx, &ast.items, &mut Vec::new(), &mut ns)?;
    if ns.children.is_empty() {
        return Err(CliError(format!(
            "{shown} declares no #[smem_tile] struct, #[smem_mma] module or #[smem_storage] struct"
        )));
    }
    render_tree(&ns, &shown)
}
