//! A pipelined bf16 GEMM tile with an MN-major B (the transposed-B case: wgmma's `tnspB`):
//! A 128 x 64 K-major, B 64 x 64 MN-major, both 128B swizzle, wgmma m64n64k16, 4 stages, a
//! producer warpgroup and two consumers; each consumer steps from the stage's descriptor by the
//! computed `advance_mn`/`advance_k`, and reads back one element per thread through `address`.

use crate::load_stage;
use crate::ptx::*;
use crate::wgmma::m64n64k16_bf16_tt01;
use smemdesc::prelude::*;

/// A: 128 x 64 bf16, K-major.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            mma = m64n64k16, stages = 4)]
pub struct TileA;

/// B: 64 x 64 bf16, MN-major (N contiguous).
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (64, 64), major = MN, swizzle = 128B,
            mma = m64n64k16, stages = 4)]
pub struct TileB;

/// One CTA's shared memory.
#[smem_storage(arch = sm90)]
pub struct Storage {
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
    a: TileA,
    b: TileB,
}

const STAGES: u32 = TileA::STAGES;
const STAGE_TX: u32 =
    TileA::TMA_BOXES * TileA::TMA_BOX_BYTES + TileB::TMA_BOXES * TileB::TMA_BOX_BYTES;

/// `C = A · B` for the tile at `(m0, n0)`.
///
/// # Safety
/// 384 threads, `Storage::LAUNCH_BYTES` of dynamic shared memory, valid maps.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_bf16_mn(
    map_a: u64,
    map_b: u64,
    out: *mut f32,
    m0: u32,
    n0: u32,
    k_tiles: u32,
) {
    let base = Storage::aligned_base(smem_dyn());
    let tid = tid();
    let wg = tid / 128;
    let (a, b) = (Storage::a(base), Storage::b(base));
    if tid == 0 {
        let mut s = 0;
        while s < STAGES {
            mbar_init(Storage::full_at(base, s), 1);
            mbar_init(Storage::empty_at(base, s), 2);
            s += 1;
        }
        fence_barrier_init();
    }
    sync_threads();
    if wg == 0 {
        if tid == 0 {
            let mut kt = 0;
            while kt < k_tiles {
                let (stage, phase) = (kt % STAGES, (kt / STAGES) & 1);
                mbar_wait(Storage::empty_at(base, stage), phase ^ 1);
                let full = Storage::full_at(base, stage);
                mbar_expect_tx(full, STAGE_TX);
                load_stage(a, map_a, stage, kt * 64, m0, full);
                load_stage(b, map_b, stage, kt * 64, n0, full);
                kt += 1;
            }
        }
        return;
    }
    let im = wg - 1;
    let step_m = TileA::advance_mn(im) as u64;
    let mut d = [0f32; 32];
    let mut kt = 0;
    while kt < k_tiles {
        let (stage, phase) = (kt % STAGES, (kt / STAGES) & 1);
        mbar_wait(Storage::full_at(base, stage), phase);
        wgmma_fence();
        let da = a.desc_wrapping(0, 0, stage) + step_m;
        let db = match b.try_desc(0, 0, stage) {
            Ok(d) => d.raw(),
            Err(_) => trap(),
        };
        unroll!(TileA::MMAS_K, |k| {
            let (sa, sb) = (TileA::advance_k(k) as u64, TileB::advance_k(k) as u64);
            m64n64k16_bf16_tt01(&mut d, da + sa, db + sb, (kt | k != 0) as u32);
        });
        wgmma_commit();
        wgmma_wait::<0>();
        if tid % 128 == 0 {
            mbar_arrive(Storage::empty_at(base, stage));
        }
        kt += 1;
    }
    // One element of B per thread, by its computed address (a run-time row and column).
    let t = tid - 128;
    let v = ld_shared_u32(b.address(t % 64, t / 64 * 2, (k_tiles + 3) % STAGES) & !3);
    unroll!(32, |i| {
        *out.add((t * 32 + i) as usize) = d[i as usize] + v as f32;
    });
}
