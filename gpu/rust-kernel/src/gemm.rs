//! Persistent warp-specialised GEMM, C = A · Bᵀ (A: M x K, B: N x K, both K-major; C: M x N bf16,
//! row-major), fp32 accumulate, the design of `gpu/kernels/gemm.cu` (`gemm_bf16_persistent_vst`):
//! warpgroup 0 is the TMA producer (one thread), warpgroups 1 and 2 each own 64 rows of the
//! 128 x 256 C tile and run wgmma m64n256 over the stages; `full[s]` / `empty[s]` mbarriers per
//! stage; the stage/phase counter runs on across tiles, so the producer fills the next tile's
//! stages while the consumers store this one; the epilogue goes through per-warp shared buffers
//! and 16-byte coalesced stores. Every layout number (boxes, box offsets and coordinates, stage
//! bytes, descriptors and their K steps) comes from the `#[smem_tile]` declarations.

use crate::ptx::*;
use crate::tiles::{GemmSmem, EPI_COLS, EPI_PITCH, GEMM_BM, GEMM_BN};
use smemdesc::smem::{align_up, TileAt};
use smemdesc::SmemTile;

/// Tile raster: groups of `group_m` row-tiles walk across N together (L2 reuse); tile `tile`'s
/// (row, column) index in a `tiles_m` x `tiles_n` grid. The cluster kernels (`epi.rs`) walk
/// cluster tiles with it.
#[inline(always)]
pub(crate) fn tile_index(tile: u32, tiles_m: u32, tiles_n: u32, group_m: u32) -> (u32, u32) {
    // Checked division: a zero `group_m` from the host gives tile (0, 0), never a panic path.
    let per_group = group_m * tiles_n;
    let group = tile.checked_div(per_group).unwrap_or(0);
    let first_m = group * group_m;
    let rest = tiles_m.wrapping_sub(first_m);
    let gsize = if rest < group_m { rest } else { group_m };
    let in_group = tile.checked_rem(per_group).unwrap_or(0);
    (
        first_m + in_group.checked_rem(gsize).unwrap_or(0),
        in_group.checked_div(gsize).unwrap_or(0),
    )
}

/// Element origin `(m0, n0)` of tile `tile` ([`tile_index`] scaled by the CTA tile).
#[inline(always)]
fn tile_origin(tile: u32, tiles_m: u32, tiles_n: u32, group_m: u32) -> (u32, u32) {
    let (mi, ni) = tile_index(tile, tiles_m, tiles_n, group_m);
    (mi * GEMM_BM, ni * GEMM_BN)
}

/// Stage and phase of a pipeline counter.
#[derive(Clone, Copy)]
struct Pipe {
    stage: u32,
    phase: u32,
}

impl Pipe {
    #[inline(always)]
    fn next<const STAGES: u32>(self) -> Pipe {
        if self.stage + 1 == STAGES {
            Pipe {
                stage: 0,
                phase: self.phase ^ 1,
            }
        } else {
            Pipe {
                stage: self.stage + 1,
                phase: self.phase,
            }
        }
    }
}

/// Loads stage `stage` of tile `T` at K tile `kt` of the rows starting at `mn_origin`.
#[inline(always)]
unsafe fn load_stage<T: SmemTile>(
    p: TileAt<T>,
    map: u64,
    stage: u32,
    kt: u32,
    mn_origin: u32,
    bar: u32,
) {
    let tile_k = T::PLAN.tile.spec().tile_k;
    unroll!(T::TMA_BOXES, |b| {
        let [mn0, k0] = T::TMA_BOX_COORDS[b as usize];
        tma_load_2d(
            p.stage_addr(stage) + T::TMA_BOX_OFFSETS[b as usize],
            map,
            kt * tile_k + k0,
            mn_origin + mn0,
            bar,
        );
    });
}

/// The 16-bit start-address advance of MMA subtile `i` along M/N, `i` known only at run time:
/// a select over the constant table (no table in memory).
#[inline(always)]
fn advance_mn<T: SmemTile>(i: u32) -> u64 {
    let mut a = 0u64;
    unroll!(T::MMAS_MN, |j| {
        if i == j {
            a = T::ADVANCE_MN[j as usize] as u64;
        }
    });
    a
}

/// The m64n256 fp32 accumulator fragment (128 registers per thread): the library's typed
/// accumulator (`smemdesc::accum`, issue 43 item 6), zeroed from a constant, issued by
/// `accum::wgmma_m64n256k*`, its elements read at constant indices only.
pub type Acc = smemdesc::accum::WgmmaAcc<256>;

/// The epilogue of one consumer warp: its 16 x 256 slice of the fragment, 64 columns at a time
/// through its shared buffer, stored as whole 128-byte row segments.
#[inline(always)]
unsafe fn store_tile(c: *mut u32, d: &Acc, buf: u32, row0: u32, n0: u32, n_total: u32) {
    let lane = tid() % 32;
    unroll!(GEMM_BN / EPI_COLS, |cc| {
        unroll!(EPI_COLS / 8, |jj| {
            let j = cc * (EPI_COLS / 8) + jj;
            unroll!(2, |h| {
                let i = (4 * j + 2 * h) as usize;
                let a = buf + (lane / 4 + 8 * h) * EPI_PITCH + (8 * jj + 2 * (lane % 4)) * 2;
                st_shared_u32(a, bf16x2(d.regs()[i], d.regs()[i + 1]));
            });
        });
        sync_warp();
        let vec_per_row = EPI_COLS * 2 / 16;
        unroll!(16 * (EPI_COLS * 2 / 16) / 32, |i| {
            let q = i * 32 + lane;
            let (r, v) = (q / vec_per_row, q % vec_per_row);
            let x = ld_shared_v4(buf + r * EPI_PITCH + 16 * v);
            let elem = (row0 + r) as u64 * n_total as u64 + (n0 + cc * EPI_COLS + 8 * v) as u64;
            st_global_v4(c as u64 + elem * 2, x);
        });
        sync_warp();
    });
}

/// The persistent GEMM with tiles `A`, `B` and the m64n256 wgmma `mma`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_body<A: SmemTile, B: SmemTile, const STAGES: u32>(
    smem: GemmSmem,
    map_a: u64,
    map_b: u64,
    c: *mut u32,
    m_total: u32,
    n_total: u32,
    k_total: u32,
    group_m: u32,
    mma: impl Fn(&mut Acc, u64, u64, u32),
) {
    if A::STAGES != STAGES || B::STAGES != STAGES {
        trap();
    }
    let base = align_up(smem_dyn(), smem.align);
    let pa = TileAt::<A>::new_unvalidated(base + smem.a);
    let pb = TileAt::<B>::new_unvalidated(base + smem.b);
    let (full, empty) = (base + smem.full, base + smem.empty);
    let tile_k = A::PLAN.tile.spec().tile_k;
    let (tiles_m, tiles_n) = (m_total / GEMM_BM, n_total / GEMM_BN);
    let tiles = tiles_m * tiles_n;
    let k_tiles = k_total / tile_k;
    let consumers = 2;
    let tid = tid();
    let wg = tid / 128;
    if tid == 0 {
        unroll!(STAGES, |s| {
            mbar_init(full + 8 * s, 1);
            mbar_init(empty + 8 * s, consumers);
        });
        fence_barrier_init();
    }
    sync_threads();
    let tx = A::TMA_BOXES * A::PLAN.tma.box_bytes + B::TMA_BOXES * B::PLAN.tma.box_bytes;

    if wg == 0 {
        setmaxnreg_dec_40();
        if tid == 0 {
            tensormap_acquire(map_a);
            tensormap_acquire(map_b);
            let mut p = Pipe { stage: 0, phase: 0 };
            let mut tile = ctaid();
            while tile < tiles {
                let (m0, n0) = tile_origin(tile, tiles_m, tiles_n, group_m);
                let mut kt = 0;
                while kt < k_tiles {
                    let bar = full + 8 * p.stage;
                    mbar_wait(empty + 8 * p.stage, p.phase ^ 1);
                    mbar_expect_tx(bar, tx);
                    load_stage::<A>(pa, map_a, p.stage, kt, m0, bar);
                    load_stage::<B>(pb, map_b, p.stage, kt, n0, bar);
                    p = p.next::<STAGES>();
                    kt += 1;
                }
                tile += nctaid();
            }
        }
    } else {
        setmaxnreg_inc_232();
        let im = wg - 1;
        let t = tid % 128;
        let warp_buf = base + smem.epi + ((tid - 128) / 32) * 16 * EPI_PITCH;
        // This warpgroup's A subtile: a constant step from the stage's descriptor.
        let a_im = advance_mn::<A>(im);
        let mut d = Acc::zero();
        let mut p = Pipe { stage: 0, phase: 0 };
        let mut prev = 0;
        let mut tile = ctaid();
        while tile < tiles {
            let (m0, n0) = tile_origin(tile, tiles_m, tiles_n, group_m);
            let mut kt = 0;
            while kt < k_tiles {
                mbar_wait(full + 8 * p.stage, p.phase);
                wgmma_fence();
                // One descriptor per stage, then the K subtiles are adds of constants.
                let da = pa.desc_wrapping(0, 0, p.stage) + a_im;
                let db = pb.desc_wrapping(0, 0, p.stage);
                unroll!(A::MMAS_K, |k| {
                    let (ka, kb) = (A::ADVANCE_K[k as usize], B::ADVANCE_K[k as usize]);
                    mma(
                        &mut d,
                        da + ka as u64,
                        db + kb as u64,
                        ((kt | k) != 0) as u32,
                    );
                });
                wgmma_commit();
                // Keep one stage of wgmma in flight; the one before is complete: free its stage.
                wgmma_wait::<1>();
                if kt > 0 && t == 0 {
                    mbar_arrive(empty + 8 * prev);
                }
                prev = p.stage;
                p = p.next::<STAGES>();
                kt += 1;
            }
            wgmma_wait::<0>();
            d.fence_operands();
            if t == 0 {
                mbar_arrive(empty + 8 * prev);
            }
            store_tile(c, &d, warp_buf, m0 + im * 64 + (t / 32) * 16, n0, n_total);
            tile += nctaid();
        }
    }
}

/// bf16 GEMM at 128 x 256 x 64 per stage, 4 stages.
///
/// # Safety
/// 384 threads, `BF16_SMEM.launch_bytes` of dynamic shared memory, M a multiple of 128, N of
/// 256, K of 64; tensor maps of A (`[K, M]`) and B (`[K, N]`) in global memory with the tiles'
/// boxes and swizzle; `c` M x N bf16.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn gemm_bf16_rust(
    map_a: u64,
    map_b: u64,
    c: *mut u32,
    m: u32,
    n: u32,
    k: u32,
    group_m: u32,
) {
    use crate::tiles::{Bf16A, Bf16B, BF16_SMEM};
    gemm_body::<Bf16A, Bf16B, 4>(
        BF16_SMEM,
        map_a,
        map_b,
        c,
        m,
        n,
        k,
        group_m,
        |d, a, b, s| smemdesc::accum::wgmma_m64n256k16_bf16::<0, 0>(d, a, b, s != 0),
    );
}

/// FP8 (e4m3 x e4m3 -> fp32, bf16 out) GEMM at 128 x 256 x 128 per stage, 4 stages.
///
/// # Safety
/// As [`gemm_bf16_rust`], with K a multiple of 128 and `FP8_SMEM.launch_bytes`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn gemm_fp8_rust(
    map_a: u64,
    map_b: u64,
    c: *mut u32,
    m: u32,
    n: u32,
    k: u32,
    group_m: u32,
) {
    use crate::tiles::{Fp8A, Fp8B, FP8_SMEM};
    gemm_body::<Fp8A, Fp8B, 4>(FP8_SMEM, map_a, map_b, c, m, n, k, group_m, |d, a, b, s| {
        smemdesc::accum::wgmma_m64n256k32_e4m3(d, a, b, s != 0)
    });
}
