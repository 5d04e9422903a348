//! The attention kernel without a producer warpgroup, for head dim 64 (an experiment against the
//! one-CTA-per-SM kernels at short sequences): two CTAs per multiprocessor, each hiding the
//! other's start and end and running its GEMMs under the other's softmax.
//!
//! Two CTAs fit only in registers if every thread computes: 16 warps of 128 registers fill the
//! register file, and a producer warp more puts five warps on one of the four SM sub-partitions
//! (`ptxas` then allots 96 registers and spills). So a CTA is the two consumer warpgroups (256
//! threads, `.maxntid 256` and `.minnctapersm 2` in `attn_ptx.sh`) and thread 0 also produces:
//! Q and the first `STAGES` key blocks before the loop, then, at the top of block `j ≥ 1`,
//! block `j + STAGES − 1` into the stage both warpgroups released at the end of block `j − 1`.
//! The schedule is the serial kernel's (`attn.rs`): the overlapped one holds S, P and O at once
//! and does not fit in 128 registers.

use crate::attn::{serial_consumer, storage, AttnKernel, Tile, PV_FENCED};
use crate::attn_decl::{BM, BN, S_ACC};
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::pipeline::{PipeAt, Pipeline};

/// The body; parameters as `attn::attn_body`; 256 threads, a grid of `bh · seqlen / 128` CTAs.
/// Each `P·V` k-step's A registers are packed, then fenced by a `wgmma.fence` of ours, then its
/// wgmma (left to `ptxas`, the fences it injects, C7519, came with C7520: every wgmma of the
/// kernel serialised). `CHAINS`: the softmax's row reductions in that many chains
/// (`attn::tree`): with 16 (a pairwise tree) the 128 registers do not hold every wgmma's operands
/// at once and `ptxas` serialises them all (C7512); 4 leaves them asynchronous.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn attn_ns_body<D: AttnKernel, const CAUSAL: bool, const CHAINS: usize>(
    map_q: u64,
    map_k: u64,
    map_v: u64,
    map_o: u64,
    lse: u64,
    seqlen: u32,
    bh: u32,
    scale_log2: f32,
) {
    if bh == 0 || seqlen < BM {
        return;
    }
    let addrs = storage::<D>();
    let base = addrs.0;
    let tile = Tile::of_cta::<CAUSAL>(ctaid(), seqlen);
    let Tile {
        row0,
        q_row,
        blocks,
        ..
    } = tile;
    let tid = tid();
    let (im, t) = (tid / 128, tid % 128);
    let qpipe = PipeAt::<D::QPipe>::new(base, 0);
    let kv = PipeAt::<D::KvPipe>::new(base, 0);
    if tid == 0 {
        qpipe.init::<PtxSpin>();
        kv.init::<PtxSpin>();
    }
    kv.init_sync::<PtxSpin>();
    let stages = const { <D::KvPipe as Pipeline>::LAYOUT.stages() };
    let ((mut qp, qc), (mut producer, kvc)) = (qpipe.split(), kv.split());
    // The next key block thread 0 loads.
    let mut next = 0;
    // Thread 0's load of key block `next` (K: K-major, coordinates (head_dim, row); V:
    // MN-major, (row, head_dim)). When the wait gives up, the block is not loaded and the
    // consumers' wait for it gives up in turn: thread 0 does not leave the loop on its own (a
    // branch out of the loop on `tid` makes ptxas serialise every wgmma, C7520).
    let mut load_next = |next: &mut u32| {
        let Some(fill) = producer.acquire::<PtxSpin>() else {
            return;
        };
        let kv_row = row0 + *next * BN;
        let _ = fill
            .load::<PtxSpin>(map_k, 0, kv_row)
            .load::<PtxSpin>(map_v, kv_row, 0)
            .issued();
        *next += 1;
    };
    if tid == 0 {
        tensormap_acquire(map_q);
        tensormap_acquire(map_k);
        tensormap_acquire(map_v);
        if let Some(fill) = qp.acquire::<PtxSpin>() {
            let _ = fill.load::<PtxSpin>(map_q, 0, q_row).issued();
        }
        while next < blocks && next < stages {
            load_next(&mut next);
        }
    }
    if t == 0 {
        tensormap_acquire(map_o);
    }
    let Some(rows) = S_ACC.rows(t) else { trap() };
    // The stage block j − 1 held (both warpgroups released it) takes the next block, a whole
    // block ahead of its use.
    let refill = |j: u32| {
        if tid == 0 && j >= 1 && next < blocks {
            load_next(&mut next);
        }
    };
    serial_consumer::<D, CAUSAL, false, PV_FENCED, CHAINS>(
        qc, kvc, tile, im, t, rows, addrs, lse, map_o, scale_log2, refill,
    );
}
