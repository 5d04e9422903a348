//! `TensorMap`: one test per rule of `cuTensorMapEncodeTiled`, each quoting the CUDA driver API
//! documentation (CUDA 12.9 `cuda.h` / "Tensor Map Object Management"), or the H100 measurement
//! in `shared/notes/tensor-maps.md`; then an independent model of the documented rules, written
//! from the same text, against the core over an enumeration of parameter sets.

use smemdesc_core::*;
use TensorMapDataType as T;
use TensorMapSwizzle as S;

/// A legal 3-D bf16 map to perturb: 1024 x 512 x 4, dense, box 64 x 32 x 1, 128B swizzle.
const BASE: TensorMap = TensorMap::new(Arch::Sm90, T::Bfloat16, 3)
    .dim(0, 1024)
    .dim(1, 512)
    .dim(2, 4)
    .box_dim(0, 64)
    .box_dim(1, 32)
    .swizzle(S::B128)
    .address(0x7000_0000_0000);

/// Checks that `m` is refused with `arg` at fault and a message containing every `words`.
fn refused(m: TensorMap, arg: TensorMapArg, words: &[&str]) -> TensorMapError {
    let e = m.check().expect_err("must be refused");
    assert_eq!(e.argument(), arg, "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains(&arg.to_string()),
        "message must name {arg}: {msg}"
    );
    for w in words {
        assert!(msg.contains(w), "message {msg:?} must contain {w:?}");
    }
    assert!(m.try_args().is_err());
    e
}

#[test]
fn base_is_legal() {
    let a = BASE.try_args().unwrap();
    assert_eq!(a.global_strides[..2], [2048, 2048 * 512]);
    assert_eq!(a.box_bytes(), 64 * 32 * 2);
}

/// "tensorRank must be non-zero and less than or equal to the maximum supported dimensionality of 5."
#[test]
fn rank_1_to_5() {
    for r in [0, 6, 100] {
        let m = TensorMap::new(Arch::Sm90, T::Uint8, r).box_dim(0, 16);
        refused(m, TensorMapArg::TensorRank, &["legal: 1 to 5"]);
    }
    for r in 1..=5 {
        let m = TensorMap::new(Arch::Sm90, T::Uint8, r).box_dim(0, 16);
        assert_eq!(m.check(), Ok(()), "rank {r}");
    }
}

/// "If interleave is not CU_TENSOR_MAP_INTERLEAVE_NONE, then tensorRank must additionally be
/// greater than or equal to 3."
#[test]
fn interleave_needs_rank_3() {
    let m = TensorMap::new(Arch::Sm90, T::Float16, 2)
        .interleave(TensorMapInterleave::B16)
        .box_dim(0, 8);
    refused(m, TensorMapArg::TensorRank, &["rank 3 to 5"]);
    let m = TensorMap::new(Arch::Sm90, T::Float16, 3)
        .interleave(TensorMapInterleave::B16)
        .box_dim(0, 8);
    assert_eq!(m.check(), Ok(()));
}

/// "globalAddress ... must be 16 byte aligned ... When interleave is CU_TENSOR_MAP_INTERLEAVE_32B,
/// globalAddress must be 32 byte aligned. When tensorDataType is ..._16U6_ALIGN16B or
/// ..._16U4_ALIGN16B, globalAddress must be 32 byte aligned."
#[test]
fn address_alignment() {
    refused(
        BASE.address(0x1008),
        TensorMapArg::GlobalAddress,
        &["multiple of 16"],
    );
    assert!(BASE.address(0x1010).check().is_ok());
    let il = TensorMap::new(Arch::Sm90, T::Float16, 3)
        .interleave(TensorMapInterleave::B32)
        .swizzle(S::B32)
        .box_dim(0, 16);
    refused(
        il.address(0x1010),
        TensorMapArg::GlobalAddress,
        &["multiple of 32"],
    );
    assert!(il.address(0x1020).check().is_ok());
    let p = TensorMap::new(Arch::Sm100, T::U4x16Align16B, 2).box_dim(0, 128);
    refused(
        p.address(0x1010),
        TensorMapArg::GlobalAddress,
        &["multiple of 32"],
    );
    assert!(p.address(0x1020).check().is_ok());
}

/// "globalDim array ... must be non-zero and less than or equal to 2^32."
#[test]
fn dims_1_to_2_pow_32() {
    refused(BASE.dim(1, 0), TensorMapArg::GlobalDim(1), &["1 to 2^32"]);
    // dense strides of a 2^32 + 1 row would also be wrong; the dim is reported first.
    refused(
        BASE.dim(2, (1 << 32) + 1),
        TensorMapArg::GlobalDim(2),
        &["1 to 2^32"],
    );
    let m = TensorMap::new(Arch::Sm90, T::Uint8, 2)
        .dim(0, 16)
        .dim(1, 1 << 32)
        .box_dim(0, 16);
    assert_eq!(m.check(), Ok(()));
}

/// "When tensorDataType is ..._16U6_ALIGN16B or ..._16U4_ALIGN16B, globalDim[0] must be a multiple
/// of 128. When tensorDataType is ..._16U4_ALIGN8B, globalDim[0] must be a multiple of 2."
#[test]
fn packed_dim0_multiples() {
    for t in [T::U4x16Align16B, T::U6x16Align16B] {
        let m = TensorMap::new(Arch::Sm100, t, 2)
            .box_dim(0, 128)
            .runtime_strides();
        refused(
            m.dim(0, 192),
            TensorMapArg::GlobalDim(0),
            &["multiple of 128"],
        );
        assert!(m.dim(0, 256).check().is_ok());
    }
    let m = TensorMap::new(Arch::Sm100, T::U4x16Align8B, 2)
        .box_dim(0, 32)
        .runtime_strides();
    refused(m.dim(0, 33), TensorMapArg::GlobalDim(0), &["multiple of 2"]);
    assert!(m.dim(0, 34).check().is_ok());
}

/// "globalStrides array ... in bytes, must be a multiple of 16 and less than 2^40. ... When
/// interleave is CU_TENSOR_MAP_INTERLEAVE_32B, the strides must be a multiple of 32. When
/// tensorDataType is ..._16U6_ALIGN16B or ..._16U4_ALIGN16B, the strides must be a multiple of 32."
#[test]
fn stride_multiples() {
    refused(
        BASE.stride(0, 2056),
        TensorMapArg::GlobalStrides(0),
        &["multiple of 16 B"],
    );
    // the classic: a bf16 row of 100 elements (200 B) densely packed
    let m = TensorMap::new(Arch::Sm90, T::Bfloat16, 2)
        .dim(0, 100)
        .dim(1, 10)
        .box_dim(0, 8);
    refused(
        m,
        TensorMapArg::GlobalStrides(0),
        &["200 B", "multiple of 16 B"],
    );
    let il = TensorMap::new(Arch::Sm90, T::Float16, 3)
        .interleave(TensorMapInterleave::B32)
        .swizzle(S::B32)
        .box_dim(0, 16)
        .dim(0, 16);
    refused(
        il.stride(0, 48),
        TensorMapArg::GlobalStrides(0),
        &["multiple of 32 B"],
    );
    assert!(il.stride(0, 64).check().is_ok());
    let p = TensorMap::new(Arch::Sm100, T::U6x16Align16B, 2)
        .box_dim(0, 128)
        .dim(0, 128);
    // 128 six-bit values = 96 B per row; a padded 112-B row is a multiple of 16 but not of 32
    refused(
        p.stride(0, 112),
        TensorMapArg::GlobalStrides(0),
        &["112 B", "multiple of 32 B"],
    );
    assert!(p.check().is_ok());
    assert!(p.stride(0, 128).check().is_ok());
}

/// "... must be a multiple of 16 and less than 2^40."
#[test]
fn stride_below_2_pow_40() {
    refused(
        BASE.stride(1, 1 << 40),
        TensorMapArg::GlobalStrides(1),
        &["below 2^40"],
    );
    assert!(BASE.stride(1, (1 << 40) - 16).check().is_ok());
    // a dense stride that overflows u64 is refused, not wrapped
    let m = TensorMap::new(Arch::Sm90, T::Float64, 5)
        .dim(0, 1 << 32)
        .dim(1, 1 << 32)
        .dim(2, 1 << 32)
        .box_dim(0, 2);
    refused(m, TensorMapArg::GlobalStrides(1), &["below 2^40"]);
}

/// "Each following dimension specified includes previous dimension stride:
/// globalStrides[0] = globalDim[0] * elementSizeInBytes(tensorDataType) + padding[0];
/// globalStrides[i] = globalStrides[i – 1] * (globalDim[i] + padding[i]);"
#[test]
fn strides_consistent_with_dims() {
    // 1024 bf16 = 2048 B per row: a 1024-B stride overlaps rows
    let e = refused(
        BASE.stride(0, 1024),
        TensorMapArg::GlobalStrides(0),
        &["at least 2048 B"],
    );
    assert_eq!(
        e,
        TensorMapError::StrideTooSmall {
            index: 0,
            stride: 1024,
            min: 2048
        }
    );
    // 512 rows of 2048 B = 1 MiB per matrix
    refused(
        BASE.stride(1, 2048 * 511),
        TensorMapArg::GlobalStrides(1),
        &["at least 1048576 B"],
    );
    // padding is fine
    assert!(BASE.stride(0, 4096).stride(1, 4096 * 512).check().is_ok());
}

/// "boxDim array ... must be non-zero and less than or equal to 256."
#[test]
fn box_dims_1_to_256() {
    refused(BASE.box_dim(1, 0), TensorMapArg::BoxDim(1), &["1 to 256"]);
    refused(BASE.box_dim(1, 257), TensorMapArg::BoxDim(1), &["1 to 256"]);
    refused(BASE.box_dim(2, 300), TensorMapArg::BoxDim(2), &["1 to 256"]);
    assert!(BASE.box_dim(1, 256).check().is_ok());
}

/// "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE, { boxDim[0] * elementSizeInBytes(
/// tensorDataType ) } must be a multiple of 16 bytes." Measured on an H100 (driver 13.0, `gpu/`'s
/// interleave grid): the driver refuses the other inner boxes with interleave 16B and 32B too
/// (f16 boxDim[0] = 4 with interleave 16B among them), so the rule holds for every interleave.
#[test]
fn inner_box_multiple_of_16_bytes() {
    refused(
        BASE.box_dim(0, 12),
        TensorMapArg::BoxDim(0),
        &["24 B", "multiple of 16 B"],
    );
    let p = TensorMap::new(Arch::Sm100, T::U4x16Align8B, 2).box_dim(0, 20);
    refused(p, TensorMapArg::BoxDim(0), &["10 B"]);
    // interleaved too (measured)
    let il = TensorMap::new(Arch::Sm90, T::Float16, 3)
        .interleave(TensorMapInterleave::B16)
        .box_dim(0, 4);
    refused(il, TensorMapArg::BoxDim(0), &["8 B", "multiple of 16 B"]);
    let il32 = TensorMap::new(Arch::Sm90, T::Uint8, 3)
        .interleave(TensorMapInterleave::B32)
        .swizzle(S::B32)
        .box_dim(0, 8);
    refused(il32, TensorMapArg::BoxDim(0), &["8 B", "multiple of 16 B"]);
    assert!(il.box_dim(0, 8).check().is_ok());
}

/// "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE and swizzle is not CU_TENSOR_MAP_SWIZZLE_NONE,
/// the bounding box inner dimension ... must be less than or equal to the swizzle size."
#[test]
fn inner_box_within_swizzle_span() {
    // the 256-B inner box with SWIZZLE_128B from the issue
    refused(
        BASE.box_dim(0, 128),
        TensorMapArg::BoxDim(0),
        &["256 B", "at most 128 B"],
    );
    refused(
        BASE.swizzle(S::B64),
        TensorMapArg::BoxDim(0),
        &["128 B", "at most 64 B"],
    );
    refused(
        BASE.swizzle(S::B32).box_dim(0, 32),
        TensorMapArg::BoxDim(0),
        &["64 B", "at most 32 B"],
    );
    assert!(BASE.swizzle(S::B32).box_dim(0, 16).check().is_ok());
    assert!(BASE.swizzle(S::None).box_dim(0, 256).check().is_ok());
}

/// "When tensorDataType is ..._16U6_ALIGN16B or ..._16U4_ALIGN16B, boxDim[0] must be 128."
#[test]
fn packed_align16b_box_128() {
    for t in [T::U4x16Align16B, T::U6x16Align16B] {
        let m = TensorMap::new(Arch::Sm100, t, 2).box_dim(0, 64);
        refused(m, TensorMapArg::BoxDim(0), &["exactly 128"]);
        assert!(m.box_dim(0, 128).check().is_ok());
    }
}

/// "elementStrides array ... must be non-zero and less than or equal to 8."
#[test]
fn element_strides_1_to_8() {
    refused(
        BASE.element_stride(1, 0),
        TensorMapArg::ElementStrides(1),
        &["1 to 8"],
    );
    refused(
        BASE.element_stride(2, 9),
        TensorMapArg::ElementStrides(2),
        &["1 to 8"],
    );
    assert!(BASE.element_stride(1, 8).check().is_ok());
}

/// "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B."
#[test]
fn interleave_32b_needs_swizzle_32b() {
    let m = TensorMap::new(Arch::Sm90, T::Float16, 3)
        .interleave(TensorMapInterleave::B32)
        .box_dim(0, 16);
    for s in [S::None, S::B64, S::B128] {
        refused(m.swizzle(s), TensorMapArg::Swizzle, &["SWIZZLE_32B only"]);
    }
    assert!(m.swizzle(S::B32).check().is_ok());
}

/// "tensorDataType of CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires interleave to be
/// CU_TENSOR_MAP_INTERLEAVE_NONE."
#[test]
fn u6_needs_no_interleave() {
    let m = TensorMap::new(Arch::Sm100, T::U6x16Align16B, 3)
        .interleave(TensorMapInterleave::B16)
        .box_dim(0, 128);
    refused(m, TensorMapArg::Interleave, &["INTERLEAVE_NONE only"]);
}

/// "When the tensorDataType is ..._16U6_ALIGN16B, only the following swizzle modes are supported:
/// NONE, 128B, 128B_ATOM_32B, 128B_ATOM_64B (Store only). When the tensorDataType is
/// ..._16U4_ALIGN16B, only ... NONE, 128B, 128B_ATOM_32B (Load only)."
#[test]
fn packed_swizzles() {
    let u4 = TensorMap::new(Arch::Sm100, T::U4x16Align16B, 2).box_dim(0, 128);
    let u6 = TensorMap::new(Arch::Sm100, T::U6x16Align16B, 2).box_dim(0, 128);
    for s in S::ALL {
        let u4_ok = matches!(s, S::None | S::B128 | S::B128Atom32B);
        let u6_ok = u4_ok || s == S::B128Atom64B;
        for (m, ok) in [(u4, u4_ok), (u6, u6_ok)] {
            match m.swizzle(s).check() {
                Ok(()) => assert!(ok, "{s:?} accepted for {:?}", m.data_type),
                Err(e) => {
                    assert!(!ok, "{s:?} refused for {:?}: {e}", m.data_type);
                    // 32B/64B are also too narrow for the 128-B box; the packed rule comes first
                    assert_eq!(e.argument(), TensorMapArg::Swizzle);
                    assert!(e.to_string().contains("legal: NONE, 128B, 128B_ATOM_32B"));
                }
            }
        }
    }
}

/// "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA can only be used when tensorDataType
/// represents a floating-point data type, and when tensorDataType is not ..._16U4_ALIGN8B,
/// ..._16U4_ALIGN16B, and ..._16U6_ALIGN16B."
#[test]
fn nan_fill_float_only() {
    let fill = TensorMapOobFill::NanRequestZeroFma;
    for t in T::ALL {
        let m = TensorMap::new(Arch::Sm100, t, 2)
            .box_dim(0, 128)
            .oob_fill(fill);
        match m.check() {
            Ok(()) => assert!(t.is_float(), "{t:?}"),
            Err(e) => {
                assert!(!t.is_float(), "{t:?}: {e}");
                assert_eq!(e.argument(), TensorMapArg::OobFill);
                assert!(e.to_string().contains("FILL_NONE"));
            }
        }
    }
    let floats = T::ALL.iter().filter(|t| t.is_float()).count();
    assert_eq!(floats, 7); // FLOAT16/32/64, BFLOAT16, FLOAT32_FTZ, TFLOAT32(_FTZ)
}

/// Measured (notes/tensor-maps.md): "the driver accepts a map exactly when the box's bytes,
/// prod over dims of floor(boxDim[i] / elementStrides[i]) × element size, are ≤ 233,472 B".
#[test]
fn box_bytes_limit_measured() {
    let m = TensorMap::new(Arch::Sm90, T::Float32, 3)
        .box_dim(0, 32)
        .box_dim(1, 228);
    // 32 x 228 x 8 x 4 B = 233472: the limit itself
    assert!(m.box_dim(2, 8).check().is_ok());
    let e = refused(m.box_dim(2, 9), TensorMapArg::Box, &["233472"]);
    assert_eq!(
        e,
        TensorMapError::BoxBytesTooLarge {
            bytes: 32 * 228 * 9 * 4
        }
    );
    // floor: boxDim 9 with element stride 2 counts 4
    assert!(m.box_dim(2, 17).element_stride(2, 2).check().is_ok());
    assert!(m.box_dim(2, 18).element_stride(2, 2).check().is_err());
    // and on dim 0 too
    assert!(m.box_dim(2, 9).element_stride(0, 2).check().is_ok());
}

/// Measured (notes/tensor-maps.md): "On the sm90 context, the 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B
/// and 128B_ATOM_64B swizzles and the packed 16U4_ALIGN8B, 16U4_ALIGN16B, 16U6_ALIGN16B data types
/// were never accepted".
#[test]
fn blackwell_only_options() {
    for s in [S::B128Atom32B, S::B128Atom32BFlip8B, S::B128Atom64B] {
        let m = TensorMap::new(Arch::Sm90, T::Uint8, 2)
            .box_dim(0, 128)
            .swizzle(s);
        refused(m, TensorMapArg::Swizzle, &["sm90", "NONE, 32B, 64B, 128B"]);
        let mut b = m;
        b.arch = Arch::Sm100;
        assert!(b.check().is_ok());
    }
    for t in [T::U4x16Align8B, T::U4x16Align16B, T::U6x16Align16B] {
        let m = TensorMap::new(Arch::Sm90, t, 2).box_dim(0, 128);
        refused(m, TensorMapArg::TensorDataType, &["sm90", "values 0-12"]);
        let mut b = m;
        b.arch = Arch::Sm100;
        assert!(b.check().is_ok());
    }
}

#[test]
fn runtime_values_and_indices() {
    let m = TensorMap::new(Arch::Sm90, T::Bfloat16, 2)
        .box_dim(0, 64)
        .box_dim(1, 64);
    // nothing known: only the static rules apply
    assert_eq!(m.check(), Ok(()));
    let e = m.try_args().unwrap_err();
    assert_eq!(
        e,
        TensorMapError::Unresolved {
            arg: TensorMapArg::GlobalAddress
        }
    );
    assert!(e.to_string().contains("globalAddress"));
    let m = m.address(0).dim(0, 64).runtime_strides().dim(1, 64);
    assert_eq!(
        m.try_args().unwrap_err(),
        TensorMapError::Unresolved {
            arg: TensorMapArg::GlobalStrides(0)
        }
    );
    assert_eq!(m.stride(0, 128).try_args().unwrap().global_strides[0], 128);
    // an index beyond rank 5 is an error, not a panic
    let e = m.dim(5, 1).check().unwrap_err();
    assert_eq!(
        e,
        TensorMapError::IndexOutOfRange {
            arg: TensorMapArg::GlobalDim(5)
        }
    );
    assert!(m.stride(4, 1).check().is_err());
    assert!(m.box_dim(9, 1).check().is_err());
    assert!(m.element_stride(u32::MAX, 1).check().is_err());
}

/// The enum values are those of `cuda.h` (CUDA 12.9): spot checks against the documented list.
#[test]
fn enum_values_match_cuda_h() {
    assert_eq!(
        T::ALL.map(|t| t.value()),
        core::array::from_fn(|i| i as u32)
    );
    assert_eq!(T::Tfloat32.name(), "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32");
    assert_eq!(T::Tfloat32.value(), 11);
    assert_eq!(T::U6x16Align16B.value(), 15);
    assert_eq!(S::B128Atom32BFlip8B.value(), 5);
    assert_eq!(TensorMapInterleave::B32.value(), 2);
    assert_eq!(TensorMapL2Promotion::L2_256B.value(), 3);
    // the tile plan's enums convert by value, name for name
    for e in ElementType::ALL {
        let d = TmaDataType::of(e);
        assert_eq!(T::of_tma(d).name(), d.name());
    }
    for m in [
        SwizzleMode::None,
        SwizzleMode::B32,
        SwizzleMode::B64,
        SwizzleMode::B128,
        SwizzleMode::B128Base32B,
    ] {
        let s = TmaSwizzle::of(m);
        assert_eq!(S::of_tma(s).name(), s.name());
    }
}
