//! Size and architecture bounds of the register-fragment tiles and the epilogue's C tile (issue
//! 28, item 7). Expected values by hand: the CUDA C++ Programming Guide's "Maximum amount of
//! shared memory per thread block" (8.0: 163 KiB = 166,912 B; 8.6, 8.9, 12.0: 99 KiB = 101,376 B;
//! 9.0: 227 KiB = 232,448 B); PTX `stmatrix` "requires sm_90 or higher"; a TMA box's `boxDim[i]`
//! is at most 256 elements.

use smemdesc_core::epilogue::*;
use smemdesc_core::fragment::*;
use smemdesc_core::{ElementType as T, Major, SwizzleMode};

fn bf16(arch: SyncArch) -> MmaSync {
    MmaSync::new(arch, SyncShape::M16N8K16, T::BF16).unwrap()
}

#[test]
fn fragment_tiles_fit_their_architectures_shared_memory() {
    let a = |arch, k| LdmatrixTile::new(bf16(arch), FragOperand::A, Major::K, 16, k, None, 4);
    // 16 rows x 3168 bf16 = 101,376 B: exactly 99 KiB
    assert!(a(SyncArch::Sm86, 3168).is_ok());
    // 16 x 3200 x 2 = 102,400 B: over 99 KiB (sm86, sm89, sm120), within 163 and 227 KiB
    for arch in [SyncArch::Sm86, SyncArch::Sm89, SyncArch::Sm120] {
        assert_eq!(
            a(arch, 3200),
            Err(TileError::TooLarge {
                bytes: 102_400,
                max: 101_376
            })
        );
    }
    assert!(a(SyncArch::Sm80, 3200).is_ok() && a(SyncArch::Sm90, 3200).is_ok());
    // 16 x 5248 x 2 = 167,936 B: over sm80's 166,912 B, within sm90's
    assert_eq!(
        a(SyncArch::Sm80, 5248),
        Err(TileError::TooLarge {
            bytes: 167_936,
            max: 166_912
        })
    );
    assert!(a(SyncArch::Sm90, 5248).is_ok());
    // (2^32 - 16)^2 values of 2 B overflow u64: refused, no overflow panic
    let huge = LdmatrixTile::new(
        bf16(SyncArch::Sm90),
        FragOperand::A,
        Major::K,
        4_294_967_280,
        4_294_967_280,
        None,
        4,
    );
    assert_eq!(
        huge,
        Err(TileError::TooLarge {
            bytes: u64::MAX,
            max: 232_448
        })
    );
    assert!(huge.unwrap_err().to_string().contains("overflows u64"));
}

#[test]
fn stmatrix_needs_sm90() {
    for arch in SyncArch::ALL {
        let d = LdmatrixTile::new(bf16(arch), FragOperand::C, Major::K, 64, 32, None, 4);
        match arch {
            SyncArch::Sm90 | SyncArch::Sm120 => assert!(d.is_ok(), "{arch:?}"),
            _ => assert_eq!(d, Err(TileError::StmatrixArch { arch })),
        }
    }
}

#[test]
fn an_unswizzled_tma_row_is_at_most_256_elements() {
    let t = |mma, k, sw| {
        LdmatrixTile::new(mma, FragOperand::A, Major::K, 16, k, Some(sw), 4)
            .unwrap()
            .check_writer(Writer::Tma)
    };
    let m = bf16(SyncArch::Sm90);
    // 512 bf16 = 1,024 B rows: one box row would be 512 elements
    assert_eq!(
        t(m, 512, SwizzleMode::None),
        Err(TileError::TmaRowTooWide {
            row_bytes: 1024,
            elems: 512
        })
    );
    assert!(t(m, 256, SwizzleMode::None).is_ok()); // 256 elements
    assert!(t(m, 512, SwizzleMode::B128).is_ok()); // boxes of one 128-B atom column
    let f8 = MmaSync::new(SyncArch::Sm90, SyncShape::M16N8K32, T::E4M3).unwrap();
    assert!(t(f8, 256, SwizzleMode::None).is_ok()); // 256 one-byte elements
    assert_eq!(
        t(f8, 288, SwizzleMode::None),
        Err(TileError::TmaRowTooWide {
            row_bytes: 288,
            elems: 288
        })
    );
}

#[test]
fn epilogue_tiles_are_bounded_by_sm90_shared_memory() {
    let s = EpilogueSpec::new(CType::BF16, 64, 64, 64);
    // 64 x 64 x 2 = 8,192 B a stage: 28 stages = 229,376 B fit, 29 = 237,568 B do not
    assert!(s.stages(28).build().is_ok());
    assert!(matches!(s.stages(29).build(), Err(EpiError::Shape { .. })));
    assert!(matches!(
        s.stages(1_000_000).build(),
        Err(EpiError::Shape { .. })
    ));
    // 16,448 x 8 x 2 = 263,168 B
    assert!(matches!(
        EpilogueSpec::new(CType::BF16, 16_448, 8, 8).build(),
        Err(EpiError::Shape { .. })
    ));
    assert!(matches!(
        EpilogueSpec::new(CType::BF16, 4_294_967_232, 64, 64).build(),
        Err(EpiError::Shape { .. })
    ));
    assert_eq!(EpilogueSpec::MAX_BYTES, 232_448);
}

#[test]
fn tma_store_boxes_cover_every_row_of_every_legal_tile() {
    let mut checked = 0;
    for (dt, eb, writer) in [
        (
            CType::BF16,
            2,
            EpiWriter::Stmatrix {
                num: 1,
                trans: false,
            },
        ),
        (CType::F32, 4, EpiWriter::StShared { bytes: 8 }),
    ] {
        for n in (8..=256).step_by(8) {
            for m in (64..=14_528).step_by(64) {
                let Ok(e) = EpilogueSpec::new(dt, m, n, n).writer(writer).build() else {
                    continue;
                };
                let [inner, rows] = e.tma_box_dim();
                let l = e.layout();
                assert!(
                    rows <= 256 && inner <= 256,
                    "{m}x{n}: box [{inner}, {rows}]"
                );
                assert_eq!(l.rows % rows, 0, "{m}x{n}: {rows}-row boxes");
                assert_eq!(rows % 8, 0, "{m}x{n}: {rows}-row boxes");
                // every byte of the stage in exactly one box
                assert_eq!(
                    e.tma_boxes() * rows * inner * eb,
                    l.rows * l.row_bytes,
                    "{m}x{n}"
                );
                let (last_off, (_, last_row0)) = e.tma_box(e.tma_boxes() - 1);
                assert_eq!(last_row0 + rows, l.rows, "{m}x{n}");
                assert_eq!(
                    last_off + rows * inner * eb,
                    l.rows * l.row_bytes,
                    "{m}x{n}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}
