//! `#[smem_scale_tile(...)]`: the block-scale-factor tile of one operand, parsed with the same
//! argument machinery as `#[smem_tile]` into [`ScaleArgs`], the core's [`ScaleDecl`] it spells
//! ([`core()`]) and a core error spanned on the argument at fault ([`error`]).

use crate::value::{collect, int, named, pair, Errors};
use crate::value::{Pair, Sp};
use proc_macro2::{Span, TokenStream};
use smemdesc_core::{Argument, Error, MmaKind, Operand, ScaleDecl, ScaleFormat};

/// Every key of `#[smem_scale_tile]` with the values it takes.
pub const SCALE_KEYS: &[(&str, &str)] = &[
    ("kind", "mxf8f6f4 | mxf4 | mxf4nvf4"),
    ("operand", "A | B"),
    ("tile", "(MN, K) of the operand tile, in its values"),
    ("sf", "ue8m0 | ue4m3"),
    ("vec", "16 | 32"),
    ("stages", "an integer >= 1"),
    ("cta_group", "1 | 2"),
];

const REQUIRED: &[&str] = &["kind", "operand", "tile"];

/// A parsed `#[smem_scale_tile]` declaration, every value with its span.
///
/// ```
/// use smemdesc_core::MmaKind;
/// use smemdesc_grammar::scale::parse;
///
/// let a = parse("kind = mxf4nvf4, operand = A, tile = (128, 256), stages = 4".parse().unwrap(), proc_macro2::Span::call_site()).unwrap();
/// assert_eq!(a.kind.value, MmaKind::Mxf4nvf4);
/// assert!(a.sf.is_none());
/// ```
pub struct ScaleArgs {
    /// `kind = mxf8f6f4 | mxf4 | mxf4nvf4`.
    pub kind: Sp<MmaKind>,
    /// `operand = A | B`.
    pub operand: Sp<Operand>,
    /// `tile = (MN, K)` of the operand tile.
    pub tile: Pair,
    /// `sf = ue8m0 | ue4m3`.
    pub sf: Option<Sp<ScaleFormat>>,
    /// `vec = 16 | 32`.
    pub vec: Option<Sp<u32>>,
    /// `stages = N`.
    pub stages: Option<Sp<u32>>,
    /// `cta_group = 1 | 2`.
    pub cta_group: Option<Sp<u32>>,
}

/// Parses the arguments; all problems are reported together.
///
/// ```
/// use smemdesc_grammar::scale::parse;
///
/// let e = parse("kind = mxf4, operand = A".parse().unwrap(), proc_macro2::Span::call_site()).err().unwrap();
/// assert!(e.to_string().starts_with("missing required argument(s): `tile = "));
/// ```
pub fn parse(input: TokenStream, site: Span) -> Result<ScaleArgs, syn::Error> {
    let mut errs = Errors::default();
    let given = collect(input, SCALE_KEYS, REQUIRED, site, &mut errs);
    let get = |k: &str| given.iter().find(|(n, _, _)| n == k).map(|(_, _, v)| v);
    let kind = get("kind").and_then(|v| named(v, "kind", MmaKind::from_name, &mut errs));
    let operand = get("operand").and_then(|v| named(v, "operand", Operand::from_name, &mut errs));
    let tile = get("tile").and_then(|v| pair(v, "tile", "(MN, K)", &mut errs));
    let sf = get("sf").and_then(|v| named(v, "sf", ScaleFormat::from_name, &mut errs));
    let vec = get("vec").and_then(|v| int(v, "vec", &mut errs));
    let stages = get("stages").and_then(|v| int(v, "stages", &mut errs));
    let cta_group = get("cta_group").and_then(|v| int(v, "cta_group", &mut errs));
    if let Some(e) = errs.0 {
        return Err(e);
    }
    match (kind, operand, tile) {
        (Some(kind), Some(operand), Some(tile)) => Ok(ScaleArgs {
            kind,
            operand,
            tile,
            sf,
            vec,
            stages,
            cta_group,
        }),
        // Unreachable: a missing or unparsable required argument pushed an error above.
        _ => Err(syn::Error::new(site, "incomplete declaration")),
    }
}

/// The core declaration the arguments spell.
///
/// ```
/// use smemdesc_grammar::scale::{core, parse};
///
/// let a = parse("kind = mxf4nvf4, operand = A, tile = (128, 256)".parse().unwrap(), proc_macro2::Span::call_site()).unwrap();
/// let t = core(&a).build().unwrap();
/// assert_eq!(t.vec, 16); // ue4m3, one factor per 16 values
/// ```
pub fn core(a: &ScaleArgs) -> ScaleDecl {
    let mut t = ScaleDecl::new(
        a.kind.value,
        a.operand.value,
        a.tile.a.value,
        a.tile.b.value,
    );
    if let Some(f) = a.sf {
        t = t.format(f.value);
    }
    if let Some(v) = a.vec {
        t = t.vec(v.value);
    }
    if let Some(s) = a.stages {
        t = t.stages(s.value);
    }
    if let Some(c) = a.cta_group {
        t = t.cta_group(c.value);
    }
    t
}

/// A core error on the argument at fault.
///
/// ```
/// use smemdesc_grammar::scale::{core, error, parse};
///
/// let a = parse("kind = mxf4, operand = A, tile = (128, 256), stages = 0".parse().unwrap(), proc_macro2::Span::call_site()).unwrap();
/// let e = core(&a).build().err().unwrap();
/// assert!(error(&a, &e).to_string().contains("stage"));
/// ```
pub fn error(a: &ScaleArgs, e: &Error) -> syn::Error {
    let span = match e.argument() {
        Argument::Kind => match (e, a.sf, a.vec) {
            (Error::ScaleFormatIllegal { .. }, Some(sf), _) => sf.span,
            (Error::ScaleFormatIllegal { .. }, None, Some(v)) => v.span,
            _ => a.kind.span,
        },
        Argument::TileMn => a.tile.a.span,
        Argument::TileK => a.tile.b.span,
        Argument::Stages => a.stages.map_or(a.tile.all, |s| s.span),
        Argument::CtaGroup => a.cta_group.map_or(a.kind.span, |c| c.span),
        _ => a.tile.all,
    };
    syn::Error::new(span, e.to_string())
}
