//! An sm100 CTA pair's producer (`cta_group = 2`) through the declared pipeline's handles: each
//! CTA of the pair takes its side with `PipeAt::split_pair`; the leader arrives with the pair's
//! `expect_tx` and its MMA thread waits and releases both CTAs' stages with a multicast
//! `tcgen05.commit`; the peer only loads. Every load of both CTAs is the pair form
//! (`.cta_group::2`) into the leader's full barrier, which `check_whole_kernel.sh` checks in the
//! PTX (issue 42, item 1); ptxas assembles the entry for sm_100a (the ptxas budget).

use crate::ptx::*;
use core::arch::asm;
use smemdesc::pipeline::{PairRole, PipeAt};
use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

/// A: 128 x 64 bf16 per CTA and stage (the pair's 256 rows), K-major.
#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            stages = 4, cta_group = 2)]
pub struct TileA;

/// B: 128 x 64 bf16 per CTA and stage (N x K).
#[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            stages = 4, cta_group = 2)]
pub struct TileB;

/// One CTA's shared memory.
#[smem_storage(arch = sm100)]
pub struct Storage {
    a: TileA,
    b: TileB,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

/// The pair's pipeline: one MMA issuer (the leader's), loads into the leader's barriers.
#[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 1, cta_group = 2)]
pub struct PairPipe;

/// The instructions (`smemdesc::ptx`): waits that never give up.
type Ops = smemdesc::ptx::Spin;

/// `tcgen05.commit` of the pair's MMAs to the empty barrier `bar` of the CTAs in `mask`.
#[inline(always)]
unsafe fn commit_pair(bar: u32, mask: u16) {
    asm!(
        "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{0}], {1};",
        in(reg32) bar,
        in(reg16) mask,
        options(nostack)
    );
}

/// One pair's K loop: thread 0 of each CTA loads its half of every stage; the leader's thread 32
/// waits for each stage and releases it (the MMAs themselves are elided: the gate checks the
/// loads' form). `k_tiles`, `m0`, `n0` are run-time values.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_sm100_pair(map_a: u64, map_b: u64, k_tiles: u32, m0: u32, n0: u32) {
    let base = Storage::aligned_base(smem_dyn());
    let tid = tid();
    let pipe = PipeAt::<PairPipe>::new(base, cluster_ctarank());
    if tid == 0 {
        pipe.init::<Ops>();
    }
    pipe.init_sync::<Ops>();
    match pipe.split_pair() {
        PairRole::Leader(mut producer, consumers) => {
            if tid == 0 {
                let mut kt = 0;
                while kt < k_tiles {
                    let Some(fill) = producer.acquire::<Ops>() else { return };
                    let _ = fill.load::<Ops>(map_a, kt * 64, m0).load::<Ops>(map_b, kt * 64, n0).issued();
                    kt += 1;
                }
            } else if tid == 32 {
                let mut mma = consumers.thread(0);
                let mut kt = 0;
                while kt < k_tiles {
                    let Some(full) = mma.wait::<Ops>() else { return };
                    full.release_with(|empty, mask| commit_pair(empty, mask));
                    kt += 1;
                }
            }
        }
        PairRole::Peer(mut producer) => {
            if tid == 0 {
                let mut kt = 0;
                while kt < k_tiles {
                    let Some(fill) = producer.acquire::<Ops>() else { return };
                    let _ = fill.load::<Ops>(map_a, kt * 64, m0 + 128).load::<Ops>(map_b, kt * 64, n0 + 128).issued();
                    kt += 1;
                }
            }
        }
    }
}
