//! A pipelined FP8 GEMM tile (the kernel of the issue that found the accessor falling back to a
//! run-time layout): e4m3 A and B, K-major, 64B swizzle, wgmma m64n256k32, 3 stages; warpgroup
//! 0 produces with TMA, warpgroups 1 and 2 consume; the C tile goes out through an `stmatrix`
//! epilogue tile, and each consumer warp also reads a bias fragment with `ldmatrix`.

use crate::load_stage;
use crate::ptx::*;
use crate::wgmma::m64n256k32_e4m3;
use smemdesc::prelude::*;
use smemdesc::{smem_epilogue_tile, smem_fragment_tile};

/// A: 128 x 128 e4m3 per stage (two 64-row wgmma subtiles, one per consumer warpgroup).
#[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K, swizzle = 64B,
            mma = m64n256k32, stages = 3)]
pub struct TileA8;

/// B: 256 x 128 e4m3 per stage (N x K).
#[smem_tile(arch = sm90, operand = B, dtype = e4m3, tile = (256, 128), major = K, swizzle = 64B,
            mma = m64n256k32, stages = 3)]
pub struct TileB8;

/// C: bf16, written by `stmatrix.x4` from the m64n256 accumulators, read by a TMA store.
#[smem_epilogue_tile(dtype = bf16, tile = (128, 64), wgmma_n = 256, writer = stmatrix_x4,
                     reader = tma_store)]
pub struct CTile;

/// A bias fragment read with `ldmatrix.x4` (an `mma.sync` A operand's layout).
#[smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = bf16, operand = A, tile = (64, 64),
                     reader = ldmatrix_x4, writer = tma)]
pub struct Bias;

/// One CTA's shared memory.
#[smem_storage(arch = sm90)]
pub struct Storage {
    full: [Mbarrier; 3],
    empty: [Mbarrier; 3],
    a: TileA8,
    b: TileB8,
    #[smem(epilogue)]
    c: CTile,
    #[smem(align = 1024)]
    bias: [u8; Bias::BYTES],
}

const STAGES: u32 = TileA8::STAGES;
/// The bytes one stage's TMA loads deliver.
const STAGE_TX: u32 =
    TileA8::TMA_BOXES * TileA8::TMA_BOX_BYTES + TileB8::TMA_BOXES * TileB8::TMA_BOX_BYTES;

/// `C = A · Bᵀ` for the tile at `(m0, n0)` over `k_tiles` K tiles; `out` receives what the
/// epilogue would store (the shape of a kernel, not a checked GEMM).
///
/// # Safety
/// 384 threads, `Storage::LAUNCH_BYTES` of dynamic shared memory, valid maps.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_fp8_k(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    out: *mut u32,
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
            tensormap_acquire(map_a);
            tensormap_acquire(map_b);
            let mut kt = 0;
            while kt < k_tiles {
                let (stage, phase) = (kt % STAGES, (kt / STAGES) & 1);
                mbar_wait(Storage::empty_at(base, stage), phase ^ 1);
                let full = Storage::full_at(base, stage);
                mbar_expect_tx(full, STAGE_TX);
                // Run-time box index: the destination and the coordinates are computed.
                load_stage(a, map_a, stage, kt * 128, m0, full);
                load_stage(b, map_b, stage, kt * 128, n0, full);
                kt += 1;
            }
        }
        return;
    }

    let im = wg - 1; // this consumer's 64-row A subtile: a run-time MMA index
    let mut d = ([0f32; 32], [0f32; 32], [0f32; 32], [0f32; 32]);
    let mut kt = 0;
    while kt < k_tiles {
        let (stage, phase) = (kt % STAGES, (kt / STAGES) & 1);
        mbar_wait(Storage::full_at(base, stage), phase);
        wgmma_fence();
        // The documented accessor with run-time indices in the main loop.
        let da = a.desc(im, 0, stage);
        let db = match b.try_desc(0, 0, stage) {
            Ok(d) => d.raw(),
            Err(_) => trap(),
        };
        unroll!(TileA8::MMAS_K, |k| {
            let step_a = TileA8::advance_k(k) as u64;
            let step_b = TileB8::advance_k(k) as u64;
            let (d0, d1, d2, d3) = (&mut d.0, &mut d.1, &mut d.2, &mut d.3);
            let scale = (kt | k != 0) as u32;
            m64n256k32_e4m3(d0, d1, d2, d3, da + step_a, db + step_b, scale);
        });
        // The checked form once more, as a cross-check a careful kernel makes.
        if a.desc(im, 1, stage) != da + TileA8::advance_k(1) as u64 {
            trap();
        }
        wgmma_commit();
        wgmma_wait::<0>();
        if tid % 128 == 0 {
            mbar_arrive(Storage::empty_at(base, stage));
        }
        kt += 1;
    }

    // Epilogue: stmatrix.x4 with run-time warp and lane, then a TMA store of the C tile.
    let (warp, lane) = ((tid % 128) / 32, tid % 32);
    let c = Storage::c(base);
    // Chunks unrolled: the accumulator registers are named by constants.
    unroll!(CTile::CHUNKS, |chunk| {
        unroll!(CTile::INSTRUCTIONS, |i| {
            let p = |q: u32| {
                let e = CTile::pair(chunk, i, q) as usize * 2;
                bf16x2(acc(&d, e), acc(&d, e + 1))
            };
            let r = [p(0), p(1), p(2), p(3)];
            stmatrix_x4(c + CTile::writer_offset(im, warp, i, lane), r);
        });
        fence_proxy_async_shared();
        named_bar(1, 256);
        // Thread 128's stores predicated, not branched on (a branch lets LLVM copy the next
        // chunk's bar.sync and stmatrix into both arms: scripts/check_convergence.py).
        let one = tid == 128;
        let mut bx = 0;
        while bx < CTile::TMA_BOXES {
            let (off, (c0, r0)) = CTile::tma_box(bx);
            smemdesc::ptx::tma_store_2d_if(one, map_c, c + off, n0 + c0, m0 + r0);
            bx += 1;
        }
        smemdesc::ptx::bulk_commit_group_if(one);
        smemdesc::ptx::bulk_wait_group_read_if::<0>(one);
        named_bar(1, 256);
    });

    // A bias fragment through ldmatrix, with run-time lanes.
    let bias = Storage::bias(base);
    let mut acc = 0u32;
    unroll!(Bias::INSTRUCTIONS, |i| {
        acc ^= ld_shared_u32(bias + Bias::ldmatrix_offset(i, lane));
    });
    *out.add(tid as usize) = acc;
}

/// Accumulator `e` of the m64n256 fragment (four arrays of 32 registers).
#[inline(always)]
fn acc(d: &([f32; 32], [f32; 32], [f32; 32], [f32; 32]), e: usize) -> f32 {
    match e / 32 {
        0 => d.0[e % 32],
        1 => d.1[e % 32],
        2 => d.2[e % 32],
        _ => d.3[e % 32],
    }
}
