//! Block-scale-factor tiles (issue 14): every factor of every declaration in a small grid is
//! checked against models written here from the PTX / CUTLASS facts, not from `scale.rs`:
//!
//! * **tcgen05.cp model**: `.32x128b.warpx4` reads 32 rows of 16 bytes through the source
//!   descriptor (no swizzle, K-major canonical layout: row `r` at `start + ⌊r/8⌋·SBO + (r mod 8)·16`)
//!   and delivers row `r` to lanes `r + 32q` (q = 0..4). Lane `m` of the copy of atom `(i, j)` must
//!   receive every factor of row `128 i + m` in K block `j`, each as the 32-bit word `⌊m/32⌋` of its
//!   128 bits (the TMEM word of one row's 4 factors, selected by the scale-factor id);
//! * **TMA model**: a `UINT8` rank-4 tensor map over CUTLASS's global layout
//!   (`tile_atom_to_shape_SFA`: row `m`, factor `f` at
//!   `(m/128)·512·KB + (f/4)·512 + 16·(m mod 32) + 4·((m mod 128)/32) + f mod 4`, KB = K blocks of
//!   the whole tensor), boxes written densely into SMEM;
//! * every factor has its own byte, and a stage has no byte no factor uses (for A; B pads N).

use smemdesc::core::*;
use std::collections::HashMap;

fn kinds() -> Vec<(MmaKind, Option<ScaleFormat>, Option<u32>, u32)> {
    // (kind, format, vec, expected vec)
    vec![
        (MmaKind::Mxf8f6f4, None, None, 32),
        (MmaKind::Mxf4, None, None, 32),
        (MmaKind::Mxf4nvf4, None, None, 16),
        (MmaKind::Mxf4nvf4, Some(ScaleFormat::Ue8m0), None, 32),
        // PTX "Valid combinations of scale_vectorsize with types and MMA-Kind": mxf4nvf4 takes
        // ue8m0 with .block16 (.scale_vec::4X) too; ue4m3 only with .block16
        (MmaKind::Mxf4nvf4, Some(ScaleFormat::Ue8m0), Some(16), 16),
    ]
}

#[test]
fn scale_tiles_match_the_copy_and_tma_models() {
    let (mut tiles, mut factors) = (0u64, 0u64);
    for (kind, format, vec, want_vec) in kinds() {
        for operand in [Operand::A, Operand::B] {
            let mns: &[u32] = match operand {
                Operand::A => &[128, 256],
                Operand::B => &[64, 128, 192, 256],
            };
            for &mn in mns {
                for k_factors in [4, 8, 16] {
                    for stages in [1, 3] {
                        let mut d =
                            ScaleDecl::new(kind, operand, mn, k_factors * want_vec).stages(stages);
                        if let Some(f) = format {
                            d = d.format(f);
                        }
                        if let Some(v) = vec {
                            d = d.vec(v);
                        }
                        let s = d.build().unwrap_or_else(|e| panic!("{d:?}: {e}"));
                        assert_eq!(s.vec, want_vec);
                        factors += check(&s);
                        tiles += 1;
                    }
                }
            }
        }
    }
    println!("scale tiles: {tiles} declarations, {factors} factors checked");
    assert_eq!(tiles, 5 * (2 + 4) * 3 * 2);
}

fn check(s: &ScaleTile) -> u64 {
    let base = 0x4000u32;
    let mn_blocks = s.tile_mn.div_ceil(128);
    let k_blocks = s.sf_k() / 4;
    assert_eq!(s.stage_bytes(), mn_blocks * k_blocks * 512);
    let mut checked = 0;
    for stage in 0..s.stages {
        let stage_base = base + stage * s.stage_bytes();
        // tcgen05.cp model: lane -> 16 bytes, per atom
        let mut owner: HashMap<u32, (u32, u32)> = HashMap::new();
        for i in 0..mn_blocks {
            for j in 0..k_blocks {
                let d = s.copy_desc(base, i, j, stage).unwrap();
                assert_eq!(d.layout(), Some(SwizzleMode::None));
                assert_eq!(d.raw() >> 52 & 1, 0);
                for lane in 0..128u32 {
                    let r = lane % 32; // warpx4: row r goes to lanes r, r+32, r+64, r+96
                    let row_addr = d.start_address() + (r / 8) * d.sbo() + (r % 8) * 16;
                    let m = 128 * i + lane;
                    if m >= s.tile_mn {
                        continue; // B padding rows
                    }
                    for f in 4 * j..4 * j + 4 {
                        let addr = stage_base + s.factor_offset(m, f);
                        let word = lane / 32;
                        assert_eq!(
                            addr,
                            row_addr + 4 * word + f % 4,
                            "{s:?}: row {m} factor {f} not in lane {lane}'s word {word}"
                        );
                        assert_eq!(s.offset(m, f * s.vec + s.vec - 1), addr - stage_base);
                        assert!(
                            owner.insert(addr, (m, f)).is_none(),
                            "byte {addr:#x} shared"
                        );
                        checked += 1;
                    }
                }
            }
        }
        if matches!(s.operand, Operand::A) {
            assert_eq!(
                owner.len() as u32,
                s.stage_bytes(),
                "A stage has unused bytes"
            );
        }
        // TMA model
        let kb_total = k_blocks; // the tensor is this tile (coordinates relative to it)
        let gmem = |m: u32, f: u32| {
            (m / 128) * 512 * kb_total
                + (f / 4) * 512
                + 16 * (m % 32)
                + 4 * ((m % 128) / 32)
                + f % 4
        };
        let bx = s.tma_box();
        assert!(bx.iter().all(|&d| (1..=256).contains(&d)));
        let mut written = 0;
        for b in 0..s.tma_boxes() {
            let dst = stage_base + s.tma_box_offset(b);
            let mut n = 0u32;
            // box element (x, h, kk, mm) at gmem byte (b + kk)·512 + mm·512·KB + h·256 + x
            for mm in 0..bx[3] {
                for kk in 0..bx[2] {
                    for h in 0..bx[1] {
                        for x in 0..bx[0] {
                            let g = (b + kk) * 512 + mm * 512 * kb_total + h * 256 + x;
                            let smem = dst + n;
                            n += 1;
                            if let Some(&(m, f)) = owner.get(&smem) {
                                assert_eq!(gmem(m, f), g, "{s:?}: TMA puts gmem {g} at {smem:#x}");
                                written += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(written, owner.len(), "TMA boxes cover every factor");
    }
    checked
}

#[test]
fn scale_tile_errors() {
    let cases: Vec<(ScaleDecl, Argument, &str)> = vec![
        (
            ScaleDecl::new(MmaKind::F8f6f4, Operand::A, 128, 128),
            Argument::Kind,
            "not a block-scaled kind",
        ),
        (
            ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128).format(ScaleFormat::Ue4m3),
            Argument::Kind,
            "legal: ue8m0 with vec 32",
        ),
        (
            ScaleDecl::new(MmaKind::Mxf4nvf4, Operand::A, 128, 128)
                .format(ScaleFormat::Ue4m3)
                .vec(32),
            Argument::Kind,
            "ue4m3 with vec 16",
        ),
        (
            ScaleDecl::new(MmaKind::Mxf4, Operand::A, 64, 128),
            Argument::TileMn,
            "use a multiple of 128",
        ),
        (
            // ue4m3, one factor per 16 values: an atom spans 64 values of K
            ScaleDecl::new(MmaKind::Mxf4nvf4, Operand::B, 128, 32),
            Argument::TileK,
            "use a multiple of 64",
        ),
        (
            ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128).stages(0),
            Argument::Stages,
            "",
        ),
        (
            ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128 * 64, 128 * 64),
            Argument::Tile,
            "",
        ),
    ];
    for (d, arg, phrase) in cases {
        let e = d.build().expect_err("must be refused");
        assert_eq!(e.argument(), arg, "{d:?}: {e}");
        assert!(e.to_string().contains(phrase), "{e}");
    }
    let s = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 128)
        .build()
        .unwrap();
    assert!(s.copy_desc(0x4008, 0, 0, 0).is_err());
    assert!(s.copy_desc(0, 1, 0, 0).is_err());
    assert!(s.copy_desc(0, 0, 0, 1).is_err());
}

/// No declaration panics, and every index into a valid tile stays inside its storage.
#[test]
fn scale_tiles_never_panic() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let kinds = [
        MmaKind::F16,
        MmaKind::Mxf8f6f4,
        MmaKind::Mxf4,
        MmaKind::Mxf4nvf4,
    ];
    let mut valid = 0;
    for _ in 0..20_000 {
        let pick = |v: u64| match v % 4 {
            0 => (v >> 8) as u32,
            1 => ((v >> 8) % 4096) as u32,
            2 => 128 * ((v >> 8) % 5) as u32,
            _ => 16 * ((v >> 8) % 40) as u32,
        };
        let mut d = ScaleDecl::new(
            kinds[(next() % 4) as usize],
            if next() % 2 == 0 {
                Operand::A
            } else {
                Operand::B
            },
            pick(next()),
            pick(next()),
        )
        .stages(pick(next()) % 9)
        .cta_group((next() % 4) as u32);
        if next() % 3 == 0 {
            d = d.vec(pick(next()) % 64);
        }
        if next() % 3 == 0 {
            d = d.format(if next() % 2 == 0 {
                ScaleFormat::Ue8m0
            } else {
                ScaleFormat::Ue4m3
            });
        }
        if let Ok(s) = d.build() {
            valid += 1;
            let (a, b, c) = (next() as u32, next() as u32, next() as u32);
            assert!(s.offset(a, b) < s.stage_bytes());
            assert!(s.factor_offset(b, c) < s.stage_bytes());
            assert!(s.tma_box_offset(c) < s.stage_bytes());
            let _ = s.copy_desc(a, b % 4, c % 4, a % 4);
            let _ = s.copy_desc(0, 0, 0, 0).unwrap();
        }
    }
    assert!(valid > 100, "only {valid} valid declarations");
}
