//! The bank-conflict model against a separately written set-counting simulator (random and
//! structured lane addresses, every access kind), known cases, and the `ldmatrix` tile planner
//! against an emulation of `ldmatrix` (PTX "Warp-level matrix load instruction: ldmatrix":
//! thread `l` receives bytes `4·(l % 4) …` of row `l / 4` of each matrix; with `.trans`, element
//! `e` of row `2·(l % 4) + e`, column `l / 4`) over a tile filled through an independent layout
//! formula.

use smemdesc_core::fragment::*;
use smemdesc_core::{ElementType as T, Major, SwizzleMode};
use std::collections::{HashMap, HashSet};

/// Wavefronts per the textbook rule: split the warp into phases, and in each phase count, per
/// bank, the set of distinct 32-bit words; the phase costs the largest set.
fn simulate(lanes_per_phase: usize, bytes: u32, addrs: &[u32]) -> u32 {
    addrs
        .chunks(lanes_per_phase)
        .map(|phase| {
            let mut per_bank: HashMap<u32, HashSet<u32>> = HashMap::new();
            for &a in phase {
                let start = a - a % bytes;
                for byte in (start..start + bytes).step_by(4) {
                    per_bank
                        .entry((byte >> 2) & 31)
                        .or_default()
                        .insert(byte >> 2);
                }
            }
            per_bank.values().map(HashSet::len).max().unwrap_or(1) as u32
        })
        .sum()
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
}

#[test]
fn model_matches_the_simulator() {
    let mut rng = Lcg(7);
    let kinds = [
        (WarpAccess::Vector { bytes: 4 }, 32usize, 4u32, 32usize),
        (WarpAccess::Vector { bytes: 8 }, 16, 8, 32),
        (WarpAccess::Vector { bytes: 16 }, 8, 16, 32),
        (
            WarpAccess::Matrix {
                num: 1,
                store: false,
            },
            8,
            16,
            8,
        ),
        (
            WarpAccess::Matrix {
                num: 2,
                store: true,
            },
            8,
            16,
            16,
        ),
        (
            WarpAccess::Matrix {
                num: 4,
                store: false,
            },
            8,
            16,
            32,
        ),
    ];
    let mut nonzero = 0;
    for (access, per, bytes, used) in kinds {
        for case in 0..3000 {
            // mixes: random in a small window (many conflicts and broadcasts), strided, random
            let stride = [4, 8, 16, 32, 64, 128, 136, 256][case % 8];
            let addrs: [u32; 32] = std::array::from_fn(|l| {
                let a = match case % 3 {
                    0 => rng.next() % 1024,
                    1 => l as u32 * stride + (rng.next() % 4) * 512,
                    _ => rng.next() % 65536,
                };
                a - a % bytes
            });
            let got = bank_report(access, &addrs);
            let want = simulate(per, bytes, &addrs[..used]);
            assert_eq!(got.wavefronts, want, "{access:?} {addrs:?}");
            assert_eq!(got.phases as usize, used / per);
            assert_eq!(got.conflicts(), want - got.phases);
            nonzero += (got.conflicts() > 0) as u32;
            // the worst lanes do hit the worst bank in the worst phase
            for l in 0..32 {
                if got.worst_lanes & (1 << l) != 0 {
                    assert_eq!(l / per as u32, got.worst_phase);
                }
            }
        }
    }
    assert!(nonzero > 1000, "the cases exercise conflicts: {nonzero}");
}

#[test]
fn known_cases() {
    // CUDA Programming Guide examples: stride-1 words conflict-free, stride-2 words 2-way,
    // one shared word broadcast; a 128-B row walked down a column 32-way for 32-bit loads.
    let v = WarpAccess::Vector { bytes: 4 };
    let at = |f: &dyn Fn(u32) -> u32| -> [u32; 32] { std::array::from_fn(|l| f(l as u32)) };
    assert_eq!(bank_report(v, &at(&|l| 4 * l)).wavefronts, 1);
    assert_eq!(bank_report(v, &at(&|l| 8 * l)).wavefronts, 2);
    assert_eq!(bank_report(v, &at(&|_| 12)).wavefronts, 1);
    assert_eq!(bank_report(v, &at(&|l| 128 * l)).degree, 32);
    // 128-bit: quarter-warps, 8 x 16 B = 128 B each
    assert_eq!(
        bank_report(WarpAccess::Vector { bytes: 16 }, &at(&|l| 16 * l)).wavefronts,
        4
    );
    assert_eq!(
        bank_report(WarpAccess::Vector { bytes: 16 }, &at(&|l| 32 * l)).wavefronts,
        8
    );
}

/// 128/64/32-B swizzles per the TMA description, written independently: within each 128-B
/// line of the (atom-column) image, the 16-B chunk index's low 3/2/1 bits are XORed with the
/// line index mod 8/4/2.
fn stored(sw: SwizzleMode, rows: u32, row: u32, byte: u32) -> u32 {
    let (w, bits) = match sw {
        SwizzleMode::B128 => (128, 3),
        SwizzleMode::B64 => (64, 2),
        SwizzleMode::B32 => (32, 1),
        _ => unreachable!(),
    };
    let lin = row * w + byte % w; // offset inside the atom column
    let line = lin / 128;
    let chunk = (lin / 16) % 8;
    let mask = (1 << bits) - 1;
    let new_chunk = (chunk & !mask) | ((chunk ^ line) & mask);
    (byte / w) * rows * w + line * 128 + new_chunk * 16 + lin % 16
}

#[test]
fn independent_swizzle_agrees_with_the_layout() {
    for sw in [SwizzleMode::B128, SwizzleMode::B64, SwizzleMode::B32] {
        let l = RowLayout {
            rows: 64,
            row_bytes: 256,
            swizzle: sw,
            pad: 0,
        };
        for row in 0..64 {
            for byte in 0..256 {
                assert_eq!(
                    l.offset(row, byte),
                    stored(sw, 64, row, byte),
                    "{sw:?} {row} {byte}"
                );
            }
        }
    }
}

/// Emulates every ldmatrix of the tile on a byte image in which each logical element's bytes
/// are its (mn, k) id, and checks each lane's registers against the fragment map.
fn check_tile(t: &LdmatrixTile, mma: &MmaSync, op: FragOperand, major: Major, mn: u32, k: u32) {
    let eb = mma.reg_bits() / 8; // bytes per element (8-bit and up in these cases)
    let l = t.layout();
    let mut img = vec![u32::MAX; (l.bytes() + 64) as usize];
    for a in 0..mn {
        for b in 0..k {
            let (row, byte) = match major {
                Major::K => (a, b * eb),
                Major::Mn => (b, a * eb),
            };
            for x in 0..eb {
                img[l.offset(row, byte + x) as usize] = (a << 16) | b;
            }
        }
    }
    let (frag_mn, _) = match op {
        FragOperand::A => (16, 0),
        _ => (8, 0),
    };
    for i in 0..t.instructions() {
        let addrs = t.addresses(i);
        for d in 0..t.access().phases() {
            let (kstep, frag, reg) = t.dest(i, d);
            for lane in 0..32u32 {
                for e in 0..mma.per_reg() {
                    // the byte the hardware delivers for element e of this register
                    let src = if t.trans() {
                        addrs[(8 * d + 2 * (lane % 4) + e) as usize] + 2 * (lane / 4)
                    } else {
                        addrs[(8 * d + lane / 4) as usize] + 4 * (lane % 4) + e * eb
                    };
                    let elem = reg * mma.per_reg() + e;
                    let (r, c) = mma.coord(op, lane, elem).unwrap();
                    let (a, b) = match op {
                        FragOperand::A => (r + frag * frag_mn, c + kstep * mma.shape.k()),
                        _ => (c + frag * frag_mn, r + kstep * mma.shape.k()),
                    };
                    assert_eq!(
                        img[src as usize],
                        (a << 16) | b,
                        "{op:?} {major:?} instr {i} lane {lane} elem {elem}"
                    );
                }
            }
        }
    }
}

#[test]
fn ldmatrix_tiles_deliver_the_fragments_and_chosen_layouts_are_conflict_free() {
    let cases = [
        (
            SyncShape::M16N8K16,
            T::BF16,
            FragOperand::A,
            Major::K,
            64,
            64,
            4,
        ),
        (
            SyncShape::M16N8K16,
            T::F16,
            FragOperand::B,
            Major::K,
            32,
            64,
            4,
        ),
        (
            SyncShape::M16N8K16,
            T::F16,
            FragOperand::B,
            Major::K,
            8,
            32,
            2,
        ),
        (
            SyncShape::M16N8K16,
            T::BF16,
            FragOperand::A,
            Major::Mn,
            64,
            32,
            4,
        ),
        (
            SyncShape::M16N8K16,
            T::BF16,
            FragOperand::B,
            Major::Mn,
            64,
            32,
            4,
        ),
        (
            SyncShape::M16N8K8,
            T::F16,
            FragOperand::A,
            Major::K,
            32,
            16,
            2,
        ),
        (
            SyncShape::M16N8K8,
            T::TF32,
            FragOperand::A,
            Major::K,
            32,
            32,
            4,
        ),
        (
            SyncShape::M16N8K4,
            T::TF32,
            FragOperand::B,
            Major::K,
            16,
            16,
            1,
        ),
        (
            SyncShape::M16N8K32,
            T::S8,
            FragOperand::A,
            Major::K,
            32,
            128,
            4,
        ),
        (
            SyncShape::M16N8K32,
            T::E4M3,
            FragOperand::B,
            Major::K,
            64,
            64,
            4,
        ),
        (
            SyncShape::M16N8K16,
            T::U8,
            FragOperand::A,
            Major::K,
            16,
            16,
            2,
        ),
    ];
    for (shape, dt, op, major, mn, k, num) in cases {
        let mma = MmaSync::new(SyncArch::Sm90, shape, dt).unwrap();
        let t = LdmatrixTile::new(mma, op, major, mn, k, None, num).unwrap();
        t.check_reader().unwrap();
        check_tile(&t, &mma, op, major, mn, k);
        for w in [
            Writer::CpAsync16,
            Writer::StShared { bytes: 4 },
            Writer::StShared { bytes: 8 },
        ] {
            // the writer's issues cover every byte of the tile exactly once
            let mut seen = HashSet::new();
            for i in 0..t.writer_issues(w).unwrap() {
                for lane in 0..32 {
                    seen.insert(t.writer_address(w, i, lane));
                }
            }
            assert_eq!(seen.len() as u32 * w.bytes(), t.layout().bytes(), "{w:?}");
        }
        // unswizzled rows wider than 16 B are the controls: they conflict whenever rows are
        // 128-B multiples
        let plain = LdmatrixTile::new(mma, op, major, mn, k, Some(SwizzleMode::None), num).unwrap();
        check_tile(&plain, &mma, op, major, mn, k);
        if plain.layout().row_bytes % 128 == 0 {
            let e = plain.check_reader().unwrap_err();
            assert!(
                matches!(e, TileError::Conflict { writer: false, .. }),
                "{e}"
            );
        }
    }
}

#[test]
fn stmatrix_result_tiles_put_each_c_element_where_the_layout_says() {
    // PTX stmatrix: lane l's register d holds row l / 4, bytes 4 (l % 4) .. of matrix d (with
    // .trans: its element e is row 2 (l % 4) + e, column l / 4 of the stored matrix).
    let mma = MmaSync::new(SyncArch::Sm90, SyncShape::M16N8K16, T::BF16).unwrap();
    for (major, m, n, num) in [
        (Major::K, 64, 32, 4),
        (Major::K, 16, 8, 2),
        (Major::K, 32, 64, 1),
        (Major::Mn, 64, 32, 4),
        (Major::Mn, 32, 16, 2),
    ] {
        for sw in [None, Some(SwizzleMode::None)] {
            let t = LdmatrixTile::new(mma, FragOperand::C, major, m, n, sw, num).unwrap();
            assert_eq!(t.access(), WarpAccess::Matrix { num, store: true });
            if sw.is_none() {
                t.check_reader().unwrap();
            }
            let l = t.layout();
            let mut seen = HashSet::new();
            for i in 0..t.instructions() {
                let addrs = t.addresses(i);
                for d in 0..num {
                    let (ks, frag, reg) = t.dest(i, d);
                    assert_eq!(ks, 0);
                    let (mi, ni) = (frag / (n / 8), frag % (n / 8));
                    for lane in 0..32u32 {
                        for e in 0..2 {
                            let (r, c) = mma.coord(FragOperand::C, lane, 2 * reg + e).unwrap();
                            let (gm, gn) = (16 * mi + r, 8 * ni + c);
                            let (want, got) = match major {
                                Major::K => (
                                    l.offset(gm, 2 * gn),
                                    addrs[(8 * d + lane / 4) as usize] + 4 * (lane % 4) + 2 * e,
                                ),
                                Major::Mn => (
                                    l.offset(gn, 2 * gm),
                                    addrs[(8 * d + 2 * (lane % 4) + e) as usize] + 2 * (lane / 4),
                                ),
                            };
                            assert_eq!(
                                got,
                                want,
                                "{major:?} {m}x{n} x{num} instr {i} lane {lane} c{}",
                                2 * reg + e
                            );
                            assert!(seen.insert((gm, gn)));
                        }
                    }
                }
            }
            assert_eq!(seen.len() as u32, m * n, "every element stored once");
        }
    }
    // the unswizzled 128-B-row result tile is the 8-way control
    let plain = LdmatrixTile::new(
        mma,
        FragOperand::C,
        Major::K,
        64,
        64,
        Some(SwizzleMode::None),
        4,
    )
    .unwrap();
    assert_eq!(plain.reader_report(0).degree, 8);
}

#[test]
fn huge_or_illegal_requests_are_errors_not_wrapped_numbers() {
    // sm90: 227 KiB per block (sm80 has 163 KiB) and stmatrix for the C tile
    let mma = MmaSync::new(SyncArch::Sm90, SyncShape::M16N8K16, T::F16).unwrap();
    for (op, mn, k) in [
        (FragOperand::A, 4_294_967_280, 16),
        (FragOperand::B, 8, 4_294_967_280 / 16 * 16),
        (FragOperand::C, 65_536, 65_536),
        (FragOperand::A, 1024, 1024), // 2 MiB
    ] {
        let e = LdmatrixTile::new(mma, op, Major::K, mn, k, None, 4).unwrap_err();
        assert!(
            matches!(e, TileError::TooLarge { .. }),
            "{op:?} {mn}x{k}: {e}"
        );
    }
    // the largest legal tile still plans (896 x 128 x 2 = 229,376 B <= 232,448 B)
    assert!(LdmatrixTile::new(mma, FragOperand::A, Major::K, 896, 128, None, 4).is_ok());
    let t = LdmatrixTile::new(mma, FragOperand::A, Major::K, 64, 64, None, 4).unwrap();
    let bad = Writer::StShared { bytes: 0 };
    assert_eq!(t.writer_issues(bad), None);
    assert_eq!(t.writer_report(bad, 0), None);
    assert_eq!(t.writer_address(bad, 0, 0), u32::MAX);
    assert!(t.check_writer(bad).is_err());
    assert_eq!(t.padded(1 << 30).layout().pad, MAX_PAD_BYTES);
}
