//! Host tests (no GPU): shape refusals, and every launch number against one derived elsewhere
//! (the PTX ISA's sizes, the build script that writes the kernels' `.maxntid`, the CUDA C++
//! kernels' generated header, the facade's `GemmLaunch`).

use crate::epi_tiles::EpiDecl;
use crate::launch::operand_tensor_map;
use crate::{epi_tiles as et, gemm_bf16_plan, gemm_fp8_plan, tiles, Dim, GemmShape, ShapeError};
use smemdesc::{Arch, GemmLaunch, SmemTile, TensorMapDataType, TensorMapSwizzle};

const H100_SMS: u32 = 132;

/// `.maxntid` as `gpu/rust-kernel/build_ptx.sh` writes it on the `gemm_*_rust` entries (Rust
/// has no attribute for it; ptxas budgets registers for that many threads).
pub(crate) fn maxntid_of_build_script() -> u32 {
    let s = include_str!("../../gpu/rust-kernel/build_ptx.sh");
    let at = s
        .find("_rust$/) bound = \".maxntid ")
        .expect("build_ptx.sh writes .maxntid on the gemm_*_rust entries")
        + 27;
    s[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// `#define NAME value` of the CUDA C++ kernels' header (generated from the core's declarations
/// by `smemdesc-core`'s `epi_header` example; CI diffs it).
pub(crate) fn epi_header_define(name: &str) -> u32 {
    let h = include_str!("../../gpu/kernels/epi_decl.h");
    let line = h
        .lines()
        .find(|l| l.starts_with(&format!("#define {name} ")))
        .unwrap_or_else(|| panic!("{name} not in epi_decl.h"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn bf16_refuses_shapes_off_its_tiles() {
    let bad = [
        (
            (100, 256, 64),
            ShapeError::NotMultiple {
                dim: Dim::M,
                value: 100,
                multiple: 128,
            },
        ),
        (
            (128, 128, 64),
            ShapeError::NotMultiple {
                dim: Dim::N,
                value: 128,
                multiple: 256,
            },
        ),
        (
            (128, 256, 96),
            ShapeError::NotMultiple {
                dim: Dim::K,
                value: 96,
                multiple: 64,
            },
        ),
        ((0, 256, 64), ShapeError::Zero { dim: Dim::M }),
        ((128, 256, 0), ShapeError::Zero { dim: Dim::K }),
        (
            (1 << 31, 256, 64),
            ShapeError::TooLarge {
                dim: Dim::M,
                value: 1 << 31,
                max: i32::MAX as u32,
            },
        ),
    ];
    for ((m, n, k), want) in bad {
        assert_eq!(
            gemm_bf16_plan(GemmShape::new(m, n, k), H100_SMS),
            Err(want),
            "{m}x{n}x{k}"
        );
    }
    assert!(gemm_bf16_plan(GemmShape::new(128, 256, 64), H100_SMS).is_ok());
}

#[test]
fn fp8_refuses_k_off_its_128_byte_stage() {
    // A stage of e4m3 holds 128 elements of K (128 bytes: one 128B swizzle row).
    let e = gemm_fp8_plan(GemmShape::new(128, 256, 64), H100_SMS).unwrap_err();
    assert_eq!(
        e,
        ShapeError::NotMultiple {
            dim: Dim::K,
            value: 64,
            multiple: 128
        }
    );
    let e = gemm_fp8_plan(GemmShape::new(192, 256, 128), H100_SMS).unwrap_err();
    assert_eq!(
        e,
        ShapeError::NotMultiple {
            dim: Dim::M,
            value: 192,
            multiple: 128
        }
    );
    assert!(gemm_fp8_plan(GemmShape::new(128, 256, 128), H100_SMS).is_ok());
}

#[test]
fn lengths_are_checked_per_operand() {
    let s = GemmShape::new(128, 256, 64);
    assert_eq!(s.check_lengths(8192, 16384, 32768), Ok(()));
    assert_eq!(
        s.check_lengths(8191, 16384, 32768),
        Err(ShapeError::Length {
            operand: "A",
            len: 8191,
            expected: 8192
        })
    );
    assert_eq!(
        s.check_lengths(8192, 16385, 32768),
        Err(ShapeError::Length {
            operand: "B",
            len: 16385,
            expected: 16384
        })
    );
    // A larger C is refused too: the kernel writes exactly M x N.
    assert_eq!(
        s.check_lengths(8192, 16384, 32769),
        Err(ShapeError::Length {
            operand: "C",
            len: 32769,
            expected: 32768
        })
    );
}

#[test]
fn block_is_the_kernels_maxntid() {
    let ntid = maxntid_of_build_script();
    assert_eq!(ntid, 384); // one producer and two consumer warpgroups of 128
    let s = GemmShape::new(128, 256, 128);
    assert_eq!(gemm_bf16_plan(s, 1).unwrap().block, (ntid, 1, 1));
    assert_eq!(gemm_fp8_plan(s, 1).unwrap().block, (ntid, 1, 1));
}

/// Shared memory from first principles: 4 stages of A (128 x 64 bf16) and B (256 x 64 bf16),
/// two consumers' C tiles (64 x 64 bf16, 2 stages), 8 mbarriers of 8 bytes; the 128B swizzle
/// atom is 1024-byte aligned and the dynamic base only 16, so 1008 bytes of slack.
#[test]
fn bf16_shared_memory_from_the_sizes() {
    let p = gemm_bf16_plan(GemmShape::new(8192, 8192, 8192), H100_SMS).unwrap();
    let a = 4 * 128 * 64 * 2;
    let b = 4 * 256 * 64 * 2;
    let c = 2 * 2 * 64 * 64 * 2;
    assert_eq!(a, 4 * epi_header_define("G_A_STAGE_BYTES"));
    assert_eq!(b, epi_header_define("G_B_BYTES"));
    assert_eq!(c, 2 * epi_header_define("EPI_SMEM_BYTES"));
    assert_eq!(p.shared_mem_bytes, a + b + c + 8 * 8 + (1024 - 16));
    assert_eq!(p.shared_mem_bytes, 230_448);
    assert!(p.shared_mem_bytes <= 227 * 1024); // sm90's per-block opt-in maximum
                                               // One stage's transaction bytes: A and B of one stage.
    assert_eq!(p.stage_tx_bytes, (128 + 256) * 64 * 2);
    assert_eq!(
        p.stage_tx_bytes,
        epi_header_define("G_A_STAGE_BYTES") + epi_header_define("G_B_STAGE_BYTES")
    );
}

/// FP8: 4 stages of A (128 x 128 e4m3) and B (256 x 128), 8 mbarriers, the direct-store
/// epilogue's buffers (8 warps x 16 rows x (64 bf16 + 16 bytes of padding)), 1008 bytes of slack.
#[test]
fn fp8_shared_memory_from_the_sizes() {
    let p = gemm_fp8_plan(GemmShape::new(4096, 4096, 4096), H100_SMS).unwrap();
    let (a, b) = (4 * 128 * 128, 4 * 256 * 128);
    let epi = 8 * 16 * (64 * 2 + 16);
    assert_eq!(p.shared_mem_bytes, a + b + 8 * 8 + epi + (1024 - 16));
    assert_eq!(p.stage_tx_bytes, (128 + 256) * 128);
}

#[test]
fn grid_is_the_tiles_capped_at_the_sms() {
    for (m, n, k) in [
        (128, 256, 128),
        (1024, 768, 128),
        (8192, 8192, 8192),
        (256, 16384, 128),
    ] {
        let s = GemmShape::new(m, n, k);
        let tiles = (m / 128) * (n / 256);
        for plan in [
            gemm_bf16_plan(s, H100_SMS).unwrap(),
            gemm_fp8_plan(s, H100_SMS).unwrap(),
        ] {
            assert_eq!(plan.tile, (128, 256));
            assert_eq!(plan.tiles, tiles);
            assert_eq!(plan.grid, (tiles.min(H100_SMS), 1, 1));
        }
        // The facade's launch of the same tiles: one CTA per tile of C.
        let l = GemmLaunch::new(&et::cl11::A::PLAN, &et::cl11::B::PLAN, m, n).unwrap();
        assert_eq!(l.grid[0] * l.grid[1], tiles);
        let l = GemmLaunch::new(&tiles::Fp8A::PLAN, &tiles::Fp8B::PLAN, m, n).unwrap();
        assert_eq!(l.grid[0] * l.grid[1], tiles);
    }
    // A device that reports no SMs still gets one CTA (a launch, not a division by zero).
    assert_eq!(
        gemm_bf16_plan(GemmShape::new(128, 256, 64), 0)
            .unwrap()
            .grid,
        (1, 1, 1)
    );
}

/// The operand maps: `[K, rows]` with K contiguous, a 128-byte inner box (the 128B swizzle's
/// span: 64 bf16 or 128 e4m3), and for the epilogue GEMM the box the 1x1 cluster's multicast
/// plan issues.
#[test]
fn operand_maps_match_the_kernel_loads() {
    let (m, n, k) = (1024u64, 512u64, 256u64);
    let a = operand_tensor_map::<et::cl11::A>(m, k)
        .address(0x1000)
        .try_args()
        .unwrap();
    assert_eq!(
        (a.rank, &a.global_dim[..2], a.global_strides[0]),
        (2, &[k, m][..], k * 2)
    );
    assert_eq!(
        (a.data_type, a.swizzle),
        (TensorMapDataType::Bfloat16, TensorMapSwizzle::B128)
    );
    assert_eq!(a.box_dim[0], 64);
    assert_eq!(
        [a.box_dim[0], a.box_dim[1]],
        et::Decl11::A_MC.slice_box_dim()
    );
    let b = operand_tensor_map::<et::cl11::B>(n, k)
        .address(0x1000)
        .try_args()
        .unwrap();
    assert_eq!(&b.global_dim[..2], &[k, n][..]);
    assert_eq!(
        [b.box_dim[0], b.box_dim[1]],
        et::Decl11::B_MC.slice_box_dim()
    );
    // Every box of a stage together is the stage: 128 x 64 of A, 256 x 64 of B.
    assert_eq!(
        a.box_dim[0] * a.box_dim[1] * et::cl11::A::TMA_BOXES,
        128 * 64
    );
    assert_eq!(
        b.box_dim[0] * b.box_dim[1] * et::cl11::B::TMA_BOXES,
        256 * 64
    );

    let a8 = operand_tensor_map::<tiles::Fp8A>(m, k)
        .address(0x1000)
        .try_args()
        .unwrap();
    assert_eq!(
        (&a8.global_dim[..2], a8.global_strides[0]),
        (&[k, m][..], k)
    );
    assert_eq!(
        (a8.data_type, a8.swizzle),
        (TensorMapDataType::Uint8, TensorMapSwizzle::B128)
    );
    assert_eq!(a8.box_dim[0], 128);
    assert_eq!(
        a8.box_dim[0] * a8.box_dim[1] * tiles::Fp8A::TMA_BOXES,
        128 * 128
    );
    let b8 = operand_tensor_map::<tiles::Fp8B>(n, k)
        .address(0x1000)
        .try_args()
        .unwrap();
    assert_eq!(
        b8.box_dim[0] * b8.box_dim[1] * tiles::Fp8B::TMA_BOXES,
        256 * 128
    );
}

/// C's store map: `[N, M]` bf16, a 64 x 64 box (one consumer's chunk), the 128B swizzle the
/// CUDA C++ kernel's header states for the same tile.
#[test]
fn c_map_matches_the_epilogue_tile() {
    let (m, n) = (1024u64, 512u64);
    let c = et::CTile::EPILOGUE
        .tensor_map(Arch::Sm90, m, n)
        .address(0x1000)
        .try_args()
        .unwrap();
    assert_eq!(
        (&c.global_dim[..2], c.global_strides[0]),
        (&[n, m][..], n * 2)
    );
    assert_eq!(&c.box_dim[..2], &[64, 64][..]);
    assert_eq!(c.data_type, TensorMapDataType::Bfloat16);
    assert_eq!(epi_header_define("EPI_SWIZZLE_BYTES"), 128);
    assert_eq!(c.swizzle, TensorMapSwizzle::B128);
}

/// The grouped schedule: 128-row tiles per group (the last one clipped), N / 256 per row of
/// tiles, empty groups without tiles; two C map slots per CTA; the table packs (group, M tile,
/// N tile) as `smemdesc::grouped::pack_tile` documents (group in bits 22-31, M tile 11-21, N
/// tile 0-10).
#[test]
fn grouped_plan_from_the_groups() {
    let rows = [300, 0, 1, 128, 129];
    let p = crate::gemm_grouped_plan(&rows, 512, 128, H100_SMS).unwrap();
    assert_eq!(p.offsets, [0, 300, 300, 301, 429, 558]);
    let per_group = [3 * 2, 0, 2, 2, 2 * 2];
    assert_eq!(p.tile_start, [0, 6, 6, 8, 10, 14]);
    assert_eq!(p.launch.tiles, per_group.iter().sum::<u32>());
    assert_eq!(p.launch.grid, (14, 1, 1));
    assert_eq!(p.map_slots, 2 * 14);
    assert_eq!(p.table.len(), 14);
    // Tile 7: group 2 (its only M tile), N tile 1; tile 13: group 4, M tile 1, N tile 1.
    assert_eq!(p.table[7], (2 << 22) | 1);
    assert_eq!(p.table[13], (4 << 22) | (1 << 11) | 1);
    assert_eq!(p.launch.block, (maxntid_of_build_script(), 1, 1));
    assert_eq!(p.launch.shared_mem_bytes, 230_448); // the epilogue GEMM's storage
                                                    // More tiles than SMs: one wave of persistent CTAs.
    let p = crate::gemm_grouped_plan(&[8192], 4096, 64, H100_SMS).unwrap();
    assert_eq!(
        (p.launch.tiles, p.launch.grid.0, p.map_slots),
        (64 * 16, 132, 264)
    );
}

#[test]
fn grouped_refusals() {
    use crate::Error;
    let e = crate::gemm_grouped_plan(&[128], 512, 96, H100_SMS).unwrap_err();
    assert!(matches!(
        e,
        Error::Shape(ShapeError::NotMultiple {
            dim: Dim::K,
            value: 96,
            multiple: 64
        })
    ));
    let e = crate::gemm_grouped_plan(&[128], 0, 64, H100_SMS).unwrap_err();
    assert!(matches!(e, Error::Shape(ShapeError::Zero { dim: Dim::N })));
    let e = crate::gemm_grouped_plan(&[], 256, 64, H100_SMS).unwrap_err();
    assert!(matches!(
        e,
        Error::Grouped(smemdesc::grouped::GroupedError::NoGroups)
    ));
    // The table's word holds groups 0 to 1,023.
    let e = crate::gemm_grouped_plan(&[1; 1025], 256, 64, H100_SMS).unwrap_err();
    assert!(matches!(
        e,
        Error::Grouped(smemdesc::grouped::GroupedError::TableGroupTooLarge { group: 1024, .. })
    ));
    // Rows past a TMA coordinate's reach, summed over the groups.
    let e = crate::gemm_grouped_plan(&[1 << 30, 1 << 30], 256, 64, H100_SMS).unwrap_err();
    assert!(matches!(
        e,
        Error::Shape(ShapeError::TooLarge { dim: Dim::M, .. })
    ));
    // No rows at all: a plan of no tiles (the launcher launches nothing).
    assert_eq!(
        crate::gemm_grouped_plan(&[0, 0], 256, 64, H100_SMS)
            .unwrap()
            .launch
            .tiles,
        0
    );
}
