// A legal pipeline driven through its handles.
use smemdesc::pipeline::{PipeAt, PipelineOps};
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
pub struct TileA;
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4)]
pub struct TileB;
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
    b: TileB,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2)]
pub struct Pipe;

// A 2x1 cluster multicasting B: each CTA's stages are written by both CTAs, so each empty
// barrier counts both CTAs' 2 consumers.
#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), multicast = (b), cluster = (2, 1), consumers = 2)]
pub struct Pipe21;

// A 2x2 cluster multicasting both: CTA r's stages are written by r, its row partner (A) and its
// column partner (B): 3 CTAs x 2 consumers.
#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), multicast = (a, b), cluster = (2, 2),
                consumers = 2, expect_tx = 49152, empty_arrivals = 6)]
pub struct Pipe22;

// Raw identifiers (issue 42: `full = r#full` panicked the macro): the members, the loads, the
// barrier keys and the struct, each named as `#[smem_storage]` names its items. A 1x2 cluster
// multicasting A: each CTA's stages are written by both CTAs, 2 consumers each.
#[smem_storage(arch = sm90)]
pub struct RawStorage {
    r#a: TileA,
    r#b: TileB,
    r#full: [Mbarrier; 4],
    r#empty: [Mbarrier; 4],
}

#[smem_pipeline(storage = RawStorage, loads = (r#a: TileA, b: TileB), multicast = (a), cluster = (1, 2),
                consumers = 2, full = r#full, empty = r#empty)]
pub struct r#PipeRaw;

struct Ops;
impl PipelineOps for Ops {
    fn init(_: u32, _: u32) {}
    fn fence_init() {}
    fn sync_cta() {}
    fn sync_cluster() {}
    fn arrive_expect_tx(_: u32, _: u32) {}
    fn arrive(_: u32) {}
    fn arrive_cluster(_: u32, _: u32) {}
    fn wait(_: u32, _: u32) -> bool {
        true
    }
    fn map_cta(a: u32, _: u32) -> u32 {
        a
    }
    fn tma_load(_: u32, _: u64, _: u32, _: u32, _: u32) {}
    fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
    fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
}

fn main() {
    let pipe = PipeAt::<Pipe>::new(1024, 0);
    pipe.init::<Ops>();
    pipe.init_sync::<Ops>();
    let (mut p, consumers) = pipe.split();
    let mut c = consumers.thread(0);
    for i in 0..8u32 {
        let fill = p.acquire::<Ops>().unwrap();
        assert_eq!(
            fill.load::<Ops>(0, 64 * i, 0)
                .load::<Ops>(0, 64 * i, 0)
                .issued(),
            i % 4
        );
        let full = c.wait::<Ops>().unwrap();
        assert_eq!(full.stage(), i % 4);
        full.release::<Ops>();
    }
    assert_eq!(
        (
            Pipe::EXPECT_TX,
            Pipe::FULL_ARRIVALS,
            Pipe::EMPTY_ARRIVALS,
            Pipe::STAGES
        ),
        (49152, 1, 2, 4)
    );
    assert_eq!((Pipe21::EXPECT_TX, Pipe21::EMPTY_ARRIVALS), (49152, 4));
    assert_eq!(Pipe22::EMPTY_ARRIVALS, 6);
    // Rank r = i + 2j; A shared along j (ranks i, i + 2), B along i (ranks 2j, 2j + 1).
    let masks: Vec<u16> = (0..4).map(|r| Pipe22::LAYOUT.release_mask(r)).collect();
    assert_eq!(masks, [0b0111, 0b1011, 0b1101, 0b1110]);
    assert_eq!((PipeRaw::EXPECT_TX, PipeRaw::EMPTY_ARRIVALS), (49152, 4));
    assert_eq!(
        <PipeRaw as smemdesc::pipeline::Pipeline>::full(0, 1),
        RawStorage::full_at(0, 1)
    );
}
