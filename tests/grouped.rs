//! Grouped GEMM declarations: the schedule against nested loops over every group's tiles, the
//! per-group check against the documented `cuTensorMapEncodeTiled` rules, the rewrite's
//! instructions against the declaration, and a group's map against the same map declared
//! directly.

use smemdesc::grouped::*;
use smemdesc::pipeline::{PipeAt, PipelineOps};
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};
use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapSwizzle};
use std::cell::RefCell;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
pub struct TileA;
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
pub struct TileB;
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    b: TileB,
    full: [Mbarrier; 2],
    empty: [Mbarrier; 2],
}
/// The grouped kernel's pipelines: one CTA, and B multicast over 2 and 4 CTAs along M.
#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2)]
pub struct Pipe1;
#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2, multicast = (b), cluster = (2, 1))]
pub struct Pipe2;
#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2, multicast = (b), cluster = (4, 1))]
pub struct Pipe4;
/// A cluster along M without multicast: whole clusters, no group condition.
#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2, cluster = (2, 1))]
pub struct Pipe2NoMc;
/// A multicast (CTAs along N): no grouped schedule.
#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2, multicast = (a), cluster = (1, 2))]
pub struct Pipe12;

/// The schedule of pipeline `x` (1, 2 or 4 CTAs along M sharing B).
fn sched(g: &[GroupShape], x: u32) -> Result<GroupedTiles<'_>, GroupedError> {
    match x {
        1 => GroupedTiles::new::<Pipe1>(g, 128, 256, 64),
        2 => GroupedTiles::new::<Pipe2>(g, 128, 256, 64),
        4 => GroupedTiles::new::<Pipe4>(g, 128, 256, 64),
        _ => unreachable!(),
    }
}

/// MoE-like distributions of tokens per expert: empty experts, 1-127, unaligned tails, large.
fn distributions() -> Vec<Vec<u32>> {
    let mut s: u64 = 0x9e3779b97f4a7c15;
    let mut next = |r: u32| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % r as u64) as u32
    };
    let mut out = vec![vec![0, 1, 127, 128, 129, 300, 0, 2048]];
    for g in [8usize, 32, 64, 128] {
        out.push(
            (0..g)
                .map(|_| match next(4) {
                    0 => 0,
                    1 => 1 + next(127),
                    _ => next(2048),
                })
                .collect(),
        );
    }
    out
}

#[test]
fn the_schedule_visits_every_tile_of_every_group_once_in_order() {
    for ms in distributions() {
        for n in [256u32, 2048, 7168] {
            let groups: Vec<GroupShape> =
                ms.iter().map(|&m| GroupShape { m, n, k: 4096 }).collect();
            let t = sched(&groups, 1).unwrap();
            // The model: groups in turn, N tiles outer, M tiles inner.
            let mut want = Vec::new();
            for (g, s) in groups.iter().enumerate() {
                for ni in 0..s.n / 256 {
                    let mut m0 = 0;
                    while m0 < s.m {
                        want.push(GroupTile {
                            group: g as u32,
                            m0,
                            n0: ni * 256,
                            rows: (s.m - m0).min(128),
                        });
                        m0 += 128;
                    }
                }
            }
            assert_eq!(t.tiles() as usize, want.len());
            for (i, w) in want.iter().enumerate() {
                assert_eq!(t.locate(i as u32), Some(*w), "tile {i}");
            }
            assert_eq!(t.locate(want.len() as u32), None);
            // The packed table a kernel reads holds the same tiles.
            let mut table = vec![0u32; t.tiles() as usize];
            t.write_table(&mut table).unwrap();
            for (w, got) in want.iter().zip(&table) {
                assert_eq!(unpack_tile(*got), (w.group, w.m0 / 128, w.n0 / 256));
            }
            let rows: u64 = want.iter().map(|w| w.rows as u64).sum();
            assert_eq!(
                rows * (256),
                ms.iter().map(|&m| m as u64 * n as u64).sum::<u64>()
            );
        }
    }
}

#[test]
fn multicast_never_spans_two_groups() {
    // 2 and 0 M tiles: every 2-CTA cluster along M stays in one group.
    let ok = [
        GroupShape {
            m: 256,
            n: 256,
            k: 64,
        },
        GroupShape {
            m: 0,
            n: 256,
            k: 64,
        },
    ];
    assert!(sched(&ok, 2).is_ok());
    // 300 rows: 3 M tiles, so one cluster would take the last tile of group 1 and the first of
    // the next group.
    let bad = [
        GroupShape {
            m: 256,
            n: 256,
            k: 64,
        },
        GroupShape {
            m: 300,
            n: 256,
            k: 64,
        },
    ];
    assert_eq!(
        sched(&bad, 2).unwrap_err(),
        GroupedError::MulticastAcrossGroups {
            group: 1,
            m_tiles: 3,
            x: 2
        }
    );
    // The same groups are fine without multicast, even in clusters of 2 (no B is shared).
    assert!(sched(&bad, 1).is_ok());
    assert_eq!(
        GroupedTiles::new::<Pipe2NoMc>(&bad, 128, 256, 64)
            .unwrap()
            .persistent_grid(5),
        4
    );
    // CTAs along N sharing A have no grouped schedule.
    assert_eq!(
        GroupedTiles::new::<Pipe12>(&ok, 128, 256, 64).unwrap_err(),
        GroupedError::ClusterAlongN { y: 2 }
    );
}

/// A: tokens x K bf16 per group, rewritten address, rows and row stride.
const A: GroupedMap = GroupedMap::declare(
    TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
        .dim(0, 4096)
        .box_dim(0, 64)
        .box_dim(1, 128)
        .swizzle(TensorMapSwizzle::B128),
    &[
        TensorMapArg::GlobalAddress,
        TensorMapArg::GlobalDim(1),
        TensorMapArg::GlobalStrides(0),
    ],
);

#[test]
fn each_group_is_checked_by_the_documented_rules() {
    let ok = GroupValues::new(0x7f00_0000_0000)
        .dim(1, 300)
        .stride(0, 8192);
    let args = A.check_group(&ok).unwrap();
    assert_eq!(
        (
            args.global_dim[0],
            args.global_dim[1],
            args.global_strides[0]
        ),
        (4096, 300, 8192)
    );
    // cuda.h: globalAddress aligned to 16 B; globalDim in [1, 2^32]; globalStrides a multiple
    // of 16 and below 2^40; (dense) stride[0] >= dim[0] x element size.
    let arg = |v: GroupValues| A.check_group(&v).unwrap_err().argument();
    assert_eq!(
        arg(ok.stride(0, 8192).dim(1, 300).dim(1, 0)),
        TensorMapArg::GlobalDim(1)
    );
    assert_eq!(arg(ok.dim(1, (1 << 32) + 1)), TensorMapArg::GlobalDim(1));
    assert_eq!(
        arg(GroupValues {
            address: 0x7f00_0000_0004,
            ..ok
        }),
        TensorMapArg::GlobalAddress
    );
    assert_eq!(arg(ok.stride(0, 8200)), TensorMapArg::GlobalStrides(0));
    assert_eq!(arg(ok.stride(0, 1 << 40)), TensorMapArg::GlobalStrides(0));
    assert_eq!(arg(ok.stride(0, 4096)), TensorMapArg::GlobalStrides(0)); // < 4096 x 2 B
                                                                         // A group's map is the map declared directly with its values.
    let direct = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
        .address(0x7f00_0000_0000)
        .dim(0, 4096)
        .dim(1, 300)
        .stride(0, 8192)
        .box_dim(0, 64)
        .box_dim(1, 128)
        .swizzle(TensorMapSwizzle::B128);
    assert_eq!(A.check_group(&ok), direct.try_args());
}

thread_local!(static LOG: RefCell<Vec<(&'static str, u32, u64)>> = const { RefCell::new(Vec::new()) });
struct Rec;
impl TensorMapOps for Rec {
    fn replace_address(_: u64, a: u64) {
        LOG.with(|l| l.borrow_mut().push(("address", 0, a)));
    }
    fn replace_dim<const ORD: u32>(_: u64, v: u32) {
        LOG.with(|l| l.borrow_mut().push(("dim", ORD, v as u64)));
    }
    fn replace_stride<const ORD: u32>(_: u64, v: u64) {
        LOG.with(|l| l.borrow_mut().push(("stride", ORD, v)));
    }
    fn release() {
        LOG.with(|l| l.borrow_mut().push(("release", 0, 0)));
    }
    fn acquire(_: u64) {
        LOG.with(|l| l.borrow_mut().push(("acquire", 0, 0)));
    }
    fn bulk_wait_read_all() {
        LOG.with(|l| l.borrow_mut().push(("wait_read", 0, 0)));
    }
}

struct MapA;
impl GroupedMapDecl for MapA {
    const MAP: GroupedMap = A;
}
struct MapC3;
impl GroupedMapDecl for MapC3 {
    // A rank-3 map: only the outer dim and the second stride are rewritten.
    const MAP: GroupedMap = GroupedMap::declare(
        TensorMap::new(Arch::Sm90, TensorMapDataType::Float32, 3)
            .address(0x1000)
            .dim(0, 64)
            .dim(1, 8)
            .stride(0, 256)
            .box_dim(0, 32)
            .box_dim(1, 8)
            .box_dim(2, 1),
        &[TensorMapArg::GlobalDim(2), TensorMapArg::GlobalStrides(1)],
    );
}

#[test]
fn a_rewrite_writes_exactly_the_declared_fields_in_order() {
    let take = || LOG.with(|l| std::mem::take(&mut *l.borrow_mut()));
    let (mut m1, mut m2, mut m3) = (
        TensorMapMem::zeroed(),
        TensorMapMem::zeroed(),
        TensorMapMem::zeroed(),
    );
    let g = GroupValues::new(0xabc0)
        .dim(0, 9)
        .dim(1, 77)
        .dim(2, 5)
        .stride(0, 4096)
        .stride(1, 99_840);
    let slot = MapSlot::<MapA, Released>::new(&mut m1).acquire::<Rec>();
    let _ = slot
        .retire_after_stores::<Rec>()
        .rewrite::<Rec>(&g)
        .release::<Rec>();
    assert_eq!(
        take(),
        [
            ("acquire", 0, 0),
            ("wait_read", 0, 0),
            ("address", 0, 0xabc0),
            ("dim", 1, 77),
            ("stride", 0, 4096),
            ("release", 0, 0)
        ]
    );
    let slot = MapSlot::<MapC3, Released>::new(&mut m2).acquire::<Rec>();
    let _ = slot.retire_after_stores::<Rec>().rewrite::<Rec>(&g);
    assert_eq!(
        take(),
        [
            ("acquire", 0, 0),
            ("wait_read", 0, 0),
            ("dim", 2, 5),
            ("stride", 1, 99_840)
        ]
    );
    // The checked form writes nothing for a group that breaks a rule.
    let slot = MapSlot::<MapA, Released>::new(&mut m3)
        .acquire::<Rec>()
        .retire_after_stores::<Rec>();
    let Err((e, _back)) = slot.rewrite_checked::<Rec>(&g.stride(0, 4100)) else {
        panic!("a 4100-B stride is not a multiple of 16")
    };
    assert_eq!(e.argument(), TensorMapArg::GlobalStrides(0));
    assert_eq!(take(), [("acquire", 0, 0), ("wait_read", 0, 0)]);
}

impl PipelineOps for Rec {
    fn init(_: u32, _: u32) {}
    fn fence_init() {}
    fn sync_cta() {}
    fn sync_cluster() {}
    fn arrive_expect_tx(_: u32, _: u32) {}
    fn arrive(_: u32) {}
    fn arrive_cluster(_: u32, _: u32) {}
    fn wait(bar: u32, parity: u32) -> bool {
        LOG.with(|l| l.borrow_mut().push(("mbarrier wait", parity, bar as u64)));
        true
    }
    fn map_cta(a: u32, _: u32) -> u32 {
        a
    }
    fn tma_load(_: u32, map: u64, _: u32, _: u32, _: u32) {
        LOG.with(|l| l.borrow_mut().push(("load", 0, map)));
    }
    fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
    fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
}

/// A slot lent to the producer for its loads: the loads read the slot's map, and the slot comes
/// back retired only after the full barrier of each stage's last fill completed (the phase
/// arithmetic of `mbarrier.try_wait.parity`: fill n of a stage completes phase n).
#[test]
fn a_lent_slot_comes_back_after_the_loads_that_read_it_landed() {
    let take = || LOG.with(|l| std::mem::take(&mut *l.borrow_mut()));
    let mut mem = TensorMapMem::zeroed();
    let map = &mem as *const TensorMapMem as u64;
    let slot = MapSlot::<MapA, Released>::new(&mut mem).acquire_for_loads::<Rec>();
    let (producer, _consumers) = PipeAt::<Pipe1>::new(0, 0).split();
    let mut producer = producer.lend(slot);
    take();
    // 5 fills of a 2-stage pipeline: stage 0 holds fills 0, 2, 4; stage 1 fills 1, 3.
    for i in 0..5u32 {
        let f = producer.acquire::<Rec>().unwrap();
        let _ = f
            .load_lent::<Rec>(64 * i, 0)
            .load::<Rec>(0xb0b, 64 * i, 0)
            .issued();
    }
    let loads: Vec<u64> = take()
        .into_iter()
        .filter(|e| e.0 == "load")
        .map(|e| e.2)
        .collect();
    // A's boxes read the lent map, B's the other one.
    let a_boxes = <TileA as smemdesc::SmemTile>::TMA_BOXES as usize;
    let b_boxes = <TileB as smemdesc::SmemTile>::TMA_BOXES as usize;
    assert_eq!(loads.len(), 5 * (a_boxes + b_boxes));
    for fill in loads.chunks(a_boxes + b_boxes) {
        assert!(fill[..a_boxes].iter().all(|&m| m == map));
        assert!(fill[a_boxes..].iter().all(|&m| m == 0xb0b));
    }
    let Ok((_producer, retired)) = producer.reclaim::<Rec>() else {
        panic!("the backend's waits do not give up")
    };
    // The last fill of stage 0 is fill 4 (its third: phase 2, parity 0), of stage 1 fill 3
    // (its second: phase 1, parity 1).
    assert_eq!(
        take(),
        [
            ("mbarrier wait", 0, Storage::full_at(0, 0) as u64),
            ("mbarrier wait", 1, Storage::full_at(0, 1) as u64),
        ]
    );
    let _ = retired.rewrite::<Rec>(&GroupValues::new(0x1000).dim(1, 3).stride(0, 8192));
    assert_eq!(take()[0], ("address", 0, 0x1000));
}

/// `persistent_grid` against its definition, written out: the CTAs that have work (no more than
/// the tiles, no more than the resident CTAs), rounded down to whole clusters, at least one
/// cluster.
#[test]
fn persistent_grid_is_whole_clusters_of_busy_ctas() {
    for x in [1u32, 2, 4] {
        for m_tiles in [1u32, 3, 8] {
            let g: Vec<GroupShape> = (0..3)
                .map(|_| GroupShape {
                    m: 128 * m_tiles * x,
                    n: 256,
                    k: 64,
                })
                .collect();
            let t = sched(&g, x).unwrap();
            assert_eq!(t.tiles(), 3 * m_tiles * x);
            for ctas in [1u32, 2, 3, 5, 7, 64, 132, 1000] {
                let grid = t.persistent_grid(ctas);
                let mut want = 0;
                while want + x <= ctas.min(t.tiles()) {
                    want += x;
                }
                assert_eq!(grid, want.max(x), "x {x}, tiles {}, ctas {ctas}", t.tiles());
            }
        }
    }
}

/// The workspace's slots are where the kernel used to compute them by hand (`slots + 128 ·
/// (SLOTS · cta + i)`, CTA-major), each one a handle of its own.
#[test]
fn a_workspace_slot_is_its_ctas_ith_128_bytes() {
    let base = 0x7000_0000u64;
    let mut ws = MapWorkspace::<2>::from_param(base).unwrap();
    for cta in [0u32, 1, 7, 131, u32::MAX / 512] {
        assert_eq!(ws.slot::<0, MapA>(cta).slot(), base + 256 * cta as u64);
        assert_eq!(
            ws.slot::<1, MapA>(cta).slot(),
            base + 256 * cta as u64 + 128
        );
    }
    let mut ws4 = MapWorkspace::<4>::from_param(base).unwrap();
    assert_eq!(ws4.slot::<3, MapA>(2).slot(), base + 512 * 2 + 384);
    assert_eq!(MapWorkspace::<4>::bytes(132), Some(132 * 512));
    assert_eq!(
        MapWorkspace::<4>::bytes(u32::MAX),
        Some(512 * u32::MAX as u64)
    );
    for bad in [1u64, 64, 0x7000_0003, base + 8] {
        assert_eq!(
            MapWorkspace::<2>::from_param(bad).err(),
            Some(MisalignedWorkspace { address: bad })
        );
    }
    // A slot walks the states like any other.
    let take = || LOG.with(|l| std::mem::take(&mut *l.borrow_mut()));
    take();
    let live = ws.slot::<1, MapA>(3).acquire::<Rec>();
    let _ = live
        .retire_after_stores::<Rec>()
        .rewrite::<Rec>(&GroupValues::new(0x1000).dim(1, 3).stride(0, 8192))
        .release::<Rec>();
    assert_eq!(
        take()[..3],
        [
            ("acquire", 0, 0),
            ("wait_read", 0, 0),
            ("address", 0, 0x1000)
        ]
    );
}
