//! `Im2colMap` against rows of the first im2col driver set (`gpu/im2col_run.sh`, an H200 with CUDA
//! driver 13.0, sm_90 context; `gpu/device-logs/2026-11-27-im2col-set1/`). Each row is quoted as
//! generated (`id dtype rank addr_off dims strides lower upper channels pixels element_strides
//! interleave swizzle l2 oob`, the CLI's format) with the driver's verdict on it, which is the
//! expected value: the driver is a source independent of the core.
//!
//! Three facts measured on those 30,000 rows (`docs/guide/host.md`, "Im2col maps against the
//! driver"): the bounding box rule with interleave bounds corner `i` by `globalDim[i]`; the driver
//! adds `globalDim + upper` in 32-bit signed arithmetic; it checks neither the documented stride
//! formula nor "interleave 32B requires swizzle 32B", which smemdesc keeps (stricter, documented).

use smemdesc_core::*;

/// A set row as a map (base address 0x7f00_0000_0000 + `addr_off`, 256-B aligned as the judge's).
fn row(line: &str) -> Im2colMap {
    let f: Vec<&str> = line.split('\t').collect();
    assert_eq!(f.len(), 15, "{line}");
    let list = |s: &str| -> Vec<i64> {
        if s == "-" {
            Vec::new()
        } else {
            s.split(',').map(|x| x.parse().unwrap()).collect()
        }
    };
    let n = |s: &str| -> u32 { s.parse().unwrap() };
    let rank = n(f[2]);
    let t = TensorMapDataType::from_value(n(f[1])).unwrap();
    let mut m = Im2colMap::new(Arch::Sm90, t, rank)
        .address(0x7f00_0000_0000 + f[3].parse::<u64>().unwrap())
        .channels_per_pixel(n(f[8]))
        .pixels_per_column(n(f[9]))
        .interleave(TensorMapInterleave::ALL[n(f[11]) as usize])
        .swizzle(TensorMapSwizzle::from_value(n(f[12])).unwrap())
        .l2_promotion(TensorMapL2Promotion::ALL[n(f[13]) as usize])
        .oob_fill(TensorMapOobFill::ALL[n(f[14]) as usize]);
    for (i, d) in list(f[4]).into_iter().enumerate() {
        m = m.dim(i as u32, d as u64);
    }
    for (i, s) in list(f[5]).into_iter().enumerate() {
        m = m.stride(i as u32, s as u64);
    }
    for (i, c) in list(f[6]).into_iter().enumerate() {
        m = m.lower(i as u32, c as i32);
    }
    for (i, c) in list(f[7]).into_iter().enumerate() {
        m = m.upper(i as u32, c as i32);
    }
    for (i, e) in list(f[10]).into_iter().enumerate() {
        m = m.element_stride(i as u32, e as u32);
    }
    m
}

/// The map of `line` with its strides left open: the stride rules are skipped (the driver does
/// not apply the one smemdesc keeps), the others judged.
fn open_strides(line: &str) -> Im2colMap {
    let mut m = row(line).runtime_strides();
    m.global_strides = [None; 4];
    m
}

fn empty_box(m: Im2colMap) -> (u32, u32) {
    match m.check() {
        Err(Im2colError::EmptyBoundingBox {
            index, dim_index, ..
        }) => (index, dim_index),
        other => panic!("expected an empty bounding box, got {other:?}"),
    }
}

/// With interleave 16B or 32B the driver bounds corner `i` by `globalDim[i]`, not by the spatial
/// `globalDim[i + 1]` (measured: the rule separates the 191 rows accepted by the first checker and
/// refused by the driver, all interleaved, from the 3,124 interleaved rows both accepted, with 0
/// exceptions; and it accepts the 84 interleaved rows the first checker called empty).
#[test]
fn interleaved_box_bounds_dim_i() {
    // r1837 accepted: W = 1, lower 1, upper 0 (1 + 0 - 1 = 0) but globalDim[0] = 240: 239
    let r1837 = "r1837\t9\t3\t32\t240,1,28\t512,544\t1\t0\t120\t64\t1,1,3\t2\t1\t0\t1";
    assert_eq!(row(r1837).check(), Ok(()));
    // r1145 refused: W = 224 leaves 1 (224 - 224 + 1) but globalDim[0] = 104: 104 - 224 + 1 < 1
    let r1145 = "r1145\t8\t3\t0\t104,224,224\t832,186368\t-1\t-224\t26\t128\t2,8,3\t2\t1\t0\t0";
    assert_eq!(empty_box(row(r1145)), (0, 0));
    // r889 refused (rank 4, interleave 32B): corner 1 on globalDim[1] = 1: 1 + -1 - 0 = 0
    let r889 = "r889\t6\t4\t0\t464,1,7,1\t928,928,6496\t1,0\t1,-1\t232\t503\t1,3,1,1\t2\t1\t1\t1";
    let e = row(r889).check().unwrap_err();
    assert_eq!(e.argument(), Im2colArg::PixelBoxUpperCorner(1));
    let msg = e.to_string();
    assert!(msg.contains("globalDim[1] = 1") && msg.contains("corner i bounds globalDim[i]"));
    // r2177 refused (interleave 16B): corner 0 on globalDim[0] = 96 is fine, corner 1 on
    // globalDim[1] = 1: 1 - 4 - 0 < 1
    let r2177 =
        "r2177\t9\t4\t0\t96,1,28,56\t192,192,5376\t1,0\t1,-4\t96\t1024\t8,2,1,1\t1\t0\t2\t0";
    assert_eq!(empty_box(row(r2177)), (1, 1));
    // without interleave the same corners bound W and H: r2177's H = 28 leaves 24, W 1 + 1 - 1
    let plain = row(r2177).interleave(TensorMapInterleave::None);
    assert_eq!(plain.check(), Ok(()));
}

/// "The bounding box specified by pixelBoxLowerCorner and pixelBoxUpperCorner must have non-zero
/// area"; the driver computes `globalDim + upper` in 32-bit signed arithmetic (measured: with the
/// sum wrapped and compared with `lower`, all 102 rows with a bounded dimension of 2^31 or 2^32
/// that pass every other rule the driver applies get its verdict, 56 refused and 46 accepted;
/// without the wrap 53 refused ones are accepted, wrapping `globalDim + upper - lower` instead
/// refuses 11 accepted ones). The rows' strides are below the dimension under them (the driver
/// does not check that, smemdesc does), so the maps are judged with their strides left open.
#[test]
fn box_sum_is_32_bit() {
    // r178 accepted: W = 2^31, upper -2: 2^31 - 2 fits, above lower -3
    let r178 = "r178\t9\t5\t0\t32,2147483648,14,1,224\t64,3584,50176,50176\t-3,-1,-16\t-2,0,15\t32\t8\t3,1,1,1,2\t0\t3\t3\t0";
    assert_eq!(open_strides(r178).check(), Ok(()));
    // r22068 accepted: W = 2^31, upper -2, lower 0
    let r22068 = "r22068\t9\t3\t0\t24,2147483648,28\t64,464\t0\t-2\t24\t128\t1,3,1\t0\t3\t3\t1";
    assert_eq!(open_strides(r22068).check(), Ok(()));
    // r28333 refused: W = 2^31, upper 1: 2^31 + 1 wraps to -2147483647, not above lower 0
    let r28333 = "r28333\t9\t5\t256\t24,2147483648,28,224,1\t64,464,13008,2913808\t0,0,-2\t1,-4,1\t24\t32\t8,1,8,8,1\t0\t3\t2\t1";
    let e = open_strides(r28333).check().unwrap_err();
    assert_eq!(e.argument(), Im2colArg::PixelBoxUpperCorner(0));
    let msg = e.to_string();
    assert!(msg.contains("2147483649 wraps to -2147483647"), "{msg}");
    // r20828 refused: W = 2^31, upper 1, lower -2
    let r20828 = "r20828\t7\t3\t0\t128,2147483648,28\t64,896\t-2\t1\t128\t1\t1,2,3\t0\t0\t2\t0";
    assert_eq!(empty_box(open_strides(r20828)), (0, 1));
    // r4311 accepted: W = 2^32, upper 32767: 2^32 + 32767 wraps to 32767, above lower -3
    let r4311 = "r4311\t0\t3\t32\t48,4294967296,7\t48,144\t-3\t32767\t48\t64\t2,1,3\t0\t3\t0\t0";
    assert_eq!(open_strides(r4311).check(), Ok(()));
    // r11248 refused: W = 2^32, upper -4 wraps to -4, not above lower 0
    let r11248 = "r11248\t0\t3\t0\t64,4294967296,14\t64,896\t0\t-4\t64\t2\t1,2,1\t0\t3\t1\t0";
    assert_eq!(empty_box(open_strides(r11248)), (0, 1));
}

/// Documented rules that driver 13.0 does not apply to im2col maps (as for tiled ones): smemdesc
/// keeps them, and these driver-accepted rows are its stricter refusals (760 and 167 in the set).
#[test]
fn stricter_documented_rules() {
    // "globalStrides[0] = globalDim[0] * elementSizeInBytes(tensorDataType) + padding[0]":
    // r44 (accepted by the driver): 432 uint32 span 1728 B, stride 864
    let r44 = "r44\t3\t3\t0\t432,1,3\t864,864\t0\t0\t216\t1\t3,1,8\t0\t0\t0\t0";
    let e = row(r44).check().unwrap_err();
    assert!(matches!(
        e,
        Im2colError::Map(TensorMapError::StrideTooSmall { index: 0, .. })
    ));
    assert_eq!(open_strides(r44).check(), Ok(()));
    // "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B":
    // r159 (accepted by the driver): interleave 32B, swizzle NONE
    let r159 = "r159\t9\t5\t0\t80,7,7,1,224\t160,1120,7840,7840\t-3,-1,-2\t1,-1,1\t40\t32\t2,2,8,3,2\t2\t0\t1\t1";
    let e = row(r159).check().unwrap_err();
    assert!(matches!(
        e,
        Im2colError::Map(TensorMapError::InterleaveSwizzle { .. })
    ));
    assert_eq!(row(r159).swizzle(TensorMapSwizzle::B32).check(), Ok(()));
}
