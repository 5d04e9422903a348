// smemdesc-gpu: PTX helpers shared by the check and GEMM kernels (sm_90a).
// No numbers about layouts live here: descriptors, offsets, strides and boxes come from the
// headers that `smemdesc header` writes (see gpu/src/gen.rs and gemm.cu).

typedef unsigned int u32;
typedef unsigned long long u64;

// A CUtensorMap (opaque, 128 bytes, 64-byte aligned) passed by value as a __grid_constant__.
struct __align__(64) TmaMap {
    u64 opaque[16];
};

__device__ __forceinline__ u32 smem_u32(const void* p) {
    u32 a;
    asm volatile("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
    return a;
}

__device__ __forceinline__ void mbar_init(u32 bar, u32 count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void fence_barrier_init() {
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void fence_proxy_async() {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

__device__ __forceinline__ void mbar_expect_tx(u32 bar, u32 bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(u32 bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void mbar_wait(u32 bar, u32 parity) {
    u32 done;
    do {
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(bar), "r"(parity)
            : "memory");
    } while (!done);
}

// One TMA box: global (c0 = innermost, c1) -> shared dst, completing on mbarrier bar.
__device__ __forceinline__ void tma_load_2d(u32 dst, const TmaMap* map, int c0, int c1, u32 bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
        ::"r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(bar)
        : "memory");
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// TMA box multicast to the CTAs of the cluster in cta_mask (same SMEM offsets and mbarrier in each).
__device__ __forceinline__ void tma_load_2d_mc(u32 dst, const TmaMap* map, int c0, int c1, u32 bar,
                                               unsigned short cta_mask) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%2, %3}], [%4], %5;"
        ::"r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(bar), "h"(cta_mask)
        : "memory");
}

__device__ __forceinline__ u32 cluster_ctarank() {
    u32 r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Arrive on the mbarrier at the same SMEM offset in cluster CTA `cta`, with cluster-scope release.
// ptxas emits MEMBAR.ALL.CTA + MEMBAR.ALL.GPU + ERRBAR + CGAERRBAR before the arrive: once per
// k-tile on a consumer's path it cost the H100 cluster GEMM 40 % (gpu/RESULTS.md, issue 22); the
// GEMMs use mbar_arrive_remote below. Kept for gemm.cu's old cluster2 variant and the diagnostic.
__device__ __forceinline__ void mbar_arrive_cluster(u32 bar, u32 cta) {
    u32 remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(bar), "r"(cta));
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}

// CUTLASS-style peer release: a plain (default .release.cta) arrive on the peer CTA's mbarrier
// through its mapa address; the consumer's wgmma reads were already waited for (wgmma.wait_group).
__device__ __forceinline__ void mbar_arrive_remote(u32 bar, u32 cta) {
    u32 remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(bar), "r"(cta));
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}
