//! For `smemdesc header --from` ([`crate::header_src`]): one `#[smem_storage]` struct as a
//! namespace: its members (tiles, plain data, arrays of either) planned through the core's
//! [`StorageLayout`](smemdesc_core::StorageLayout) as the macro plans them, their offsets, sizes
//! and alignments, and the descriptors of tile members at their offsets.

use super::header::{check_ident, item, scalar, Ns, Val};
use super::header_args::{storage_arch, TileSrc};
use super::header_check::no_cfg;
use super::header_cx::{ident, Cx};
use super::header_eval::{plain_layout, Plain};
use super::header_loc::Src;
use super::tile::report_placed;
use crate::CliError;
use proc_macro2::Span;
use smemdesc_core::epilogue::EpilogueTile;
use smemdesc_core::{Placement, StorageMember, TilePlan};

/// The kind of one storage member.
enum Kind<'c> {
    Tile(&'c TileSrc, Option<Placement>),
    Plain(Plain),
    /// An `#[smem_epilogue_tile]` (`#[smem(epilogue)]`): its stages' bytes and alignment.
    Epilogue(&'c EpilogueTile),
}

/// A field's `#[smem]` settings (the grammar's, as the macro reads them): the placement (with
/// its span), the alignment and `epilogue` (with its span); the first refusal is the error.
type FieldAttrs = (Option<(Placement, Span)>, Option<u32>, Option<Span>);

fn field_attrs(src: &Src, f: &syn::Field) -> Result<FieldAttrs, CliError> {
    let mut errs = Vec::new();
    let a = smemdesc_grammar::storage::member_attrs(f, &mut errs);
    if let Some(e) = errs.first() {
        return Err(src.err(e.span(), e));
    }
    let align = a.align.and_then(|l| l.base10_parse::<u32>().ok());
    Ok((a.placement, align, a.epilogue))
}

/// `#[smem_storage(arch = …)] struct S { … }` in module `path`.
pub(crate) fn storage(
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
        no_cfg(src, &f.attrs, &format!("member `{fname}`"))?;
        check_ident(&fname, "member name").map_err(|e| src.err(span, e.0))?;
        let (placement, align, epilogue) = field_attrs(src, f)?;
        let tile_size = |p: &syn::Path| {
            // The struct's `size_of`: its bytes rounded up to its `repr(align)`.
            Ok(cx.tile_by_path(path, p)?.map(|(_, _, t)| {
                let align = u64::from(t.plan.tile.align());
                (
                    u64::from(t.plan.tile.bytes()).div_ceil(align) * align,
                    align,
                )
            }))
        };
        // As #[smem_storage] refuses it.
        smemdesc_grammar::storage::tmem_member(arch, &f.ty)
            .map_err(|e| super::header_args::refusal(src, &e))?;
        let plain = plain_layout(src, &cx.consts, path, &f.ty, &tile_size)?;
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
                let epi = cx
                    .epilogue_by_path(path, &tp.path)
                    .map_err(|e| src.err(span, format!("member `{fname}`: {e}")))?;
                match (epi, epilogue) {
                    (Some((_, _, e)), Some(_)) => {
                        if let Some((_, sp)) = placement {
                            return Err(src.err(sp, format!("`placement` applies to #[smem_tile] members only; `{fname}` is an #[smem_epilogue_tile]")));
                        }
                        // As the macro: StorageMember::new(name, T::BYTES, T::ALIGN), the
                        // core's storage_member of the tile.
                        let m = e.storage_member(leak(&fname));
                        let m = match align {
                            Some(a) => m.at_least(a),
                            None => m,
                        };
                        members.push(m);
                        kinds.push(Kind::Epilogue(e));
                        continue;
                    }
                    (Some(_), None) => {
                        return Err(src.err(span, format!("member `{fname}`: `{}` is an #[smem_epilogue_tile] struct; mark the member `#[smem(epilogue)]` (as #[smem_storage] requires)", quote::ToTokens::to_token_stream(&f.ty))));
                    }
                    (None, Some(sp)) => {
                        return Err(src.err(sp, format!("member `{fname}`: `#[smem(epilogue)]` needs an #[smem_epilogue_tile] struct of this file, found `{}`", quote::ToTokens::to_token_stream(&f.ty))));
                    }
                    (None, None) => {}
                }
                let t = cx
                    .tile_by_path(path, &tp.path)
                    .map_err(|e| src.err(span, format!("member `{fname}`: {e}")))?;
                let Some((_, _, t)) = t else {
                    return Err(src.err(
                        span,
                        format!(
                            "member `{fname}`: `{}` is not an #[smem_tile] struct of this file; a member is an #[smem_tile] struct, `Mbarrier`, `TmemSlot` (sm100), u8..u128, i8..i128, f32, f64, or an array of those with a constant length",
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
            Kind::Epilogue(e) => items.push(scalar(
                format!("{up}_STAGE_BYTES"),
                "unsigned int",
                e.stage_bytes().into(),
                format!(
                    "bytes of one stage of `{}` (stage s at OFFSET + s * STAGE_BYTES)",
                    m.name
                ),
            )),
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
