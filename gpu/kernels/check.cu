// smemdesc-gpu layout check: one CTA, one warpgroup (128 threads).
// Loads every stage of A and B with TMA, one cp.async.bulk.tensor per smemdesc box, to
// stage base + smemdesc box offset (A possibly at base + a_offset, or via a staging copy for the
// relative placement model), then runs wgmma over every MMA subtile and stage with
// smemdesc's descriptors and writes D (tile_m x tile_n, fp32, row-major).
// All layout numbers are fields of CheckTables, filled (CHECK_CLASS, at the end) from the headers
// `smemdesc header` wrote for the class's two tiles.

struct OperandTables {
    const u64* desc;       // DESCS[stage][mn][k] at BASE (header), flattened
    u32 mmas_mn;           // MMAS_MN: MMA subtiles along M/N
    u32 stage_bytes;       // STAGE_BYTES
    u32 region_bytes;      // BYTES (all stages), rounded up to 1024
    u32 boxes;             // TMA_BOXES per stage
    const u32* box_off;    // TMA_BOX_OFFSETS[b]: byte offset of box b inside one stage
    const u32* box_coord;  // TMA_BOX_COORDS[b] = {mn0, k0}: tile coordinates of box b, stage 0
    u32 mn_major;          // MAJOR_MN: tensor-map coordinate 0 is MN (1) or K (0)
    u32 tile_k;            // TILE_K: K elements per stage (added to the K coordinate per stage)
};

// Tensor-map coordinates {c0 (innermost), c1} of box b of stage s.
__device__ __forceinline__ void box_coords(const OperandTables& o, u32 b, u32 s, int& c0, int& c1) {
    const int mn = (int)o.box_coord[2 * b], k = (int)(o.box_coord[2 * b + 1] + s * o.tile_k);
    c0 = o.mn_major ? mn : k;
    c1 = o.mn_major ? k : mn;
}

// The SBO negative control: descriptor bits 32-45 (SBO, 16-byte units) doubled.
__device__ __forceinline__ u64 wrong_sbo(u64 d) {
    const u64 field = 0x3fffull << 32;
    return (d & ~field) | ((((d & field) >> 32) * 2 << 32) & field);
}

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

template <int KIND, int TA, int TB, int WRONG_SBO>
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
            int c0, c1;
            for (u32 b = 0; b < t.a.boxes; ++b) {
                box_coords(t.a, b, s, c0, c1);
                tma_load_2d(a_load + s * t.a.stage_bytes + t.a.box_off[b], tma_a, c0, c1, bar);
            }
            for (u32 b = 0; b < t.b.boxes; ++b) {
                box_coords(t.b, b, s, c0, c1);
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

    // desc(addr, mn, k, stage) = desc(BASE, mn, k, stage) + (addr - BASE) / 16 (one add): A's
    // table is for A at BASE = a_offset past a 1024-aligned base at 0 (its base_offset, if any,
    // is the same at base + a_offset), B's for B at 0.
    auto desc_a = [&](u32 s, u32 i, u32 k) {
        const u64 d = t.a.desc[(s * t.a.mmas_mn + i) * t.mmas_k + k] + (base >> 4);
        return WRONG_SBO ? wrong_sbo(d) : d;
    };
    auto desc_b = [&](u32 s, u32 i, u32 k) { return t.b.desc[(s * t.b.mmas_mn + i) * t.mmas_k + k] + (b_base >> 4); };

    // Record the runtime descriptors (and the tile bases) so the host can compare them with
    // smemdesc's try_desc(actual base, mn, k, stage).
    if (tid == 0) {
        dbg[0] = a_base;
        dbg[1] = b_base;
        u32 n = 2;
        for (u32 s = 0; s < t.stages; ++s)
            for (u32 k = 0; k < t.mmas_k; ++k)
                for (u32 i = 0; i < t.a.mmas_mn; ++i) dbg[n++] = desc_a(s, i, k);
        for (u32 s = 0; s < t.stages; ++s)
            for (u32 k = 0; k < t.mmas_k; ++k)
                for (u32 i = 0; i < t.b.mmas_mn; ++i) dbg[n++] = desc_b(s, i, k);
    }

    const u32 warp = tid / 32, lane = tid % 32;
    for (u32 im = 0; im < t.a.mmas_mn; ++im) {
        for (u32 in = 0; in < t.b.mmas_mn; ++in) {
            float d[32];
#pragma unroll
            for (int i = 0; i < 32; ++i) d[i] = 0.f;
            wgmma_fence();
            for (u32 s = 0; s < t.stages; ++s) {
                for (u32 k = 0; k < t.mmas_k; ++k)
                    mma_n64<KIND, TA, TB>(d, desc_a(s, im, k), desc_b(s, in, k), (s | k) != 0);
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

// The device copies of one tile's tables, from the C initialisers of its header (prefix P).
#define CHECK_TABLES(p, P)                                                                       \
    __device__ const u64 p##_desc[P##_DESCS_DIM0][P##_DESCS_DIM1][P##_DESCS_DIM2] = P##_DESCS_INIT; \
    __device__ const u32 p##_box_off[P##_TMA_BOX_OFFSETS_DIM0] = P##_TMA_BOX_OFFSETS_INIT;          \
    __device__ const u32 p##_box_coord[P##_TMA_BOX_COORDS_DIM0][2] = P##_TMA_BOX_COORDS_INIT;

// One tile's OperandTables: the header's namespace `ns` and the device tables `p`.
#define CHECK_OPERAND(ns, p)                                                                     \
    {&p##_desc[0][0][0], ns::MMAS_MN, ns::STAGE_BYTES, (ns::BYTES + 1023u) / 1024u * 1024u,       \
     ns::TMA_BOXES, p##_box_off, &p##_box_coord[0][0], ns::MAJOR_MN, ns::TILE_K}

// Check kernel check_<I> of the class whose tiles' headers are c<I>_a (A) and c<I>_b (B). What
// is not a layout number comes from the program: KIND (0 bf16, 1 e4m3, 2 tf32), RELATIVE (A is
// written by a copy that restarts the pattern at the tile, spec 7) and WRONG_SBO (the negative
// control). The transaction bytes are every box of every stage of both tiles.
#define CHECK_CLASS(I, KIND, RELATIVE, WRONG_SBO)                                                \
    CHECK_TABLES(c##I##_a, C##I##_A)                                                             \
    CHECK_TABLES(c##I##_b, C##I##_B)                                                             \
    extern "C" __global__ void __launch_bounds__(128, 1)                                         \
        check_##I(const __grid_constant__ TmaMap ta, const __grid_constant__ TmaMap tb, float* out, \
                  u64* dbg) {                                                                    \
        const CheckTables t = {                                                                  \
            CHECK_OPERAND(c##I##_a, c##I##_a),                                                   \
            CHECK_OPERAND(c##I##_b, c##I##_b),                                                   \
            c##I##_a::MMAS_K,                                                                    \
            c##I##_a::STAGES,                                                                    \
            c##I##_a::STAGES * (c##I##_a::TMA_BOXES * c##I##_a::TMA_BOX_BYTES +                  \
                                c##I##_b::TMA_BOXES * c##I##_b::TMA_BOX_BYTES),                  \
            c##I##_b::TILE_MN,                                                                   \
            c##I##_a::BASE,                                                                      \
            RELATIVE};                                                                           \
        check_body<KIND, c##I##_a::MAJOR_MN, c##I##_b::MAJOR_MN, WRONG_SBO>(&ta, &tb, out, dbg, t); \
    }
