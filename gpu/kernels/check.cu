// smemdesc-gpu layout check: one CTA, one warpgroup (128 threads).
// Loads every stage of A and B with TMA, one cp.async.bulk.tensor per smemdesc box, to
// stage base + smemdesc box offset (A possibly at base + a_offset, or via a staging copy for the
// relative placement model), then runs wgmma over every MMA subtile and stage with
// smemdesc's descriptors and writes D (tile_m x tile_n, fp32, row-major).
// All layout numbers are fields of CheckTables, filled from the generated header.

struct OperandTables {
    const u64* desc;     // desc(0, mn, k, stage) from smemdesc, index (stage * mmas_k + k) * mmas_mn + mn
    u32 mmas_mn;         // MMA subtiles along M/N
    u32 stage_bytes;     // smemdesc stage_bytes()
    u32 region_bytes;    // all stages, rounded up to 1024
    u32 boxes;           // TMA boxes per stage
    const u32* box_off;  // byte offset of box b inside one stage
    const u32* box_c0;   // tensor-map coordinate 0 (innermost) of box b, stage 0
    const u32* box_c1;   // tensor-map coordinate 1 of box b, stage 0
    u32 k_dim;           // which coordinate K is (0: K-major, 1: MN-major)
    u32 tile_k;          // K elements per stage (added to coordinate k_dim per stage)
};

struct CheckTables {
    OperandTables a, b;
    u32 mmas_k, stages, tx_bytes, tile_n;
    u32 a_offset;    // bytes past the 1024-aligned base where A sits (spec 7: 0x80..0x380 or 0)
    u32 a_relative;  // 1: A is TMA-loaded to an aligned staging area, then copied verbatim to
                     // base + a_offset (a pattern restarting at the tile start); 0: TMA to A
};

// Copies `bytes` (a multiple of 16) of shared memory from src to dst with all threads.
__device__ __forceinline__ void smem_copy16(u32 dst, u32 src, u32 bytes) {
    for (u32 o = threadIdx.x * 16; o < bytes; o += blockDim.x * 16) {
        u32 x, y, z, w;
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(src + o) : "memory");
        asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};"
                     ::"r"(dst + o), "r"(x), "r"(y), "r"(z), "r"(w) : "memory");
    }
}

template <int KIND, int TA, int TB>
__device__ __forceinline__ void mma_n64(float (&d)[32], u64 da, u64 db, int scale_d) {
    if (KIND == 0) wgmma_m64n64_bf16<TA, TB>(d, da, db, scale_d);
    else if (KIND == 1) wgmma_m64n64_e4m3(d, da, db, scale_d);
    else wgmma_m64n64_tf32(d, da, db, scale_d);
}

template <int KIND, int TA, int TB>
__device__ __forceinline__ void check_body(const TmaMap* tma_a, const TmaMap* tma_b, float* out, u64* dbg,
                                           const CheckTables& t) {
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    const u32 raw = smem_u32(smem_raw);
    const u32 base = (raw + 1023u) & ~1023u;
    const u32 a_base = base + t.a_offset;
    const u32 b_base = base + ((t.a_offset + 1023u) & ~1023u) + t.a.region_bytes;
    const u32 staging = b_base + t.b.region_bytes;  // 1024-aligned (regions are)
    const u32 a_load = t.a_relative ? staging : a_base;
    const u32 bar = staging + (t.a_relative ? t.a.region_bytes : 0u);
    const u32 tid = threadIdx.x;

    if (tid == 0) {
        mbar_init(bar, 1);
        fence_barrier_init();
    }
    __syncthreads();
    if (tid == 0) {
        mbar_expect_tx(bar, t.tx_bytes);
        for (u32 s = 0; s < t.stages; ++s) {
            for (u32 b = 0; b < t.a.boxes; ++b) {
                int c0 = (int)t.a.box_c0[b] + (t.a.k_dim == 0 ? (int)(s * t.a.tile_k) : 0);
                int c1 = (int)t.a.box_c1[b] + (t.a.k_dim == 1 ? (int)(s * t.a.tile_k) : 0);
                tma_load_2d(a_load + s * t.a.stage_bytes + t.a.box_off[b], tma_a, c0, c1, bar);
            }
            for (u32 b = 0; b < t.b.boxes; ++b) {
                int c0 = (int)t.b.box_c0[b] + (t.b.k_dim == 0 ? (int)(s * t.b.tile_k) : 0);
                int c1 = (int)t.b.box_c1[b] + (t.b.k_dim == 1 ? (int)(s * t.b.tile_k) : 0);
                tma_load_2d(b_base + s * t.b.stage_bytes + t.b.box_off[b], tma_b, c0, c1, bar);
            }
        }
    }
    // Bounded wait: a wrong tx count or box would otherwise hang; trap so the host sees an error.
    {
        u32 done = 0;
        for (u32 spin = 0; !done && spin < (1u << 24); ++spin) {
            asm volatile(
                "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                : "=r"(done) : "r"(bar), "r"(0u) : "memory");
        }
        if (!done) asm volatile("trap;");
    }
    if (t.a_relative) {
        // The aligned staging bytes are `swizzle(offset)`; copied to base + a_offset they are
        // `a_base + swizzle(offset)`. Make the generic-proxy stores visible to wgmma.
        smem_copy16(a_base, staging, t.stages * t.a.stage_bytes);
        fence_proxy_async();
        __syncthreads();
    }

    // Record the runtime descriptors (and the tile bases) so the host can compare them with
    // smemdesc's try_desc(actual base, mn, k, stage).
    if (tid == 0) {
        dbg[0] = a_base;
        dbg[1] = b_base;
        u32 n = 2;
        for (u32 s = 0; s < t.stages; ++s)
            for (u32 k = 0; k < t.mmas_k; ++k)
                for (u32 i = 0; i < t.a.mmas_mn; ++i)
                    dbg[n++] = t.a.desc[(s * t.mmas_k + k) * t.a.mmas_mn + i] + (base >> 4);
        for (u32 s = 0; s < t.stages; ++s)
            for (u32 k = 0; k < t.mmas_k; ++k)
                for (u32 i = 0; i < t.b.mmas_mn; ++i)
                    dbg[n++] = t.b.desc[(s * t.mmas_k + k) * t.b.mmas_mn + i] + (b_base >> 4);
    }

    const u32 warp = tid / 32, lane = tid % 32;
    for (u32 im = 0; im < t.a.mmas_mn; ++im) {
        for (u32 in = 0; in < t.b.mmas_mn; ++in) {
            float d[32];
#pragma unroll
            for (int i = 0; i < 32; ++i) d[i] = 0.f;
            wgmma_fence();
            for (u32 s = 0; s < t.stages; ++s) {
                for (u32 k = 0; k < t.mmas_k; ++k) {
                    // desc(addr, mn, k, stage) = desc(0, mn, k, stage) + addr / 16 (one add);
                    // A's table is for A at a_offset from a 1024-aligned base at 0 (its
                    // base_offset, if any, is the same at base + a_offset).
                    u64 da = t.a.desc[(s * t.mmas_k + k) * t.a.mmas_mn + im] + (base >> 4);
                    u64 db = t.b.desc[(s * t.mmas_k + k) * t.b.mmas_mn + in] + (b_base >> 4);
                    mma_n64<KIND, TA, TB>(d, da, db, (s | k) != 0);
                }
            }
            wgmma_commit();
            wgmma_wait<0>();
            // m64nNk* fp32 accumulator fragment: warp w owns rows 16w..16w+15.
#pragma unroll
            for (int i = 0; i < 32; ++i) {
                u32 row = im * 64 + warp * 16 + lane / 4 + 8 * ((i >> 1) & 1);
                u32 col = in * 64 + 8 * (i >> 2) + 2 * (lane % 4) + (i & 1);
                out[row * t.tile_n + col] = d[i];
            }
        }
    }
}
