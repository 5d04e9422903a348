//! For `smemdesc header --from` ([`crate::header_src`]): the sizes of plain storage members
//! (`Mbarrier`, scalars, arrays), the integer `const` expressions their lengths use, path lookup
//! in the file's modules, and the core's [`StorageLayout`] for a member list of any length.

use super::header_loc::Src;
use crate::CliError;
use quote::ToTokens;
use smemdesc_core::{Arch, Mbarrier, StorageLayout, StorageMember, TmemSlot};
use std::mem::{align_of, size_of};
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Lit, Type};

/// The file's `const` items: module path, name, expression and whether a `#[cfg]` is on it
/// (such a constant is refused where a length uses it: there is no configuration to evaluate).
pub(crate) struct Consts<'f>(pub(crate) Vec<Named<(&'f Expr, bool)>>);

/// How deep `header --from` follows nested expressions and array types (a guard for its own
/// stack; real declarations nest a few levels).
const MAX_DEPTH: u32 = 128;

/// Size and alignment of a plain member; for an array, its length and element stride.
pub(crate) struct Plain {
    pub(crate) bytes: u64,
    pub(crate) align: u64,
    /// `(len, stride)` of the outermost array.
    pub(crate) array: Option<(u64, u64)>,
}

/// The supported plain types with `size_of`/`align_of` (the macro's numbers: it emits exactly
/// these `size_of::<T>()`/`align_of::<T>()`). `u128`/`i128`: 16 B aligned to 16 with the
/// toolchains smemdesc supports (Rust 1.77 made it 16 on x86-64 too; MSRV 1.85), as on nvptx64.
fn scalar_layout(name: &str) -> Option<(usize, usize)> {
    Some(match name {
        "u8" => (size_of::<u8>(), align_of::<u8>()),
        "i8" => (size_of::<i8>(), align_of::<i8>()),
        "u16" => (size_of::<u16>(), align_of::<u16>()),
        "i16" => (size_of::<i16>(), align_of::<i16>()),
        "u32" => (size_of::<u32>(), align_of::<u32>()),
        "i32" => (size_of::<i32>(), align_of::<i32>()),
        "u64" => (size_of::<u64>(), align_of::<u64>()),
        "i64" => (size_of::<i64>(), align_of::<i64>()),
        "f32" => (size_of::<f32>(), align_of::<f32>()),
        "f64" => (size_of::<f64>(), align_of::<f64>()),
        "u128" => (size_of::<u128>(), align_of::<u128>()),
        "i128" => (size_of::<i128>(), align_of::<i128>()),
        "Mbarrier" => (size_of::<Mbarrier>(), align_of::<Mbarrier>()),
        // The `tcgen05.alloc` address word (sm100 storages only: `tmem_slot_arch`).
        "TmemSlot" => (size_of::<TmemSlot>(), align_of::<TmemSlot>()),
        _ => return None,
    })
}

const SUPPORTED: &str = "`Mbarrier`, `TmemSlot` (sm100), u8, i8, u16, i16, u32, i32, u64, i64, u128, i128, f32, f64, or an array `[T; N]` of those or of #[smem_tile] structs (N: an integer expression over literals and this file's `const` items)";

/// Size and alignment of an `#[smem_tile]` struct named by a path (`Ok(None)`: not a tile).
pub(crate) type TileSize<'a> = &'a dyn Fn(&syn::Path) -> Result<Option<(u64, u64)>, String>;

/// The layout of a plain member type, `None` for a path that is not a plain type (a tile), an
/// error for anything else.
pub(crate) fn plain_layout(
    src: &Src,
    consts: &Consts,
    scope: &[String],
    ty: &Type,
    tile: TileSize,
) -> Result<Option<Plain>, CliError> {
    plain_at(src, consts, scope, ty, tile, 0)
}

fn plain_at(
    src: &Src,
    consts: &Consts,
    scope: &[String],
    ty: &Type,
    tile: TileSize,
    depth: u32,
) -> Result<Option<Plain>, CliError> {
    if depth > MAX_DEPTH {
        return Err(src.err(
            ty.span(),
            format!("member type nests deeper than {MAX_DEPTH} levels; `header --from` reads at most {MAX_DEPTH}"),
        ));
    }
    match ty {
        Type::Paren(p) => plain_at(src, consts, scope, &p.elem, tile, depth + 1),
        Type::Group(g) => plain_at(src, consts, scope, &g.elem, tile, depth + 1),
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last().map(|s| s.ident.to_string());
            Ok(last.as_deref().and_then(scalar_layout).map(|(b, a)| Plain {
                bytes: b as u64,
                align: a as u64,
                array: None,
            }))
        }
        Type::Array(a) => {
            // An array of tiles takes `size_of::<[T; N]>()` = N x the tile's bytes (its struct
            // is `#[repr(C, align(ALIGN))]` over all its stages), aligned like the tile.
            let as_tile = match &*a.elem {
                Type::Path(p) if p.qself.is_none() => {
                    tile(&p.path).map_err(|e| src.err(a.elem.span(), e))?
                }
                _ => None,
            };
            let elem = match as_tile {
                Some((bytes, align)) => Some(Plain {
                    bytes,
                    align,
                    array: None,
                }),
                None => plain_at(src, consts, scope, &a.elem, tile, depth + 1)?,
            };
            let elem = elem.ok_or_else(|| {
                src.err(
                    a.elem.span(),
                    format!(
                        "array element type `{}` is not supported; a plain member is {SUPPORTED}",
                        a.elem.to_token_stream()
                    ),
                )
            })?;
            let len = eval(src, consts, scope, &a.len, 0)?;
            let bytes = elem.bytes.checked_mul(len).ok_or_else(|| {
                src.err(a.len.span(), format!("array of {len} elements of {} B overflows", elem.bytes))
            })?;
            Ok(Some(Plain {
                bytes,
                align: elem.align,
                array: Some((len, elem.bytes)),
            }))
        }
        other => Err(src.err(
            other.span(),
            format!(
                "member type `{}` is not supported; a member is an #[smem_tile] struct of this file or {SUPPORTED}",
                other.to_token_stream()
            ),
        )),
    }
}

/// An item of the file: its module path, its name and what it is.
pub(crate) type Named<T> = (Vec<String>, String, T);

/// Finds the item named by `path` from module `scope`: `crate::`/`self::`/`super::` as in Rust,
/// else relative to `scope`, else from the file's root (an import), else the one item of that
/// name anywhere in the file. `Ok(None)`: none; `Err`: several.
pub(crate) fn resolve<'c, T>(
    items: &'c [Named<T>],
    scope: &[String],
    path: &syn::Path,
) -> Result<Option<&'c Named<T>>, String> {
    let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let (mut base, mut rest) = (scope.to_vec(), segs.as_slice());
    let mut anchored = false;
    while let Some((first, tail)) = rest.split_first() {
        match first.as_str() {
            "crate" => base.clear(),
            "self" => {}
            "super" => {
                base.pop();
            }
            _ => break,
        }
        anchored = true;
        rest = tail;
    }
    let Some((name, mods)) = rest.split_last() else {
        return Ok(None);
    };
    let at = |prefix: &[String]| {
        let full: Vec<String> = prefix.iter().chain(mods).cloned().collect();
        items.iter().find(|(p, n, _)| *p == full && n == name)
    };
    if let Some(t) = at(&base) {
        return Ok(Some(t));
    }
    if anchored {
        return Ok(None);
    }
    if let Some(t) = at(&[]) {
        return Ok(Some(t));
    }
    let same: Vec<_> = items.iter().filter(|(_, n, _)| n == name).collect();
    match same.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(*one)),
        many => Err(format!(
            "`{}` is ambiguous: {} items of that name ({}); write its module path",
            path.to_token_stream(),
            many.len(),
            many.iter()
                .map(|(p, n, _)| p.iter().chain([n]).cloned().collect::<Vec<_>>().join("::"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// An integer expression: literals, the file's `const` items, `+ - * / % << >>`, parentheses and
/// `as` casts to integer types, with every step checked (no wrap-around).
fn eval(
    src: &Src,
    consts: &Consts,
    scope: &[String],
    e: &Expr,
    depth: u32,
) -> Result<u64, CliError> {
    let bad = |msg: String| src.err(e.span(), msg);
    if depth > MAX_DEPTH {
        return Err(bad(format!(
            "const expression nests deeper than {MAX_DEPTH} levels (or its constants refer to each other in a cycle); `header --from` evaluates at most {MAX_DEPTH}"
        )));
    }
    match e {
        Expr::Lit(syn::ExprLit { lit: Lit::Int(l), .. }) => l
            .base10_parse::<u64>()
            .map_err(|_| bad(format!("`{l}` is not an unsigned integer that fits u64"))),
        Expr::Paren(p) => eval(src, consts, scope, &p.expr, depth + 1),
        Expr::Group(g) => eval(src, consts, scope, &g.expr, depth + 1),
        Expr::Cast(c) => {
            let v = eval(src, consts, scope, &c.expr, depth + 1)?;
            let max = match c.ty.to_token_stream().to_string().as_str() {
                "u8" => u8::MAX as u64,
                "u16" => u16::MAX as u64,
                "u32" => u32::MAX as u64,
                "u64" | "usize" => u64::MAX,
                "i32" => i32::MAX as u64,
                "i64" => i64::MAX as u64,
                t => return Err(bad(format!("cast to `{t}` is not supported; cast to an unsigned integer type"))),
            };
            if v > max {
                return Err(bad(format!("{v} does not fit the cast's type")));
            }
            Ok(v)
        }
        Expr::Binary(b) => {
            let l = eval(src, consts, scope, &b.left, depth + 1)?;
            let r = eval(src, consts, scope, &b.right, depth + 1)?;
            let v = match b.op {
                BinOp::Add(_) => l.checked_add(r),
                BinOp::Sub(_) => l.checked_sub(r),
                BinOp::Mul(_) => l.checked_mul(r),
                BinOp::Div(_) => l.checked_div(r),
                BinOp::Rem(_) => l.checked_rem(r),
                BinOp::Shl(_) => u32::try_from(r).ok().and_then(|r| l.checked_shl(r)).filter(|v| v >> r == l),
                BinOp::Shr(_) => u32::try_from(r).ok().and_then(|r| l.checked_shr(r)),
                _ => return Err(bad(format!("operator `{}` is not supported; supported: + - * / % << >>", b.op.to_token_stream()))),
            };
            v.ok_or_else(|| bad(format!("`{}` overflows, underflows or divides by zero ({l} and {r})", e.to_token_stream())))
        }
        Expr::Path(p) if p.qself.is_none() => {
            let found = resolve(&consts.0, scope, &p.path).map_err(&bad)?;
            let Some((cscope, _, (x, cfgd))) = found else {
                return Err(bad(format!("`{}` is not a `const` item of this file", p.to_token_stream())));
            };
            if *cfgd {
                return Err(bad(format!(
                    "`{}` is a `const` item under `#[cfg]`: `header --from` reads the source without a build configuration, so it cannot tell which definition holds; remove the #[cfg] or generate the header from a file without it",
                    p.to_token_stream()
                )));
            }
            eval(src, consts, cscope, x, depth + 1)
        }
        other => Err(src.err(
            other.span(),
            format!(
                "`{}` is not supported in a length; supported: integer literals, this file's `const` items, + - * / % << >>, parentheses, `as` casts",
                other.to_token_stream()
            ),
        )),
    }
}

/// The layout of a storage as the core computes it.
pub(crate) struct StorageOut {
    pub(crate) offsets: Vec<u32>,
    pub(crate) bytes: u32,
    pub(crate) align: u32,
    pub(crate) slack: u32,
    pub(crate) launch_bytes: u32,
}

fn plan_n<const N: usize>(
    name: &'static str,
    arch: Arch,
    m: &[StorageMember],
) -> Result<StorageOut, String> {
    let arr: [StorageMember; N] = m
        .try_into()
        .map_err(|_| "internal: member count".to_string())?;
    let l = StorageLayout::plan(name, arch, arr);
    l.check().map_err(|_| l.message().as_str().to_owned())?;
    Ok(StorageOut {
        offsets: (0..N).map(|i| l.offset(i)).collect(),
        bytes: l.bytes(),
        align: l.align(),
        slack: l.slack(),
        launch_bytes: l.launch_bytes(),
    })
}

/// [`StorageLayout::plan`] and [`StorageLayout::check`] for 1 to 64 members (the layout's member
/// count is a const generic); the error is the core's message.
pub(crate) fn plan_storage(
    name: &'static str,
    arch: Arch,
    m: &[StorageMember],
) -> Result<StorageOut, String> {
    macro_rules! by_len {
        ($($n:literal)*) => {
            match m.len() {
                $($n => plan_n::<$n>(name, arch, m),)*
                n => Err(format!("shared storage `{name}` has {n} members; `header --from` supports 1 to 64")),
            }
        };
    }
    by_len!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64)
}
