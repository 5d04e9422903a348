//! The one run-time access contract (`smemdesc::access`), the same for the inherent items of a
//! `#[smem_tile]` type, the `SmemTile` trait and the core's `TileLayout`: checked `try_*` forms
//! return the typed error, the asserting forms panic naming the argument (a compile error in
//! `const`: `tests/ui/fail_desc_const_stage.rs`), the `*_unchecked` forms never panic.
//!
//! Regression tests for what the same calls did before (issue 12): a stage past the storage or
//! one that wrapped inside the 14-bit field, the trait wrapping to stage 0, an offset past the
//! tile returning 0, and an overflow panic for a large run-time stage.
//!
//! Expected numbers are the spec's: bf16 K-major 128B swizzle, 128 x 64 per stage = 16 384 B
//! (1024 units of 16 B) per stage, wgmma M = 64 so the second M subtile is 64 rows x 128 B =
//! 8192 B (512 units) on, and each K step of 16 elements is 32 B (2 units). Base descriptor
//! 0x4000004000010000 (layout type 1 = 128B at bits 62-63, SBO 1024 B = 64 at bits 32-45, LBO 16 B
//! = 1 at bits 16-29; PTX ISA "Matrix Descriptor Format").

use smemdesc::{smem_tile, Error, Indexed, SmemTile};
use std::panic::{catch_unwind, UnwindSafe};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            mma = m64n256k16, stages = 4)]
struct TileA;

#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = MN, swizzle = 64B,
            mma = m64n256k16, stages = 3)]
struct TileBMn;

#[smem_tile(arch = sm90, operand = B, dtype = e4m3, tile = (128, 128), major = K, stages = 5)]
struct TileE4m3;

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 96), major = K, swizzle = 64B,
            stages = 2)]
struct TileSm100;

/// 3 MN subtiles (M = 64) and 6 K subtiles of 32B atoms: radices that are not powers of two.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (192, 96), major = K, swizzle = 32B,
            mma = (64, 64), stages = 3)]
struct TileOddK;

/// MN-major, atoms stacked K first, 3 x 6 subtiles, 5 stages.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (96, 96), major = MN, swizzle = 64B,
            order = k_first, mma = (64, 32), stages = 5)]
struct TileOddMn;

/// The panic message of `f`, which must panic.
fn panic_message<R>(f: impl FnOnce() -> R + UnwindSafe) -> String {
    let p = catch_unwind(f).err().expect("expected a panic");
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

fn stage_error(index: u32) -> Error {
    Error::IndexOutOfRange {
        what: Indexed::Stage,
        index,
        count: 4,
    }
}

#[test]
fn spec_numbers() {
    assert_eq!(TileA::DESC, 0x4000_0040_0001_0000);
    assert_eq!(TileA::ADVANCE_MN, [0, 512]);
    assert_eq!(TileA::ADVANCE_K, [0, 2, 4, 6]);
    assert_eq!(TileA::ADVANCE_STAGE, 1024);
    assert_eq!(
        TileA::desc(0x400, 1, 3, 2),
        0x4000_0040_0001_0000 + 0x40 + 512 + 6 + 2048
    );
}

#[test]
fn stage_past_the_storage_is_an_error_everywhere() {
    // Before: the inherent desc pointed past the storage (stage 4) or wrapped (stage 100).
    for stage in [4, 100, 1 << 20, u32::MAX] {
        assert_eq!(TileA::try_desc(0, 0, 0, stage), Err(stage_error(stage)));
        assert_eq!(
            <TileA as SmemTile>::try_desc(0, 0, 0, stage),
            Err(stage_error(stage))
        );
        assert_eq!(
            TileA::PLAN.tile.try_desc(0, 0, 0, stage),
            Err(stage_error(stage))
        );
        let m = panic_message(move || TileA::desc(0, 0, 0, stage));
        assert!(m.contains("`stage` out of range"), "{m}");
        // Before: the trait (through the core's desc) wrapped to stage 0.
        let m = panic_message(move || <TileA as SmemTile>::desc(0, 0, 0, stage));
        assert!(m.contains("`stage` out of range"), "{m}");
        let m = panic_message(move || TileA::PLAN.tile.desc(0, 0, 0, stage));
        assert!(m.contains("`stage` out of range"), "{m}");
    }
}

#[test]
fn subtile_indices_out_of_range() {
    let mn = Error::IndexOutOfRange {
        what: Indexed::SubtileMn,
        index: 2,
        count: 2,
    };
    let k = Error::IndexOutOfRange {
        what: Indexed::SubtileK,
        index: 4,
        count: 4,
    };
    assert_eq!(TileA::try_desc(0, 2, 0, 0), Err(mn));
    assert_eq!(TileA::try_desc(0, 0, 4, 0), Err(k));
    assert_eq!(<TileA as SmemTile>::try_desc(0, 2, 0, 0), Err(mn));
    assert_eq!(TileA::PLAN.tile.try_desc(0, 0, 4, 0), Err(k));
    assert!(panic_message(|| TileA::desc(0, 2, 0, 0)).contains("`mn`"));
    assert!(panic_message(|| <TileA as SmemTile>::desc(0, 0, 4, 0)).contains("`k`"));
    assert!(panic_message(|| TileA::PLAN.tile.desc(0, 0, 4, 0)).contains("`k`"));
}

#[test]
fn addresses_are_checked() {
    // Swizzled: 128-B multiple; the start must fit the 14-bit field of 16-B units (256 KiB).
    let unaligned = Err(Error::UnalignedBase {
        addr: 0x440,
        align: 128,
    });
    assert_eq!(TileA::try_desc(0x440, 0, 0, 0), unaligned);
    assert_eq!(<TileA as SmemTile>::try_desc(0x440, 0, 0, 0), unaligned);
    assert_eq!(TileA::PLAN.tile.try_desc(0x440, 0, 0, 0), unaligned);
    assert!(panic_message(|| TileA::desc(0x440, 0, 0, 0)).contains("`smem_addr`"));
    // The whole tile must be addressable: its last subtile (M subtile 1 at 8192 B, K subtile 3 at
    // 96 B) of its last stage (3 x 16384 B) starts 0xe060 past the base; at 0x3c000 that is
    // 0x4a060, past 0x40000, so every descriptor of the tile there is refused.
    // The tile itself fits (placed at 0), so the base is at fault: the error names the highest
    // base that works, 0x40000 - 16 - 0xe060 rounded down to 128 B.
    let far = Err(Error::BaseTooHigh {
        base: 0x3c000,
        offset: 0xe060,
        highest_base: 0x31f80,
    });
    assert_eq!(TileA::ACCESS.last_start, 0xe060);
    assert_eq!(TileA::try_desc(0x3c000, 0, 0, 0), far);
    assert_eq!(TileA::PLAN.tile.try_desc(0x3c000, 0, 0, 3), far);
    assert!(panic_message(|| TileA::desc(0x3c000, 0, 0, 3)).contains("`smem_addr`"));
    // The last base that fits: 0x40000 - 0xe060 rounded down to 128 B.
    assert!(TileA::try_desc(0x31f80, 1, 3, 3).is_ok());
    assert!(TileA::try_desc(0x32000, 0, 0, 0).is_err());
    // A base at the top of the u32 range: the same fault, no overflow in the check.
    assert_eq!(
        TileA::try_desc(!127u32, 0, 0, 0),
        Err(Error::BaseTooHigh {
            base: !127u32,
            offset: 0xe060,
            highest_base: 0x31f80,
        })
    );
}

#[test]
fn offsets_past_the_tile_are_errors() {
    // Before: offset(128, 0) on a 128 x 64 tile silently returned 0.
    let e = Err(Error::IndexOutOfRange {
        what: Indexed::ElementMn,
        index: 128,
        count: 128,
    });
    assert_eq!(TileA::try_offset(128, 0), e);
    assert_eq!(<TileA as SmemTile>::try_offset(128, 0), e);
    assert_eq!(TileA::PLAN.tile.try_offset(128, 0), e);
    assert!(panic_message(|| TileA::offset(128, 0)).contains("`mn`"));
    assert!(panic_message(|| <TileA as SmemTile>::offset(0, 64)).contains("`k`"));
    assert!(panic_message(|| TileA::PLAN.tile.byte_offset(0, 64)).contains("`k`"));
    // In range: row 7 of a 128B atom, chunk 0 swizzled to chunk 7 (spec §5: Swizzle<3,4,3>).
    assert_eq!(TileA::offset(7, 0), 7 * 128 + 7 * 16);
    assert_eq!(TileA::try_offset(127, 63), Ok(TileA::offset(127, 63)));
    // Unchecked: coordinates reduced modulo the extents (documented), no panic.
    assert_eq!(TileA::offset_wrapping(128 + 7, 64), TileA::offset(7, 0));
    let _ = TileA::offset_wrapping(u32::MAX, u32::MAX);
}

#[test]
fn unchecked_never_panics() {
    // Before: a large run-time stage panicked with "attempt to multiply with overflow" (tests run
    // with overflow checks on).
    for v in [0, 1, 4, 100, 1 << 20, u32::MAX - 1, u32::MAX] {
        let _ = TileA::desc_wrapping(v, v, v, v);
        let _ = <TileA as SmemTile>::desc_wrapping(v, v, v, v);
        let _ = TileA::PLAN.tile.desc_wrapping(v, v, v, v);
        let _ = TileBMn::desc_wrapping(v, v, v, v);
    }
    // The documented reduction: indices modulo their counts, start modulo 2^14 units.
    assert_eq!(TileA::desc_wrapping(0, 2, 5, 0), TileA::desc(0, 0, 1, 0));
    assert_eq!(
        TileA::desc_wrapping(0x3fc00, 0, 0, 0) + 0x40,
        TileA::DESC | 0x4000
    );
    assert_eq!(TileA::desc_wrapping(0x3fc00 + 0x400, 0, 0, 0), TileA::DESC);
}

/// For every valid argument of tile `T`: all three forms and the core agree, and the descriptor is
/// the stage-0 subtile-(0,0) descriptor plus constants from the advance tables.
fn check_steps<T: SmemTile>(bases: &[u32]) -> usize {
    let mut n = 0;
    for &a in bases {
        let d0 = T::desc(a, 0, 0, 0);
        for s in 0..T::STAGES {
            let ds = T::desc(a, 0, 0, s);
            assert_eq!(ds, d0 + (s * T::ADVANCE_STAGE) as u64);
            for i in 0..T::MMAS_MN {
                for j in 0..T::MMAS_K {
                    let d = T::desc(a, i, j, s);
                    let step = T::ADVANCE_MN[i as usize] as u64 + T::ADVANCE_K[j as usize] as u64;
                    assert_eq!(d, ds + step, "{a:#x} ({i},{j},{s})");
                    assert_eq!(Ok(d), T::try_desc(a, i, j, s).map(|d| d.raw()));
                    assert_eq!(d, T::desc_wrapping(a, i, j, s));
                    assert_eq!(d, T::PLAN.tile.desc(a, i, j, s));
                    assert_eq!(d, T::PLAN.tile.desc_wrapping(a, i, j, s));
                    n += 1;
                }
            }
        }
    }
    n
}

#[test]
fn descriptor_loops_add_constants() {
    let n = check_steps::<TileA>(&[0, 0x400, 0x1_0000, 0x2_0000])
        + check_steps::<TileBMn>(&[0, 0x200, 0x1_8000])
        + check_steps::<TileE4m3>(&[0, 0x400])
        + check_steps::<TileSm100>(&[0, 0x200, 0x3_0000])
        + check_steps::<TileOddK>(&[0, 0x400])
        + check_steps::<TileOddMn>(&[0, 0x400]);
    assert!(n > 200, "{n}");
}

/// The run-time advance (the subtile grid evaluated arithmetically, issue 19) against an
/// independent route: subtile `(i, j)` starts at its first element `(i · MMA_MN, j · MMA_K)`,
/// whose unswizzled byte offset the tile's element layout gives; and indices past the counts
/// wrap (the unchecked contract).
fn check_advance<T: SmemTile>() -> usize {
    let t = T::PLAN.tile;
    let (mma_mn, mma_k, bytes) = (t.spec().mma_mn, t.mma_k(), t.spec().dtype.smem_bytes());
    let mut n = 0;
    for i in 0..T::MMAS_MN {
        for j in 0..T::MMAS_K {
            let first = t.layout().eval(i * mma_mn, j * mma_k) * bytes;
            assert_eq!(T::ACCESS.advance(i, j) * 16, first, "({i}, {j})");
            for (wi, wj) in [(1, 0), (0, 1), (2, 3), (1000, 7)] {
                let (a, b) = (i + wi * T::MMAS_MN, j + wj * T::MMAS_K);
                assert_eq!(T::ACCESS.advance(a, b), T::ACCESS.advance(i, j));
                let s = T::STAGES - 1;
                assert_eq!(T::desc_wrapping(0x400, a, b, s), T::desc(0x400, i, j, s));
            }
            n += 1;
        }
    }
    n
}

#[test]
fn run_time_advance_is_the_subtile_origin() {
    let n = check_advance::<TileA>()
        + check_advance::<TileBMn>()
        + check_advance::<TileE4m3>()
        + check_advance::<TileSm100>()
        + check_advance::<TileOddK>()
        + check_advance::<TileOddMn>();
    // subtiles: TileA 2 x 4, TileBMn (N = 256) 1 x 4, TileE4m3 (N = 128) 1 x 4, TileSm100 (M = 128)
    // 1 x 6, the odd tiles 3 x 6 each.
    assert_eq!(n, 8 + 4 + 4 + 6 + 18 + 18);
    // Spec numbers of the odd tiles: K-major 32B atoms are 8 rows x 32 B; 24 of them stacked
    // along M (192 rows) before the next K column: K subtile j is 24 x 256 B on (384 units), M
    // subtile i is 8 atoms (128 units) on.
    assert_eq!(TileOddK::ACCESS.advance(2, 5), 2 * 128 + 5 * 384);
    assert_eq!(TileOddK::ADVANCE_K, [0, 384, 768, 1152, 1536, 1920]);
}

#[test]
fn inherent_trait_and_core_offsets_agree() {
    fn each<T: SmemTile>() {
        let p = T::PLAN.tile.spec();
        for mn in 0..p.tile_mn {
            for k in 0..p.tile_k {
                let o = T::offset(mn, k);
                assert_eq!(Ok(o), T::try_offset(mn, k));
                assert_eq!(o, T::offset_wrapping(mn, k));
                assert_eq!(o, T::PLAN.tile.byte_offset(mn, k));
                // the layout algebra's swizzled address (independent of the access path)
                assert_eq!(o, T::PLAN.tile.smem_layout().byte_address(0, mn, k));
            }
        }
    }
    each::<TileA>();
    each::<TileBMn>();
    each::<TileE4m3>();
    each::<TileSm100>();
}

#[test]
fn access_constant_is_the_core_one() {
    assert_eq!(TileA::ACCESS, TileA::PLAN.tile.access());
    assert_eq!(TileBMn::ACCESS, TileBMn::PLAN.tile.access());
    assert_eq!(TileE4m3::ACCESS, TileE4m3::PLAN.tile.access());
    assert_eq!(TileSm100::ACCESS, TileSm100::PLAN.tile.access());
}

// `const` uses of the asserting forms compile to their values.
const D_CONST: u64 = TileA::desc(0, 1, 3, 3);
const O_CONST: u32 = TileA::offset(8, 8);

#[test]
fn const_forms() {
    assert_eq!(D_CONST, TileA::DESC + 512 + 6 + 3 * 1024);
    // row 8 is the second 8-row atom (1024 B on); k = 8 is chunk 1 of row 0: no XOR on row 0.
    assert_eq!(O_CONST, 1024 + 16);
}
