//! Host tests (no GPU) of the attention and convolution plans: every launch number written out
//! from the shape arithmetic and the kernels' documented launch (`attn_entries.rs`: one CTA per
//! 128-row query tile; `attn_ns.rs`: 256 threads; the harness `gpu/src/bin/rust_kernels/attn.rs`
//! and `conv.rs`: its grids), the shared memory summed from the tiles' sizes and checked against
//! the recorded `launch_bytes` of `gpu/results_attention.json`.

use crate::attention::attention_tensor_maps;
use crate::attn_decl::{d128, d64};
use crate::conv::conv_tensor_maps;
use crate::{
    attention_plan, conv2d_fprop_plan, AttentionShape, Conv2d, Dim, Error, ShapeError,
    ATTN_D128_CAUSAL_KERNEL, ATTN_D128_CAUSAL_LONG_KERNEL, ATTN_D128_CAUSAL_LONG_SEQLEN,
    ATTN_D128_KERNEL, ATTN_D128_ODD_KERNEL, ATTN_D64_CAUSAL_KERNEL, ATTN_D64_KERNEL,
};
use smemdesc::{TensorMapDataType, TensorMapSwizzle};

const H100_SMS: u32 = 132;
/// Clusters of two 197,732-byte CTAs an H100 holds at once if every SM pairs up (one CTA per
/// SM: the plan's input, the driver's number on the device).
const CL2_RESIDENT: u32 = H100_SMS / 2;

/// `"launch_bytes"` of `head_dim` in the `info` block of `gpu/results_attention.json` (the
/// harness's description of the recorded run).
fn recorded_launch_bytes(head_dim: &str) -> u32 {
    let j = include_str!("../../gpu/results_attention.json");
    let at = j.find("\"info\"").expect("info block");
    let at = at + j[at..].find(&format!("\"{head_dim}\"")).expect("head dim");
    let at = at + j[at..].find("\"launch_bytes\": ").expect("launch_bytes") + 16;
    j[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Field `key` of the record `record` in `gpu/results_attention.json`: its value's text up to
/// the next `,` or line end, without quotes (the first such field after the record's key).
fn record_field(record: &str, key: &str) -> &'static str {
    let j = include_str!("../../gpu/results_attention.json");
    let at = j.find(&format!("\"{record}\"")).expect("the record");
    let key = format!("\"{key}\": ");
    let from = at + j[at..].find(&key).expect("the field") + key.len();
    let end = from + j[from..].find([',', '\n']).unwrap();
    j[from..end].trim_matches('"')
}

/// The entry the record `issue47_pending_2026_12_07` of `gpu/results_attention.json` names as
/// d = 128 causal's best (`"best_variant": "ours_p_lpt (NAME)"`).
fn recorded_d128_causal_best() -> &'static str {
    let v = record_field("issue47_pending_2026_12_07", "best_variant");
    let (_, name) = v.split_once('(').expect("(NAME)");
    name.trim_end_matches(')')
}

/// The entry the record `issue47_afternoon_2026_12_07` of `gpu/results_attention.json` finds
/// ahead in every run at its long sequence length, and that length.
fn recorded_d128_causal_long() -> (&'static str, u32) {
    let record = "issue47_afternoon_2026_12_07";
    (
        record_field(record, "long_best_kernel"),
        record_field(record, "long_seqlen").parse().unwrap(),
    )
}

#[test]
fn attention_long_causal_kernel_is_the_recorded_one() {
    assert_eq!(
        recorded_d128_causal_long(),
        (ATTN_D128_CAUSAL_LONG_KERNEL, ATTN_D128_CAUSAL_LONG_SEQLEN)
    );
}

#[test]
fn attention_kernel_per_shape_is_the_recorded_one() {
    // gpu/results_attention.json's configs: "variant 8 -> 10" (d64, both masks), "-> 15" (d128
    // non-causal, seqlen 2048..16384: an even number of 128-row tiles); d128 causal: the best
    // variant of the issue-47 record (16 x 32 x 2048, two runs).
    let pick = |b, h, s, d, causal| {
        attention_plan(
            AttentionShape::new(b, h, s, d),
            causal,
            H100_SMS,
            CL2_RESIDENT,
        )
        .unwrap()
        .kernel
    };
    assert_eq!(
        recorded_d128_causal_best(),
        "attn_fwd_d128_causal_p_lpt_rust"
    );
    assert_eq!(ATTN_D128_CAUSAL_KERNEL, recorded_d128_causal_best());
    assert_eq!(pick(16, 32, 2048, 128, true), ATTN_D128_CAUSAL_KERNEL);
    assert_eq!(pick(8, 16, 4096, 64, false), ATTN_D64_KERNEL);
    assert_eq!(pick(8, 16, 4096, 64, true), ATTN_D64_CAUSAL_KERNEL);
    assert_eq!(pick(16, 32, 2048, 128, false), ATTN_D128_KERNEL);
    // From 16,384 keys the one-tile-per-CTA overlapped kernel (three runs on an H100).
    assert_eq!(pick(4, 16, 8192, 128, true), ATTN_D128_CAUSAL_KERNEL);
    assert_eq!(pick(2, 16, 16384, 128, true), ATTN_D128_CAUSAL_LONG_KERNEL);
    // 384 keys: 3 query tiles a head, no pairs for the 2x1 cluster (the harness's fallback).
    assert_eq!(pick(1, 2, 384, 128, false), ATTN_D128_ODD_KERNEL);
    assert_eq!(pick(1, 2, 384, 128, true), ATTN_D128_CAUSAL_KERNEL);
}

#[test]
fn attention_grid_block_cluster() {
    let plan = |b, h, s, d, causal, sms, resident| {
        attention_plan(AttentionShape::new(b, h, s, d), causal, sms, resident).unwrap()
    };
    // One CTA per query tile: batch · heads · seqlen / 128.
    let p = plan(4, 16, 8192, 64, true, H100_SMS, CL2_RESIDENT);
    assert_eq!(p.tiles, 4 * 16 * 64);
    assert_eq!(p.grid, (4096, 1, 1));
    assert_eq!((p.block, p.cluster, p.sched_param), ((256, 1, 1), 1, false));
    let p = plan(1, 2, 384, 128, false, H100_SMS, CL2_RESIDENT);
    assert_eq!((p.tiles, p.grid.0, p.block.0, p.cluster), (6, 6, 384, 1));
    assert!(!p.sched_param && !p.multicast);
    // Persistent in clusters of 2: every resident cluster's CTAs, at most one per tile.
    let p = plan(8, 16, 4096, 128, false, H100_SMS, CL2_RESIDENT);
    assert_eq!((p.tiles, p.grid.0, p.cluster), (4096, 132, 2));
    assert!(p.multicast && p.sched_param);
    let p = plan(8, 16, 4096, 128, false, H100_SMS, 60);
    assert_eq!(p.grid.0, 120);
    let p = plan(1, 2, 256, 128, false, H100_SMS, CL2_RESIDENT);
    assert_eq!((p.tiles, p.grid.0), (4, 4));
    // A driver answering 0 still gets one cluster, not an empty grid.
    let p = plan(1, 2, 256, 128, false, H100_SMS, 0);
    assert_eq!(p.grid.0, 2);
    // The grid of a clustered launch is whole clusters, whatever the SM count.
    for s in [256, 512, 2048, 4096] {
        for r in [1, 7, 66] {
            let p = plan(3, 5, s, 128, false, 131, r);
            assert_eq!(p.grid.0 % 2, 0, "seqlen {s}, {r} clusters");
        }
    }
}

#[test]
fn attention_causal_d128_is_persistent_one_cta_per_sm() {
    // The entry's contract (attn_entries.rs, `persistent` / `experiment` with PERSIST: any grid,
    // `nctaid` CTAs share the tiles, one CTA per SM the intent) and the harness's grid
    // (rust_kernels/attn.rs: `tiles.min(sms)`): grid = min(b · h · s / 128, SMs), no cluster,
    // 384 threads, the `sched` parameter.
    let plan = |b, h, s, sms, resident| {
        attention_plan(AttentionShape::new(b, h, s, 128), true, sms, resident).unwrap()
    };
    // 16 x 32 x 2048: 16 · 32 · 16 = 8192 tiles on 132 SMs.
    let p = plan(16, 32, 2048, H100_SMS, CL2_RESIDENT);
    assert_eq!(p.kernel, ATTN_D128_CAUSAL_KERNEL);
    assert_eq!((p.tiles, p.grid, p.block), (8192, (132, 1, 1), (384, 1, 1)));
    assert_eq!((p.cluster, p.multicast, p.sched_param), (1, false, true));
    // 18 heads of 8 tiles: 144 tiles, more than the SMs: 132 CTAs, the other 12 tiles taken
    // from the schedule.
    assert_eq!(plan(1, 18, 1024, H100_SMS, CL2_RESIDENT).grid.0, 132);
    // Fewer tiles than SMs: one CTA per tile (2 · 3 · 8 = 48; 1 · 2 · 3 = 6).
    assert_eq!(plan(2, 3, 1024, H100_SMS, CL2_RESIDENT).grid.0, 48);
    assert_eq!(plan(1, 2, 384, H100_SMS, CL2_RESIDENT).grid.0, 6);
    // The SM count caps it (114: an H100 PCIe), the cluster count does not enter.
    assert_eq!(plan(16, 32, 2048, 114, CL2_RESIDENT).grid.0, 114);
    assert_eq!(
        plan(16, 32, 2048, H100_SMS, 1),
        plan(16, 32, 2048, H100_SMS, 66)
    );
    // A device reporting no SM still gets one CTA, which walks every tile.
    assert_eq!(plan(1, 2, 384, 0, 0).grid.0, 1);
    // The same storage as every d = 128 kernel.
    let nc = attention_plan(AttentionShape::new(1, 2, 384, 128), false, H100_SMS, 1).unwrap();
    assert_eq!(p.shared_mem_bytes, nc.shared_mem_bytes);
}

/// Shared memory: Q (one stage), K and V (two stages each), two consumers' O tiles (one stage
/// at d64, two at d128), 14 mbarriers of 8 bytes (Q full/empty, and full/empty of K+V, K, V
/// for two stages), the schedule's `u32`, and 1008 bytes to align the 1024-byte swizzle atom
/// from a 16-byte dynamic base.
#[test]
fn attention_shared_memory_from_the_sizes() {
    let sizes = |d: u32, o_stages: u32| {
        let q = 128 * d * 2;
        let kv = 2 * 128 * d * 2;
        let o = 2 * o_stages * 64 * 64 * 2;
        q + 2 * kv + o + 14 * 8 + 4 + (1024 - 16)
    };
    let p64 = attention_plan(AttentionShape::new(1, 1, 128, 64), false, H100_SMS, 1).unwrap();
    let p128 = attention_plan(AttentionShape::new(1, 1, 128, 128), true, H100_SMS, 1).unwrap();
    assert_eq!(p64.shared_mem_bytes, sizes(64, 1));
    assert_eq!(p128.shared_mem_bytes, sizes(128, 2));
    assert_eq!(p64.shared_mem_bytes, recorded_launch_bytes("d64"));
    assert_eq!(p128.shared_mem_bytes, recorded_launch_bytes("d128"));
    // Two d64 CTAs fit an SM (the `_ns_` kernel's point), one d128 CTA.
    assert!(2 * p64.shared_mem_bytes <= 228 * 1024);
    assert!(p128.shared_mem_bytes <= 227 * 1024);
}

#[test]
fn attention_refusals() {
    let plan = |b, h, s, d| attention_plan(AttentionShape::new(b, h, s, d), false, H100_SMS, 1);
    assert_eq!(
        plan(1, 2, 200, 64),
        Err(ShapeError::NotMultiple {
            dim: Dim::SeqLen,
            value: 200,
            multiple: 128
        })
    );
    assert_eq!(
        plan(1, 2, 256, 96),
        Err(ShapeError::Unsupported {
            dim: Dim::HeadDim,
            value: 96,
            supported: &[64, 128]
        })
    );
    assert_eq!(
        plan(0, 2, 256, 64),
        Err(ShapeError::Zero { dim: Dim::Batch })
    );
    assert_eq!(
        plan(1, 0, 256, 64),
        Err(ShapeError::Zero { dim: Dim::Heads })
    );
    assert_eq!(
        plan(1, 2, 0, 64),
        Err(ShapeError::Zero { dim: Dim::SeqLen })
    );
    // 2^31 rows of Q: past a TMA coordinate.
    assert!(matches!(
        plan(1 << 10, 1 << 10, 1 << 11, 64),
        Err(ShapeError::TooLarge {
            dim: Dim::SeqLen,
            ..
        })
    ));
    assert!(plan(1 << 10, 1 << 10, 1 << 10, 64).is_ok()); // 2^30 rows
}

/// The maps: `[head_dim, b·h·s]` bf16 with 128B swizzle, boxes of 64 elements (128 bytes) by
/// 128 rows (the recorded `tma_box`), O's 64 x 64 box; in the 2x1 cluster K's and V's boxes
/// are half a block each (each CTA loads half and multicasts it).
#[test]
fn attention_maps() {
    let rows = 2 * 3 * 256;
    for (maps, hd) in [
        (attention_tensor_maps::<d64::Decl>(rows, false), 64u64),
        (attention_tensor_maps::<d128::Decl>(rows, false), 128),
    ] {
        for m in &maps[..3] {
            let a = m.address(0x1000).try_args().unwrap();
            assert_eq!(&a.global_dim[..2], &[hd, rows][..]);
            assert_eq!(a.global_strides[0], hd * 2);
            assert_eq!(&a.box_dim[..2], &[64, 128][..]);
            assert_eq!(
                (a.data_type, a.swizzle),
                (TensorMapDataType::Bfloat16, TensorMapSwizzle::B128)
            );
        }
        let o = maps[3].address(0x1000).try_args().unwrap();
        assert_eq!(&o.global_dim[..2], &[hd, rows][..]);
        assert_eq!(&o.box_dim[..2], &[64, 64][..]);
    }
    let cl = attention_tensor_maps::<d128::Decl>(rows, true);
    for m in &cl[1..3] {
        let a = m.address(0x1000).try_args().unwrap();
        assert_eq!(a.box_dim[0] * a.box_dim[1], 64 * 128 / 2);
        assert_eq!(&a.global_dim[..2], &[128, rows][..]);
    }
    let q = cl[0].address(0x1000).try_args().unwrap();
    assert_eq!(&q.box_dim[..2], &[64, 128][..]); // Q is not shared
}

#[test]
fn conv_plan_from_the_convolution() {
    // conv4_x 3x3 256 -> 256 at 14 x 14, pad 1, batch 256: P = Q = 14, M = 256 · 196 = 50176
    // pixels = 392 tiles of 128, one column of 256 filters.
    let c = Conv2d::new(256, 14, 14, 256, 256, 3, 3).pad(1, 1);
    let p = conv2d_fprop_plan(c, H100_SMS).unwrap();
    assert_eq!((p.output, p.m, p.tile), ((14, 14), 50_176, (128, 256)));
    assert_eq!((p.tiles, p.grid, p.block), (392, (132, 1, 1), (384, 1, 1)));
    // The storage is the dense GEMM's 1x1 declaration: 4 stages of A (128 x 64) and B
    // (256 x 64) bf16, two consumers' two-stage 64 x 64 C tiles, 8 mbarriers, 1008 of slack.
    let smem = 4 * 128 * 64 * 2 + 4 * 256 * 64 * 2 + 2 * 2 * 64 * 64 * 2 + 8 * 8 + 1008;
    assert_eq!(p.shared_mem_bytes, smem);
    // The walk: BM 128, 128 pixels per load of 64 channels (128 bytes), P·Q 196, Q 14,
    // strides 1, pads 1, dilations 1, C 256, S 3, BK 64, 4 channel blocks, 3·3·256/64 = 36
    // K-steps, 392 M-blocks.
    assert_eq!(
        p.walk_words(),
        [128, 128, 128, 196, 14, 1, 1, 1, 1, 1, 1, 256, 3, 64, 4, 36, 392]
    );
    // Stride 2 at 28 x 28: P = Q = (28 + 2 - 2 - 1) / 2 + 1 = 14; 64 images: 12544 pixels,
    // 98 M-blocks x 2 filter columns (512 filters).
    let c = Conv2d::new(64, 28, 28, 128, 512, 3, 3)
        .stride(2, 2)
        .pad(1, 1);
    let p = conv2d_fprop_plan(c, H100_SMS).unwrap();
    assert_eq!(
        (p.output, p.m, p.tiles, p.grid.0),
        ((14, 14), 12_544, 196, 132)
    );
    assert_eq!(
        (p.walk.stride, p.walk.c_blocks, p.walk.k_steps),
        ([2, 2], 2, 18)
    );
    // Fewer tiles than SMs: one CTA per tile. 3 x 7 x 7 = 147 pixels: 2 M-blocks (the second
    // clipped by the TMA store).
    let c = Conv2d::new(3, 7, 7, 64, 256, 3, 3).pad(1, 1);
    let p = conv2d_fprop_plan(c, H100_SMS).unwrap();
    assert_eq!((p.m, p.tiles, p.grid.0), (147, 2, 2));
    assert_eq!(p.lengths(&c), (3 * 49 * 64, 256 * 9 * 64, 147 * 256));
    // A device reporting no SMs: one CTA.
    assert_eq!(conv2d_fprop_plan(c, 0).unwrap().grid.0, 1);
}

#[test]
fn conv_maps() {
    let c = Conv2d::new(2, 9, 9, 128, 256, 3, 3).pad(1, 1);
    let p = conv2d_fprop_plan(c, H100_SMS).unwrap();
    let (a, b, y) = conv_tensor_maps(c, p.m).unwrap();
    let a = a.address(0x1000).try_args().unwrap();
    // NHWC innermost first: [C, W, H, N]; 64 channels x 128 pixels per load; corners -pad and
    // pad - (R - 1) (PTX ISA, im2col mode).
    assert_eq!(&a.global_dim[..4], &[128, 9, 9, 2][..]);
    assert_eq!((a.channels_per_pixel, a.pixels_per_column), (64, 128));
    assert_eq!(
        (&a.lower_corner[..2], &a.upper_corner[..2]),
        (&[-1, -1][..], &[-1, -1][..])
    );
    assert_eq!(a.swizzle, TensorMapSwizzle::B128);
    // The filter as a K-major `K_out x R·S·C` matrix: [1152, 256], boxes of 64 x 256 in all.
    let b = b.address(0x1000).try_args().unwrap();
    assert_eq!(&b.global_dim[..2], &[3 * 3 * 128, 256][..]);
    assert_eq!(b.box_dim[0], 64);
    // Y: [K_out, N·P·Q], the C tile's 64 x 64 box.
    let y = y.address(0x1000).try_args().unwrap();
    assert_eq!(&y.global_dim[..2], &[256, 2 * 81][..]);
    assert_eq!(&y.box_dim[..2], &[64, 64][..]);
}

#[test]
fn conv_refusals() {
    use smemdesc::tma::ConvError;
    let e = conv2d_fprop_plan(Conv2d::new(1, 8, 8, 64, 128, 3, 3), H100_SMS).unwrap_err();
    assert!(matches!(
        e,
        Error::Shape(ShapeError::NotMultiple {
            dim: Dim::Filters,
            value: 128,
            multiple: 256
        })
    ));
    let e = conv2d_fprop_plan(Conv2d::new(1, 8, 8, 48, 256, 3, 3), H100_SMS).unwrap_err();
    assert!(matches!(
        e,
        Error::Conv(ConvError::Channels { c: 48, bk: 64 })
    ));
    let e = conv2d_fprop_plan(Conv2d::new(1, 8, 8, 64, 0, 3, 3), H100_SMS).unwrap_err();
    assert!(matches!(e, Error::Conv(ConvError::Zero { .. })));
    // A stride above the tensor map's element strides (8).
    let big = Conv2d::new(1, 64, 64, 64, 256, 1, 1).stride(9, 9);
    assert!(matches!(
        conv2d_fprop_plan(big, H100_SMS).unwrap_err(),
        Error::Conv(ConvError::Stride { stride: 9, .. })
    ));
    // A 2x2 filter on a 1x1 image without padding: no output.
    let e = conv2d_fprop_plan(Conv2d::new(1, 1, 1, 64, 256, 2, 2), H100_SMS).unwrap_err();
    assert!(matches!(e, Error::Conv(ConvError::EmptyOutput { .. })));
}
