//! The layout-class check: one CTA, one warpgroup. Loads both stages of A and B with TMA (one
//! `cp.async.bulk.tensor` per box of each tile's plan, at the stage address plus the box offset,
//! coordinates from `TMA_BOX_COORDS`), then runs `wgmma` m64n64 over every MMA subtile and stage
//! with the tiles' descriptors and writes D (128 x 128 fp32, row-major). The descriptors it used
//! go to `dbg` so the host can compare them with the core's `try_desc` at the actual address.

use crate::ptx::*;
use crate::tiles::CheckSmem;
use crate::wgmma;
use smemdesc::smem::{align_up, TileAt};
use smemdesc::{ElementType, Major, SmemTile};

fn mn_major<T: SmemTile>() -> bool {
    matches!(T::PLAN.decl.major, Major::Mn)
}

/// Tensor coordinates `(c0, c1)` of box `b` of stage `s`: K-major tensors are `[K, MN]`
/// innermost first, MN-major ones `[MN, K]`; stage `s` holds K elements `s * TILE_K ..`.
#[inline(always)]
fn box_coords<T: SmemTile>(b: usize, s: u32) -> (u32, u32) {
    let [mn0, k0] = T::TMA_BOX_COORDS[b];
    let k = k0 + s * T::PLAN.tile.spec().tile_k;
    if mn_major::<T>() {
        (mn0, k)
    } else {
        (k, mn0)
    }
}

/// Loads all stages of tile `T` placed at `p` (one mbarrier for everything).
///
/// A tile whose narrow swizzle is stacked across the box (K-major K-first or MN-major MN-first,
/// no swizzle, 32B or 64B) has up to 256 boxes per stage, more than one `unroll!` covers (32: it
/// traps above), so the boxes are unrolled in groups of 32: up to 1024 per stage, straight-line
/// code with every offset a constant. (`unroll!` itself stays flat: nesting it everywhere would
/// multiply what LLVM inlines before it folds the bounds, at every other call site.)
#[inline(always)]
unsafe fn load_all<T: SmemTile>(p: TileAt<T>, map: u64, bar: u32) {
    const { assert!(T::TMA_BOXES <= 32 * 32) };
    unroll!(T::STAGES, |s| {
        unroll!(T::TMA_BOXES.div_ceil(32), |hi| {
            unroll!(32, |lo| {
                let b = hi * 32 + lo;
                if b < T::TMA_BOXES {
                    let (c0, c1) = box_coords::<T>(b as usize, s);
                    tma_load_2d(
                        p.stage_addr(s) + T::TMA_BOX_OFFSETS[b as usize],
                        map,
                        c0,
                        c1,
                        bar,
                    );
                }
            });
        });
    });
}

/// The m64n64 wgmma of the class's element type and majors.
#[inline(always)]
unsafe fn mma64<A: SmemTile, B: SmemTile>(d: &mut [f32; 32], da: u64, db: u64, scale_d: u32) {
    match (A::PLAN.decl.dtype, mn_major::<A>(), mn_major::<B>()) {
        (ElementType::BF16, false, false) => wgmma::m64n64k16_bf16_tt00(d, da, db, scale_d),
        (ElementType::BF16, false, true) => wgmma::m64n64k16_bf16_tt01(d, da, db, scale_d),
        (ElementType::BF16, true, false) => wgmma::m64n64k16_bf16_tt10(d, da, db, scale_d),
        (ElementType::BF16, true, true) => wgmma::m64n64k16_bf16_tt11(d, da, db, scale_d),
        (ElementType::E4M3, false, false) => wgmma::m64n64k32_e4m3(d, da, db, scale_d),
        (ElementType::TF32, false, false) => wgmma::m64n64k8_tf32(d, da, db, scale_d),
        _ => trap(),
    }
}

/// The negative control's descriptor: SBO (bits 32-45, 16-byte units) doubled.
#[inline(always)]
fn wrong_sbo(d: u64) -> u64 {
    let field = 0x3fffu64 << 32;
    let sbo = (d & field) >> 32;
    (d & !field) | (((sbo * 2) << 32) & field)
}

/// The check body for the class with tiles `A`, `B`.
#[inline(always)]
unsafe fn check_body<A: SmemTile, B: SmemTile>(
    map_a: u64,
    map_b: u64,
    out: *mut f32,
    dbg: *mut u64,
    negative: bool,
) {
    let base = align_up(smem_dyn(), CheckSmem::<A, B>::ALIGN);
    // What an `#[smem_storage]` member accessor returns, from the generic layout's offsets.
    let pa = TileAt::<A>::new_unvalidated(base + CheckSmem::<A, B>::A);
    let pb = TileAt::<B>::new_unvalidated(base + CheckSmem::<A, B>::B);
    let bar = base + CheckSmem::<A, B>::BAR;
    let tid = tid();
    if tid == 0 {
        mbar_init(bar, 1);
        fence_barrier_init();
    }
    sync_threads();
    if tid == 0 {
        tensormap_acquire(map_a);
        tensormap_acquire(map_b);
        let tx = A::STAGES * A::TMA_BOXES * A::PLAN.tma.box_bytes
            + B::STAGES * B::TMA_BOXES * B::PLAN.tma.box_bytes;
        mbar_expect_tx(bar, tx);
        load_all::<A>(pa, map_a, bar);
        load_all::<B>(pb, map_b, bar);
    }
    // Bounded wait: a wrong transaction count or box would hang; trap so the host sees an error.
    let mut spin = 0u32;
    while !mbar_try_wait(bar, 0) {
        spin += 1;
        if spin > 1 << 24 {
            trap();
        }
    }
    let da = |i: u32, k: u32, s: u32| {
        let d = pa.desc_wrapping(i, k, s);
        if negative {
            wrong_sbo(d)
        } else {
            d
        }
    };
    if tid == 0 {
        *dbg = pa.addr() as u64;
        *dbg.add(1) = pb.addr() as u64;
        let mut n = 2;
        unroll!(A::STAGES, |s| {
            unroll!(A::MMAS_K, |k| {
                unroll!(A::MMAS_MN, |i| {
                    *dbg.add(n) = da(i, k, s);
                    n += 1;
                });
            });
        });
        unroll!(B::STAGES, |s| {
            unroll!(B::MMAS_K, |k| {
                unroll!(B::MMAS_MN, |i| {
                    *dbg.add(n) = pb.desc_wrapping(i, k, s);
                    n += 1;
                });
            });
        });
    }
    let (warp, lane) = (tid / 32, tid % 32);
    let n_total = B::PLAN.tile.spec().tile_mn;
    unroll!(A::MMAS_MN, |im| {
        unroll!(B::MMAS_MN, |jn| {
            let mut d = [0f32; 32];
            wgmma_fence();
            unroll!(A::STAGES, |s| {
                unroll!(A::MMAS_K, |k| {
                    mma64::<A, B>(&mut d, da(im, k, s), pb.desc_wrapping(jn, k, s), s | k);
                });
            });
            wgmma_commit();
            wgmma_wait::<0>();
            // m64nNk* fp32 accumulator fragment: warp w owns rows 16w .. 16w + 15.
            unroll!(32, |i| {
                let row = im * 64 + warp * 16 + lane / 4 + 8 * ((i >> 1) & 1);
                let col = jn * 64 + 8 * (i >> 2) + 2 * (lane % 4) + (i & 1);
                *out.add((row * n_total + col) as usize) = d[i as usize];
            });
        });
    });
}

/// One kernel per class, named `check_<class>`.
macro_rules! check_kernel {
    ($name:ident, $($rest:tt)*) => {
        pub mod $name {
            /// The class's check kernel.
            ///
            /// # Safety
            /// Launch with 128 threads, one CTA, `check_launch_bytes` of dynamic shared memory,
            /// tensor maps of A and B in global memory, `out` 128 x 128 fp32 and `dbg` room for
            /// 2 + all descriptors.
            #[export_name = concat!("check_", stringify!($name))]
            pub unsafe extern "ptx-kernel" fn kernel(
                map_a: u64,
                map_b: u64,
                out: *mut f32,
                dbg: *mut u64,
            ) {
                use crate::tiles::class::$name as c;
                super::check_body::<c::A, c::B>(map_a, map_b, out, dbg, c::NEGATIVE);
            }
        }
    };
}

/// The check kernels.
#[allow(non_snake_case)]
pub mod kernels {
    use super::check_body;
    for_each_class!(check_kernel);
}
