//! `ImplicitGemmA::for_tile` / `check_tile` against an independent placement model.
//!
//! The model knows nothing of tile layouts: load `j` of a K-step writes its `pixels` rows of `BK`
//! elements one after the other from byte `j · pixels · BK · eb`, and the TMA swizzle of span
//! `S` bytes then XORs the 16-B chunk index (bits 4.. of the byte address, `log2(S / 16)` bits)
//! with the 128-B row index within the repeat (bits 7..), the `Swizzle<B, 4, 3>` of the CUDA
//! driver's swizzle modes (base 1,024-B aligned). Every element `(m, k)` of an accepted tile must
//! land where the tile's own layout (`TileLayout::access().offset`, bit-exact with CuTe) says
//! it is; a model without the swizzle must disagree (the check can fail).

use smemdesc_core::tma::{Conv2d, ConvError, FillMismatch, ImplicitGemmA};
use smemdesc_core::*;

/// The byte where the im2col loads put pixel row `m`, channel `k` (model above).
fn model_byte(a: &ImplicitGemmA, m: u32, k: u32, span: u32) -> u32 {
    let eb = a.data_type.box_bits() / 8;
    let (j, i) = (m / a.pixels, m % a.pixels);
    let linear = j * a.pixels * a.bk * eb + i * a.bk * eb + k * eb;
    if span <= 16 {
        return linear;
    }
    let bits = (span / 16).trailing_zeros();
    let mask = (1 << bits) - 1;
    linear ^ (((linear >> 7) & mask) << 4)
}

fn span_of(s: TensorMapSwizzle) -> u32 {
    match s {
        TensorMapSwizzle::None => 0,
        TensorMapSwizzle::B32 => 32,
        TensorMapSwizzle::B64 => 64,
        TensorMapSwizzle::B128 => 128,
        other => panic!("not an sm90 swizzle: {other:?}"),
    }
}

fn tile(dt: ElementType, mn: u32, k: u32, sw: Option<SwizzleMode>) -> TilePlan {
    let mut d = TileDecl::new(Arch::Sm90, Operand::A, dt, Major::K, mn, k);
    if let Some(s) = sw {
        d = d.swizzle(s);
    }
    d.expect_valid()
}

#[test]
fn accepted_tiles_are_filled_where_their_layout_says() {
    let conv = |c| Conv2d::new(2, 9, 9, c, 64, 3, 3).pad(1, 1);
    let cases = [
        (ElementType::BF16, 128, 64, None, 128),
        (ElementType::BF16, 256, 64, None, 128),
        (ElementType::BF16, 64, 32, Some(SwizzleMode::B64), 64),
        (ElementType::F16, 128, 16, Some(SwizzleMode::B32), 32),
        (ElementType::E4M3, 128, 128, None, 128),
        (ElementType::TF32, 64, 32, None, 128),
    ];
    for (dt, mn, k, sw, span) in cases {
        let t = tile(dt, mn, k, sw);
        let a = ImplicitGemmA::for_tile(conv(4 * k), &t)
            .unwrap_or_else(|e| panic!("{dt:?} {mn}x{k}: {e}"));
        assert_eq!(span_of(a.swizzle), span, "{dt:?} {mn}x{k}");
        assert_eq!(
            a.tile_bytes(),
            a.loads_per_step() * a.pixels * k * dt.smem_bytes()
        );
        assert!(a.map(Arch::Sm90).check().is_ok(), "{dt:?} {mn}x{k}");
        let acc = t.tile.access();
        let (mut plain_differs, eb) = (false, dt.smem_bytes());
        for m in 0..mn {
            for kk in 0..k {
                let want = acc.offset(m, kk);
                assert_eq!(
                    model_byte(&a, m, kk, span),
                    want,
                    "{dt:?} {mn}x{k} ({m}, {kk})"
                );
                plain_differs |= model_byte(&a, m, kk, 0) != want;
                // Each load's first row and bytes, as the plan reports them.
                if kk == 0 && m % a.pixels == 0 {
                    let l = a.load(0, 0, m / a.pixels).unwrap();
                    assert_eq!((l.first_row, l.byte_offset), (m, m * k * eb));
                }
            }
        }
        assert_eq!(
            plain_differs,
            span > 16,
            "{dt:?} {mn}x{k}: the negative control"
        );
    }
}

#[test]
fn refused_tiles_name_what_differs() {
    let conv = Conv2d::new(1, 8, 8, 128, 64, 1, 1);
    let tile_err = |m| ConvError::Tile { mismatch: m };
    let err = |m| Err::<ImplicitGemmA, _>(tile_err(m));
    let cerr = |m| Err::<(), _>(tile_err(m));
    let mn =
        TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::Mn, 64, 64).expect_valid();
    assert_eq!(ImplicitGemmA::for_tile(conv, &mn), err(FillMismatch::Major));
    // Two 64-element K boxes per row: one load of 128 channels cannot write them.
    let wide = tile(ElementType::BF16, 128, 128, None);
    assert_eq!(wide.tma.box_inner, 64);
    assert_eq!(
        ImplicitGemmA::for_tile(conv, &wide),
        err(FillMismatch::Channels)
    );
    // No swizzle: the canonical K-major layout is 8-row x 16-B core matrices, written by boxes
    // 16 B wide, not rows of all the channels.
    let plain = tile(ElementType::BF16, 64, 16, Some(SwizzleMode::None));
    assert_eq!(plain.tma.box_inner, 8);
    assert_eq!(
        ImplicitGemmA::for_tile(conv, &plain),
        err(FillMismatch::Channels)
    );
    let t = tile(ElementType::BF16, 128, 64, None);
    let bf = ImplicitGemmA::new(conv, TensorMapDataType::Bfloat16, 128, 64).unwrap();
    let sw = TensorMapSwizzle::B128;
    assert_eq!(bf.swizzle(sw).check_tile(&t), Ok(()));
    assert_eq!(bf.check_tile(&t), cerr(FillMismatch::Swizzle));
    assert_eq!(
        bf.swizzle(TensorMapSwizzle::B64).check_tile(&t),
        cerr(FillMismatch::Swizzle)
    );
    let f16 = ImplicitGemmA::new(conv, TensorMapDataType::Float16, 128, 64).unwrap();
    assert_eq!(f16.swizzle(sw).check_tile(&t), cerr(FillMismatch::DataType));
    let rows = ImplicitGemmA::new(conv, TensorMapDataType::Bfloat16, 64, 64).unwrap();
    assert_eq!(rows.swizzle(sw).check_tile(&t), cerr(FillMismatch::Rows));
    let split = bf.pixels_per_load(64).unwrap().swizzle(sw);
    assert_eq!(split.check_tile(&t), cerr(FillMismatch::Boxes));
    // A conv whose channels the tile's K extent does not divide: the plan's own error.
    let c96 = Conv2d::new(1, 8, 8, 96, 64, 1, 1);
    assert_eq!(
        ImplicitGemmA::for_tile(c96, &t),
        Err(ConvError::Channels { c: 96, bk: 64 })
    );
    assert!(tile_err(FillMismatch::Boxes)
        .to_string()
        .contains("stacked densely"));
}

#[test]
fn filter_map_reads_krsc_in_the_a_tile_k_order() {
    // B[n][k] at the filter's (n, r, s, c) with k = (r·S + s)·C + c: the dense K-major matrix
    // [K_out, R·S·C], so K-step kk's first column is its KStep::k0 = kk·BK.
    let conv = Conv2d::new(2, 10, 10, 192, 320, 3, 5)
        .stride(2, 1)
        .pad(1, 2);
    let t = tile(ElementType::BF16, 128, 64, None);
    let a = ImplicitGemmA::for_tile(conv, &t).unwrap();
    let b =
        TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 256, 64).expect_valid();
    let m = a.filter_map(&b).unwrap().address(1 << 20);
    let args = m.try_args().unwrap();
    assert_eq!((args.global_dim[0], args.global_dim[1]), (3 * 5 * 192, 320));
    assert_eq!(args.global_strides[0], 3 * 5 * 192 * 2);
    assert_eq!((args.box_dim[0], args.box_dim[1]), (64, 256));
    for kk in 0..a.k_steps() {
        let s = a.k_step(kk).unwrap();
        let filter_col = (s.r * conv.s + s.s) * conv.c + s.c0;
        assert_eq!(s.k0, filter_col as u64);
        assert_eq!(s.k0, (kk * 64) as u64);
    }
    let fp8 = TileDecl::new(
        Arch::Sm90,
        Operand::B,
        ElementType::E4M3,
        Major::K,
        256,
        128,
    )
    .expect_valid();
    assert_eq!(
        a.filter_map(&fp8).unwrap_err(),
        ConvError::Tile {
            mismatch: FillMismatch::DataType
        }
    );
    assert_eq!(conv.flops(), Ok(2 * 2 * 5 * 10 * 320 * 3 * 5 * 192));
}

#[test]
fn the_kernel_walk_gives_every_load_the_plan_gives() {
    // Random convolutions (strides, padding, dilation, odd sizes, several loads per step): the
    // 32-bit walk a producer runs equals the checked 64-bit plan, load for load.
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u32| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % n as u64) as u32
    };
    let mut checked = 0;
    for _ in 0..300 {
        let (r, sw) = (1 + next(4), 1 + next(4));
        let bk = [8, 16, 32, 64][next(4) as usize];
        let conv = Conv2d::new(
            1 + next(3),
            1 + next(20),
            1 + next(20),
            bk * (1 + next(3)),
            8,
            r,
            sw,
        )
        .stride(1 + next(3), 1 + next(3))
        .pad(next(3), next(3))
        .dilation(1 + next(2), 1 + next(2));
        let bm = [16, 32, 64, 128][next(4) as usize];
        let Ok(plan) = ImplicitGemmA::new(conv, TensorMapDataType::Float16, bm, bk) else {
            continue;
        };
        let plan = plan.pixels_per_load(bm >> next(3)).unwrap();
        let w = plan.walk().unwrap();
        assert_eq!(
            (w.m_blocks as u64, w.k_steps),
            (plan.m_blocks(), plan.k_steps())
        );
        for mb in 0..w.m_blocks {
            for kk in 0..w.k_steps {
                let st = w.step(kk);
                assert_eq!(st, plan.k_step(kk).unwrap());
                for j in 0..w.loads_per_step() {
                    let got = w.load(w.origin(mb, j), j, &st);
                    assert_eq!(
                        got,
                        plan.load(mb as u64, kk, j).unwrap(),
                        "{conv:?} {mb} {kk} {j}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}
