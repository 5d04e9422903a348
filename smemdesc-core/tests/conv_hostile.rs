//! Hostile convolution parameters (issue 42, items 6 and 7): every limit comes from the PTX ISA or
//! the CUDA driver documentation, and every count is exact or refused, never wrapped.

use smemdesc_core::tma::{Conv2d, ConvError, ImplicitGemmA, Spatial};
use smemdesc_core::{Im2colError, TensorMapDataType as T};

/// PTX ISA, "Tensors", im2col mode, "Bounding Box": a rank-4 load's im2col offsets are in
/// [0, 2^8 - 1]. Pad 128 with dilation·(R − 1) = 256 keeps both corners at −128 (legal), so only
/// the offset rule refuses it.
#[test]
fn a_rank4_offset_of_256_is_refused_and_255_is_planned() {
    let c = Conv2d::new(1, 64, 64, 64, 64, 3, 3)
        .pad(128, 128)
        .dilation(128, 1);
    assert_eq!(c.corners(), ([-128, -128], [126, -128]));
    let e = ImplicitGemmA::new(c, T::Bfloat16, 128, 64).unwrap_err();
    assert_eq!(
        e,
        ConvError::Offset {
            dim: Spatial::H,
            value: 256
        }
    );
    assert!(e.to_string().contains("0..=255"), "{e}");
    assert!(e.to_string().contains("PTX ISA"), "{e}");
    // The same along W (dilation·(S − 1) = 2·128).
    let c = Conv2d::new(1, 64, 64, 64, 64, 1, 3)
        .pad(0, 128)
        .dilation(1, 128);
    assert_eq!(
        ImplicitGemmA::new(c, T::Bfloat16, 128, 64).unwrap_err(),
        ConvError::Offset {
            dim: Spatial::W,
            value: 256
        }
    );
    // 255 = 51·(6 − 1) is the largest legal offset: planned, and the last tap's load carries it.
    let c = Conv2d::new(1, 64, 64, 64, 64, 6, 1)
        .pad(128, 0)
        .dilation(51, 1);
    let a = ImplicitGemmA::new(c, T::Bfloat16, 128, 64).unwrap();
    assert_eq!(a.load(0, a.k_steps() - 1, 0).unwrap().offsets, [0, 255]);
}

/// CUDA driver API, `cuTensorMapEncodeIm2col`: every global stride is below 2^40. A 2^30-wide
/// image of 1024 bf16 channels has a dense H stride of 2^30 · 2048 B = 2^41.
#[test]
fn a_plan_whose_map_is_illegal_is_refused() {
    let c = Conv2d::new(1, 1, 1 << 30, 1024, 64, 1, 1);
    match ImplicitGemmA::new(c, T::Bfloat16, 128, 64) {
        Err(ConvError::Map {
            error: Im2colError::Map(_),
        }) => {}
        other => panic!("expected the map's stride error, got {other:?}"),
    }
}

/// Strides and dilations are checked one by one: 65536 · 65536 is 2^32, which a `u32` product
/// wrapped to zero. `(8 − 1) / 65536 + 1 = 1` output row and column.
#[test]
fn strides_and_dilations_of_65536_are_exact() {
    let c = Conv2d::new(1, 8, 8, 8, 8, 1, 1).stride(65536, 65536);
    assert_eq!(c.output(), Ok((1, 1)));
    let c = Conv2d::new(1, 8, 8, 8, 8, 1, 1).dilation(65536, 65536);
    assert_eq!(c.output(), Ok((8, 8))); // a 1x1 filter: the dilation does not reach
    let c = Conv2d::new(1, 8, 8, 8, 8, 2, 2).dilation(65536, 65536);
    assert_eq!(c.output(), Err(ConvError::EmptyOutput { dim: Spatial::H }));
    // A zero among them is still found.
    let c = Conv2d::new(1, 8, 8, 8, 8, 1, 1).stride(65536, 0);
    assert_eq!(c.output(), Err(ConvError::Zero { what: "a stride" }));
}

/// Q = (2^32 − 1 + 2·(2^32 − 1) − 1) / 1 + 1 = 3·2^32 − 3 does not fit the `u32` output size.
#[test]
fn an_output_beyond_u32_is_refused() {
    let c = Conv2d::new(1, 8, u32::MAX, 8, 8, 1, 1).pad(0, u32::MAX);
    assert_eq!(
        c.output(),
        Err(ConvError::Overflow {
            what: "the output width Q"
        })
    );
}

/// 2 · 2^20 · 2^20 · 2^20 · 2^10 · 2^10 = 2^81 FLOPs: beyond u64.
#[test]
fn flops_beyond_u64_are_refused() {
    let c = Conv2d::new(1 << 20, 1 << 20, 1 << 20, 1 << 10, 1 << 10, 1, 1);
    assert!(matches!(c.flops(), Err(ConvError::Overflow { .. })));
    assert_eq!(Conv2d::new(1, 4, 4, 8, 8, 3, 3).flops(), Ok(2 * 4 * 8 * 72));
}

/// K-steps R·S·C/BK = 256 · 256 · 2^16 = 2^32 do not fit the `u32` count; M = N·P·Q =
/// 2^10 · 2^30 · 2^30 = 2^70 does not fit `u64`.
#[test]
fn k_steps_and_m_beyond_their_types_are_refused() {
    // 256 taps need dilation·(R − 1) = 255 and pad 127 (upper corner 127 − 255 = −128).
    let c = Conv2d::new(1, 2, 2, 1 << 20, 8, 256, 256).pad(127, 127);
    assert_eq!(c.output(), Ok((1, 1)));
    assert!(matches!(
        ImplicitGemmA::new(c, T::Float16, 64, 16),
        Err(ConvError::Overflow { what }) if what.contains("K-steps")
    ));
    let c = Conv2d::new(1 << 10, 1 << 30, 1 << 30, 16, 8, 1, 1);
    assert!(matches!(
        ImplicitGemmA::new(c, T::Float16, 64, 16),
        Err(ConvError::Overflow { what }) if what.contains("N*P*Q")
    ));
}
