//! The core [`Error`]'s rules.

use super::table_desc::*;
use crate::base::{Arch, Error};

crate::__rule_map! {
    Error, "let e = smemdesc_core::Error::ZeroStages;\nassert_eq!(e.rule().id, \"tile.stages\");\nassert!(e.to_string().contains(\"[rule tile.stages; \"));";
    rules {
        ZeroStages => STAGES,
        ZeroExtent => EXTENT,
        ContiguousNotMultipleOf16B => CHUNK,
        TileNotWholeAtoms => WHOLE_ATOMS,
        TileNotWholeMmas => WHOLE_MMAS,
        MmaNarrowerThanAtom => MN_ATOM,
        SwizzleNotOnArch => SWIZZLE_ARCH,
        SwizzleNotForOperand => BASE32B,
        MnMajorForbidden { arch: Arch::Sm90, } => MN_MAJOR_SM90,
        MnMajorForbidden => MN_MAJOR_SM100,
        FieldOverflow => FIELD_14BIT,
        FieldMisaligned => FIELD_16B,
        SmemBudget => SMEM_BUDGET,
        UnalignedBase => BASE_ALIGN,
        IndexOutOfRange => INDEX,
        NotCanonical => CANONICAL,
        NotDivisible => DIVISIBLE,
        LayoutCapacity => CAPACITY,
        UnknownLayoutCode => LAYOUT_CODE,
        ReservedBits => RESERVED,
        UnsupportedElement => ELEMENT,
        ArchRefused { gap: crate::base::ArchGap::NoPublicLimits, } => ARCH_NO_LIMITS,
        ArchRefused => ARCH_NO_DESC,
        DtypeNotOnArch => DTYPE_ARCH,
        KindNotOnArch => KIND_ARCH,
        DtypeKindMismatch => DTYPE_KIND,
        CtaGroupInvalid => CTA_GROUP,
        MmaKNot32Bytes => K_32B,
        IllegalMmaM => MMA_M,
        IllegalMmaN => MMA_N,
        TmaBoxWidth => BOX_WIDTH,
        TmaBoxRowsOver256 => super::table_tma::BOX_DIM,
        TmaBoxRowsIllegal => BOX_ROWS,
        FormNotForElement => FORM,
        IllegalMmaK => MMA_K,
        KBlockCrossesAtom => K_BLOCK,
        TmaPaddedBoxInner => PADDED_BOX,
        ScaleFormatIllegal => SCALE_FORMAT,
        ScaleTileNotWholeAtoms => SCALE_ATOMS,
        BaseTooHigh => BASE_HIGH,
    }
    inner {}
}
