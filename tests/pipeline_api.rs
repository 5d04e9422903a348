//! The declared pipeline's run-time handles, driven through a recording `PipelineOps`: every
//! instruction they issue is compared with an independent account of the protocol — the TMA
//! boxes and multicast slices with the core's `Multicast` plan and the tiles' TMA plans, the
//! bytes landing in each CTA with its full barrier's `expect_tx`, the CTAs a release reaches
//! with the CTAs whose producers wrote into the stage, the waits' stages and parities with the
//! phase arithmetic of `mbarrier.try_wait.parity`.

use smemdesc::cluster::Multicast;
use smemdesc::pipeline::{Independent, PairRole, PipeAt, Pipeline, PipelineOps, Single};
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier, SmemTile};
use std::cell::RefCell;

#[derive(Clone, Debug, PartialEq)]
enum Op {
    Init(u32, u32),
    Fence,
    SyncCta,
    SyncCluster,
    Expect(u32, u32),
    Arrive(u32),
    ArriveCluster(u32, u32),
    Wait(u32, u32),
    Load {
        dst: u32,
        c0: u32,
        c1: u32,
        bar: u32,
        mask: u16,
    },
    /// The pair form (`.cta_group::2`).
    LoadPair {
        dst: u32,
        c0: u32,
        c1: u32,
        bar: u32,
    },
}

thread_local!(static LOG: RefCell<Vec<Op>> = const { RefCell::new(Vec::new()) });
fn push(o: Op) {
    LOG.with(|l| l.borrow_mut().push(o));
}
fn take() -> Vec<Op> {
    LOG.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

struct Rec;
impl PipelineOps for Rec {
    fn init(bar: u32, count: u32) {
        push(Op::Init(bar, count))
    }
    fn fence_init() {
        push(Op::Fence)
    }
    fn sync_cta() {
        push(Op::SyncCta)
    }
    fn sync_cluster() {
        push(Op::SyncCluster)
    }
    fn arrive_expect_tx(bar: u32, bytes: u32) {
        push(Op::Expect(bar, bytes))
    }
    fn arrive(bar: u32) {
        push(Op::Arrive(bar))
    }
    fn arrive_cluster(bar: u32, cta: u32) {
        push(Op::ArriveCluster(bar, cta))
    }
    fn wait(bar: u32, parity: u32) -> bool {
        push(Op::Wait(bar, parity));
        true
    }
    fn map_cta(addr: u32, cta: u32) -> u32 {
        // (distinct from the unmapped address for every rank, 0 included)
        addr | ((cta + 1) << 24)
    }
    fn tma_load(dst: u32, _: u64, c0: u32, c1: u32, bar: u32) {
        push(Op::Load {
            dst,
            c0,
            c1,
            bar,
            mask: 0,
        })
    }
    fn tma_load_pair(dst: u32, _: u64, c0: u32, c1: u32, bar: u32) {
        push(Op::LoadPair { dst, c0, c1, bar })
    }
    fn tma_load_multicast(dst: u32, _: u64, c0: u32, c1: u32, bar: u32, mask: u16) {
        push(Op::Load {
            dst,
            c0,
            c1,
            bar,
            mask,
        })
    }
}

macro_rules! gemm {
    ($m:ident, $stages:literal, $bm:literal, $bn:literal, $bmajor:ident) => {
        mod $m {
            use super::*;
            #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = ($bm, 64), major = K, stages = $stages)]
            pub struct A;
            #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = ($bn, 64), major = $bmajor, stages = $stages)]
            pub struct B;
            #[smem_storage(arch = sm90)]
            pub struct S {
                a: A,
                b: B,
                full: [Mbarrier; $stages],
                empty: [Mbarrier; $stages],
            }
        }
    };
}
gemm!(g4, 4, 128, 256, K);
gemm!(g3, 3, 128, 128, Mn);

#[smem_pipeline(storage = g4::S, loads = (a: g4::A, b: g4::B), consumers = 2)]
struct P11;
#[smem_pipeline(storage = g4::S, loads = (a: g4::A, b: g4::B), multicast = (b), cluster = (2, 1), consumers = 2)]
struct P21;
#[smem_pipeline(storage = g4::S, loads = (a: g4::A, b: g4::B), multicast = (a), cluster = (1, 2), consumers = 2)]
struct P12;
#[smem_pipeline(storage = g4::S, loads = (a: g4::A, b: g4::B), multicast = (a, b), cluster = (2, 2), consumers = 2)]
struct P22;
#[smem_pipeline(storage = g3::S, loads = (a: g3::A, b: g3::B), consumers = 3, consumer_arrivals = 4)]
struct P3;

/// What one stage of CTA `rank` of pipeline `P` issues: (expect_tx ops, loads).
fn fill<P>(rank: u32, k0: u32, mn0: (u32, u32)) -> Vec<Op>
where
    P: Pipeline<
            Loads = (
                smemdesc::pipeline::Load<0>,
                (smemdesc::pipeline::Load<1>, ()),
            ),
            Group = Single,
            Launch = Independent,
        > + smemdesc::pipeline::TileLoad<0>
        + smemdesc::pipeline::TileLoad<1>,
{
    let mut p = PipeAt::<P>::new(0, rank).split().0;
    take();
    let f = p.acquire::<Rec>().unwrap();
    let _ = f
        .load::<Rec>(0, k0, mn0.0)
        .load::<Rec>(0, k0, mn0.1)
        .issued();
    // (the acquire's wait on the empty barrier: the last test checks those)
    take()
        .into_iter()
        .filter(|o| !matches!(o, Op::Wait(..)))
        .collect()
}

/// The loads of one operand as the core's multicast plan gives them for `rank`.
fn expected_slices(mc: &Multicast, base: u32, rank: u32, k0: u32, mn0: u32, bar: u32) -> Vec<Op> {
    (0..mc.slices())
        .map(|b| {
            let (mn, k) = mc.slice_coord(rank, b);
            Op::Load {
                dst: base + mc.slice_offset(rank, b),
                c0: k0 + k,
                c1: mn0 + mn,
                bar,
                mask: mc.cta_mask(rank),
            }
        })
        .collect()
}

fn expected_boxes<T: SmemTile>(base: u32, k0: u32, mn0: u32, bar: u32) -> Vec<Op> {
    (0..T::TMA_BOXES as usize)
        .map(|b| {
            let [mn, k] = T::TMA_BOX_COORDS[b];
            let (c0, c1) = match T::MAJOR {
                smemdesc::Major::K => (k0 + k, mn0 + mn),
                smemdesc::Major::Mn => (mn0 + mn, k0 + k),
            };
            Op::Load {
                dst: base + T::TMA_BOX_OFFSETS[b],
                c0,
                c1,
                bar,
                mask: 0,
            }
        })
        .collect()
}

#[test]
fn loads_are_the_tiles_boxes_or_the_cores_multicast_slices() {
    let bar = g4::S::full_at(0, 0);
    let (a0, b0) = (g4::S::A_OFFSET, g4::S::B_OFFSET);
    // No cluster: the tiles' own TMA plans.
    let mut want = vec![Op::Expect(bar, 128 * 64 * 2 + 256 * 64 * 2)];
    want.extend(expected_boxes::<g4::A>(a0, 64, 128, bar));
    want.extend(expected_boxes::<g4::B>(b0, 64, 256, bar));
    assert_eq!(fill::<P11>(0, 64, (128, 256)), want);
    // MN-major B with 3 stages.
    let bar3 = g3::S::full_at(0, 0);
    let got = fill::<P3>(0, 0, (0, 0));
    let mut want = vec![Op::Expect(bar3, 128 * 64 * 2 * 2)];
    want.extend(expected_boxes::<g3::A>(g3::S::A_OFFSET, 0, 0, bar3));
    want.extend(expected_boxes::<g3::B>(g3::S::B_OFFSET, 0, 0, bar3));
    assert_eq!(got, want);
    // Clusters: this CTA's slices of the multicast operand, to its sharers.
    let c = |x, y| smemdesc::cluster::Cluster::new(x, y).unwrap();
    let mc = |x, y, op, t: &smemdesc::TileLayout, bx: (u32, u32)| {
        c(x, y).multicast(op, t, Some(bx)).unwrap()
    };
    let (ta, tb) = (&<g4::A as SmemTile>::PLAN, &<g4::B as SmemTile>::PLAN);
    let (bxa, bxb) = (
        (ta.tma.box_rows, ta.tma.box_inner),
        (tb.tma.box_rows, tb.tma.box_inner),
    );
    for rank in 0..2 {
        let mut want = vec![Op::Expect(bar, 49152)];
        want.extend(expected_boxes::<g4::A>(a0, 64, 128, bar));
        want.extend(expected_slices(
            &mc(2, 1, smemdesc::Operand::B, &tb.tile, bxb),
            b0,
            rank,
            64,
            256,
            bar,
        ));
        assert_eq!(fill::<P21>(rank, 64, (128, 256)), want, "2x1 rank {rank}");
        let mut want = vec![Op::Expect(bar, 49152)];
        want.extend(expected_slices(
            &mc(1, 2, smemdesc::Operand::A, &ta.tile, bxa),
            a0,
            rank,
            64,
            128,
            bar,
        ));
        want.extend(expected_boxes::<g4::B>(b0, 64, 256, bar));
        assert_eq!(fill::<P12>(rank, 64, (128, 256)), want, "1x2 rank {rank}");
    }
    for rank in 0..4 {
        let mut want = vec![Op::Expect(bar, 49152)];
        want.extend(expected_slices(
            &mc(2, 2, smemdesc::Operand::A, &ta.tile, bxa),
            a0,
            rank,
            0,
            0,
            bar,
        ));
        want.extend(expected_slices(
            &mc(2, 2, smemdesc::Operand::B, &tb.tile, bxb),
            b0,
            rank,
            0,
            0,
            bar,
        ));
        assert_eq!(fill::<P22>(rank, 0, (0, 0)), want, "2x2 rank {rank}");
    }
}

/// Every byte the producers of a cluster issue per stage lands in the CTAs of its mask (its
/// own CTA for a plain load): per CTA, that sum is what its full barrier must expect.
fn landed<P>(ctas: u32, box_bytes: &dyn Fn(u32) -> u32) -> Vec<u32>
where
    P: Pipeline<
            Loads = (
                smemdesc::pipeline::Load<0>,
                (smemdesc::pipeline::Load<1>, ()),
            ),
            Group = Single,
            Launch = Independent,
        > + smemdesc::pipeline::TileLoad<0>
        + smemdesc::pipeline::TileLoad<1>,
{
    let mut got = vec![0; ctas as usize];
    for rank in 0..ctas {
        for op in fill::<P>(rank, 0, (0, 0)) {
            if let Op::Load { dst, mask, .. } = op {
                let to = if mask == 0 { 1 << rank } else { mask };
                for q in 0..ctas {
                    if to >> q & 1 == 1 {
                        got[q as usize] += box_bytes(dst);
                    }
                }
            }
        }
    }
    got
}

#[test]
fn expect_tx_is_what_lands_in_each_cta() {
    let b0 = g4::S::B_OFFSET;
    // Box bytes by destination member: A's boxes are 64 rows (multicast 1x2 / 2x2: 64 of 128),
    // computed from the boxes' extents (rows x 128 B), not from the pipeline.
    let plain = |dst: u32| if dst < b0 { 128 * 128 } else { 256 * 128 };
    assert_eq!(landed::<P11>(1, &plain), vec![P11::EXPECT_TX]);
    // (A whole: 128 rows; B's slice: 128 of its 256 rows)
    let half_b = |_dst: u32| 128 * 128;
    assert_eq!(landed::<P21>(2, &half_b), vec![P21::EXPECT_TX; 2]);
    let half_a = |dst: u32| if dst < b0 { 64 * 128 } else { 256 * 128 };
    assert_eq!(landed::<P12>(2, &half_a), vec![P12::EXPECT_TX; 2]);
    let halves = |dst: u32| if dst < b0 { 64 * 128 } else { 128 * 128 };
    assert_eq!(landed::<P22>(4, &halves), vec![P22::EXPECT_TX; 4]);
    assert_eq!(P22::EXPECT_TX, 49152);
}

#[test]
fn a_release_reaches_every_cta_that_wrote_into_the_stage() {
    fn released<P: Pipeline<Group = Single, Launch = Independent>>(rank: u32) -> Vec<u32> {
        let mut c = PipeAt::<P>::new(0, rank).split().1.thread(0);
        let full = c.wait::<Rec>().unwrap();
        take();
        full.release::<Rec>();
        let mut to: Vec<u32> = take()
            .into_iter()
            .map(|o| match o {
                Op::Arrive(_) => rank,
                Op::ArriveCluster(_, q) => q,
                o => panic!("{o:?}"),
            })
            .collect();
        to.sort();
        to
    }
    // The writers of rank r's stage: r itself, its cluster row for A (same i = r % x), its
    // column for B (same j = r / x).
    let writers = |x: u32, y: u32, a: bool, b: bool, r: u32| -> Vec<u32> {
        (0..x * y)
            .filter(|&q| q == r || (a && q % x == r % x) || (b && q / x == r / x))
            .collect()
    };
    for r in 0..2 {
        assert_eq!(released::<P21>(r), writers(2, 1, false, true, r));
        assert_eq!(released::<P12>(r), writers(1, 2, true, false, r));
    }
    for r in 0..4 {
        assert_eq!(released::<P22>(r), writers(2, 2, true, true, r));
        assert_eq!(
            P22::EMPTY_ARRIVALS as usize,
            2 * writers(2, 2, true, true, r).len()
        );
    }
    assert_eq!(released::<P11>(0), vec![0]);
}

#[test]
fn init_waits_and_parities_follow_the_phases() {
    let pipe = PipeAt::<P3>::new(0x100, 0);
    take();
    pipe.init::<Rec>();
    pipe.init_sync::<Rec>();
    let mut want = Vec::new();
    for s in 0..3 {
        want.push(Op::Init(g3::S::full_at(0x100, s), 1));
        // 3 consumer groups x 4 arriving threads each.
        want.push(Op::Init(g3::S::empty_at(0x100, s), 12));
    }
    want.extend([Op::Fence, Op::SyncCta]);
    assert_eq!(take(), want);
    // Iteration i uses stage i % 3; fill n = i / 3 of a stage completes the full barrier's
    // phase n (parity n & 1); the producer waits for the release of fill n - 1 (parity of
    // phase n - 1; a fresh barrier's phase "-1" reads as complete with parity 1).
    let (mut p, consumers) = pipe.split();
    let mut c = consumers.thread(0);
    for i in 0..10u32 {
        let (s, n) = (i % 3, i / 3);
        let f = p.acquire::<Rec>().unwrap();
        assert_eq!(f.stage(), s);
        let _ = f.load::<Rec>(0, 0, 0).load::<Rec>(0, 0, 0).issued();
        let ops = take();
        assert_eq!(ops[0], Op::Wait(g3::S::empty_at(0x100, s), (n + 1) & 1));
        let full = c.wait::<Rec>().unwrap();
        assert_eq!(take(), vec![Op::Wait(g3::S::full_at(0x100, s), n & 1)]);
        full.release::<Rec>();
        assert_eq!(take(), vec![Op::Arrive(g3::S::empty_at(0x100, s))]);
    }
    // Threads 1..3 of a group of 128 with 4 arrivals: only 0, 32, 64, 96 arrive.
    for t in [1u32, 31, 32, 64, 127] {
        // (each thread's own consumer set: a fresh instance of the same barriers)
        let mut c = PipeAt::<P3>::new(0x100, 0).split().1.thread(t);
        let full = c.wait::<Rec>().unwrap();
        take();
        full.release::<Rec>();
        assert_eq!(!take().is_empty(), t % 32 == 0, "thread {t}");
    }
    // The cluster pipelines add the cluster barrier after the CTA's.
    PipeAt::<P21>::new(0, 1).init_sync::<Rec>();
    assert_eq!(take(), vec![Op::SyncCta, Op::SyncCluster]);
}

// An sm100 pair (`cta_group = 2`): both CTAs load their halves with the pair form into the
// leader's full barrier, and only the leader arrives with `expect_tx`, which counts both
// halves (PTX ISA, `cp.async.bulk.tensor`: without `.cta_group::2` the barrier must be in the
// destination's CTA, so the peer's bytes would never complete the leader's phase).
mod pair {
    use super::*;
    #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2, cta_group = 2)]
    pub struct A;
    #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K, stages = 2, cta_group = 2)]
    pub struct B;
    #[smem_storage(arch = sm100)]
    pub struct S {
        a: A,
        b: B,
        full: [Mbarrier; 2],
        empty: [Mbarrier; 2],
    }
    #[smem_pipeline(storage = S, loads = (a: A, b: B), consumers = 1, cta_group = 2)]
    pub struct P;
}

#[test]
fn a_pairs_loads_use_the_pair_form_into_the_leaders_barrier() {
    // The leader's full barrier in the cluster window (this backend's `map_cta` of rank 0).
    let leader_full = pair::S::full_at(0, 0) | 1 << 24;
    // The leader: the pair form for every box, into its own barrier.
    let PairRole::Leader(mut lp, _consumers) = PipeAt::<pair::P>::new(0, 0).split_pair() else {
        panic!("rank 0 leads")
    };
    take();
    let _ = lp
        .acquire::<Rec>()
        .unwrap()
        .load::<Rec>(0, 0, 0)
        .load::<Rec>(0, 0, 0)
        .issued();
    let ops = take();
    let boxes = |ops: &[Op]| {
        ops.iter()
            .filter(|o| matches!(o, Op::Load { .. } | Op::LoadPair { .. }))
            .cloned()
            .collect::<Vec<_>>()
    };
    let lb = boxes(&ops);
    let per_cta = <pair::A as SmemTile>::TMA_BOXES + <pair::B as SmemTile>::TMA_BOXES;
    assert_eq!(lb.len() as u32, per_cta);
    assert!(lb
        .iter()
        .all(|o| matches!(o, Op::LoadPair { bar, .. } if *bar == leader_full)));
    // One expect_tx, on the leader's own barrier, for both CTAs' bytes: 2 x (A + B) halves.
    let halves = <pair::A as SmemTile>::STAGE_BYTES + <pair::B as SmemTile>::STAGE_BYTES;
    let expects: Vec<_> = ops.iter().filter(|o| matches!(o, Op::Expect(..))).collect();
    assert_eq!(
        expects,
        vec![&Op::Expect(pair::S::full_at(0, 0), 2 * halves)]
    );
    // The peer: waits for its own free stage, arrives on nothing, loads into the leader's
    // barrier (rank 0 of the pair in the cluster window).
    let PairRole::Peer(mut pp) = PipeAt::<pair::P>::new(0, 1).split_pair() else {
        panic!("rank 1 is the peer")
    };
    take();
    let _ = pp
        .acquire::<Rec>()
        .unwrap()
        .load::<Rec>(0, 0, 0)
        .load::<Rec>(0, 0, 0)
        .issued();
    let ops = take();
    assert_eq!(ops[0], Op::Wait(pair::S::empty_at(0, 0), 1));
    assert!(!ops
        .iter()
        .any(|o| matches!(o, Op::Expect(..) | Op::Arrive(..))));
    let pb = boxes(&ops);
    assert_eq!(pb.len() as u32, per_cta);
    assert!(pb
        .iter()
        .all(|o| matches!(o, Op::LoadPair { bar, .. } if *bar == leader_full)));
    // The two CTAs write the same offsets of their own storage.
    assert_eq!(
        lb.iter()
            .map(|o| match o {
                Op::LoadPair { dst, .. } => *dst,
                _ => 0,
            })
            .collect::<Vec<_>>(),
        pb.iter()
            .map(|o| match o {
                Op::LoadPair { dst, .. } => *dst,
                _ => 0,
            })
            .collect::<Vec<_>>()
    );
}
