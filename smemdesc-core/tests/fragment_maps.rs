//! The core's closed-form fragment maps against an independent model: the PTX ISA's per-figure
//! piecewise formulas ("Matrix Fragments for mma.m16n8k4 / k8 / k16 / k32 / k64", written as the
//! ISA writes them, per element index), CuTe's `(thread, value) -> (m, k)` layouts for the sm120
//! `m16n8k64` and scale-factor atoms and for the `wgmma` accumulator (`CLayout_64xN`), and
//! exhaustive bijectivity / round-trip checks.

use smemdesc_core::fragment::*;
use smemdesc_core::ElementType as T;
use std::collections::HashSet;

/// The PTX figure formulas, one arm per figure. `(lane, i) -> (row, col)`.
fn ptx_figure(shape: &str, family: &str, op: char, lane: u32, i: u32) -> (u32, u32) {
    let g = lane >> 2; // groupID
    let t = lane % 4; // threadID_in_group
    match (op, shape, family) {
        // C/D: every m16n8 shape
        ('c', _, _) => (if i < 2 { g } else { g + 8 }, t * 2 + (i & 1)),
        // floating point f16/bf16
        ('a', "k16", "f16") => (
            if i < 2 || (4..6).contains(&i) {
                g
            } else {
                g + 8
            },
            if i < 4 {
                t * 2 + (i & 1)
            } else {
                t * 2 + (i & 1) + 8
            },
        ),
        ('b', "k16", "f16") => (
            if i < 2 {
                t * 2 + (i & 1)
            } else {
                t * 2 + (i & 1) + 8
            },
            g,
        ),
        ('a', "k8", "f16") => (if i < 2 { g } else { g + 8 }, t * 2 + (i & 1)),
        ('b', "k8", "f16") => (t * 2 + i, g),
        // tf32
        ('a', "k4", "tf32") => (if i == 0 { g } else { g + 8 }, t),
        ('b', "k4", "tf32") => (t, g),
        ('a', "k8", "tf32") => (
            if i == 0 || i == 2 { g } else { g + 8 },
            if i < 2 { t } else { t + 4 },
        ),
        ('b', "k8", "tf32") => (if i == 0 { t } else { t + 4 }, g),
        // 8-bit (integer, fp8, and f8f6f4 containers)
        ('a', "k16", "b8") => (if i < 4 { g } else { g + 8 }, t * 4 + (i & 3)),
        ('b', "k16", "b8") => (t * 4 + i, g),
        ('a', "k32", "b8") => (
            if i < 4 || (8..12).contains(&i) {
                g
            } else {
                g + 8
            },
            if i < 8 {
                t * 4 + (i & 3)
            } else {
                t * 4 + (i & 3) + 16
            },
        ),
        ('b', "k32", "b8") => (
            if i < 4 {
                t * 4 + (i & 3)
            } else {
                t * 4 + (i & 3) + 16
            },
            g,
        ),
        // packed e2m1 (mxf4, mxf4nvf4)
        ('a', "k64", "b4") => (
            if i < 8 || (16..24).contains(&i) {
                g
            } else {
                g + 8
            },
            if i < 16 {
                t * 8 + (i & 7)
            } else {
                t * 8 + (i & 7) + 32
            },
        ),
        ('b', "k64", "b4") => (
            if i < 8 {
                t * 8 + (i & 7)
            } else {
                t * 8 + (i & 7) + 32
            },
            g,
        ),
        other => panic!("no figure for {other:?}"),
    }
}

/// Every legal form, with the figure family it belongs to and the per-lane element counts the
/// ISA states (A, B).
fn forms() -> Vec<(MmaSync, &'static str, &'static str, u32, u32)> {
    use SyncArch::*;
    use SyncShape::*;
    let mut v = vec![];
    for arch in SyncArch::ALL {
        for (shape, dt, k, fam, na, nb) in [
            (M16N8K8, T::F16, "k8", "f16", 4, 2),
            (M16N8K8, T::BF16, "k8", "f16", 4, 2),
            (M16N8K16, T::F16, "k16", "f16", 8, 4),
            (M16N8K16, T::BF16, "k16", "f16", 8, 4),
            (M16N8K4, T::TF32, "k4", "tf32", 2, 1),
            (M16N8K8, T::TF32, "k8", "tf32", 4, 2),
            (M16N8K16, T::S8, "k16", "b8", 8, 4),
            (M16N8K16, T::U8, "k16", "b8", 8, 4),
            (M16N8K32, T::S8, "k32", "b8", 16, 8),
            (M16N8K32, T::U8, "k32", "b8", 16, 8),
        ] {
            v.push((MmaSync::new(arch, shape, dt).unwrap(), k, fam, na, nb));
        }
        if !matches!(arch, Sm80 | Sm86) {
            for dt in [T::E4M3, T::E5M2] {
                v.push((
                    MmaSync::new(arch, M16N8K32, dt).unwrap(),
                    "k32",
                    "b8",
                    16,
                    8,
                ));
                // PTX `.f8type` forms: `.shape = {.m16n8k16, .m16n8k32}`; the k16 figure is the
                // 8-bit one (2 A registers, 1 B register of 4 values).
                v.push((MmaSync::new(arch, M16N8K16, dt).unwrap(), "k16", "b8", 8, 4));
            }
        }
    }
    let f8f6f4 = [T::E4M3, T::E5M2, T::E3M2, T::E2M3, T::E2M1];
    for kind in [SyncKind::F8f6f4, SyncKind::Mxf8f6f4] {
        for a in f8f6f4 {
            for b in f8f6f4 {
                let m = MmaSync::with_kind(Sm120, M16N8K32, kind, a, b, None).unwrap();
                v.push((m, "k32", "b8", 16, 8));
            }
        }
    }
    for (kind, sv) in [
        (SyncKind::Mxf4, None),
        (SyncKind::Mxf4Nvf4, Some((ScaleVec::X2, ScaleType::Ue8m0))),
        (SyncKind::Mxf4Nvf4, Some((ScaleVec::X4, ScaleType::Ue4m3))),
    ] {
        let m = MmaSync::with_kind(Sm120, M16N8K64, kind, T::E2M1, T::E2M1, sv).unwrap();
        v.push((m, "k64", "b4", 32, 16));
    }
    v
}

#[test]
fn fragment_maps_match_the_ptx_figures_and_are_bijective() {
    let forms = forms();
    assert!(forms.len() > 90, "{}", forms.len());
    for (m, k, fam, na, nb) in forms {
        for (op, letter, n) in [
            (FragOperand::A, 'a', na),
            (FragOperand::B, 'b', nb),
            (FragOperand::C, 'c', 4),
        ] {
            assert_eq!(m.elems(op), n, "{m:?} {op:?}");
            let (rows, cols) = m.dims(op);
            let mut seen = HashSet::new();
            for lane in 0..32 {
                for i in 0..n {
                    let want = ptx_figure(k, fam, letter, lane, i);
                    let got = m.coord(op, lane, i).unwrap();
                    assert_eq!(got, want, "{m:?} {op:?} lane {lane} {letter}{i}");
                    assert!(got.0 < rows && got.1 < cols);
                    assert!(seen.insert(got), "{m:?} {op:?}: {got:?} twice");
                    assert_eq!(m.locate(op, got.0, got.1), Some((lane, i)));
                }
                assert_eq!(m.coord(op, lane, n), None);
            }
            assert_eq!(
                seen.len() as u32,
                rows * cols,
                "{m:?} {op:?} covers the matrix"
            );
            assert_eq!(m.locate(op, rows, 0), None);
            assert_eq!(m.locate(op, 0, cols), None);
            assert_eq!(m.coord(op, 32, 0), None);
        }
    }
}

#[test]
fn sm120_k64_maps_match_cute_layouts() {
    // CuTe mma_traits_sm120.hpp, SM120_16x8x64_TN_VS: ALayout (T32,V32) -> (M16,K64), column-major
    // (m + 16 k): thread shape (4,8):(128,1), value shape (8,2,2):(16,8,512); BLayout (T32,V16) ->
    // (N8,K64) (n + 8 k): thread (4,8):(64,1), value (8,2):(8,256).
    let m = MmaSync::with_kind(
        SyncArch::Sm120,
        SyncShape::M16N8K64,
        SyncKind::Mxf4,
        T::E2M1,
        T::E2M1,
        None,
    )
    .unwrap();
    for lane in 0..32u32 {
        let (t0, t1) = (lane % 4, lane / 4);
        for v in 0..32u32 {
            let (v0, v1, v2) = (v % 8, (v / 8) % 2, v / 16);
            let off = t0 * 128 + t1 + v0 * 16 + v1 * 8 + v2 * 512;
            assert_eq!(m.coord(FragOperand::A, lane, v), Some((off % 16, off / 16)));
        }
        for v in 0..16u32 {
            let (v0, v1) = (v % 8, v / 8);
            let off = t0 * 64 + t1 + v0 * 8 + v1 * 256;
            // (n, k) -> (row k, col n) of B
            assert_eq!(m.coord(FragOperand::B, lane, v), Some((off / 8, off % 8)));
        }
    }
}

#[test]
fn scale_factor_placement_matches_cute_and_is_bijective() {
    // CuTe SFALayout (T32,V) -> (M16,K): thread (2,2,8):(8,0,1): lane = t0 + 2 t1 + 4 t2 owns row
    // 8 t0 + t2 (t1 a broadcast mode); SFBLayout thread (4,8):(0,1): lane 4 n + t0 owns column n.
    let cases = [
        (
            SyncShape::M16N8K32,
            SyncKind::Mxf8f6f4,
            T::E4M3,
            None,
            1,
            vec![0, 1, 2, 3],
        ),
        (
            SyncShape::M16N8K64,
            SyncKind::Mxf4,
            T::E2M1,
            None,
            2,
            vec![0, 2],
        ),
        (
            SyncShape::M16N8K64,
            SyncKind::Mxf4Nvf4,
            T::E2M1,
            Some((ScaleVec::X4, ScaleType::Ue4m3)),
            4,
            vec![0],
        ),
    ];
    for (shape, kind, dt, sv, count, byte_ids) in cases {
        let m = MmaSync::with_kind(SyncArch::Sm120, shape, kind, dt, dt, sv).unwrap();
        assert_eq!(m.scale_block(), Some(shape.k() / count));
        for (op, n_idx, tids) in [(FragOperand::A, 16, 2), (FragOperand::B, 8, 4)] {
            for bid in 0..4 {
                for tid in 0..5 {
                    let sel = ScaleSelector {
                        byte_id: bid,
                        thread_id: tid,
                    };
                    let legal = byte_ids.contains(&bid) && tid < tids;
                    assert_eq!(
                        m.scale_selector_ok(op, sel),
                        Some(legal),
                        "{kind:?} {op:?} {sel:?}"
                    );
                    if !legal {
                        assert_eq!(m.scale_slot(op, 0, 0, sel), None);
                        continue;
                    }
                    let mut seen = HashSet::new();
                    for idx in 0..n_idx {
                        for v in 0..count {
                            let (lane, byte) = m.scale_slot(op, idx, v, sel).unwrap();
                            let owns = match op {
                                FragOperand::A => {
                                    8 * (lane % 2) + lane / 4 == idx && (lane / 2) % 2 == tid
                                }
                                _ => lane / 4 == idx && lane % 4 == tid,
                            };
                            assert!(owns, "{kind:?} {op:?} {idx} -> lane {lane}");
                            assert_eq!(byte, bid + v);
                            assert!(seen.insert((lane, byte)));
                            assert_eq!(m.scale_of(op, lane, byte, sel), Some((idx, v)));
                        }
                    }
                    // every other (lane, byte) is unread
                    for lane in 0..32 {
                        for byte in 0..4 {
                            if !seen.contains(&(lane, byte)) {
                                assert_eq!(m.scale_of(op, lane, byte, sel), None);
                            }
                        }
                    }
                }
            }
        }
    }
    let plain = MmaSync::new(SyncArch::Sm120, SyncShape::M16N8K32, T::E4M3).unwrap();
    assert_eq!(
        plain.scale_selector_ok(FragOperand::A, ScaleSelector::default()),
        None
    );
}

#[test]
fn wgmma_accumulator_matches_cute_clayout_64xn() {
    // CuTe CLayout_64xN: (T128,V) -> (M64,N), column-major (m + 64 n); thread (4,8,4):(128,1,16),
    // value (2,2,N/8):(64,8,512).
    for n in (8..=256).step_by(8) {
        let d = WgmmaAccum::new(n).unwrap();
        let mut seen = HashSet::new();
        for thr in 0..128u32 {
            let (t0, t1, t2) = (thr % 4, (thr / 4) % 8, thr / 32);
            for v in 0..n / 2 {
                let (v0, v1, v2) = (v % 2, (v / 2) % 2, v / 4);
                let off = t0 * 128 + t1 + t2 * 16 + v0 * 64 + v1 * 8 + v2 * 512;
                let want = (off % 64, off / 64);
                assert_eq!(d.coord(thr, v), Some(want), "N={n} thread {thr} d{v}");
                assert!(seen.insert(want));
                assert_eq!(d.locate(want.0, want.1), Some((thr, v)));
            }
            assert_eq!(d.coord(thr, n / 2), None);
        }
        assert_eq!(seen.len() as u32, 64 * n);
        assert_eq!(d.locate(64, 0), None);
    }
    for bad in [0, 4, 12, 264] {
        assert!(WgmmaAccum::new(bad).is_none());
    }
}

#[test]
fn illegal_forms_name_the_legal_ones() {
    use SyncArch::*;
    use SyncShape::*;
    // per-arch: fp8 needs sm89
    for arch in [Sm80, Sm86] {
        for shape in [M16N8K16, M16N8K32] {
            let e = MmaSync::new(arch, shape, T::E5M2).unwrap_err();
            assert!(matches!(e, FragError::IllegalArch { .. }), "{e}");
            assert!(e.to_string().contains("sm89"));
        }
    }
    // shape/type
    for (shape, dt) in [
        (M16N8K4, T::F16),
        (M16N8K16, T::TF32),
        (M16N8K32, T::BF16),
        (M16N8K64, T::E2M1),
        (M16N8K16, T::E2M1),
        (M16N8K8, T::F32),
    ] {
        let e = MmaSync::new(Sm120, shape, dt).unwrap_err();
        assert!(
            matches!(e, FragError::IllegalType { .. }),
            "{shape:?} {dt:?}"
        );
        assert!(e.to_string().contains("legal: m16n8k4: tf32"), "{e}");
    }
    // kinds are sm120-only
    for arch in [Sm80, Sm89, Sm90] {
        for (kind, shape, dt) in [
            (SyncKind::F8f6f4, M16N8K32, T::E4M3),
            (SyncKind::Mxf8f6f4, M16N8K32, T::E2M1),
            (SyncKind::Mxf4, M16N8K64, T::E2M1),
        ] {
            let e = MmaSync::with_kind(arch, shape, kind, dt, dt, None).unwrap_err();
            assert_eq!(
                e,
                FragError::IllegalArch {
                    arch,
                    needs: "sm120 (sm_120a)"
                }
            );
        }
    }
    // scale vectors (PTX Table "Valid combinations of .scale_vec_size and .kind qualifier")
    let x = |k, s| {
        MmaSync::with_kind(
            Sm120,
            if matches!(k, SyncKind::Mxf8f6f4) {
                M16N8K32
            } else {
                M16N8K64
            },
            k,
            if matches!(k, SyncKind::Mxf8f6f4) {
                T::E4M3
            } else {
                T::E2M1
            },
            if matches!(k, SyncKind::Mxf8f6f4) {
                T::E4M3
            } else {
                T::E2M1
            },
            s,
        )
    };
    use ScaleType::*;
    use ScaleVec::*;
    assert!(x(SyncKind::Mxf8f6f4, Some((X1, Ue8m0))).is_ok());
    assert!(x(SyncKind::Mxf8f6f4, Some((X2, Ue8m0))).is_err());
    assert!(x(SyncKind::Mxf8f6f4, Some((X1, Ue4m3))).is_err());
    assert!(x(SyncKind::Mxf4, Some((X2, Ue8m0))).is_ok());
    assert!(x(SyncKind::Mxf4, Some((X4, Ue8m0))).is_err());
    assert!(x(SyncKind::Mxf4Nvf4, None).is_err());
    assert!(x(SyncKind::Mxf4Nvf4, Some((X2, Ue8m0))).is_ok());
    // The PTX ISA's table lists ue8m0 with 4X for mxf4nvf4, but ptxas -arch=sm_120a (CUDA 13.0,
    // gpu/fragments/device_log_run1.txt) rejects it: "Illegal modifier '.scale_vec::4X' for
    // instruction 'mma' with type '.ue8m0'". smemdesc follows the assembler.
    assert!(x(SyncKind::Mxf4Nvf4, Some((X4, Ue8m0))).is_err());
    assert!(x(SyncKind::Mxf4Nvf4, Some((X4, Ue4m3))).is_ok());
    assert!(x(SyncKind::Mxf4Nvf4, Some((X2, Ue4m3))).is_err());
    assert_eq!(x(SyncKind::Mxf4, None).unwrap().scale, Some((X2, Ue8m0)));
    assert_eq!(
        x(SyncKind::Mxf8f6f4, None).unwrap().scale,
        Some((X1, Ue8m0))
    );
    // mixing families
    assert!(MmaSync::with_kind(Sm80, M16N8K32, SyncKind::Plain, T::S8, T::U8, None).is_ok());
    assert!(MmaSync::with_kind(Sm89, M16N8K32, SyncKind::Plain, T::E4M3, T::E5M2, None).is_ok());
    assert!(MmaSync::with_kind(Sm89, M16N8K32, SyncKind::Plain, T::E4M3, T::S8, None).is_err());
    assert!(MmaSync::with_kind(Sm80, M16N8K16, SyncKind::Plain, T::F16, T::BF16, None).is_err());
}
