//! The messages of [`IdescError`]: its `Display` implementation.

use crate::base::arch::Major;
use crate::base::dtype::ElementType;
use crate::mma::idesc::ScaleFormat;
use crate::mma::idesc_error::IdescError;
use crate::mma::shape::{MmaKind, Operand};

const fn major_word(m: Major) -> &'static str {
    match m {
        Major::K => "K-major",
        Major::Mn => "MN-major",
    }
}

impl IdescError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            IdescError::TypeNotForKind { dtype, kind, .. } => write!(
                f,
                "{} = {} is not an input of kind::{}; legal: {}",
                self.argument(),
                dtype.name(),
                kind.name(),
                match kind {
                    MmaKind::Tf32 => "tf32",
                    MmaKind::Mxf4 | MmaKind::Mxf4nvf4 => "e2m1",
                    _ => kind.inputs(),
                }
            ),
            IdescError::TypesDiffer { a, b } => write!(
                f,
                "kind::f16 takes A and B of one type: a = {}, b = {}; use b = {}",
                a.name(),
                b.name(),
                a.name()
            ),
            IdescError::AccumNotForKind { kind, a, accum, legal } => write!(
                f,
                "accumulator {} is not legal for kind::{} with {} inputs; legal: {}",
                accum.name(),
                kind.name(),
                a.name(),
                legal
            ),
            IdescError::NegateNotForKind { kind } => write!(
                f,
                "kind::{} has no negate (PTX instruction descriptor: bits 13-14 are 0 for kind::i8); \
                 legal only for kind::f16, tf32, f8f6f4, mxf8f6f4, mxf4, mxf4nvf4",
                kind.name()
            ),
            IdescError::SaturateNotForKind { kind } => write!(
                f,
                "saturate is legal only for kind::i8 (bit 3), not kind::{}",
                kind.name()
            ),
            IdescError::MnMajorNotAllowed { operand, dtype, kind } => write!(
                f,
                "{} = MN is not allowed for {} {} under kind::{}: MN-major (transposed) operands \
                 are e4m3, e5m2, s8, u8, f16, bf16, tf32 (CUTLASS's rule; PTX lists no MN-major \
                 layout for fp6/fp4), never kind::mxf4/mxf4nvf4; use {}",
                self.argument(),
                operand.name(),
                dtype.name(),
                kind.name(),
                major_word(Major::K)
            ),
            IdescError::CtaGroupInvalid { cta_group } => {
                write!(f, "cta_group = {cta_group}: legal values are 1 and 2")
            }
            IdescError::IllegalM { kind, cta_group, m, legal } => write!(
                f,
                "m = {m} is not a tcgen05 shape for kind::{} with cta_group::{cta_group}; legal M: {legal}",
                kind.name()
            ),
            IdescError::IllegalN { kind, cta_group, n, legal } => write!(
                f,
                "n = {n} is not a tcgen05 shape for kind::{} with cta_group::{cta_group}; legal N: {legal}",
                kind.name()
            ),
            IdescError::ScaleFormatNotForKind { kind, sf, legal } => match sf {
                Some(s) => write!(
                    f,
                    "sf = {} is not legal for kind::{}; legal: {legal}",
                    s.name(),
                    kind.name()
                ),
                None => write!(f, "kind::{} needs a scale-factor format; legal: {legal}", kind.name()),
            },
            IdescError::ScaleVecNotForKind { kind, sf, vec, legal } => write!(
                f,
                "vec = {vec}{} is not legal for kind::{}; legal: {legal}",
                match sf {
                    Some(s) => if matches!(s, ScaleFormat::Ue4m3) { " with sf = ue4m3" } else { " with sf = ue8m0" },
                    None => "",
                },
                kind.name()
            ),
            IdescError::K96NotAllowed { kind, cta_group, m } => write!(
                f,
                "K = 96 (bit 31) is legal only for dense kind::mxf4/mxf4nvf4 with cta_group::2 and \
                 M = 256; here kind::{}, cta_group::{cta_group}, M = {m}",
                kind.name()
            ),
            IdescError::SfIdIllegal { operand, id, legal } => write!(
                f,
                "scale factor {} id = {id} (bits 30-31 of its TMEM address) is not legal here; legal: {legal}",
                operand.name()
            ),
            IdescError::SparseIdIllegal { kind, id, sparse } => write!(
                f,
                "sparsity selector = {id} for kind::{}{}: it is legal (0-3) only for sparse \
                 kind::f16 and kind::tf32; kind::i8 and kind::f8f6f4 take 0 (PTX: \"must be 0\"), \
                 and bits 0-1 are reserved in block-scaled descriptors",
                kind.name(),
                if sparse { " (sparse)" } else { " (dense)" }
            ),
            IdescError::WsShiftNotModeled { shift } => write!(
                f,
                "B-reuse max shift code {shift} (bits 30-31) is for tcgen05.mma.ws, which smemdesc \
                 does not model; legal here: 0"
            ),
            IdescError::ReservedBits { kind, bits } => write!(
                f,
                "reserved bits 0x{bits:08x} are set in a kind::{} instruction descriptor; they must be 0",
                kind.name()
            ),
            IdescError::UnknownFormat { operand, kind, code } => write!(
                f,
                "{} format code {code} names no kind::{} type; legal: {}",
                operand.name(),
                kind.name(),
                kind.inputs()
            ),
            IdescError::UnknownAccum { code } => {
                write!(f, "D format code {code} is not F16 (0), F32 (1) or S32 (2)")
            }
            IdescError::ArchMismatch { a, b } => write!(
                f,
                "the A tile is for {} but the B tile for {}; declare both for one architecture",
                a.name(),
                b.name()
            ),
            IdescError::KindMismatch { a, b } => write!(
                f,
                "the A tile is for kind::{} but the B tile for kind::{}; one instruction has one kind",
                a.name(),
                b.name()
            ),
            IdescError::CtaGroupMismatch { a, b } => write!(
                f,
                "the A tile has cta_group = {a} but the B tile cta_group = {b}; use the same value"
            ),
            IdescError::ShapeMismatch { what, a, b } => match what {
                'M' => write!(
                    f,
                    "the B tile is declared for MMA M = {b} but the A tile holds M = {a} (M comes \
                     from A, N from B); use M = {a}"
                ),
                'N' => write!(
                    f,
                    "the A tile is declared for MMA N = {a} but the B tile holds N = {b} (M comes \
                     from A, N from B); use N = {b}"
                ),
                _ => write!(
                    f,
                    "the A tile's instruction reads {what} = {a} elements but the B tile's {what} = \
                     {b}; one instruction has one {what}: give A and B element types of one MMA kind \
                     and the same `mma` K (packed fp4: 64, or 96 on both)"
                ),
            },
            IdescError::OperandSwapped { role } => write!(
                f,
                "this tile is given as operand {} but declared `operand = {}`",
                role.name(),
                match role {
                    Operand::A => "B",
                    Operand::B => "A",
                }
            ),
            IdescError::Sm90AccumNotForType { a, accum } => write!(
                f,
                "accum = {} is not a wgmma accumulator for {} inputs; legal: {}",
                accum.name(),
                a.name(),
                match a {
                    ElementType::F16 | ElementType::E4M3 | ElementType::E5M2 => "f16, f32",
                    ElementType::S8 | ElementType::U8 => "s32",
                    _ => "f32",
                }
            ),
            IdescError::NotOnSm90 { what } => write!(
                f,
                "{what} exists only on sm100 (tcgen05); wgmma has no such setting"
            ),
            IdescError::ScaleTileFor { operand, sf_operand, kind, pair } => write!(
                f,
                "this scale-factor tile is declared `operand = {}, kind = {}`, but it is paired \
                 with the {} tile of a kind::{} MMA; use operand = {}, kind = {}",
                sf_operand.name(),
                kind.name(),
                operand.name(),
                pair.name(),
                operand.name(),
                pair.name()
            ),
            IdescError::ScaleTileFormat { operand, format, vec, pair, pair_vec } => write!(
                f,
                "the {} scale factors are {} with one factor per {vec} values, but the \
                 instruction reads {} with one per {pair_vec} ({}); use sf = {}, vec = {pair_vec}",
                operand.name(),
                format.name(),
                pair.name(),
                if pair_vec == 16 { ".block16" } else { ".block32" },
                pair.name()
            ),
            IdescError::ScaleTileExtent { operand, dim, sf, tile } => write!(
                f,
                "the {} scale-factor tile covers {dim} = {sf} values but the {} tile holds \
                 {dim} = {tile}; use tile {dim} = {tile}",
                operand.name(),
                operand.name()
            ),
            IdescError::ScaleTileCtaGroup { operand, sf, pair } => write!(
                f,
                "the {} scale factors are copied with tcgen05.cp.cta_group::{sf} but the MMA is \
                 cta_group::{pair}; every tcgen05 instruction of a kernel uses one cta_group: \
                 use cta_group = {pair}",
                operand.name()
            ),
            IdescError::ScaleTileK96 { operand } => write!(
                f,
                "the {} scale factors of a K = 96 instruction (3 per row for .block32, 6 for \
                 .block16, PTX \"Scale Factor A ID\" K=96 layouts) do not fill whole 4-factor \
                 TMEM words, which smemdesc's scale-factor tile steps by; K = 96 scale factors \
                 are not modeled: pair the tile with a K = 64 MMA",
                operand.name()
            ),
        }
    }
}
