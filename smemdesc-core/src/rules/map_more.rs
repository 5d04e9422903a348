//! The rules of the MMA, fragment, epilogue, Tensor Memory, pipeline, cluster and storage errors.

use super::{
    table_arch as a, table_desc as d, table_frag as f, table_mma as m, table_pipe as p,
    table_tmem as t,
};
use crate::cluster::ClusterError;
use crate::epilogue::EpiError;
use crate::fragment::{ChainError, FragError, TileError};
use crate::mma::IdescError;
use crate::pipeline::PipelineError;
use crate::smem::StorageProblem;
use crate::TmemError;

crate::__rule_map! {
    IdescError, "let e = smemdesc_core::IdescError::SaturateNotForKind { kind: smemdesc_core::MmaKind::F16 };\nassert_eq!(e.rule().id, \"idesc.saturate\");";
    rules {
        TypeNotForKind => d::DTYPE_KIND,
        TypesDiffer => m::F16_SAME,
        AccumNotForKind => m::ACCUM_KIND,
        NegateNotForKind => m::NEGATE,
        SaturateNotForKind => m::SATURATE,
        MnMajorNotAllowed => d::MN_MAJOR_SM100,
        CtaGroupInvalid => d::CTA_GROUP,
        IllegalM => d::MMA_M,
        IllegalN => d::MMA_N,
        ScaleFormatNotForKind => d::SCALE_FORMAT,
        ScaleVecNotForKind => d::SCALE_FORMAT,
        K96NotAllowed => d::MMA_K,
        SfIdIllegal => m::SF_ID,
        SparseIdIllegal => m::SPARSE_ID,
        WsShiftNotModeled => m::WS,
        ReservedBits => m::IDESC_RESERVED,
        UnknownFormat => m::IDESC_FORMAT,
        UnknownAccum => m::IDESC_ACCUM,
        ArchMismatch => m::SAME_ARCH,
        KindMismatch => m::SAME_KIND,
        CtaGroupMismatch => m::SAME_CTA_GROUP,
        ShapeMismatch => m::SAME_SHAPE,
        OperandSwapped => m::ROLE,
        Sm90AccumNotForType => m::ACCUM_SM90,
        NotOnSm90 => m::NOT_SM90,
        ScaleTileFor => m::SCALE_FOR,
        ScaleTileFormat => m::SCALE_TILE_FORMAT,
        ScaleTileExtent => m::SCALE_EXTENT,
        ScaleTileCtaGroup => m::SAME_CTA_GROUP,
        ScaleTileK96 => m::SCALE_K96,
    }
    inner {}
}

crate::__rule_map! {
    ChainError, "use smemdesc_core::fragment::ChainError;\nassert_eq!(ChainError::KStepsNotWhole { n: 8, k: 16 }.rule().id, \"frag.chain-k-steps\");";
    rules {
        AccumNotForType => m::ACCUM_SM90,
        NoWgmmaForm => d::DTYPE_ARCH,
        NotLaneLocal => m::LANE_LOCAL,
        AccumNotConvertible => m::CHAIN_CONVERT,
        KStepsNotWhole => m::CHAIN_K,
    }
    inner {
        Shape.error,
    }
}

crate::__rule_map! {
    FragError, "use smemdesc_core::fragment::{FragError, SyncArch};\nlet e = FragError::IllegalArch { arch: SyncArch::Sm80, needs: \"sm_89\" };\nassert_eq!(e.rule().id, \"frag.form-on-arch\");";
    rules {
        IllegalType => m::FRAG_TYPES,
        IllegalArch => m::FRAG_ARCH,
        IllegalScale => m::FRAG_SCALE,
    }
    inner {}
}

crate::__rule_map! {
    TileError, "use smemdesc_core::fragment::TileError;\nassert_eq!(TileError::TransNeeds16Bit { bits: 8 }.rule().id, \"frag.ldmatrix-trans-16bit\");";
    rules {
        TransNeeds16Bit => f::TRANS_16,
        Extent => f::WHOLE,
        // A fragment arch (SyncArch: sm80 to sm120) may share a number with another arch
        // (sm86's and sm120's 99 KiB): the general rule.
        TooLarge => d::SMEM_BUDGET,
        StmatrixArch => f::STMATRIX_ARCH,
        TmaRowTooWide => super::table_tma::BOX_DIM,
        MatrixCount => f::MATRIX_COUNT,
        Swizzle => f::SWIZZLE_ROWS,
        Conflict => f::CONFLICT,
    }
    inner {}
}

crate::__rule_map! {
    EpiError, "use smemdesc_core::epilogue::EpiError;\nassert_eq!(EpiError::Stages.rule().id, \"epi.stages\");";
    rules {
        Shape => f::EPI_SHAPE,
        Stages => f::EPI_STAGES,
        StmatrixBits => f::STMATRIX_16,
        WriterMajor => f::WRITER_MAJOR,
        MatrixCount => f::MATRIX_COUNT,
        StWidth => f::ST_WIDTH,
        Swizzle => f::EPI_SWIZZLE,
        Conflict => f::CONFLICT,
        ReduceType => super::table_tma::REDUCE_TYPE,
        SwizzleMismatch => f::MAP_SWIZZLE,
    }
    inner {}
}

crate::__rule_map! {
    TmemError, "use smemdesc_core::TmemError;\nassert_eq!(TmemError::NoStages.rule().id, \"tmem.stages\");";
    rules {
        CtaGroup => d::CTA_GROUP,
        IllegalM => t::DATAPATH_M,
        IllegalN => d::MMA_N,
        AccumNotModeled => t::ACCUM,
        IllegalNum => t::LD_NUM,
        BadLoadText => t::LD_TEXT,
        LoadLanes => t::LD_LANES,
        LoadColumns => t::LD_COLUMNS,
        PackNot16Bit => t::LD_PACK,
        OutOfRange => t::INDEX,
        NotAnElement => t::ELEMENT,
        OverCapacity => t::COLUMNS,
        AllocNotPow2 => t::ALLOC_POW2,
        AllocTooSmall => t::ALLOC_HOLDS,
        NotSm100 => t::SM100_ONLY,
        NoStages => t::STAGES,
        ScaleTiles => t::SCALE_TILES,
        ScaleIdMismatch => t::SCALE_ID,
    }
    inner {}
}

crate::__rule_map! {
    PipelineError, "use smemdesc_core::pipeline::PipelineError;\nassert_eq!(PipelineError::NoStages.rule().id, \"tile.stages\");";
    rules {
        TooManyLoads => p::LOADS,
        NoLoads => p::LOADS_NONEMPTY,
        NoConsumers => p::CONSUMERS,
        NoStages => d::STAGES,
        CtaGroup => d::CTA_GROUP,
        PairConsumers => p::PAIR_ONE,
        PairWithCluster => p::PAIR_CLUSTER,
        StagesMismatch => p::LOAD_STAGES,
        ArchMismatch => p::SAME_ARCH,
        MulticastWithoutCluster => p::MC_CLUSTER,
        MulticastNotOperand => p::MC_OPERAND,
        MulticastNotShared => p::MC_SHARED,
        MulticastUneven => p::MC_EVEN,
        NoEmptyBarriers => p::EMPTY_BARRIERS,
        OverBudget { max: a::BYTES_99K, } => a::SMEM_99K,
        OverBudget { max: a::BYTES_227K, } => a::SMEM_227K,
        OverBudget => d::SMEM_BUDGET,
        ExpectTx => p::EXPECT_TX,
        FullArrivals => p::FULL_ARRIVALS,
        EmptyArrivals => p::EMPTY_ARRIVALS,
        TmemGroup => t::ALLOC_GROUP,
        ConsumerArrivals => p::CONSUMER_ARRIVALS,
        TooManyThreads => p::THREADS,
        InitCount => p::MBAR_COUNT,
        CtaGroupMismatch => m::SAME_CTA_GROUP,
        MemberTooSmall => p::MEMBER,
    }
    inner {
        Cluster.0,
    }
}

crate::__rule_map! {
    ClusterError, "use smemdesc_core::cluster::ClusterError;\nassert_eq!(ClusterError::Empty.rule().id, \"cluster.extent\");";
    rules {
        Empty => p::CL_EXTENT,
        TooLarge { max: 8, } => a::CL_PORTABLE,
        TooLarge => a::CL_NP_SM90,
        Unsourced { arch: crate::Arch::Sm107, } => d::ARCH_NO_LIMITS,
        Unsourced => a::CL_NP_NONE,
        NotDividing => p::CL_SLICES,
        Pair => p::CL_PAIR,
    }
    inner {
        Plan.0,
    }
}

crate::__rule_map! {
    StorageProblem, "use smemdesc_core::StorageProblem;\nassert_eq!(StorageProblem::OverBudget { limit: 232448 }.rule().id, \"smem.per-cta-227k\");";
    rules {
        OverBudget { limit: a::BYTES_99K, } => a::SMEM_99K,
        OverBudget { limit: a::BYTES_227K, } => a::SMEM_227K,
        OverBudget => d::SMEM_BUDGET,
        AlignNotPowerOfTwo => p::ALIGN_POW2,
        ArchMismatch => p::STORAGE_ARCH,
    }
    inner {}
}
