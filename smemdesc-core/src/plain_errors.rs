//! Test only: the errors the checked run-time forms return — [`Error`] (`try_desc`, `try_offset`,
//! `try_address`, `place`, a scale tile's `copy_desc`) and [`TmemError`] (`try_address`,
//! `try_reg_element`, `check_idesc`) — are plain data: every field of every variant is an integer
//! or a unit-only enum, so a value holds no pointer (`&'static str`) and no `bool` or `char`.
//!
//! This is checked when the crate's tests compile, not when they run: [`walk`] and [`walk_tmem`]
//! name every variant (the match has no `_` arm: the crate may match its own `#[non_exhaustive]`
//! enum exhaustively) and every field (no `..`), and pass each field to [`plain`], which takes
//! only a [`Plain`] type. `Plain` is implemented for the integers and for enums that the `as`
//! casts below prove unit-only. A new variant or field must be added here, and a `&'static str`,
//! `bool` or `char` field does not compile (before issue 28 item 5 this module failed with 8
//! errors: "the trait bound `&str: Plain` is not satisfied" for `IndexOutOfRange::what`, the four
//! `legal` fields and `TmemError::OutOfRange::what`, `bool: Plain` for
//! `TmaPaddedBoxInner::requested` and `char: Plain` for `TmemError::ScaleIdMismatch::operand`).

use crate::base::ArchGap;
use crate::fragment::{ChainError, ChainSide};
use crate::{AccumType, Arch, BoxSource, Dim, ElementType, Error, Field, Indexed, Legal, Major};
use crate::{MmaKind, Operand, ScaleFormat, SmemForm, SwizzleMode, TmaDataType, TmemError};

/// A type an error field may have: an integer, a unit-only enum, or an `Option` of one.
trait Plain: Copy + 'static {}

impl Plain for u8 {}
impl Plain for u16 {}
impl Plain for u32 {}
impl Plain for u64 {}
impl<T: Plain> Plain for Option<T> {}

macro_rules! unit_only_enums {
    ($($t:ident::$v:ident),* $(,)?) => {
        $(
            impl Plain for $t {}
            // `as` casts only an enum whose variants are all units: a variant with a field in
            // `$t` makes this a compile error.
            const _: u64 = $t::$v as u64;
        )*
    };
}

unit_only_enums!(
    AccumType::F32,
    ArchGap::NoPublicLimits,
    ChainSide::First,
    Arch::Sm90,
    BoxSource::Swizzle,
    Dim::K,
    ElementType::BF16,
    Field::Lbo,
    Indexed::Stage,
    Legal::M64,
    Major::K,
    MmaKind::F16,
    Operand::A,
    ScaleFormat::Ue8m0,
    SmemForm::Whole,
    SwizzleMode::B128,
    TmaDataType::Uint8,
);

/// Compiles only for a [`Plain`] value.
fn plain<T: Plain>(_: T) {}

macro_rules! plain {
    ($($x:ident),*) => {{
        $(plain($x);)*
    }};
}

/// Every field of every [`Error`] variant, by name.
fn walk(e: Error) {
    match e {
        Error::ZeroStages => {}
        Error::ZeroExtent { dim } => plain!(dim),
        Error::ContiguousNotMultipleOf16B {
            dim,
            extent,
            bytes,
            elems_per_16b,
        } => plain!(dim, extent, bytes, elems_per_16b),
        Error::TileNotWholeAtoms {
            dim,
            extent,
            atom_extent,
            atom_bytes,
            narrower,
        } => plain!(dim, extent, atom_extent, atom_bytes, narrower),
        Error::TileNotWholeMmas {
            dim,
            extent,
            mma_extent,
        } => plain!(dim, extent, mma_extent),
        Error::MmaNarrowerThanAtom {
            mma_mn,
            atom_mn,
            swizzle,
            narrower,
        } => plain!(mma_mn, atom_mn, swizzle, narrower),
        Error::SwizzleNotOnArch { swizzle, arch } => plain!(swizzle, arch),
        Error::SwizzleNotForOperand {
            swizzle,
            major,
            dtype,
        } => plain!(swizzle, major, dtype),
        Error::MnMajorForbidden { arch, dtype } => plain!(arch, dtype),
        Error::FieldOverflow { field, bytes } => plain!(field, bytes),
        Error::FieldMisaligned { field, bytes } => plain!(field, bytes),
        Error::SmemBudget {
            bytes,
            stage_bytes,
            stages,
            limit,
        } => plain!(bytes, stage_bytes, stages, limit),
        Error::UnalignedBase { addr, align } => plain!(addr, align),
        Error::IndexOutOfRange { what, index, count } => plain!(what, index, count),
        Error::NotCanonical { dim } => plain!(dim),
        Error::NotDivisible { extent, by } => plain!(extent, by),
        Error::LayoutCapacity => {}
        Error::UnknownLayoutCode { arch, code } => plain!(arch, code),
        Error::ReservedBits { arch, bits } => plain!(arch, bits),
        Error::UnsupportedElement { dtype } => plain!(dtype),
        Error::DtypeNotOnArch { dtype, arch } => plain!(dtype, arch),
        Error::KindNotOnArch { kind, arch } => plain!(kind, arch),
        Error::ArchRefused { arch, gap } => plain!(arch, gap),
        Error::DtypeKindMismatch { dtype, kind } => plain!(dtype, kind),
        Error::CtaGroupInvalid { arch, cta_group } => plain!(arch, cta_group),
        Error::MmaKNot32Bytes { k, dtype, expected } => plain!(k, dtype, expected),
        Error::IllegalMmaM {
            arch,
            kind,
            cta_group,
            m,
            legal,
        } => plain!(arch, kind, cta_group, m, legal),
        Error::IllegalMmaN {
            arch,
            kind,
            cta_group,
            n,
            legal,
        } => plain!(arch, kind, cta_group, n, legal),
        Error::TmaBoxWidth {
            inner,
            inner_bytes,
            swizzle,
            legal_inner,
            max_rows,
        } => plain!(inner, inner_bytes, swizzle, legal_inner, max_rows),
        Error::TmaBoxRowsOver256 {
            rows,
            max_rows,
            inner,
        } => plain!(rows, max_rows, inner),
        Error::TmaBoxRowsIllegal {
            rows,
            atom_rows,
            max_rows,
            inner,
        } => plain!(rows, atom_rows, max_rows, inner),
        Error::FormNotForElement { form, dtype } => plain!(form, dtype),
        Error::IllegalMmaK {
            k,
            dtype,
            form,
            legal,
        } => plain!(k, dtype, form, legal),
        Error::KBlockCrossesAtom { swizzle } => plain!(swizzle),
        Error::TmaPaddedBoxInner {
            data_type,
            inner,
            source,
            swizzle,
        } => plain!(data_type, inner, source, swizzle),
        Error::ScaleFormatIllegal {
            kind,
            format,
            vec,
            legal,
        } => plain!(kind, format, vec, legal),
        Error::ScaleTileNotWholeAtoms {
            dim,
            extent,
            atom_extent,
        } => plain!(dim, extent, atom_extent),
        Error::BaseTooHigh {
            base,
            offset,
            highest_base,
        } => plain!(base, offset, highest_base),
    }
}

/// Every field of every [`TmemError`] variant, by name.
/// Every field of every [`ChainError`] variant (an `Error` field is walked as an `Error`).
fn walk_chain(e: ChainError) {
    match e {
        ChainError::Shape { side, error } => {
            plain!(side);
            walk(error)
        }
        ChainError::AccumNotForType { side, dtype, accum } => plain!(side, dtype, accum),
        ChainError::NoWgmmaForm { side, dtype } => plain!(side, dtype),
        ChainError::NotLaneLocal { a } => plain!(a),
        ChainError::AccumNotConvertible { accum, a } => plain!(accum, a),
        ChainError::KStepsNotWhole { n, k } => plain!(n, k),
    }
}

fn walk_tmem(e: TmemError) {
    match e {
        TmemError::CtaGroup { cta_group } => plain!(cta_group),
        TmemError::IllegalM { m, cta_group } => plain!(m, cta_group),
        TmemError::IllegalN {
            n,
            step,
            m,
            cta_group,
        } => plain!(n, step, m, cta_group),
        TmemError::AccumNotModeled { accum } => plain!(accum),
        TmemError::IllegalNum { num, max } => plain!(num, max),
        TmemError::BadLoadText => {}
        TmemError::LoadLanes {
            shape_lanes,
            accum_lanes,
        } => plain!(shape_lanes, accum_lanes),
        TmemError::LoadColumns {
            load_cols,
            accum_cols,
        } => plain!(load_cols, accum_cols),
        TmemError::PackNot16Bit => {}
        TmemError::OutOfRange { what, index, count } => plain!(what, index, count),
        TmemError::NotAnElement { lane, col } => plain!(lane, col),
        TmemError::OverCapacity { cols } => plain!(cols),
        TmemError::AllocNotPow2 { alloc } => plain!(alloc),
        TmemError::AllocTooSmall { alloc, cols } => plain!(alloc, cols),
        TmemError::NotSm100 => {}
        TmemError::NoStages => {}
        TmemError::ScaleTiles => {}
        TmemError::ScaleIdMismatch {
            operand,
            id,
            expected,
        } => plain!(operand, id, expected),
    }
}

#[test]
fn checked_errors_are_plain_data() {
    // The proof is that this module compiles; walking a few values keeps the functions used.
    walk(Error::ZeroStages);
    walk(Error::IndexOutOfRange {
        what: Indexed::Stage,
        index: 4,
        count: 4,
    });
    walk_tmem(TmemError::OutOfRange {
        what: Indexed::Row,
        index: 128,
        count: 128,
    });
    walk_chain(ChainError::KStepsNotWhole { n: 24, k: 16 });
    // Plain data is small: the largest variants are five `u32`s or a `u64` with a tag.
    assert!(core::mem::size_of::<Error>() <= 24);
    assert!(core::mem::size_of::<TmemError>() <= 16);
}
