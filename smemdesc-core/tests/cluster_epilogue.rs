//! The cluster multicast plan and the epilogue C tile against independent models:
//!
//! * a simulation of a cluster's TMA issues, box slice by box slice, with the TMA's own
//!   addressing (a K-major 128B-swizzled box: row r of the box at `r · 128` B, the 16-B chunk
//!   index XOR'd with `r mod 8`), checking that every CTA receives every byte of its tile exactly
//!   once, at the element the whole-box load would have put there, and that each CTA's
//!   `expect_tx` equals the bytes that arrive at it;
//! * an `stmatrix` emulator (the PTX ISA's m8n8 fragment: thread `t` holds row `t / 4`, columns
//!   `2(t mod 4)`, `+1` of each matrix; `.trans` stores the transpose) fed with the wgmma
//!   accumulator map and the planned lane addresses, checked against the TMA store's view of the
//!   tile (a formula written here) for every element of a 64 × N accumulator;
//! * the bank model's verdicts against a hand count for plain (unswizzled) 128-B rows.

use smemdesc_core::cluster::*;
use smemdesc_core::epilogue::*;
use smemdesc_core::fragment::WgmmaAccum;
use smemdesc_core::*;

/// The TMA's placement of element (row, kbyte) of a K-major box of 128-B rows with 128B
/// swizzle, from the box's SMEM start (1024-B aligned).
fn tma_sw128(row: u32, kbyte: u32) -> u32 {
    let chunk = (kbyte / 16) ^ (row % 8);
    row * 128 + chunk * 16 + kbyte % 16
}

fn tile(mn: u32, k: u32) -> TileLayout {
    TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, mn, k)
        .swizzle(SwizzleMode::B128)
        .build()
        .unwrap()
}

/// Per CTA: SMEM byte offset -> (source tile row, source K byte) written there.
type CtaSmem = std::collections::HashMap<u32, (u32, u32)>;

/// Simulates every CTA's issues for one stage: returns per CTA the map byte offset -> (source
/// tile row, source k byte) written, and the bytes arriving at each CTA's barrier.
fn simulate(c: Cluster, op: Operand, t: &TileLayout) -> (Vec<CtaSmem>, Vec<u32>) {
    let m = c.multicast(op, t, None).unwrap();
    let n = c.size() as usize;
    let mut smem = vec![std::collections::HashMap::new(); n];
    let mut arrived = vec![0u32; n];
    let [inner, rows] = m.slice_box_dim();
    for rank in 0..c.size() {
        for b in 0..m.slices() {
            let (mn0, k0) = m.slice_coord(rank, b);
            let dst = m.slice_offset(rank, b);
            // the TMA writes the slice box as its own 128B-swizzled box starting at dst
            assert_eq!(dst % 1024, 0, "slice start must keep the swizzle phase");
            let mask = m.cta_mask(rank);
            for r in 0..c.size() {
                if mask & (1 << r) == 0 {
                    continue;
                }
                for row in 0..rows {
                    for kb in 0..inner * 2 {
                        let at = dst + tma_sw128(row, kb);
                        let prev = smem[r as usize].insert(at, (mn0 + row, k0 * 2 + kb));
                        assert!(prev.is_none(), "byte {at} of CTA {r} written twice");
                        arrived[r as usize] += 1;
                    }
                }
            }
        }
    }
    (smem, arrived)
}

#[test]
fn multicast_delivers_the_whole_tile_to_every_cta() {
    let shapes = [
        (1, 2),
        (2, 1),
        (2, 2),
        (1, 4),
        (4, 1),
        (2, 4),
        (4, 2),
        (8, 1),
        (1, 8),
    ];
    for (x, y) in shapes {
        let c = Cluster::new(x, y).unwrap();
        for (op, t) in [
            (Operand::A, tile(128, 64)),
            (Operand::B, tile(256, 128)),
            (Operand::A, tile(128, 128)),
        ] {
            let m = match c.multicast(op, &t, None) {
                Ok(m) => m,
                Err(e) => {
                    // only legal refusals: the count must not cut whole 8-row atoms
                    let plan = TmaPlan::new(&t, None).unwrap();
                    let cnt = if matches!(op, Operand::A) { y } else { x };
                    assert!(plan.box_rows % (8 * cnt) != 0, "{e}");
                    continue;
                }
            };
            let (smem, arrived) = simulate(c, op, &t);
            let plan = TmaPlan::new(&t, None).unwrap();
            for r in 0..c.size() as usize {
                // exactly the tile's bytes, each where a whole-box load puts it
                assert_eq!(
                    smem[r].len() as u32,
                    t.stage_bytes(),
                    "CTA {r} of ({x},{y}) {op:?}"
                );
                assert_eq!(arrived[r], m.expect_tx(), "expect_tx of CTA {r}");
                for b in 0..plan.boxes {
                    let (mn0, k0) = plan.box_coord(b);
                    let base = plan.box_offset(&t, b);
                    for row in (0..plan.box_rows).step_by(7) {
                        for kb in (0..plan.box_inner * 2).step_by(5) {
                            let at = base + tma_sw128(row, kb);
                            assert_eq!(smem[r][&at], (mn0 + row, k0 * 2 + kb));
                        }
                    }
                }
            }
            // CTAs that share a tile have the same operand coordinate; the mask is symmetric
            for r in 0..c.size() {
                for p in 0..c.size() {
                    let (ri, rj) = c.coords(r);
                    let (pi, pj) = c.coords(p);
                    let same = if matches!(op, Operand::A) {
                        ri == pi
                    } else {
                        rj == pj
                    };
                    assert_eq!(m.cta_mask(r) & (1 << p) != 0, same);
                }
            }
        }
    }
}

#[test]
fn cluster_legality() {
    assert!(matches!(
        Cluster::new(3, 3),
        Err(ClusterError::TooLarge {
            ctas: 9,
            max: 8,
            ..
        })
    ));
    assert!(Cluster::non_portable(3, 3).is_ok());
    assert!(matches!(
        Cluster::non_portable(4, 5),
        Err(ClusterError::TooLarge { max: 16, .. })
    ));
    assert!(matches!(Cluster::new(0, 1), Err(ClusterError::Empty)));
    // 128-row A box among 3 CTAs: not whole; 64-row box among 16: 4 rows, not a whole atom
    let e = Cluster::new(1, 3)
        .unwrap()
        .multicast(Operand::A, &tile(128, 64), None)
        .unwrap_err();
    let s = e.to_string();
    assert!(s.contains("1, 2, 4, 8, 16"), "{s}");
    let e = Cluster::non_portable(1, 16)
        .unwrap()
        .multicast(Operand::A, &tile(64, 64), None)
        .unwrap_err();
    assert!(
        e.to_string().contains("legal multicast counts: 1, 2, 4, 8"),
        "{e}"
    );
}

/// Cluster sizes per arch: 8 portable CTAs everywhere (CUDA C++ Programming Guide, "Thread Block
/// Clusters"), 16 non-portable on H100 (same section); sm100/sm100f/sm103 keep sm90's 16 (no
/// per-arch public number); sm110/sm120/sm121 have no public non-portable number: refused.
#[test]
fn cluster_sizes_per_arch() {
    use smemdesc_core::Arch;
    for arch in [
        Arch::Sm90,
        Arch::Sm100,
        Arch::Sm100f,
        Arch::Sm103,
        Arch::Sm110,
        Arch::Sm120,
        Arch::Sm121,
    ] {
        assert!(
            Cluster::for_arch(arch, 2, 4, false).is_ok(),
            "{}",
            arch.name()
        );
        let e = Cluster::for_arch(arch, 3, 3, false).unwrap_err();
        assert!(
            matches!(
                e,
                ClusterError::TooLarge {
                    ctas: 9,
                    max: 8,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(e.rule().id, "cluster.portable-8");
    }
    let e = Cluster::for_arch(Arch::Sm90, 17, 1, true).unwrap_err();
    assert_eq!(e.rule().id, "cluster.non-portable-16-sm90");
    assert!(Cluster::for_arch(Arch::Sm90, 4, 4, true).is_ok());
    // The Programming Guide's 16 non-portable CTAs are the H100's; no public source gives the
    // Blackwell arches' number, so over 8 is refused there as unsourced (rule
    // cluster.non-portable-unsourced), as on sm110 and sm120/121.
    for arch in [
        Arch::Sm100,
        Arch::Sm100f,
        Arch::Sm103,
        Arch::Sm110,
        Arch::Sm120,
        Arch::Sm121,
    ] {
        assert!(Cluster::for_arch(arch, 2, 4, true).is_ok());
        let e = Cluster::for_arch(arch, 3, 3, true).unwrap_err();
        assert_eq!(e, ClusterError::Unsourced { arch, ctas: 9 });
        assert!(e.to_string().contains("no public source"), "{e}");
        assert!(
            e.to_string()
                .contains("[rule cluster.non-portable-unsourced; "),
            "{e}"
        );
        let portable = Cluster::for_arch(arch, 3, 3, false)
            .unwrap_err()
            .to_string();
        assert!(
            portable.contains("no public source gives a non-portable size"),
            "{portable}"
        );
    }
    let e = Cluster::for_arch(Arch::Sm107, 2, 1, false).unwrap_err();
    assert_eq!(e.rule().id, "arch.no-public-limits");
}

#[test]
fn cta_pair_splits() {
    let p = CtaPair::new(256, 128).unwrap();
    // the two CTAs' A halves and B halves tile M and N exactly
    let mut a = [0u32; 256];
    let mut b = [0u32; 128];
    for rank in 0..2 {
        for r in 0..p.a_rows() {
            a[(p.a_row0(rank) + r) as usize] += 1;
        }
        for r in 0..p.b_rows() {
            b[(p.b_row0(rank) + r) as usize] += 1;
        }
    }
    assert!(a.iter().all(|&v| v == 1) && b.iter().all(|&v| v == 1));
    // mxf8: 128 B of K per row, 4 B of scale factors per row (K = 128 / 32 per row)
    assert_eq!(p.cta_bytes(128, 4, 4), (128 + 64) * 128 + 128 * 4 + 128 * 4);
    assert!(CtaPair::new(192, 128).is_err() && CtaPair::new(128, 8).is_err());
}

/// The TMA store's view: element (row, col) of a `rows × row_elems` box set of 16-bit values
/// cut into atom columns of `w` bytes (w = 128, 64, 32 swizzled; 0 = plain rows).
fn tma_store_offset(rows: u32, row_bytes: u32, w: u32, row: u32, byte: u32) -> u32 {
    if w == 0 {
        return row * row_bytes + byte;
    }
    let col = byte / w;
    let within = row * w + byte % w; // offset inside the atom column
    let period_bits = match w {
        128 => 3,
        64 => 2,
        _ => 1,
    };
    let chunk = (within >> 4) & 0x7;
    let line = (within >> 7) & ((1 << period_bits) - 1);
    let swizzled = (within & !0x70) | (((chunk ^ line) & 0x7) << 4);
    col * rows * w + swizzled
}

#[test]
fn stmatrix_emulation_places_every_accumulator_element() {
    for (n, wn, trans, num) in [
        (64, 256, false, 4),
        (32, 128, false, 2),
        (64, 64, true, 4),
        (16, 64, false, 1),
        (128, 128, true, 2),
    ] {
        let major = if trans { CMajor::M } else { CMajor::N };
        let e = EpilogueSpec::new(CType::BF16, 64, n, wn)
            .major(major)
            .writer(EpiWriter::Stmatrix { num, trans })
            .build()
            .unwrap();
        let acc = WgmmaAccum::new(wn).unwrap();
        let l = e.layout();
        let w = if e.swizzle().is_swizzled() {
            e.swizzle().atom_width()
        } else {
            0
        };
        for chunk in 0..e.chunks() {
            let mut seen = std::collections::HashSet::new();
            for warp in 0..4 {
                for i in 0..e.instructions() {
                    for q in 0..num {
                        let p = e.pair(chunk, i, q);
                        for t in 0..32u32 {
                            // stmatrix fragment: thread t holds row t/4, cols 2(t%4)+{0,1} of matrix q
                            let (mr, mc) = (t / 4, 2 * (t % 4));
                            // the row address of (stored) row sr comes from lane 8q + sr
                            for v in 0..2 {
                                let (sr, sc) = if trans { (mc + v, mr) } else { (mr, mc + v) };
                                let addr = e.writer_offset(0, warp, i, 8 * q + sr) + 2 * sc;
                                let (row, col) = acc.coord(32 * warp + t, 2 * p + v).unwrap();
                                let col_in = col - chunk * n;
                                assert!(col_in < n);
                                let want = if trans {
                                    tma_store_offset(l.rows, l.row_bytes, w, col_in, 2 * row)
                                } else {
                                    tma_store_offset(l.rows, l.row_bytes, w, row, 2 * col_in)
                                };
                                assert_eq!(
                                    addr, want,
                                    "n{n} chunk {chunk} warp {warp} instr {i} q {q} t {t} v {v}"
                                );
                                assert!(seen.insert(addr));
                            }
                        }
                    }
                }
            }
            assert_eq!(
                seen.len() as u32,
                64 * n,
                "every element of the chunk written once"
            );
        }
        // the tile's TMA boxes cover it exactly, in the store's formula
        let [inner, rows] = e.tma_box_dim();
        let mut covered = 0;
        for b in 0..e.tma_boxes() {
            let (off, (c0, r0)) = e.tma_box(b);
            assert_eq!(off, tma_store_offset(l.rows, l.row_bytes, w, r0, 2 * c0));
            covered += inner * rows;
        }
        assert_eq!(covered, 64 * n);
    }
}

#[test]
fn writer_conflicts_against_hand_counts() {
    // plain 128-B rows: stmatrix's 8 row addresses of a matrix are 128 B apart: all in the same
    // 4 banks -> 8-way
    let e = EpilogueSpec::new(CType::BF16, 64, 64, 64)
        .swizzle(SwizzleMode::None)
        .build();
    match e {
        Err(EpiError::Conflict { report, legal, .. }) => {
            assert_eq!(report.degree, 8);
            assert_ne!(legal & (1 << 3), 0, "128B is conflict-free");
        }
        other => panic!("{other:?}"),
    }
    // st.shared.b32 of bf16 pairs: lanes t/4 rows at 128-B pitch, 4 lanes per row: with 128B
    // swizzle the 8 rows' chunks differ -> conflict-free, without it 8-way
    let s = EpilogueSpec::new(CType::BF16, 64, 64, 64).writer(EpiWriter::StShared { bytes: 4 });
    assert_eq!(s.build().unwrap().swizzle(), SwizzleMode::B128);
    assert!(matches!(
        s.swizzle(SwizzleMode::None).build(),
        Err(EpiError::Conflict { .. })
    ));
    // 32-bit C written with st.shared.v2 (8 B): 64 columns = 256-B rows
    let f = EpilogueSpec::new(CType::F32, 64, 64, 64).writer(EpiWriter::StShared { bytes: 8 });
    assert!(f.build().unwrap().writer_report(0, 0, 0).is_conflict_free());
    assert!(matches!(
        f.writer(EpiWriter::StShared { bytes: 16 }).build(),
        Err(EpiError::StWidth { legal: 8, .. })
    ));
    // the TMA store's swizzle must agree
    let m = EpilogueSpec::new(CType::BF16, 64, 64, 64)
        .tma_swizzle(SwizzleMode::B64)
        .build();
    assert_eq!(
        m,
        Err(EpiError::SwizzleMismatch {
            tile: SwizzleMode::B128,
            map: SwizzleMode::B64
        })
    );
    // the tensor map passes the loads' checks
    let t = EpilogueSpec::new(CType::BF16, 64, 64, 256).expect_valid();
    assert!(t
        .tensor_map(Arch::Sm90, 8192, 8192)
        .address(0)
        .check()
        .is_ok());
}
