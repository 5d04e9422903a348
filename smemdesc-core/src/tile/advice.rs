//! Checked advice: an error that suggests an alternative names only one that was verified legal,
//! by building the same tile or declaration with it. Today the alternative is a narrower swizzle
//! ([`Error::TileNotWholeAtoms`], [`Error::MmaNarrowerThanAtom`]): the widest narrower mode with
//! which the whole declaration builds, or none (MN-major tf32 on sm100, for one, takes no other
//! swizzle than `128B_base32B`). The candidates are strictly narrower, so the recursion through
//! the builders ends.

use crate::base::error::Error;
use crate::base::swizzle::SwizzleMode;
use crate::tile::decl::TileDecl;
use crate::tile::spec::{TileLayout, TileSpec};

/// Every swizzle mode an error may suggest, widest first.
const CANDIDATES: [SwizzleMode; 4] = [
    SwizzleMode::B128,
    SwizzleMode::B64,
    SwizzleMode::B32,
    SwizzleMode::None,
];

/// The swizzle `e` was raised for, when `e` is one that suggests a narrower one.
const fn suggests_narrower(e: &Error, resolved: SwizzleMode) -> Option<SwizzleMode> {
    match e {
        Error::TileNotWholeAtoms { .. } => Some(resolved),
        Error::MmaNarrowerThanAtom { swizzle, .. } => Some(*swizzle),
        _ => None,
    }
}

/// `e` with its suggested narrower swizzle set to `n` (other errors unchanged).
const fn with_narrower(e: Error, n: Option<SwizzleMode>) -> Error {
    match e {
        Error::TileNotWholeAtoms {
            dim,
            extent,
            atom_extent,
            atom_bytes,
            ..
        } => Error::TileNotWholeAtoms {
            dim,
            extent,
            atom_extent,
            atom_bytes,
            narrower: n,
        },
        Error::MmaNarrowerThanAtom {
            mma_mn,
            atom_mn,
            swizzle,
            ..
        } => Error::MmaNarrowerThanAtom {
            mma_mn,
            atom_mn,
            swizzle,
            narrower: n,
        },
        other => other,
    }
}

/// Layout level: `e`, raised by [`TileLayout::new`] for `spec` with the swizzle `resolved`, with the
/// widest narrower swizzle with which `spec` builds.
pub(crate) const fn advise_spec(spec: TileSpec, resolved: SwizzleMode, e: Error) -> Error {
    let Some(current) = suggests_narrower(&e, resolved) else {
        return e;
    };
    let mut i = 0;
    while i < CANDIDATES.len() {
        let c = CANDIDATES[i];
        if c.atom_width() < current.atom_width() && TileLayout::new(spec.swizzle(c)).is_ok() {
            return with_narrower(e, Some(c));
        }
        i += 1;
    }
    with_narrower(e, None)
}

/// Declaration level: `e`, raised while building `decl` with the swizzle `resolved`, with the
/// widest narrower swizzle with which the whole declaration builds (every rule, not only the
/// layout's).
pub(crate) const fn advise_decl(decl: TileDecl, resolved: SwizzleMode, e: Error) -> Error {
    let Some(current) = suggests_narrower(&e, resolved) else {
        return e;
    };
    let mut i = 0;
    while i < CANDIDATES.len() {
        let c = CANDIDATES[i];
        if c.atom_width() < current.atom_width() && decl.swizzle(c).build().is_ok() {
            return with_narrower(e, Some(c));
        }
        i += 1;
    }
    with_narrower(e, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Arch, Dim, ElementType, Major, Operand};

    #[test]
    fn other_errors_are_unchanged() {
        let spec = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64);
        assert_eq!(
            advise_spec(spec, SwizzleMode::B128, Error::ZeroStages),
            Error::ZeroStages
        );
    }

    #[test]
    fn the_suggestion_is_the_widest_legal_narrower_mode() {
        // K = 96 bf16: 128B atoms are 64 wide; 64B (32 wide) divides 96.
        let d = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 64, 96)
            .swizzle(SwizzleMode::B128);
        let e = d.build().unwrap_err();
        assert!(matches!(
            e,
            Error::TileNotWholeAtoms {
                dim: Dim::K,
                narrower: Some(SwizzleMode::B64),
                ..
            }
        ));
        assert!(d.swizzle(SwizzleMode::B64).build().is_ok());
    }
}
