//! `#[smem_fragment_tile(...)]`: an `mma.sync` operand tile read with `ldmatrix`, its arguments
//! read and checked as one declaration ([`MmaSync::with_kind`], [`LdmatrixTile::new`], the
//! `conflict_free` and TMA-writer checks) into a [`FragDecl`], every refusal spanned on the
//! argument at fault.

use crate::value::{collect, Errors, Sp, Value};
use proc_macro2::{Span, TokenStream};
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
    crate::value::word_in(FRAG_KEYS, v, key, parse, errs)
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
///
/// ```
/// use smemdesc_grammar::fragment::parse;
///
/// let d = parse(
///     "arch = sm80, mma = m16n8k16, dtype = f16, operand = B, tile = (64, 64), reader = ldmatrix_x2"
///         .parse()
///         .unwrap(),
///     proc_macro2::Span::call_site(),
/// )
/// .unwrap();
/// assert_eq!(d.num, 2);
/// assert!(d.writer.is_none());
/// ```
pub struct FragDecl {
    /// The core's tile (its layout, chosen or checked).
    pub tile: LdmatrixTile,
    /// The `mma.sync` instruction the tile feeds.
    pub mma: MmaSync,
    /// `scale_vec` and `stype` as given.
    pub given_scale: Option<(ScaleVec, ScaleType)>,
    /// `operand = A | B | C | D` (`D` is `C`).
    pub op: FragOperand,
    /// `major = K | MN` (default `K`).
    pub major: Major,
    /// The tile's MN extent, elements.
    pub mn: u32,
    /// The tile's K extent, elements.
    pub k: u32,
    /// Matrices per reader instruction (`reader = ldmatrix_x4` is 4, the default).
    pub num: u32,
    /// `writer = …` as given.
    pub writer: Option<Writer>,
    /// Whether every reader instruction is conflict-free (the bank walk, run once).
    pub reader_free: bool,
}

use crate::words::tile_swizzle as parse_swizzle;

/// `#[smem_fragment_tile(...)]`'s arguments, checked as one declaration: the [`FragDecl`], or
/// every refusal of the arguments together (then the first of the core's checks, on its key).
/// `site` is where a refusal without a key of its own points (a missing key).
///
/// ```
/// use smemdesc_core::fragment::FragOperand;
/// use smemdesc_grammar::fragment::parse;
///
/// let site = proc_macro2::Span::call_site();
/// let d = parse(
///     "arch = sm80, mma = m16n8k16, dtype = f16, operand = A, tile = (64, 64)".parse().unwrap(),
///     site,
/// )
/// .unwrap();
/// assert_eq!((d.op, d.num, d.mn, d.k), (FragOperand::A, 4, 64, 64));
/// let e = parse("arch = sm80, mma = m16n8k16, dtype = f16, operand = E, tile = (64, 64)".parse().unwrap(), site);
/// assert!(e.err().unwrap().to_string().starts_with("unknown operand `E`"));
/// ```
pub fn parse(input: TokenStream, site: Span) -> Result<FragDecl, syn::Error> {
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
    let reader =
        get("reader").and_then(|v| word(v, "reader", crate::words::fragment_reader, &mut errs));
    let writer =
        get("writer").and_then(|v| word(v, "writer", crate::words::fragment_writer, &mut errs));
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
