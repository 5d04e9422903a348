//! `smemdesc header --from FILE`: the declarations of a Rust source file as one C/C++ header.
//!
//! The file is parsed with `syn` (never compiled or expanded). Every `#[smem_tile(...)]` struct,
//! `#[smem_mma(...)]` inline module and `#[smem_storage(...)]` struct, in any inline module, is
//! evaluated through the core the way the macros do it ([`TileDecl::build`], [`MmaPair::pair`],
//! [`StorageLayout::plan`]), and becomes a namespace that mirrors its Rust path. Storage members
//! that are not tiles (named directly or through a `use … as …` rename): `Mbarrier`, the scalars
//! `u8 … u128`, `i8 … i128`, `f32`, `f64`, and arrays of those or of tiles (nested too) whose
//! lengths are integer expressions over literals and the file's own `const` items
//! ([`crate::header_eval`]). `#[cfg]` on anything a header is computed from is refused, as are
//! attributes the macros would refuse ([`crate::header_check`]). Anything else is an error that
//! names the item, the position and what is supported.

use super::header::{check_ident, item, render_tree, scalar, tile_items, Ns, Val};
use super::header_args::{refusal, tile_decl, tokens, TileSrc};
use super::header_check::{comment_path, item_attr, nesting, no_cfg, renames};
use super::header_cx::{ident, Cx, Epilogues, Renames, Tiles};
use super::header_eval::Consts;
use super::header_loc::Src;
use crate::CliError;
use smemdesc_core::{Arch, Placement};
use std::path::Path;

/// The smemdesc attribute `name` of an item whose attributes pass 1 checked
/// ([`item_attr`]: a recognised path, at most one per item).
fn find_attr<'a>(attrs: &'a [syn::Attribute], name: &str) -> Option<&'a syn::Attribute> {
    attrs
        .iter()
        .find(|a| a.path().segments.last().is_some_and(|s| s.ident == name))
}

/// Pass 1: the `const` items and the tiles (the tiles' arguments are literals; storages and
/// pairings refer to tiles anywhere in the file).
fn collect<'f>(
    src: &Src,
    items: &'f [syn::Item],
    path: &mut Vec<String>,
    consts: &mut Consts<'f>,
    tiles: &mut Tiles,
    epis: &mut Epilogues,
    aliases: &mut Renames,
) -> Result<(), CliError> {
    for (alias, target) in renames(items) {
        aliases.0.push((path.clone(), alias, target));
    }
    for it in items {
        match it {
            syn::Item::Const(c) => {
                let cfgd = c
                    .attrs
                    .iter()
                    .any(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"));
                consts
                    .0
                    .push((path.clone(), ident(&c.ident), (&c.expr, cfgd)))
            }
            syn::Item::Struct(s) => {
                let what = format!("struct `{}`", ident(&s.ident));
                match item_attr(src, &s.attrs, &what)? {
                    Some(("smem_tile", a)) => {
                        let t = tile_decl(src, a)?;
                        tiles.0.push((path.clone(), ident(&s.ident), t));
                    }
                    Some(("smem_epilogue_tile", a)) => {
                        let t = super::header_epi::epilogue_decl(src, a)?;
                        epis.0.push((path.clone(), ident(&s.ident), t));
                    }
                    _ => {}
                }
            }
            syn::Item::Mod(m) => {
                item_attr(src, &m.attrs, &format!("module `{}`", ident(&m.ident)))?;
                if let Some((_, inner)) = &m.content {
                    path.push(ident(&m.ident));
                    collect(src, inner, path, consts, tiles, epis, aliases)?;
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
                    ns.children
                        .push(super::header_storage::storage(cx, a, s, path)?);
                } else if let Some(a) = find_attr(&s.attrs, "smem_pipeline") {
                    check_ident(&name, "item name").map_err(|e| cx.src.err(s.ident.span(), e.0))?;
                    ns.children
                        .push(super::header_pipeline::pipeline(cx, a, s, path)?);
                } else if find_attr(&s.attrs, "smem_epilogue_tile").is_some() {
                    check_ident(&name, "item name").map_err(|e| cx.src.err(s.ident.span(), e.0))?;
                    let t = cx
                        .epilogues
                        .0
                        .iter()
                        .find(|(p, n, _)| p == path && *n == name)
                        .map(|(_, _, t)| t)
                        .expect("pass 1 collected every epilogue tile");
                    let (summary, items) = super::header_epi::epilogue_items(t)?;
                    ns.children.push(Ns {
                        name,
                        summary: format!("#[smem_epilogue_tile] {summary}"),
                        items,
                        children: Vec::new(),
                    });
                } else if let Some(a) = find_attr(&s.attrs, "smem_fragment_tile") {
                    check_ident(&name, "item name").map_err(|e| cx.src.err(s.ident.span(), e.0))?;
                    let d = super::header_frag::fragment_decl(&cx.src, a)?;
                    let (summary, items) = super::header_frag::fragment_items(&d);
                    ns.children.push(Ns {
                        name,
                        summary: format!("#[smem_fragment_tile] {summary}"),
                        items,
                        children: Vec::new(),
                    });
                } else if let Some(a) = find_attr(&s.attrs, "smem_scale_tile") {
                    // Refused as the macro refuses it; a legal one has no header items yet.
                    scale_tile(&cx.src, a)?;
                    super::warn(format!(
                        "{}: #[smem_scale_tile] struct `{name}` skipped: `header --from` does not support scale-factor tiles",
                        cx.src.file
                    ));
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
                    let (summary, items) = pairing(cx, a, inner)?;
                    child.summary = summary;
                    child.items = items;
                }
                path.pop();
                if !child.items.is_empty() || !child.children.is_empty() {
                    no_cfg(
                        &cx.src,
                        &m.attrs,
                        &format!("module `{name}`, which declares what the header holds"),
                    )?;
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

/// `#[smem_scale_tile(...)]`, checked as the macro checks it (`smemdesc_grammar::scale`).
fn scale_tile(src: &Src, attr: &syn::Attribute) -> Result<(), CliError> {
    use smemdesc_grammar::scale::{core, error, parse};
    use syn::spanned::Spanned;
    let a = parse(tokens(src, attr)?, attr.span()).map_err(|e| refusal(src, &e))?;
    core(&a)
        .build()
        .map(|_| ())
        .map_err(|e| refusal(src, &error(&a, &e)))
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

/// `#[smem_mma]` on a module whose items are `body`: its summary and items (the tiles are its
/// children already), paired and refused by the macro's grammar.
fn pairing(
    cx: &Cx,
    attr: &syn::Attribute,
    body: &[syn::Item],
) -> Result<(String, Vec<super::header::Item>), CliError> {
    use quote::ToTokens;
    use smemdesc_grammar::{mma, mma_check};
    use syn::spanned::Spanned;
    let src = &cx.src;
    let site = attr.span();
    let mo = mma::parse_opts(tokens(src, attr)?, site).map_err(|e| refusal(src, &e))?;
    let body: proc_macro2::TokenStream = body.iter().map(|i| i.to_token_stream()).collect();
    // Pass 1 built every tile of the file, so a pairing that finds one it cannot build is not
    // reached (the grammar leaves such a tile to its own refusal).
    let paired = mma::pair(&mo, &body, site)
        .map_err(|e| refusal(src, &e))?
        .ok_or_else(|| src.err(site, "#[smem_mma]: a tile of the module does not build"))?;
    mma_check::scale_tiles(&paired, &body).map_err(|e| refusal(src, &e))?;
    let cluster = mma_check::cluster(&mo, &paired, site).map_err(|e| refusal(src, &e))?;
    let (na, nb) = (ident(&paired.a.name), ident(&paired.b.name));
    let p = &paired.pair;
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
    match p.arch.generation() {
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
        _ => {
            let i = p.idesc().map_err(|e| cx.src.err(site, e))?;
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
    items.extend(super::header_cluster::cluster_items(
        &cx.src,
        cluster.map(|c| (c, mo.cluster.map_or(site, |c| c.1))),
        &paired.a.plan,
        &paired.b.plan,
    )?);
    Ok((format!("#[smem_mma] {na} x {nb}: {mnemonic}"), items))
}

/// The header for every declaration in `file`, under namespace `name` (default: the file stem).
///
/// Runs on a thread with a large stack: `syn` parses and drops long operator chains (`1 + 1 +
/// …`) recursively, which deep input would otherwise overflow in a debug build; the nesting
/// `syn` recurses on most is refused first ([`nesting`]).
pub fn header_from(file: &Path, name: Option<&str>) -> Result<String, CliError> {
    let (file, name) = (file.to_path_buf(), name.map(str::to_owned));
    let (result, diagnostics) = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let result = header_from_here(&file, name.as_deref());
            (result, super::take_diagnostics())
        })
        .map_err(|e| CliError(format!("cannot start the header thread: {e}")))?
        .join()
        .unwrap_or_else(|p| std::panic::resume_unwind(p));
    // The header thread's warnings are the caller's.
    super::add_diagnostics(diagnostics);
    result
}

fn header_from_here(file: &Path, name: Option<&str>) -> Result<String, CliError> {
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError(format!("cannot read --from {shown}: {e}")))?;
    let src = Src { file: &shown };
    // The path as the header's comments show it (errors show it as given).
    let in_comment = comment_path(&shown);
    nesting(&src, &text)?;
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
    let mut epilogues = Epilogues(Vec::new());
    let mut aliases = Renames(Vec::new());
    collect(
        &src,
        &ast.items,
        &mut Vec::new(),
        &mut consts,
        &mut tiles,
        &mut epilogues,
        &mut aliases,
    )?;
    let cx = Cx {
        src,
        consts,
        tiles,
        epilogues,
        aliases,
    };
    let mut ns = Ns {
        name: top,
        summary: format!("declarations of {in_comment}"),
        items: Vec::new(),
        children: Vec::new(),
    };
    build(&cx, &ast.items, &mut Vec::new(), &mut ns)?;
    if ns.children.is_empty() {
        return Err(CliError(format!(
            "{shown} declares no #[smem_tile], #[smem_epilogue_tile] or #[smem_fragment_tile] struct, #[smem_mma] module or #[smem_storage] struct"
        )));
    }
    render_tree(&ns, &in_comment)
}
