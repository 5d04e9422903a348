//! The rules of the tensor-map, im2col, grouped-map, gather4 and convolution errors.

use super::{table_desc as d, table_tma as m};
use crate::tma::{
    ConvError, Gather4Error, GroupedMapError, Im2colError, OobWindowError, TensorMapError,
};

crate::__rule_map! {
    TensorMapError, "use smemdesc_core::tma::TensorMapError;\nassert_eq!(TensorMapError::RankOutOfRange { rank: 6 }.rule().id, \"tma.rank\");";
    rules {
        RankOutOfRange => m::RANK,
        TileRank => m::TILE_RANK,
        InterleaveRank => m::INTERLEAVE_RANK,
        AddressMisaligned => m::ADDRESS,
        DimOutOfRange => m::DIM,
        PackedDim0 => m::PACKED_DIM0,
        StrideNotMultiple => m::STRIDE_MULTIPLE,
        StrideTooLarge => m::STRIDE_MAX,
        StrideTooSmall => m::STRIDE_COVERS,
        BoxDimOutOfRange => m::BOX_DIM,
        BoxInnerNot16B => m::BOX_INNER_16B,
        BoxInnerOverSwizzle => m::BOX_INNER_SWIZZLE,
        PackedBox0 => d::PADDED_BOX,
        BoxBytesTooLarge => m::BOX_BYTES,
        ElementStrideOutOfRange => m::ELEMENT_STRIDE,
        InterleaveSwizzle => m::INTERLEAVE_SWIZZLE,
        PackedInterleave => m::PACKED_INTERLEAVE,
        PackedSwizzle => m::PACKED_SWIZZLE,
        OobFillNotFloat => m::OOB_FILL,
        DataTypeNotOnArch => m::DTYPE_ARCH,
        SwizzleNotOnArch => m::SWIZZLE_ARCH,
        TileMismatch => m::MATCHES_TILE,
        Unresolved => m::RESOLVED,
        IndexOutOfRange => m::MAP_INDEX,
        RewrittenDimTooLarge => m::REWRITTEN_DIM,
        DenseStrideMismatch => m::DENSE_STRIDE,
    }
    inner {}
}

crate::__rule_map! {
    Im2colError, "use smemdesc_core::tma::Im2colError;\nassert_eq!(Im2colError::RankOutOfRange { rank: 2 }.rule().id, \"conv.rank\");";
    rules {
        RankOutOfRange => m::C_RANK,
        CornerOutOfRange => m::C_CORNER,
        EmptyBoundingBox => m::C_BOX,
        ChannelsOutOfRange => m::C_CHANNELS,
        PackedChannels => m::C_PACKED,
        ChannelsNot16B => m::BOX_INNER_16B,
        ChannelsOverSwizzle => m::BOX_INNER_SWIZZLE,
        PixelsOutOfRange => m::C_PIXELS,
        BoxBytesTooLarge => m::BOX_BYTES,
        IndexOutOfRange => m::C_INDEX,
    }
    inner {
        Map.0,
    }
}

crate::__rule_map! {
    GroupedMapError, "use smemdesc_core::tma::GroupedMapError;\nuse smemdesc_core::tma::TensorMapError;\nlet e = GroupedMapError::Template(TensorMapError::RankOutOfRange { rank: 6 });\nassert_eq!(e.rule().id, \"tma.rank\");";
    rules {
        FixedByTile => m::FIXED_BY_TILE,
        ConstantRewritten => m::CONSTANT,
        BeyondRank => m::BEYOND_RANK,
        Duplicate => m::DUPLICATE,
        DenseStrideUnknown => m::DENSE_KNOWN,
        WindowKept => m::WINDOW_KEPT,
        KeptNotOpen => m::KEPT_OPEN,
    }
    inner {
        Template.0,
    }
}

crate::__rule_map! {
    Gather4Error, "use smemdesc_core::tma::Gather4Error;\nassert_eq!(Gather4Error::Arch.rule().id, \"tma.gather4-arch\");";
    rules {
        Arch => m::G4_ARCH,
        Rank => m::G4_RANK,
        BoxRows => m::G4_BOX,
        Interleave => m::G4_INTERLEAVE,
        DataType => m::G4_DTYPE,
        Inner => m::G4_INNER,
        SwizzleSpan => m::BOX_INNER_SWIZZLE,
        Swizzle => m::G4_SWIZZLE,
        Base => m::SMEM_ALIGN,
        Index => m::G4_INDEX,
    }
    inner {}
}

crate::__rule_map! {
    ConvError, "use smemdesc_core::tma::{ConvError, Spatial};\nassert_eq!(ConvError::Offset { dim: Spatial::H, value: 256 }.rule().id, \"conv.im2col-offset\");";
    rules {
        Zero => m::C_POSITIVE,
        EmptyOutput => m::C_OUTPUT,
        Stride => m::ELEMENT_STRIDE,
        Corner => m::C_CORNER,
        Coordinate => m::C_COORD,
        DataType => m::C_DTYPE,
        Channels => m::C_WHOLE,
        ChannelsPerPixel => m::C_CHANNELS,
        PixelsPerColumn => m::C_PIXELS,
        Index => m::C_INDEX,
        Rows => m::C_WALK,
        Offset => m::C_OFFSET,
        Overflow => m::C_OVERFLOW,
        Tile => m::C_FILLS,
    }
    inner {
        Map.error,
    }
}

crate::__rule_map! {
    OobWindowError, "use smemdesc_core::tma::OobWindowError;\nassert_eq!(OobWindowError::AddressUnknown.rule().id, \"tma.oob-128kb-address-known\");";
    rules {
        Misaligned => m::OOB_128K_ALIGN,
        Headroom => m::OOB_128K_HEADROOM,
        AddressUnknown => m::OOB_128K_KNOWN,
    }
    inner {}
}
