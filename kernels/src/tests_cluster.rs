//! Host tests of the cluster-multicast GEMM's plan and maps (no GPU): the numbers from the
//! shape arithmetic, the CUDA C++ kernels' generated header (`gpu/kernels/epi_decl.h`), the
//! build script's `.maxntid` and the harness's recorded grids (`gpu/results_rust.json`).

use crate::cluster::maps_of;
use crate::tests::{epi_header_define, maxntid_of_build_script};
use crate::{gemm_bf16_cluster_plan, Dim, GemmCluster, GemmShape, ShapeError};
use smemdesc::{TensorMapDataType, TensorMapSwizzle};

#[test]
fn kernels_are_the_recorded_and_built_entries() {
    let record = include_str!("../../gpu/results_rust.json");
    let build = include_str!("../../gpu/rust-kernel/build_ptx.sh");
    for (c, name) in [
        (GemmCluster::M2, "gemm_cl21_rust"),
        (GemmCluster::N2, "gemm_cl12_rust"),
    ] {
        assert_eq!(c.kernel(), name);
        assert!(
            record.contains(&format!("\"kernel\": \"{name}\"")),
            "{name}"
        );
        assert!(build.contains(name), "{name}");
    }
    // 2x1 is two CTAs along M, 1x2 two along N (the record's "shape": [2, 1] / [1, 2]).
    assert_eq!(GemmCluster::M2.dims(), (2, 1));
    assert_eq!(GemmCluster::N2.dims(), (1, 2));
    assert_eq!((GemmCluster::M2.size(), GemmCluster::N2.size()), (2, 2));
}

#[test]
fn refusals_are_off_the_cluster_tile() {
    let bad = [
        // 2x1: a cluster tile is 256 x 256 of C.
        (
            GemmCluster::M2,
            (128, 256, 64),
            ShapeError::NotMultiple {
                dim: Dim::M,
                value: 128,
                multiple: 256,
            },
        ),
        (
            GemmCluster::M2,
            (256, 128, 64),
            ShapeError::NotMultiple {
                dim: Dim::N,
                value: 128,
                multiple: 256,
            },
        ),
        (
            GemmCluster::M2,
            (256, 256, 96),
            ShapeError::NotMultiple {
                dim: Dim::K,
                value: 96,
                multiple: 64,
            },
        ),
        // 1x2: 128 x 512.
        (
            GemmCluster::N2,
            (64, 512, 64),
            ShapeError::NotMultiple {
                dim: Dim::M,
                value: 64,
                multiple: 128,
            },
        ),
        (
            GemmCluster::N2,
            (128, 256, 64),
            ShapeError::NotMultiple {
                dim: Dim::N,
                value: 256,
                multiple: 512,
            },
        ),
        (
            GemmCluster::N2,
            (128, 512, 0),
            ShapeError::Zero { dim: Dim::K },
        ),
        (
            GemmCluster::M2,
            (1 << 31, 256, 64),
            ShapeError::TooLarge {
                dim: Dim::M,
                value: 1 << 31,
                max: i32::MAX as u32,
            },
        ),
    ];
    for (c, (m, n, k), want) in bad {
        assert_eq!(
            gemm_bf16_cluster_plan(GemmShape::new(m, n, k), c, 66),
            Err(want),
            "{c:?} {m}x{n}x{k}"
        );
    }
    assert!(gemm_bf16_cluster_plan(GemmShape::new(256, 256, 64), GemmCluster::M2, 66).is_ok());
    assert!(gemm_bf16_cluster_plan(GemmShape::new(128, 512, 64), GemmCluster::N2, 66).is_ok());
}

#[test]
fn grid_is_whole_clusters_capped_at_the_resident_ones() {
    // (cluster, shape, resident clusters) -> (cluster tiles, CTA tiles, grid), by hand:
    // cluster tiles = M / (128 x) * N / (256 y), grid = 2 * min(cluster tiles, resident).
    let cases = [
        (GemmCluster::M2, (256, 512, 320), 66, (2, 4, 4)),
        (GemmCluster::N2, (256, 512, 320), 66, (2, 4, 4)),
        (GemmCluster::M2, (2048, 3072, 128), 66, (96, 192, 132)),
        (GemmCluster::N2, (2048, 3072, 128), 66, (96, 192, 132)),
        (GemmCluster::M2, (512, 256, 64), 66, (2, 4, 4)),
        (GemmCluster::N2, (512, 256 * 4, 64), 3, (8, 16, 6)),
        // a device that reports no resident cluster still gets one
        (GemmCluster::M2, (1024, 1024, 64), 0, (16, 32, 2)),
    ];
    for (c, (m, n, k), r, (ct, tiles, grid)) in cases {
        let p = gemm_bf16_cluster_plan(GemmShape::new(m, n, k), c, r).unwrap();
        assert_eq!(
            (p.cluster_tiles, p.launch.tiles, p.launch.grid),
            (ct, tiles, (grid, 1, 1)),
            "{c:?} {m}x{n}x{k} r={r}"
        );
        assert_eq!(p.launch.grid.0 % 2, 0); // whole clusters
        assert_eq!(p.launch.tile, (128, 256));
        assert_eq!(p.cluster, c);
        assert_eq!(p.launch.kernel, c.kernel());
    }
    // The recorded H100 runs launched 132 CTAs of each cluster kernel at all 7 shapes (66
    // clusters of 2 resident, every shape with more cluster tiles than that).
    for (m, n, k) in [
        (8192, 8192, 8192),
        (4096, 4096, 4096),
        (8192, 8192, 2048),
        (16384, 8192, 4096),
        (2048, 16384, 8192),
        (6144, 6144, 6144),
        (12288, 6144, 8192),
    ] {
        for c in [GemmCluster::M2, GemmCluster::N2] {
            let p = gemm_bf16_cluster_plan(GemmShape::new(m, n, k), c, 66).unwrap();
            assert_eq!(p.launch.grid.0, 132, "{c:?} {m}x{n}x{k}");
        }
    }
}

/// Block, shared memory and stage bytes: each CTA of a cluster still holds whole A and B
/// stages (the multicast writes the other CTA's slice into it), so the storage is the 1x1
/// kernel's: 4 stages of A (128 x 64 bf16) and B (256 x 64), two 2-stage 64 x 64 C tiles,
/// 8 mbarriers, 1008 bytes of alignment slack; a stage's full barrier expects A and B whole.
#[test]
fn block_shared_memory_and_stage_bytes() {
    let bytes = 4 * 128 * 64 * 2 + 4 * 256 * 64 * 2 + 2 * 2 * 64 * 64 * 2 + 8 * 8 + 1008;
    for (c, tx) in [
        (GemmCluster::M2, epi_header_define("CL21_EXPECT_TX")),
        (GemmCluster::N2, epi_header_define("CL12_EXPECT_TX")),
    ] {
        let p = gemm_bf16_cluster_plan(GemmShape::new(256, 512, 64), c, 66).unwrap();
        assert_eq!(p.launch.block, (maxntid_of_build_script(), 1, 1));
        assert_eq!(p.launch.block.0, 384);
        assert_eq!(p.launch.shared_mem_bytes, bytes);
        assert!(p.launch.shared_mem_bytes <= 227 * 1024);
        assert_eq!(p.launch.stage_tx_bytes, (128 + 256) * 64 * 2);
        assert_eq!(p.launch.stage_tx_bytes, tx);
    }
}

/// The maps: A `[K, M]`, B `[K, N]` bf16 with the 128B swizzle, the box the slice one CTA
/// issues (the header's `CL*_SLICE_INNER` x `CL*_SLICE_ROWS`: B's 256 rows halved in 2x1, A's
/// 128 in 1x2), the slices of the sharing CTAs together the whole tile; C `[N, M]` in 64 x 64
/// boxes.
#[test]
fn maps_box_the_multicast_slices() {
    let (m, n, k) = (1024u64, 1024u64, 256u64);
    for (c, p) in [(GemmCluster::M2, "CL21"), (GemmCluster::N2, "CL12")] {
        let [ma, mb, mc] = maps_of(c, GemmShape::new(m as u32, n as u32, k as u32));
        let a = ma.address(0x1000).try_args().unwrap();
        let b = mb.address(0x2000).try_args().unwrap();
        let cc = mc.address(0x3000).try_args().unwrap();
        for (x, rows, op) in [(&a, m, "A"), (&b, n, "B")] {
            assert_eq!(
                (x.rank, &x.global_dim[..2], x.global_strides[0]),
                (2, &[k, rows][..], k * 2),
                "{p} {op}"
            );
            assert_eq!(
                (x.data_type, x.swizzle),
                (TensorMapDataType::Bfloat16, TensorMapSwizzle::B128)
            );
            assert_eq!(
                [x.box_dim[0], x.box_dim[1]],
                [
                    epi_header_define(&format!("{p}_{op}_SLICE_INNER")),
                    epi_header_define(&format!("{p}_{op}_SLICE_ROWS"))
                ],
                "{p} {op}"
            );
        }
        let (a_rows, b_rows) = match c {
            GemmCluster::M2 => (128, 128),
            GemmCluster::N2 => (64, 256),
        };
        assert_eq!((a.box_dim[1], b.box_dim[1]), (a_rows, b_rows), "{p}");
        // Slices x sharing CTAs = the tile: 128 rows of A, 256 of B.
        assert_eq!(
            a.box_dim[1] * epi_header_define(&format!("{p}_A_COUNT")),
            128
        );
        assert_eq!(
            b.box_dim[1] * epi_header_define(&format!("{p}_B_COUNT")),
            256
        );
        assert_eq!(
            (&cc.global_dim[..2], cc.global_strides[0], &cc.box_dim[..2]),
            (&[n, m][..], n * 2, &[64, 64][..])
        );
        assert_eq!(cc.swizzle, TensorMapSwizzle::B128);
    }
}
