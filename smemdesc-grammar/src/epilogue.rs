//! `#[smem_epilogue_tile(...)]`: the C/D tile a `wgmma` accumulator is written into and stored
//! from, its arguments read and built by the core ([`EpilogueSpec::build`], which picks or checks
//! the swizzle against the bank model and the TMA store's map) into an [`EpilogueTile`], every
//! refusal spanned on the argument at fault.

use crate::value::{collect, Errors, Sp, Value};
use proc_macro2::{Span, TokenStream};
use smemdesc_core::epilogue::{CMajor, CType, EpiError, EpiReader, EpilogueSpec, EpilogueTile};
use smemdesc_core::EPI_KEYS;

const REQUIRED: &[&str] = &["dtype", "tile", "wgmma_n"];

fn accepted(key: &str) -> &'static str {
    crate::value::accepted_in(EPI_KEYS, key)
}

fn word<T>(
    v: &Value,
    key: &str,
    parse: impl Fn(&str) -> Option<T>,
    errs: &mut Errors,
) -> Option<Sp<T>> {
    crate::value::word_in(EPI_KEYS, v, key, parse, errs)
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

use crate::words::tile_swizzle as parse_swizzle;

/// `#[smem_epilogue_tile(...)]`'s arguments, built by the core: the tile, or every refusal of the
/// arguments together (then the first of the size bound and the core's, on its key). `site` is
/// where a refusal without a key of its own points (a missing key).
///
/// ```
/// use smemdesc_grammar::epilogue::parse;
///
/// let site = proc_macro2::Span::call_site();
/// let t = parse("dtype = bf16, tile = (128, 64), wgmma_n = 256".parse().unwrap(), site).unwrap();
/// assert_eq!(t.spec().n, 64);
/// let e = parse("dtype = bf16, tile = (128, 64), wgmma_n = 256, writer = stmatrix_x8".parse().unwrap(), site);
/// assert!(e.err().unwrap().to_string().starts_with("unknown writer `stmatrix_x8`"));
/// ```
pub fn parse(input: TokenStream, site: Span) -> Result<EpilogueTile, syn::Error> {
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
    let writer =
        get("writer").and_then(|v| word(v, "writer", crate::words::epilogue_writer, &mut errs));
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
