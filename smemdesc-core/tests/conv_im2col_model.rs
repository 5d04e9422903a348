//! The implicit-GEMM A tile of `ImplicitGemmA` against an independent model.
//!
//! The naive side builds the im2col matrix `A[m][k]` straight from the convolution's definition
//! (`m = (n·P + p)·Q + q`, `k = (r·S + s)·C + c`, input `(p·stride − pad + r·dilation, …)`, zero
//! outside the image, zero rows past `M`). The TMA side knows nothing of convolutions: it
//! emulates each planned `cp.async.bulk.tensor.4d.im2col` from the map the plan gives (dims,
//! corners, element strides, pixels per column, channels per pixel) and the load's coordinates
//! and offsets, walking pixels as the PTX ISA's im2col mode describes: from the coordinates, W by
//! the W element stride; past `W − 1 + upper_w` to the next row (H + its stride) at `lower_w`;
//! past `H − 1 + upper_h` to the next image at `lower_h`; each pixel read at `+ offsets`, out of
//! the tensor = zero (OOB fill NONE). Every (M-block, K-step) tile must equal the naive block.

use smemdesc_core::tma::{Conv2d, ConvError, Im2colLoad, ImplicitGemmA, Spatial};
use smemdesc_core::{Arch, Im2colMap, TensorMapDataType as T};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// NHWC input with distinct non-zero values.
fn input(c: &Conv2d) -> Vec<i64> {
    let len = (c.n * c.h * c.w * c.c) as usize;
    (0..len as i64).map(|i| i * 7 + 3).collect()
}

fn at(c: &Conv2d, x: &[i64], n: i64, h: i64, w: i64, ch: i64) -> i64 {
    if n < 0 || h < 0 || w < 0 || n >= c.n as i64 || h >= c.h as i64 || w >= c.w as i64 {
        return 0;
    }
    x[(((n * c.h as i64 + h) * c.w as i64 + w) * c.c as i64 + ch) as usize]
}

/// The im2col matrix, `rows` rows (zero past M), from the conv definition.
fn naive_a(c: &Conv2d, x: &[i64], rows: usize) -> Vec<Vec<i64>> {
    let (sh, sw) = c.stride;
    let p = (c.h + 2 * c.pad.0 - c.dilation.0 * (c.r - 1) - 1) / sh + 1;
    let q = (c.w + 2 * c.pad.1 - c.dilation.1 * (c.s - 1) - 1) / sw + 1;
    let m_total = (c.n * p * q) as usize;
    let k_total = (c.r * c.s * c.c) as usize;
    let mut a = vec![vec![0i64; k_total]; rows];
    for (m, row) in a.iter_mut().enumerate().take(m_total) {
        let (n, op, oq) = (
            m / (p * q) as usize,
            (m / q as usize) % p as usize,
            m % q as usize,
        );
        for r in 0..c.r as usize {
            for s in 0..c.s as usize {
                for ch in 0..c.c as usize {
                    let ih = (op * sh as usize + r * c.dilation.0 as usize) as i64 - c.pad.0 as i64;
                    let iw = (oq * sw as usize + s * c.dilation.1 as usize) as i64 - c.pad.1 as i64;
                    row[(r * c.s as usize + s) * c.c as usize + ch] =
                        at(c, x, n as i64, ih, iw, ch as i64);
                }
            }
        }
    }
    a
}

/// How the emulated load walks; the faithful one and two wrong ones (negative controls).
#[derive(Clone, Copy, PartialEq)]
enum Walk {
    Ptx,
    SwappedOffsets,
    NoWrap,
}

/// One im2col load emulated from the map and the instruction's operands: `pixels × channels`.
fn emulate(c: &Conv2d, x: &[i64], map: &Im2colMap, l: &Im2colLoad, walk: Walk) -> Vec<Vec<i64>> {
    let dim = |i: usize| map.global_dim[i].unwrap() as i64;
    let (w_dim, h_dim) = (dim(1), dim(2));
    let (lw, lh) = (map.lower_corner[0] as i64, map.lower_corner[1] as i64);
    let (uw, uh) = (
        w_dim - 1 + map.upper_corner[0] as i64,
        h_dim - 1 + map.upper_corner[1] as i64,
    );
    let (ew, eh) = (map.element_strides[1] as i64, map.element_strides[2] as i64);
    let (mut ow, mut oh) = (l.offsets[0] as i64, l.offsets[1] as i64);
    if walk == Walk::SwappedOffsets {
        (ow, oh) = (oh, ow);
    }
    let [c0, mut w, mut h, mut n] = l.coords.map(|v| v as i64);
    let mut out = Vec::new();
    for _ in 0..map.pixels_per_column {
        let px = (0..map.channels_per_pixel as i64)
            .map(|ch| at(c, x, n, h + oh, w + ow, c0 + ch))
            .collect();
        out.push(px);
        w += ew;
        if w > uw && walk != Walk::NoWrap {
            w = lw;
            h += eh;
            if h > uh {
                h = lh;
                n += 1;
            }
        }
    }
    out
}

/// Checks every (M-block, K-step) tile of `a` against the naive matrix; returns the number of
/// mismatching tiles.
fn check(a: &ImplicitGemmA, walk: Walk) -> usize {
    let c = &a.conv;
    let x = input(c);
    let map = a.map(Arch::Sm90);
    assert_eq!(map.check(), Ok(()), "the implied map must be legal");
    let (bm, bk) = (a.bm as usize, a.bk as usize);
    let rows = a.m_blocks() as usize * bm;
    let naive = naive_a(c, &x, rows);
    assert_eq!(naive.first().map_or(0, Vec::len) as u64, a.gemm_k());
    let eb = (T::Float32.box_bits() / 8) as usize;
    let mut bad = 0;
    for mb in 0..a.m_blocks() {
        for kk in 0..a.k_steps() {
            let ks = a.k_step(kk).unwrap();
            assert_eq!(ks.k0, kk as u64 * bk as u64, "K order (r, s, c-block)");
            let mut tile = vec![vec![None; bk]; bm];
            let mut bytes = 0;
            for j in 0..a.loads_per_step() {
                let l = a.load(mb, kk, j).unwrap();
                assert_eq!(l.byte_offset as usize, l.first_row as usize * bk * eb);
                assert_eq!(l.bytes as usize, l.rows as usize * bk * eb);
                bytes += l.bytes;
                for (i, px) in emulate(c, &x, &map, &l, walk).into_iter().enumerate() {
                    let row = &mut tile[l.first_row as usize + i];
                    for (col, v) in px.into_iter().enumerate() {
                        assert!(row[col].is_none(), "two loads fill one element");
                        row[col] = Some(v);
                    }
                }
            }
            assert_eq!(bytes, a.tile_bytes());
            let m0 = mb as usize * bm;
            let k0 = kk as usize * bk;
            let same = (0..bm).all(|i| (0..bk).all(|j| tile[i][j] == Some(naive[m0 + i][k0 + j])));
            bad += usize::from(!same);
        }
    }
    bad
}

fn plan(c: Conv2d, bm: u32, bk: u32, pixels: u32) -> ImplicitGemmA {
    ImplicitGemmA::new(c, T::Float32, bm, bk)
        .unwrap()
        .pixels_per_load(pixels)
        .unwrap()
}

#[test]
fn named_cases_match() {
    let cases = [
        // 3x3, stride 2, padding 1, dilation 2
        Conv2d::new(2, 11, 9, 8, 4, 3, 3)
            .stride(2, 2)
            .pad(1, 1)
            .dilation(2, 2),
        // 3x3 same padding
        Conv2d::new(2, 7, 6, 8, 4, 3, 3).pad(1, 1),
        // 3x3 stride 2 padding 1 (ResNet downsampling)
        Conv2d::new(3, 8, 8, 4, 4, 3, 3).stride(2, 2).pad(1, 1),
        // 1x1 stride 1 and stride 2
        Conv2d::new(2, 5, 7, 8, 4, 1, 1),
        Conv2d::new(2, 9, 9, 8, 4, 1, 1).stride(2, 2),
        // mixed per-dimension settings, non-square filter
        Conv2d::new(2, 10, 13, 4, 4, 3, 5)
            .stride(1, 2)
            .pad(2, 1)
            .dilation(2, 1),
    ];
    for c in cases {
        for (bm, pixels) in [(16, 16), (32, 8), (8, 8)] {
            let a = plan(c, bm, 4, pixels);
            assert_eq!(check(&a, Walk::Ptx), 0, "{c:?} bm {bm} pixels {pixels}");
        }
    }
}

#[test]
fn random_problems_match() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut planned = 0;
    let mut empty = 0;
    for _ in 0..300 {
        let taps = [1, 1, 3, 3, 2, 5];
        let bk = [4u32, 8, 16][rng.below(3) as usize];
        let c = Conv2d::new(
            1 + rng.below(3) as u32,
            1 + rng.below(12) as u32,
            1 + rng.below(12) as u32,
            bk * (1 + rng.below(2) as u32),
            4,
            taps[rng.below(6) as usize],
            taps[rng.below(6) as usize],
        )
        .stride(1 + rng.below(3) as u32, 1 + rng.below(3) as u32)
        .pad(rng.below(3) as u32, rng.below(3) as u32)
        .dilation(1 + rng.below(3) as u32, 1 + rng.below(3) as u32);
        let bm = [8u32, 16, 32][rng.below(3) as usize];
        let pixels = bm >> rng.below(3);
        match ImplicitGemmA::new(c, T::Float32, bm, bk) {
            Ok(a) => {
                let a = a.pixels_per_load(pixels).unwrap();
                assert_eq!(
                    check(&a, Walk::Ptx),
                    0,
                    "{c:?} bm {bm} bk {bk} pixels {pixels}"
                );
                planned += 1;
            }
            Err(ConvError::EmptyOutput { .. }) => empty += 1,
            Err(e) => panic!("{c:?}: {e}"),
        }
    }
    assert!(planned >= 150, "{planned} planned, {empty} empty");
}

#[test]
fn negative_controls_mismatch() {
    // a wrong offset order (H first) reads the transposed tap
    let c = Conv2d::new(2, 11, 9, 8, 4, 3, 3)
        .stride(2, 2)
        .pad(1, 1)
        .dilation(2, 2);
    let a = plan(c, 16, 4, 16);
    assert!(check(&a, Walk::SwappedOffsets) > 0);
    // a walk that does not wrap to the next row misreads every tile crossing a row
    assert!(check(&a, Walk::NoWrap) > 0);
    // and the faithful walk on the same plan matches
    assert_eq!(check(&a, Walk::Ptx), 0);
}

#[test]
fn refusals() {
    let c = Conv2d::new(1, 8, 8, 12, 4, 3, 3).pad(1, 1);
    assert_eq!(
        ImplicitGemmA::new(c, T::Float32, 16, 8).unwrap_err(),
        ConvError::Channels { c: 12, bk: 8 }
    );
    // dilation·(R − 1) beyond 16 bits
    let big = Conv2d::new(1, 8, 140_000, 8, 4, 1, 3)
        .pad(0, 127)
        .dilation(1, 40_000);
    assert_eq!(
        ImplicitGemmA::new(big, T::Float32, 16, 8).unwrap_err(),
        ConvError::Corner {
            dim: Spatial::W,
            value: 127 - 80_000,
            upper: true
        }
    );
    // padding beyond the rank-4 corner range
    let pad = Conv2d::new(1, 8, 8, 8, 4, 1, 1).pad(0, 129);
    assert_eq!(
        ImplicitGemmA::new(pad, T::Float32, 16, 8).unwrap_err(),
        ConvError::Corner {
            dim: Spatial::W,
            value: -129,
            upper: false
        }
    );
    let st = Conv2d::new(1, 64, 64, 8, 4, 1, 1).stride(1, 9);
    assert_eq!(
        ImplicitGemmA::new(st, T::Float32, 16, 8).unwrap_err(),
        ConvError::Stride {
            dim: Spatial::W,
            stride: 9
        }
    );
    assert_eq!(
        ImplicitGemmA::new(c, T::Float32, 2048, 4).unwrap_err(),
        ConvError::PixelsPerColumn {
            bm: 2048,
            pixels: 2048
        }
    );
    assert_eq!(
        ImplicitGemmA::new(c, T::Float32, 16, 0).unwrap_err(),
        ConvError::ChannelsPerPixel { bk: 0 }
    );
    assert!(matches!(
        Conv2d::new(1, 8, 0, 8, 4, 1, 1).output(),
        Err(ConvError::Zero { what: "W" })
    ));
    let a = ImplicitGemmA::new(c, T::Float32, 16, 4).unwrap();
    assert!(matches!(
        a.load(a.m_blocks(), 0, 0),
        Err(ConvError::Index {
            what: "M-block",
            ..
        })
    ));
    assert!(matches!(
        a.load(0, a.k_steps(), 0),
        Err(ConvError::Index { what: "K-step", .. })
    ));
    assert!(matches!(
        a.load(0, 0, 1),
        Err(ConvError::Index { what: "load", .. })
    ));
    let boxed: Box<dyn std::error::Error> = Box::new(ConvError::Stride {
        dim: Spatial::H,
        stride: 9,
    });
    assert!(boxed.to_string().contains("1..=8"));
}
