// smemdesc-gpu pipelined GEMM: C (M x N, bf16, row-major) = A (M x K, bf16, K-major) * B^T (B: N x K, K-major),
// fp32 accumulate. One CTA = one G_BM x G_BN tile; warpgroup 0 is the TMA producer (one thread),
// warpgroups 1..G_CONSUMERS each own G_BM / G_CONSUMERS rows (one wgmma M=64 subtile) and run
// m64n{G_MMA_N}k16 over the G_BN columns. mbarriers full[s] / empty[s] per stage.
// Tile geometry, descriptors, boxes and box offsets come from the header `smemdesc header --from
// gemm_tiles.rs` wrote (prepended; macro prefix GEMM_TILES_, one tile per declaration: GemmTileA,
// GemmTileB and GemmTileBHalf, B with half-height boxes for the cluster variant). The names below
// only rename its values (as int, the type the kernel's index arithmetic is written in); the
// generated prefix adds G_EPI_COLS, G_EPI_PITCH and G_WGMMA.
#define G_BM ((int)GEMM_TILES_GEMM_TILE_A_TILE_MN)
#define G_BN ((int)GEMM_TILES_GEMM_TILE_B_TILE_MN)
#define G_BK ((int)GEMM_TILES_GEMM_TILE_A_TILE_K)
#define G_STAGES ((int)GEMM_TILES_GEMM_TILE_A_STAGES)
#define G_CONSUMERS ((int)GEMM_TILES_GEMM_TILE_A_MMAS_MN)  // one consumer warpgroup per A subtile along M
#define G_MMA_N ((int)GEMM_TILES_GEMM_TILE_B_MMA_N)
#define G_MMAS_K ((int)GEMM_TILES_GEMM_TILE_A_MMAS_K)
#define G_A_MMAS_MN ((int)GEMM_TILES_GEMM_TILE_A_MMAS_MN)
#define G_B_MMAS_MN ((int)GEMM_TILES_GEMM_TILE_B_MMAS_MN)
#define G_A_STAGE_BYTES ((int)GEMM_TILES_GEMM_TILE_A_STAGE_BYTES)
#define G_B_STAGE_BYTES ((int)GEMM_TILES_GEMM_TILE_B_STAGE_BYTES)
#define G_A_REGION ((int)((GEMM_TILES_GEMM_TILE_A_BYTES + 1023u) / 1024u * 1024u))
#define G_B_REGION ((int)((GEMM_TILES_GEMM_TILE_B_BYTES + 1023u) / 1024u * 1024u))
#define G_A_BOXES ((int)GEMM_TILES_GEMM_TILE_A_TMA_BOXES)
#define G_B_BOXES ((int)GEMM_TILES_GEMM_TILE_B_TMA_BOXES)
#define G_TX_BYTES \
    ((int)(GEMM_TILES_GEMM_TILE_A_TMA_BOXES * GEMM_TILES_GEMM_TILE_A_TMA_BOX_BYTES + \
           GEMM_TILES_GEMM_TILE_B_TMA_BOXES * GEMM_TILES_GEMM_TILE_B_TMA_BOX_BYTES))
__constant__ u64 G_A_DESC[G_STAGES][G_A_MMAS_MN][G_MMAS_K] = GEMM_TILES_GEMM_TILE_A_DESCS_INIT;
__constant__ u64 G_B_DESC[G_STAGES][G_B_MMAS_MN][G_MMAS_K] = GEMM_TILES_GEMM_TILE_B_DESCS_INIT;
__constant__ u32 G_A_BOX_OFF[] = GEMM_TILES_GEMM_TILE_A_TMA_BOX_OFFSETS_INIT;
__constant__ u32 G_B_BOX_OFF[] = GEMM_TILES_GEMM_TILE_B_TMA_BOX_OFFSETS_INIT;
__constant__ u32 G_BH_BOX_OFF[] = GEMM_TILES_GEMM_TILE_B_HALF_TMA_BOX_OFFSETS_INIT;
// {mn0, k0} of each box (K-major tiles: tensor-map coordinate 0 is K, 1 is M or N).
__constant__ int G_A_BOX_COORD[][2] = GEMM_TILES_GEMM_TILE_A_TMA_BOX_COORDS_INIT;
__constant__ int G_B_BOX_COORD[][2] = GEMM_TILES_GEMM_TILE_B_TMA_BOX_COORDS_INIT;
__constant__ int G_BH_BOX_COORD[][2] = GEMM_TILES_GEMM_TILE_B_HALF_TMA_BOX_COORDS_INIT;

#define G_THREADS (128 * (G_CONSUMERS + 1))

// Tile raster: groups of group_m row-tiles walk across N together (L2 reuse).
__device__ __forceinline__ void tile_origin(int tile, int tiles_m, int tiles_n, int group_m, int& m0, int& n0) {
    const int per_group = group_m * tiles_n;
    const int group = tile / per_group;
    const int first_m = group * group_m;
    const int gsize = min(tiles_m - first_m, group_m);
    m0 = (first_m + (tile % per_group) % gsize) * G_BM;
    n0 = ((tile % per_group) / gsize) * G_BN;
}

// Epilogue: fp32 accumulators -> bf16x2, straight from the m64nNk16 fragment to global.
__device__ __forceinline__ void store_tile(u32* c, const float (&d)[G_MMA_N / 2], int row0, int n0, int n_total) {
#pragma unroll
    for (int j = 0; j < G_MMA_N / 8; ++j) {
        const int col = n0 + 8 * j + 2 * (threadIdx.x % 4);
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            u32 packed;
            asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(d[4 * j + 2 * h + 1]), "f"(d[4 * j + 2 * h]));
            c[((size_t)(row0 + 8 * h) * n_total + col) / 2] = packed;
        }
    }
}

// Epilogue through SMEM: each consumer warp writes its 16 x G_EPI_COLS slice of the fragment into
// its own padded buffer (4-byte writes, conflict-free: pitch G_EPI_PITCH), then reads it back as
// 16-byte vectors and stores whole 128-byte row segments to global (coalesced st.global.v4).
// `buf` is this warp's buffer, `row0` the warp's first row, `n0` the tile's first column.
// STREAM: st.global.cs (evict-first), so C (128 MiB at 8192^2) displaces less of A and B in L2.
template <bool STREAM>
__device__ __forceinline__ void store_tile_staged(u32* c, const float (&d)[G_MMA_N / 2], u32 buf, int row0, int n0,
                                                  int n_total) {
    const u32 lane = threadIdx.x % 32;
#pragma unroll
    for (int cc = 0; cc < G_MMA_N / G_EPI_COLS; ++cc) {
#pragma unroll
        for (int jj = 0; jj < G_EPI_COLS / 8; ++jj) {
            const int j = cc * (G_EPI_COLS / 8) + jj;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                u32 packed;
                asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(d[4 * j + 2 * h + 1]), "f"(d[4 * j + 2 * h]));
                const u32 a = buf + (lane / 4 + 8 * h) * G_EPI_PITCH + (8 * jj + 2 * (lane % 4)) * 2;
                asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(packed) : "memory");
            }
        }
        __syncwarp();
        constexpr int VEC_PER_ROW = G_EPI_COLS * 2 / 16;
#pragma unroll
        for (int i = 0; i < 16 * VEC_PER_ROW / 32; ++i) {
            const int q = i * 32 + lane;
            const int r = q / VEC_PER_ROW, v = q % VEC_PER_ROW;
            u32 x0, x1, x2, x3;
            asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3)
                         : "r"(buf + r * G_EPI_PITCH + 16 * v)
                         : "memory");
            u32* g = c + ((size_t)(row0 + r) * n_total + n0 + cc * G_EPI_COLS + 8 * v) / 2;
            if (STREAM)
                asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(g), "r"(x0), "r"(x1), "r"(x2),
                             "r"(x3)
                             : "memory");
            else
                asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(g), "r"(x0), "r"(x1), "r"(x2), "r"(x3)
                             : "memory");
        }
        __syncwarp();
    }
}

// The producer main loop, shared by every kernel: one thread issues the TMA loads of k_tiles
// k-tiles of the tile at (m0, n0); `it` is the pipeline's iteration counter (it runs on across
// tiles in the persistent kernels) and the updated counter is returned. For each k-tile it waits
// until the stage is free, arms full[s] with the stage's bytes and loads A's boxes, then B: the
// whole tile, or with B_HALF this cluster CTA's half (box `rank`), multicast to both CTAs.
template <bool B_HALF>
__device__ __forceinline__ int produce_k_tiles(const TmaMap* tma_a, const TmaMap* tma_b, u32 a_base, u32 b_base,
                                               u32 full_bar, u32 empty_bar, int m0, int n0, u32 rank, int it,
                                               int k_tiles) {
    for (int kt = 0; kt < k_tiles; ++kt, ++it) {
        const int s = it % G_STAGES;
        const u32 phase = (it / G_STAGES) & 1;
        mbar_wait(empty_bar + 8 * s, phase ^ 1);
        mbar_expect_tx(full_bar + 8 * s, G_TX_BYTES);
#pragma unroll
        for (int b = 0; b < G_A_BOXES; ++b)
            tma_load_2d(a_base + s * G_A_STAGE_BYTES + G_A_BOX_OFF[b], tma_a, kt * G_BK + G_A_BOX_COORD[b][1],
                        m0 + G_A_BOX_COORD[b][0], full_bar + 8 * s);
        if (B_HALF) {
            tma_load_2d_mc(b_base + s * G_B_STAGE_BYTES + G_BH_BOX_OFF[rank], tma_b,
                           kt * G_BK + G_BH_BOX_COORD[rank][1], n0 + G_BH_BOX_COORD[rank][0], full_bar + 8 * s, 0x3);
        } else {
#pragma unroll
            for (int b = 0; b < G_B_BOXES; ++b)
                tma_load_2d(b_base + s * G_B_STAGE_BYTES + G_B_BOX_OFF[b], tma_b, kt * G_BK + G_B_BOX_COORD[b][1],
                            n0 + G_B_BOX_COORD[b][0], full_bar + 8 * s);
        }
    }
    return it;
}

// Frees stage `s` for the producer (one thread per consumer warpgroup). With CLUSTER the stage is
// free only when both CTAs' consumers released it, so the thread arrives here and at the peer.
template <bool CLUSTER>
__device__ __forceinline__ void release_stage(u32 empty_bar, int s, u32 peer) {
    const u32 e = empty_bar + 8 * s;
    mbar_arrive(e);
    if (CLUSTER) mbar_arrive_cluster(e, peer);
}

// The consumer main loop, written once for every kernel: k_tiles k-tiles of wgmma on this
// warpgroup's A subtile `im` against the whole B tile, accumulating into `d`; `t` is the thread's
// index in its warpgroup, `it` the pipeline's iteration counter (the updated one is returned).
// After a k-tile's wgmmas are issued the previous k-tile's are complete (one stays in flight), so
// thread 0 releases its stage (release_stage<CLUSTER>: the kernels differ only there). Returns
// with every wgmma complete; the last k-tile's stage is left to the caller.
template <bool CLUSTER>
__device__ __forceinline__ int consume_k_tiles(float (&d)[G_MMA_N / 2], u32 a_base, u32 b_base, u32 full_bar,
                                               u32 empty_bar, u32 im, u32 t, u32 peer, int it, int k_tiles) {
    for (int kt = 0; kt < k_tiles; ++kt, ++it) {
        const int s = it % G_STAGES;
        const u32 phase = (it / G_STAGES) & 1;
        mbar_wait(full_bar + 8 * s, phase);
        wgmma_fence();
#pragma unroll
        for (int k = 0; k < G_MMAS_K; ++k) {
            const u64 da = G_A_DESC[s][im][k] + (a_base >> 4);
            const u64 db = G_B_DESC[s][0][k] + (b_base >> 4);
            G_WGMMA(d, da, db, (kt | k) != 0);
        }
        wgmma_commit();
        // Keep one k-tile of wgmma in flight; the previous one is complete -> free its stage.
        wgmma_wait<1>();
        if (kt > 0 && t == 0) release_stage<CLUSTER>(empty_bar, (it - 1) % G_STAGES, peer);
    }
    wgmma_wait<0>();
    return it;
}

extern "C" __global__ void __launch_bounds__(G_THREADS, 1)
    gemm_bf16(const __grid_constant__ TmaMap tma_a, const __grid_constant__ TmaMap tma_b, u32* __restrict__ c,
              int m_total, int n_total, int k_total, int group_m) {
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    const u32 raw = smem_u32(smem_raw);
    const u32 base = (raw + 1023u) & ~1023u;
    const u32 a_base = base;
    const u32 b_base = base + G_A_REGION;
    const u32 full_bar = b_base + G_B_REGION;        // G_STAGES x 8 bytes
    const u32 empty_bar = full_bar + 8 * G_STAGES;   // G_STAGES x 8 bytes

    const int tiles_m = m_total / G_BM, tiles_n = n_total / G_BN;
    int m0, n0;
    tile_origin(blockIdx.x, tiles_m, tiles_n, group_m, m0, n0);
    const int k_tiles = k_total / G_BK;

    const u32 tid = threadIdx.x;
    const u32 wg = tid / 128;
    if (tid == 0) {
        for (int s = 0; s < G_STAGES; ++s) {
            mbar_init(full_bar + 8 * s, 1);
            mbar_init(empty_bar + 8 * s, G_CONSUMERS);
        }
        fence_barrier_init();
    }
    __syncthreads();

    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        if (tid == 0) {
            produce_k_tiles<false>(&tma_a, &tma_b, a_base, b_base, full_bar, empty_bar, m0, n0, 0, 0, k_tiles);
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        const u32 im = wg - 1;  // this warpgroup's A subtile along M
        float d[G_MMA_N / 2];
#pragma unroll
        for (int i = 0; i < G_MMA_N / 2; ++i) d[i] = 0.f;
        consume_k_tiles<false>(d, a_base, b_base, full_bar, empty_bar, im, tid % 128, 0, 0, k_tiles);
        const u32 t = tid % 128;
        store_tile(c, d, m0 + im * 64 + (t / 32) * 16 + (t % 32) / 4, n0, n_total);
    }
}

// Persistent variant: gridDim.x CTAs (one per SM) walk the tiles; the stage/phase counter runs on
// across tiles, so the producer fills the next tile's stages while the consumers store this one.
// STAGED: epilogue through per-warp SMEM buffers and 16-byte coalesced stores (store_tile_staged,
// evict-first with STREAM); otherwise 4-byte stores straight from the fragment (store_tile).
template <bool STAGED, bool STREAM>
__device__ __forceinline__ void persistent_body(u32 raw, const TmaMap* tma_a, const TmaMap* tma_b, u32* __restrict__ c,
                                                int m_total, int n_total, int k_total, int group_m) {
    const u32 base = (raw + 1023u) & ~1023u;
    const u32 a_base = base;
    const u32 b_base = base + G_A_REGION;
    const u32 full_bar = b_base + G_B_REGION;
    const u32 empty_bar = full_bar + 8 * G_STAGES;
    const u32 epi_base = (empty_bar + 8 * G_STAGES + 15u) & ~15u;  // G_CONSUMERS * 4 warps x 16 rows
    const int tiles_m = m_total / G_BM, tiles_n = n_total / G_BN;
    const int tiles = tiles_m * tiles_n;
    const int k_tiles = k_total / G_BK;
    const u32 tid = threadIdx.x;
    const u32 wg = tid / 128;
    if (tid == 0) {
        for (int s = 0; s < G_STAGES; ++s) {
            mbar_init(full_bar + 8 * s, 1);
            mbar_init(empty_bar + 8 * s, G_CONSUMERS);
        }
        fence_barrier_init();
    }
    __syncthreads();

    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        if (tid == 0) {
            int it = 0;
            for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
                int m0, n0;
                tile_origin(tile, tiles_m, tiles_n, group_m, m0, n0);
                it = produce_k_tiles<false>(tma_a, tma_b, a_base, b_base, full_bar, empty_bar, m0, n0, 0, it, k_tiles);
            }
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        const u32 im = wg - 1;
        const u32 t = tid % 128;
        const u32 warp_buf = epi_base + ((tid - 128) / 32) * 16 * G_EPI_PITCH;
        float d[G_MMA_N / 2];
#pragma unroll
        for (int i = 0; i < G_MMA_N / 2; ++i) d[i] = 0.f;
        int it = 0;
        for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            int m0, n0;
            tile_origin(tile, tiles_m, tiles_n, group_m, m0, n0);
            it = consume_k_tiles<false>(d, a_base, b_base, full_bar, empty_bar, im, t, 0, it, k_tiles);
            if (t == 0) mbar_arrive(empty_bar + 8 * ((it - 1) % G_STAGES));
            if (STAGED)
                store_tile_staged<STREAM>(c, d, warp_buf, m0 + im * 64 + (t / 32) * 16, n0, n_total);
            else
                store_tile(c, d, m0 + im * 64 + (t / 32) * 16 + (t % 32) / 4, n0, n_total);
        }
    }
}

extern "C" __global__ void __launch_bounds__(G_THREADS, 1)
    gemm_bf16_persistent(const __grid_constant__ TmaMap tma_a, const __grid_constant__ TmaMap tma_b,
                         u32* __restrict__ c, int m_total, int n_total, int k_total, int group_m) {
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    persistent_body<false, false>(smem_u32(smem_raw), &tma_a, &tma_b, c, m_total, n_total, k_total, group_m);
}

extern "C" __global__ void __launch_bounds__(G_THREADS, 1)
    gemm_bf16_persistent_vst(const __grid_constant__ TmaMap tma_a, const __grid_constant__ TmaMap tma_b,
                             u32* __restrict__ c, int m_total, int n_total, int k_total, int group_m) {
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    persistent_body<true, false>(smem_u32(smem_raw), &tma_a, &tma_b, c, m_total, n_total, k_total, group_m);
}

extern "C" __global__ void __launch_bounds__(G_THREADS, 1)
    gemm_bf16_persistent_vst_cs(const __grid_constant__ TmaMap tma_a, const __grid_constant__ TmaMap tma_b,
                                u32* __restrict__ c, int m_total, int n_total, int k_total, int group_m) {
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    persistent_body<true, true>(smem_u32(smem_raw), &tma_a, &tma_b, c, m_total, n_total, k_total, group_m);
}

// Cluster variant: 2 CTAs (cluster ranks 0, 1) take vertically adjacent M tiles with the same N
// tile. Each loads its own A tile and one half of the shared B tile (smemdesc's B plan with
// box rows = BN / 2, box `rank`), multicast to both CTAs. A stage is free only when the consumers
// of both CTAs released it, so each consumer warpgroup arrives on its own and the peer's empty[s].
extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(G_THREADS, 1)
    gemm_bf16_cluster2(const __grid_constant__ TmaMap tma_a, const __grid_constant__ TmaMap tma_b_half,
                       u32* __restrict__ c, int m_total, int n_total, int k_total, int group_m) {
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    const u32 raw = smem_u32(smem_raw);
    const u32 base = (raw + 1023u) & ~1023u;
    const u32 a_base = base;
    const u32 b_base = base + G_A_REGION;
    const u32 full_bar = b_base + G_B_REGION;
    const u32 empty_bar = full_bar + 8 * G_STAGES;
    const u32 rank = cluster_ctarank();
    const u32 peer = rank ^ 1;
    const int tiles_m = m_total / G_BM, tiles_n = n_total / G_BN;
    int m0, n0;
    tile_origin(blockIdx.x / 2, tiles_m / 2, tiles_n, group_m, m0, n0);
    m0 = (2 * (m0 / G_BM) + (int)rank) * G_BM;
    const int k_tiles = k_total / G_BK;
    const u32 tid = threadIdx.x;
    const u32 wg = tid / 128;
    if (tid == 0) {
        for (int s = 0; s < G_STAGES; ++s) {
            mbar_init(full_bar + 8 * s, 1);
            mbar_init(empty_bar + 8 * s, 2 * G_CONSUMERS);
        }
        fence_barrier_init();
    }
    __syncthreads();
    cluster_sync();  // the peer's barriers exist before any multicast or remote arrive

    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        if (tid == 0) {
            produce_k_tiles<true>(&tma_a, &tma_b_half, a_base, b_base, full_bar, empty_bar, m0, n0, rank, 0, k_tiles);
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        const u32 im = wg - 1;
        const u32 t = tid % 128;
        float d[G_MMA_N / 2];
#pragma unroll
        for (int i = 0; i < G_MMA_N / 2; ++i) d[i] = 0.f;
        consume_k_tiles<true>(d, a_base, b_base, full_bar, empty_bar, im, t, peer, 0, k_tiles);
        store_tile(c, d, m0 + im * 64 + (t / 32) * 16 + (t % 32) / 4, n0, n_total);
    }
    __syncwarp();
    cluster_sync();  // no CTA leaves while its peer may still arrive on its barriers
}
