//! `Im2colMap`: one test per rule of `cuTensorMapEncodeIm2col`, each quoting the CUDA driver API
//! documentation (CUDA 13 "Tensor Map Object Management", `cuTensorMapEncodeIm2col`), or the H100
//! measurement of tiled maps in `shared/notes/tensor-maps.md` where the rule comes from there.
//! Expected verdicts and limits are taken from that text, not from the core's output.

use smemdesc_core::*;
use TensorMapDataType as T;
use TensorMapSwizzle as S;

/// A legal NHWC bf16 map to perturb: N = 8, H = W = 56, C = 64 (dense), 3x3 filter with padding 1
/// (corners -1, -1), 64 channels (128 B) x 128 pixels, 128B swizzle.
const BASE: Im2colMap = Im2colMap::new(Arch::Sm90, T::Bfloat16, 4)
    .dim(0, 64)
    .dim(1, 56)
    .dim(2, 56)
    .dim(3, 8)
    .lower(0, -1)
    .lower(1, -1)
    .upper(0, -1)
    .upper(1, -1)
    .channels_per_pixel(64)
    .pixels_per_column(128)
    .swizzle(S::B128)
    .address(0x7000_0000_0000);

/// A legal map of `rank` with uint8 data: C = 16, spatial dims 32, one 16-B pixel per column.
fn small(rank: u32) -> Im2colMap {
    let mut m = Im2colMap::new(Arch::Sm90, T::Uint8, rank)
        .channels_per_pixel(16)
        .address(0);
    for i in 0..rank {
        m = m.dim(i, if i == 0 { 16 } else { 32 });
    }
    m
}

/// Checks that `m` is refused with `arg` at fault and a message naming it and every `words`.
fn refused(m: Im2colMap, arg: Im2colArg, words: &[&str]) -> Im2colError {
    let e = m.check().expect_err("must be refused");
    assert_eq!(e.argument(), arg, "{e}");
    let msg = e.to_string();
    assert!(msg.contains(&arg.to_string()), "must name {arg}: {msg}");
    for w in words {
        assert!(msg.contains(w), "message {msg:?} must contain {w:?}");
    }
    assert!(m.try_args().is_err());
    e
}

fn map_arg(a: TensorMapArg) -> Im2colArg {
    Im2colArg::Map(a)
}

#[test]
fn base_is_legal() {
    let a = BASE.try_args().unwrap();
    // dense NHWC strides: C x 2 B, then x W, x H
    assert_eq!(a.global_strides[..3], [128, 128 * 56, 128 * 56 * 56]);
    assert_eq!((a.lower_corner, a.upper_corner), ([-1, -1, 0], [-1, -1, 0]));
    assert_eq!(a.box_bytes(), 64 * 128 * 2);
}

/// "tensorRank, which specifies the number of tensor dimensions, must be 3, 4, or 5."
#[test]
fn rank_3_to_5() {
    for r in [0, 1, 2, 6, 100] {
        let m = Im2colMap::new(Arch::Sm90, T::Uint8, r).channels_per_pixel(16);
        refused(m, map_arg(TensorMapArg::TensorRank), &["3, 4 or 5"]);
    }
    for r in 3..=5 {
        assert_eq!(small(r).check(), Ok(()), "rank {r}");
    }
}

/// "globalAddress ... must be 16 byte aligned ... When interleave is CU_TENSOR_MAP_INTERLEAVE_32B,
/// globalAddress must be 32 byte aligned."
#[test]
fn address_alignment() {
    let e = refused(
        BASE.address(0x1008),
        map_arg(TensorMapArg::GlobalAddress),
        &["multiple of 16"],
    );
    assert!(matches!(e, Im2colError::Map(_)));
    assert!(BASE.address(0x1010).check().is_ok());
    let il = small(3)
        .interleave(TensorMapInterleave::B32)
        .swizzle(S::B32)
        .dim(0, 32)
        .channels_per_pixel(32);
    refused(
        il.address(0x10),
        map_arg(TensorMapArg::GlobalAddress),
        &["multiple of 32"],
    );
    assert!(il.address(0x20).check().is_ok());
}

/// "globalDim array ... must be non-zero and less than or equal to 2^32."
#[test]
fn dims_1_to_2_pow_32() {
    refused(
        small(3).dim(2, 0),
        map_arg(TensorMapArg::GlobalDim(2)),
        &["1 to 2^32"],
    );
    refused(
        small(3).dim(1, (1 << 32) + 1).runtime_strides(),
        map_arg(TensorMapArg::GlobalDim(1)),
        &["1 to 2^32"],
    );
    assert!(small(3).dim(2, 1 << 32).check().is_ok());
}

/// "globalStrides array ... must be a multiple of 16 and less than 2^40. ... When interleave is
/// CU_TENSOR_MAP_INTERLEAVE_32B, the strides must be a multiple of 32."
#[test]
fn strides() {
    refused(
        small(3).stride(0, 24),
        map_arg(TensorMapArg::GlobalStrides(0)),
        &["multiple of 16"],
    );
    refused(
        small(3).stride(1, 1 << 40),
        map_arg(TensorMapArg::GlobalStrides(1)),
        &["below 2^40"],
    );
    // "globalStrides[0] = globalDim[0] * elementSizeInBytes(tensorDataType) + padding[0]"
    refused(
        small(3).dim(0, 32).channels_per_pixel(32).stride(0, 16),
        map_arg(TensorMapArg::GlobalStrides(0)),
        &["smaller than"],
    );
    assert!(small(3).stride(0, 48).check().is_ok()); // padding allowed
    let il = small(3)
        .interleave(TensorMapInterleave::B32)
        .swizzle(S::B32)
        .dim(0, 32)
        .channels_per_pixel(32);
    refused(
        il.stride(0, 48),
        map_arg(TensorMapArg::GlobalStrides(0)),
        &["multiple of 32"],
    );
}

/// "When tensorRank is 3, one signed offset within range [-32768, 32767] is supported. When
/// tensorRank is 4, two signed offsets each within range [-128, 127] are supported. When
/// tensorRank is 5, three offsets each within range [-16, 15] are supported." (both corners)
#[test]
fn corner_ranges_per_rank() {
    for (rank, lo, hi) in [(3u32, -32768, 32767), (4, -128, 127), (5, -16, 15)] {
        // spatial dims large enough that one corner at its limit never empties the box
        let mut m = small(rank);
        for i in 1..rank {
            m = m.dim(i, 2 * (hi as u64 + 1));
        }
        for i in 0..rank - 2 {
            for v in [lo, hi] {
                assert_eq!(
                    m.lower(i, v).check(),
                    Ok(()),
                    "rank {rank} lower[{i}] = {v}"
                );
                assert_eq!(
                    m.upper(i, v).check(),
                    Ok(()),
                    "rank {rank} upper[{i}] = {v}"
                );
            }
            let legal = format!("{lo} to {hi}");
            for v in [lo - 1, hi + 1] {
                refused(m.lower(i, v), Im2colArg::PixelBoxLowerCorner(i), &[&legal]);
                refused(m.upper(i, v), Im2colArg::PixelBoxUpperCorner(i), &[&legal]);
            }
        }
        // entries beyond rank - 2 are not read
        if rank < 5 {
            assert_eq!(m.lower(rank - 2, i32::MIN).check(), Ok(()));
        }
    }
    refused(
        small(3).lower(3, 0),
        Im2colArg::PixelBoxLowerCorner(3),
        &["0 to rank - 3"],
    );
    assert_eq!(im2col_corner_range(3), Some((-(1 << 15), (1 << 15) - 1)));
    assert_eq!(im2col_corner_range(5), Some((-(1 << 4), (1 << 4) - 1)));
}

/// "The bounding box specified by pixelBoxLowerCorner and pixelBoxUpperCorner must have non-zero
/// area." The box spans lower .. globalDim - 1 + upper along each spatial dimension.
#[test]
fn bounding_box_non_zero() {
    // W = 32: lower 0, upper -31 leaves one pixel; upper -32 none
    assert_eq!(small(3).upper(0, -31).check(), Ok(()));
    let e = refused(
        small(3).upper(0, -32),
        Im2colArg::PixelBoxUpperCorner(0),
        &["empty bounding box", ">= 1"],
    );
    assert_eq!(
        e,
        Im2colError::EmptyBoundingBox {
            index: 0,
            dim_index: 1,
            dim: 32,
            lower: 0,
            upper: -32
        }
    );
    // H (index 1) of a rank-4 map: lower 15, upper -16 on H = 32 leaves 1
    assert_eq!(small(4).lower(1, 15).upper(1, -16).check(), Ok(()));
    refused(
        small(5).lower(2, 15).upper(2, -16).dim(3, 1),
        Im2colArg::PixelBoxUpperCorner(2),
        &["globalDim[3] = 1"],
    );
    // an open dim cannot be judged yet
    let open = Im2colMap::new(Arch::Sm90, T::Uint8, 3)
        .channels_per_pixel(16)
        .upper(0, -100);
    assert_eq!(open.check(), Ok(()));
    assert!(open.dim(0, 16).dim(1, 50).dim(2, 1).check().is_err());
}

/// "channelsPerPixel, which specifies the number of elements which must be accessed along C
/// dimension, must be less than or equal to 256. Additionally, when tensorDataType is
/// CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
/// channelsPerPixel must be 128."
#[test]
fn channels_per_pixel() {
    let m = small(3).dim(0, 256);
    assert_eq!(m.channels_per_pixel(256).check(), Ok(()));
    for c in [0, 257, 512] {
        refused(
            m.channels_per_pixel(c),
            Im2colArg::ChannelsPerPixel,
            &["1 to 256"],
        );
    }
    let p = Im2colMap::new(Arch::Sm100, T::U4x16Align16B, 3)
        .dim(0, 256)
        .dim(1, 4)
        .dim(2, 4);
    assert_eq!(p.channels_per_pixel(128).check(), Ok(()));
    refused(
        p.channels_per_pixel(256),
        Im2colArg::ChannelsPerPixel,
        &["exactly 128", "16U4_ALIGN16B"],
    );
}

/// The inner dimension of the box in bytes must be a multiple of 16 (the tiled rule "boxDim[0] *
/// elementSizeInBytes(tensorDataType) must be a multiple of 16 bytes", applied to the im2col box's
/// inner dimension, channelsPerPixel).
#[test]
fn channels_16_byte_multiple() {
    let m = Im2colMap::new(Arch::Sm90, T::Float32, 3).address(0);
    assert_eq!(m.channels_per_pixel(4).check(), Ok(()));
    refused(
        m.channels_per_pixel(6),
        Im2colArg::ChannelsPerPixel,
        &["24 B", "multiple of 16 B"],
    );
}

/// "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE and swizzle is not
/// CU_TENSOR_MAP_SWIZZLE_NONE, the bounding box inner dimension (computed as channelsPerPixel
/// multiplied by element size in bytes derived from tensorDataType) must be less than or equal to
/// the swizzle size. CU_TENSOR_MAP_SWIZZLE_32B requires the bounding box inner dimension to be
/// <= 32. CU_TENSOR_MAP_SWIZZLE_64B ... <= 64. CU_TENSOR_MAP_SWIZZLE_128B* ... <= 128."
#[test]
fn channels_within_swizzle_span() {
    let m = Im2colMap::new(Arch::Sm100, T::Float16, 3);
    for (sw, span) in [
        (S::B32, 32u32),
        (S::B64, 64),
        (S::B128, 128),
        (S::B128Atom32B, 128),
        (S::B128Atom64B, 128),
    ] {
        let at = m.swizzle(sw).channels_per_pixel(span / 2);
        assert_eq!(at.check(), Ok(()), "{sw:?}");
        let over = m.swizzle(sw).channels_per_pixel(span / 2 + 8);
        refused(
            over,
            Im2colArg::ChannelsPerPixel,
            &[&format!("spans {span} B")],
        );
    }
    // no swizzle: no span limit (256 fp16 channels = 512 B)
    assert_eq!(m.channels_per_pixel(256).check(), Ok(()));
    // interleaved: the span rule is stated for interleave NONE only
    let il = m
        .interleave(TensorMapInterleave::B16)
        .swizzle(S::B32)
        .channels_per_pixel(64);
    assert_eq!(il.check(), Ok(()));
}

/// "pixelsPerColumn, which specifies the number of elements that must be accessed along the
/// {N, D, H, W} dimensions, must be less than or equal to 1024."
#[test]
fn pixels_per_column() {
    assert_eq!(small(3).pixels_per_column(1024).check(), Ok(()));
    for p in [0, 1025, 4096] {
        refused(
            small(3).pixels_per_column(p),
            Im2colArg::PixelsPerColumn,
            &["1 to 1024"],
        );
    }
}

/// "elementStrides array, which specifies the iteration step along each of the tensorRank
/// dimensions, must be non-zero and less than or equal to 8."
#[test]
fn element_strides() {
    assert_eq!(small(5).element_stride(4, 8).check(), Ok(()));
    for v in [0, 9] {
        refused(
            small(5).element_stride(4, v),
            map_arg(TensorMapArg::ElementStrides(4)),
            &["1 to 8"],
        );
    }
    // beyond the rank: not read
    assert_eq!(small(3).element_stride(4, 0).check(), Ok(()));
}

/// "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B."
/// "tensorDataType of CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires interleave to be
/// CU_TENSOR_MAP_INTERLEAVE_NONE."
#[test]
fn interleave_rules() {
    let m = small(3).interleave(TensorMapInterleave::B32);
    refused(
        m.swizzle(S::None),
        map_arg(TensorMapArg::Swizzle),
        &["SWIZZLE_32B only"],
    );
    let p = Im2colMap::new(Arch::Sm100, T::U6x16Align16B, 3)
        .channels_per_pixel(128)
        .interleave(TensorMapInterleave::B16);
    refused(
        p,
        map_arg(TensorMapArg::Interleave),
        &["INTERLEAVE_NONE only"],
    );
}

/// "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, only the following swizzle
/// modes are supported: CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
/// CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B"; the packed types and 128B_ATOM swizzles were never
/// accepted on sm90 (measured, shared/notes/tensor-maps.md).
#[test]
fn packed_swizzles_and_arch() {
    let p = Im2colMap::new(Arch::Sm100, T::U4x16Align16B, 3).channels_per_pixel(128);
    for sw in [S::None, S::B128, S::B128Atom32B] {
        assert_eq!(p.swizzle(sw).check(), Ok(()), "{sw:?}");
    }
    for sw in [S::B32, S::B64, S::B128Atom64B] {
        refused(p.swizzle(sw), map_arg(TensorMapArg::Swizzle), &["16U4"]);
    }
    let mut on90 = p;
    on90.arch = Arch::Sm90;
    refused(on90, map_arg(TensorMapArg::TensorDataType), &["sm90"]);
    refused(
        small(3).swizzle(S::B128Atom32B),
        map_arg(TensorMapArg::Swizzle),
        &["sm90"],
    );
}

/// "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA can only be used when tensorDataType
/// represents a floating-point data type, and when tensorDataType is not
/// CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, and
/// CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B."
#[test]
fn nan_fill_only_for_floats() {
    let nan = TensorMapOobFill::NanRequestZeroFma;
    assert_eq!(BASE.oob_fill(nan).check(), Ok(()));
    refused(
        small(3).oob_fill(nan),
        map_arg(TensorMapArg::OobFill),
        &["UINT8"],
    );
    let p = Im2colMap::new(Arch::Sm100, T::U4x16Align8B, 3)
        .channels_per_pixel(32)
        .oob_fill(nan);
    refused(p, map_arg(TensorMapArg::OobFill), &["16U4_ALIGN8B"]);
}

/// Every L2 promotion is legal ("l2Promotion specifies L2 fetch size ... must be of type
/// CUtensorMapL2promotion").
#[test]
fn l2_promotion_any() {
    for l in TensorMapL2Promotion::ALL {
        assert_eq!(BASE.l2_promotion(l).check(), Ok(()));
    }
}

/// The box holds at most 233,472 B (measured for tiled maps, shared/notes/tensor-maps.md):
/// fp32, 16 channels (64 B) x 1024 pixels = 65,536 B is legal; u64 256 channels (no swizzle) x
/// 1024 pixels = 2 MiB is not; 114 channels x 1024 pixels x 2 B = 233,472 B exactly is legal.
#[test]
fn box_bytes_limit() {
    let f = Im2colMap::new(Arch::Sm90, T::Float32, 3)
        .channels_per_pixel(16)
        .pixels_per_column(1024);
    assert_eq!(f.check(), Ok(()));
    let big = Im2colMap::new(Arch::Sm90, T::Uint64, 3)
        .channels_per_pixel(256)
        .pixels_per_column(1024);
    let e = refused(big, Im2colArg::PixelsPerColumn, &["233472"]);
    assert_eq!(
        e,
        Im2colError::BoxBytesTooLarge {
            bytes: 256 * 1024 * 8
        }
    );
    let edge = Im2colMap::new(Arch::Sm90, T::Float16, 3)
        .channels_per_pixel(112)
        .pixels_per_column(1024);
    assert_eq!(edge.check(), Ok(())); // 229,376 B
    let over = edge.channels_per_pixel(120); // 245,760 B
    refused(over, Im2colArg::PixelsPerColumn, &["245760"]);
}

/// Open values: unresolved at `try_args`, and a compile-time check of a `const`.
#[test]
fn open_values_and_const() {
    const M: Im2colMap = Im2colMap::new(Arch::Sm90, T::Bfloat16, 5)
        .channels_per_pixel(64)
        .pixels_per_column(256)
        .swizzle(S::B128)
        .expect_valid();
    let e = M.address(0).try_args().unwrap_err();
    assert_eq!(
        e,
        Im2colError::Map(TensorMapError::Unresolved {
            arg: TensorMapArg::GlobalDim(0)
        })
    );
    let mut m = M.address(0);
    for i in 0..5 {
        m = m.dim(i, [64, 8, 8, 8, 2][i as usize]);
    }
    let a = m.try_args().unwrap();
    assert_eq!(a.global_strides, [128, 1024, 8192, 65536]);
    let r = m.runtime_strides().stride(0, 128).stride(1, 1024);
    assert_eq!(
        r.try_args().unwrap_err().argument(),
        map_arg(TensorMapArg::GlobalStrides(2))
    );
    refused(
        m.dim(5, 1),
        map_arg(TensorMapArg::GlobalDim(5)),
        &["beyond"],
    );
    // core::error::Error: `?` into a boxed error
    let boxed: Box<dyn std::error::Error> = Box::new(small(2).check().unwrap_err());
    assert!(boxed.to_string().contains("tensorRank = 2"));
}
