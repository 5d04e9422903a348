//! A grouped rewrite against the map a host encode gives for each group (issue 42, item 4): a
//! recording `TensorMapOps` backend applies the rewrite's writes to a model of the slot, which
//! starts as the host's encode of the first group; after each group's rewrite the slot must be
//! that group's map in every field. The expected maps are an independent model: dense strides
//! from the dims and the element size as `cuTensorMapEncodeTiled` documents them
//! (`globalStrides[0] = globalDim[0] × elementSize`, each next one × the next dim), constant ones
//! as given. Also the rewrite's limits: a rewritten dim is a `.b32` (PTX ISA,
//! `tensormap.replace`), and the tile table's word limits.

use smemdesc::grouped::*;
use smemdesc::{
    Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapError, TensorMapSwizzle,
};
use std::cell::RefCell;

type Log = Vec<(&'static str, u32, u64)>;
thread_local!(static LOG: RefCell<Log> = const { RefCell::new(Vec::new()) });
fn push(e: (&'static str, u32, u64)) {
    LOG.with(|l| l.borrow_mut().push(e));
}
fn take() -> Log {
    LOG.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

/// Records the field writes; the fences are not what these tests look at.
struct Rec;
impl TensorMapOps for Rec {
    fn replace_address(_: u64, a: u64) {
        push(("address", 0, a));
    }
    fn replace_dim<const ORD: u32>(_: u64, v: u32) {
        push(("dim", ORD, v as u64));
    }
    fn replace_stride<const ORD: u32>(_: u64, v: u64) {
        push(("stride", ORD, v));
    }
    fn release() {}
    fn acquire(_: u64) {}
    fn bulk_wait_read_all() {}
}

/// The rewrite's writes for group `g` of declaration `M`.
fn rewrite<M: GroupedMapDecl>(g: &GroupValues) -> Log {
    let mut mem = TensorMapMem::zeroed();
    let slot = MapSlot::<M, Released>::new(&mut mem)
        .acquire::<Rec>()
        .retire_after_stores::<Rec>();
    take();
    let _ = slot.rewrite::<Rec>(g);
    take()
}

/// The global fields of one map: what the slot holds, and what the host encodes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fields {
    address: u64,
    dims: Vec<u64>,
    strides: Vec<u64>,
}

/// The independent model of a host encode: `dims` (innermost first), `elt` bytes per element,
/// `constant[i]` a stride the template fixes, the others dense.
fn host(address: u64, dims: &[u64], elt: u64, constant: &[Option<u64>]) -> Fields {
    let mut strides = Vec::new();
    for i in 0..dims.len() - 1 {
        let below = if i == 0 { elt } else { strides[i - 1] };
        strides.push(
            constant
                .get(i)
                .copied()
                .flatten()
                .unwrap_or(below * dims[i]),
        );
    }
    Fields {
        address,
        dims: dims.to_vec(),
        strides,
    }
}

/// The device: `slot` after the recorded writes.
fn apply(mut slot: Fields, log: &Log) -> Fields {
    for &(what, ord, v) in log {
        match what {
            "address" => slot.address = v,
            "dim" => slot.dims[ord as usize] = v,
            "stride" => slot.strides[ord as usize] = v,
            other => panic!("unexpected {other}"),
        }
    }
    slot
}

/// Rewrites the slot through `groups` in turn, from the host's encode of the first one: after
/// each, the slot is exactly that group's map (so every field in which it differs from the map
/// before was written), and the host's check of the group gives the same map.
fn walk<M: GroupedMapDecl>(groups: &[(GroupValues, Fields)]) {
    let mut slot = groups[0].1.clone();
    for (i, (g, want)) in groups.iter().enumerate().skip(1) {
        let before = slot.clone();
        let log = rewrite::<M>(g);
        slot = apply(slot, &log);
        assert_eq!(
            slot, *want,
            "group {i}: the slot after {log:?} (before: {before:?})"
        );
        let a = M::MAP.check_group(g).expect("a legal group");
        let r = want.dims.len();
        let checked = Fields {
            address: a.global_address,
            dims: a.global_dim[..r].to_vec(),
            strides: a.global_strides[..r - 1].to_vec(),
        };
        assert_eq!(checked, *want, "group {i}: check_group's map");
    }
}

/// Rank 2, `[K, M]` bf16: K and M per group (K's row stride dense), and M alone (no stride
/// depends on it).
struct KM;
impl GroupedMapDecl for KM {
    const MAP: GroupedMap = GroupedMap::declare(
        TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
            .box_dim(0, 64)
            .box_dim(1, 128)
            .swizzle(TensorMapSwizzle::B128),
        &[
            TensorMapArg::GlobalAddress,
            TensorMapArg::GlobalDim(0),
            TensorMapArg::GlobalDim(1),
        ],
    );
}
struct M2;
impl GroupedMapDecl for M2 {
    const MAP: GroupedMap = GroupedMap::declare(
        TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
            .dim(0, 4096)
            .box_dim(0, 64)
            .box_dim(1, 128)
            .swizzle(TensorMapSwizzle::B128),
        &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
    );
}

#[test]
fn rank_2_rewrites_every_field_the_group_map_differs_in() {
    let g = |a: u64, k: u64, m: u64| {
        (
            GroupValues::new(a).dim(0, k).dim(1, m),
            host(a, &[k, m], 2, &[]),
        )
    };
    walk::<KM>(&[
        g(0x10000, 4096, 300),
        g(0x7f00_0000, 520, 128),
        g(0x7f80_0000, 7168, 1),
        g(0x7f90_0000, 7168, 77),
    ]);
    let g = |a: u64, m: u64| (GroupValues::new(a).dim(1, m), host(a, &[4096, m], 2, &[]));
    walk::<M2>(&[g(0x10000, 300), g(0x20000, 1), g(0x30000, 2048)]);
}

/// Rank 3, `[K, M, batch]` bf16, K and the batch count constant, M per group: the batch stride
/// `K × M × 2 B` is rewritten with M.
struct KMBatch;
impl GroupedMapDecl for KMBatch {
    const MAP: GroupedMap = GroupedMap::declare(
        TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 3)
            .dim(0, 4096)
            .dim(2, 8)
            .box_dim(0, 64)
            .box_dim(1, 128)
            .swizzle(TensorMapSwizzle::B128),
        &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
    );
}
/// The same with K per group too (f32): both strides rewritten.
struct KMBatch2;
impl GroupedMapDecl for KMBatch2 {
    const MAP: GroupedMap = GroupedMap::declare(
        TensorMap::new(Arch::Sm90, TensorMapDataType::Float32, 3)
            .dim(2, 3)
            .box_dim(0, 32)
            .box_dim(1, 64)
            .swizzle(TensorMapSwizzle::B128),
        &[
            TensorMapArg::GlobalAddress,
            TensorMapArg::GlobalDim(0),
            TensorMapArg::GlobalDim(1),
        ],
    );
}
/// `[K, M, batch]` with a constant batch stride (each batch padded to 4096 rows): M per group
/// writes no stride, and a group whose M outgrows the pitch is refused.
struct KMPadded;
impl GroupedMapDecl for KMPadded {
    const MAP: GroupedMap = GroupedMap::declare(
        TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 3)
            .dim(0, 4096)
            .dim(2, 8)
            .stride(1, 4096 * 2 * 4096)
            .box_dim(0, 64)
            .box_dim(1, 128)
            .swizzle(TensorMapSwizzle::B128),
        &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
    );
}

#[test]
fn rank_3_rewrites_the_strides_that_depend_on_a_rewritten_dim() {
    let g = |a: u64, m: u64| {
        (
            GroupValues::new(a).dim(1, m),
            host(a, &[4096, m, 8], 2, &[]),
        )
    };
    walk::<KMBatch>(&[
        g(0x10000, 300),
        g(0x7f00_0000, 128),
        g(0x7f80_0000, 1),
        g(0x7f90_0000, 2049),
    ]);
    let g = |a: u64, k: u64, m: u64| {
        (
            GroupValues::new(a).dim(0, k).dim(1, m),
            host(a, &[k, m, 3], 4, &[]),
        )
    };
    walk::<KMBatch2>(&[
        g(0x10000, 256, 300),
        g(0x7f00_0000, 1000, 7),
        g(0x7f80_0000, 64, 1),
        g(0x7f90_0000, 4096, 129),
    ]);
    let pitch = Some(4096 * 2 * 4096);
    let g = |a: u64, m: u64| {
        (
            GroupValues::new(a).dim(1, m),
            host(a, &[4096, m, 8], 2, &[None, pitch]),
        )
    };
    walk::<KMPadded>(&[g(0x10000, 4096), g(0x20000, 300), g(0x30000, 1)]);
    // 4097 rows no longer fit the constant pitch (cuda.h: globalStrides[1] >= globalStrides[0]
    // x globalDim[1]).
    assert_eq!(
        KMPadded::MAP
            .check_group(&GroupValues::new(0x10000).dim(1, 4097))
            .unwrap_err(),
        TensorMapError::StrideTooSmall {
            index: 1,
            stride: 4096 * 2 * 4096,
            min: 4096 * 2 * 4097
        }
    );
}

#[test]
fn a_stride_given_for_a_dense_rewrite_must_be_the_dense_one() {
    let g = GroupValues::new(0x10000).dim(1, 300);
    // 4096 x 2 B x 300 rows per batch, given or not.
    assert!(KMBatch::MAP
        .check_group(&g.stride(1, 4096 * 2 * 300))
        .is_ok());
    assert_eq!(
        KMBatch::MAP.check_group(&g.stride(1, 4096 * 2 * 512)),
        Err(TensorMapError::DenseStrideMismatch {
            index: 1,
            given: 4096 * 2 * 512,
            dense: 4096 * 2 * 300
        })
    );
    // A padded row (GroupMatrix's row stride) on a declaration that keeps the rows dense.
    let m = GroupMatrix {
        address: 0x10000,
        rows: 300,
        cols: 4096,
        row_stride_bytes: 8192 + 128,
    };
    let e = KM::MAP.check_group(&m.values().unwrap()).unwrap_err();
    assert_eq!(e.argument(), TensorMapArg::GlobalStrides(0));
    assert!(e.to_string().contains("8192 B"), "{e}");
}

#[test]
fn a_dense_stride_of_a_dim_the_kernel_cannot_know_is_refused() {
    // [K, M, batch] with K left to the host's encode: the batch stride K x M x 2 B cannot be
    // written by a kernel that does not know K.
    let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 3)
        .dim(2, 8)
        .box_dim(0, 64)
        .box_dim(1, 128);
    let rows = [TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)];
    assert_eq!(
        GroupedMap::new(t, &rows),
        Err(GroupedMapError::DenseStrideUnknown { stride: 1, dim: 0 })
    );
    // Legal: K constant, K rewritten too, or the batch stride given per group.
    assert!(GroupedMap::new(t.dim(0, 4096), &rows).is_ok());
    let with_k = [rows[0], rows[1], TensorMapArg::GlobalDim(0)];
    assert!(GroupedMap::new(t, &with_k).is_ok());
    let with_stride = [rows[0], rows[1], TensorMapArg::GlobalStrides(1)];
    // (K is the host's and every group's: its window is kept by declaration.)
    let g = GroupedMap::new_keep_oob_fetch_window(t, &with_stride, &[0]).unwrap();
    assert!(!g.dense_rewrite(1));
    // A K the host gives stays possible when nothing rewritten depends on it (C's map in gpu/).
    assert!(
        GroupedMap::new_keep_oob_fetch_window(t, &[TensorMapArg::GlobalAddress], &[0, 1]).is_ok()
    );
}

/// A rewrite that moves the map to each group's buffer but leaves an open dim at the template's
/// extent keeps the template's out-of-bounds fetch window: refused unless the rewrite bounds it
/// (the dim rewritten) or the declaration keeps it (every group has the template's extent).
#[test]
fn a_shrinking_rewrite_must_handle_the_window() {
    // C of a grouped GEMM: [N, rows], N = 4096 constant, rows open (the host encodes the
    // template for the largest group, 4096 rows).
    let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
        .dim(0, 4096)
        .box_dim(0, 64)
        .box_dim(1, 128);
    let addr_only = [TensorMapArg::GlobalAddress];
    let e = GroupedMap::new(t, &addr_only).unwrap_err();
    assert_eq!(e, GroupedMapError::WindowKept { dim: 1 });
    assert!(
        e.to_string().contains("globalDim[1]") && e.to_string().contains("keep_oob_fetch_window"),
        "{e}"
    );
    // The window of a group of 768 rows under the kept template: the encode's globalDim[1] is
    // the template's, so a box at row 768 is fetched from past the group's buffer; with the
    // rows rewritten it is the group's.
    let host = t.dim(1, 4096);
    let kept = GroupedMap::new_keep_oob_fetch_window(host, &addr_only, &[]).unwrap();
    let rows = GroupedMap::new(
        t,
        &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
    )
    .unwrap();
    let g = GroupValues::new(0x7f00_0000_0000).dim(1, 768);
    assert_eq!(kept.group_map(&g).global_dim[1], Some(4096));
    assert_eq!(rows.group_map(&g).global_dim[1], Some(768));
    // Kept by declaration: every group has 4096 rows (a dim the rewrite leaves open and alone).
    let k = GroupedMap::new_keep_oob_fetch_window(t, &addr_only, &[1]).unwrap();
    assert!(k.keeps_oob_fetch_window(1) && !k.keeps_oob_fetch_window(0));
    // Only such a dim can be kept: a constant one, a rewritten one or one past the rank cannot.
    for d in [0, 2] {
        assert_eq!(
            GroupedMap::new_keep_oob_fetch_window(t, &addr_only, &[d]),
            Err(GroupedMapError::KeptNotOpen { dim: d })
        );
    }
    assert_eq!(
        GroupedMap::new_keep_oob_fetch_window(
            t,
            &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
            &[1]
        ),
        Err(GroupedMapError::KeptNotOpen { dim: 1 })
    );
    // A rewrite that does not move the address shares the template's base and window.
    assert!(GroupedMap::new(t, &[TensorMapArg::GlobalDim(1)]).is_ok());
}

/// Rank 5 with every global field rewritten: the address, 5 dims and 4 strides.
struct All5;
impl GroupedMapDecl for All5 {
    const MAP: GroupedMap = GroupedMap::declare(
        TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 5)
            .box_dim(0, 16)
            .box_dim(1, 2),
        &[
            TensorMapArg::GlobalAddress,
            TensorMapArg::GlobalDim(0),
            TensorMapArg::GlobalDim(1),
            TensorMapArg::GlobalDim(2),
            TensorMapArg::GlobalDim(3),
            TensorMapArg::GlobalDim(4),
        ],
    );
}

#[test]
fn rank_5_rewrites_all_ten_fields() {
    let g = |a: u64, d: [u64; 5]| {
        let v = (0..5).fold(GroupValues::new(a), |v, i| v.dim(i, d[i]));
        (v, host(a, &d, 1, &[]))
    };
    walk::<All5>(&[
        g(0x10000, [32, 3, 2, 5, 7]),
        g(0x20000, [48, 1, 9, 2, 3]),
        g(0x30000, [16, 16, 16, 16, 16]),
    ]);
    assert_eq!(rewrite::<All5>(&g(0x10000, [32, 3, 2, 5, 7]).0).len(), 10);
    // The same ten listed by hand: the declaration holds them all.
    let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 5)
        .box_dim(0, 16)
        .box_dim(1, 2)
        .runtime_strides();
    let mut every = vec![TensorMapArg::GlobalAddress];
    every.extend((0..5).map(TensorMapArg::GlobalDim));
    every.extend((0..4).map(TensorMapArg::GlobalStrides));
    assert!(GroupedMap::new(t, &every).is_ok());
}

#[test]
fn a_rewritten_dim_is_a_b32() {
    // PTX ISA, tensormap.replace: .global_dim takes a .b32, so 2^32 (legal for a host encode,
    // cuda.h: globalDim <= 2^32) cannot be written; 2^32 - 1 can, and is written exactly.
    let g = GroupValues::new(0x10000);
    assert_eq!(
        M2::MAP.check_group(&g.dim(1, 1 << 32)),
        Err(TensorMapError::RewrittenDimTooLarge {
            index: 1,
            dim: 1 << 32
        })
    );
    let e = M2::MAP.check_group(&g.dim(1, 1 << 32)).unwrap_err();
    assert!(e.to_string().contains(".b32"), "{e}");
    assert!(M2::MAP.check_group(&g.dim(1, u32::MAX as u64)).is_ok());
    assert_eq!(
        rewrite::<M2>(&g.dim(1, u32::MAX as u64)),
        [("address", 0, 0x10000), ("dim", 1, u32::MAX as u64)]
    );
    // A constant 2^32 stays the host's to encode.
    let host_only = GroupedMap::new(
        TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
            .dim(0, 64)
            .dim(1, 1 << 32)
            .box_dim(0, 64)
            .box_dim(1, 128),
        &[TensorMapArg::GlobalAddress],
    )
    .unwrap();
    assert_eq!(host_only.check_group(&g).unwrap().global_dim[1], 1 << 32);
}

#[test]
fn the_tile_table_refuses_what_its_word_cannot_hold() {
    let shape = |m| GroupShape { m, n: 256, k: 64 };
    // pack_tile's word: group in bits 22-31, so groups 0..=1023 may have tiles.
    let mut groups = vec![shape(128); 1024];
    groups.push(shape(0));
    let t = GroupedTiles::new::<crate::grouped::Pipe1>(&groups, 128, 256, 64).unwrap();
    let mut table = vec![0u32; t.tiles() as usize];
    assert_eq!(t.write_table(&mut table), Ok(()));
    assert_eq!(unpack_tile(table[1023]), (1023, 0, 0));
    groups[1024] = shape(1);
    let t = GroupedTiles::new::<crate::grouped::Pipe1>(&groups, 128, 256, 64).unwrap();
    let mut table = vec![u32::MAX; t.tiles() as usize];
    let e = t.write_table(&mut table).unwrap_err();
    assert_eq!(
        e,
        GroupedError::TableGroupTooLarge {
            group: 1024,
            limit: 1024
        }
    );
    assert!(!e.to_string().contains("2^32"), "{e}");
    assert!(table.iter().all(|&w| w == u32::MAX), "nothing written");
    // M tile in bits 11-21, N tile in bits 0-10: 2048 tiles each.
    let fits = [GroupShape {
        m: 2048 * 128,
        n: 2048 * 256,
        k: 64,
    }];
    let t = GroupedTiles::new::<crate::grouped::Pipe1>(&fits, 128, 256, 64).unwrap();
    let mut table = vec![0u32; t.tiles() as usize];
    assert_eq!(t.write_table(&mut table), Ok(()));
    assert_eq!(unpack_tile(*table.last().unwrap()), (0, 2047, 2047));
    for (m, n, dim) in [(2049 * 128, 256, 'm'), (128, 2049 * 256, 'n')] {
        let g = [GroupShape { m, n, k: 64 }];
        let t = GroupedTiles::new::<crate::grouped::Pipe1>(&g, 128, 256, 64).unwrap();
        let mut table = vec![0u32; t.tiles() as usize];
        assert_eq!(
            t.write_table(&mut table),
            Err(GroupedError::TableTilesTooLarge {
                group: 0,
                dim,
                tiles: 2049,
                limit: 2048
            })
        );
    }
    // A table of the wrong length.
    let t = GroupedTiles::new::<crate::grouped::Pipe1>(&fits[..], 128, 256, 64).unwrap();
    assert_eq!(
        t.write_table(&mut [0u32; 3]),
        Err(GroupedError::TableLength {
            len: 3,
            tiles: 2048 * 2048
        })
    );
}

#[test]
fn a_field_index_beyond_any_rank_is_an_error_not_a_panic() {
    // A template of rank 7 (illegal: cuda.h allows 1 to 5) with dim 6 or stride u32::MAX listed.
    let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Uint8, 7);
    for f in [
        TensorMapArg::GlobalDim(6),
        TensorMapArg::GlobalStrides(5),
        TensorMapArg::GlobalStrides(u32::MAX),
    ] {
        assert_eq!(
            GroupedMap::new(t, &[f]),
            Err(GroupedMapError::BeyondRank { field: f, rank: 7 })
        );
    }
}
