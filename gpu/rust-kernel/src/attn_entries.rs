//! The attention kernels' entry points: the recorded ones (head dim 64: two CTAs per SM without
//! a producer warpgroup, `_ns_`, `attn_ns.rs`; head dim 128: overlapped, `attn_ov.rs`, without
//! the mask persistent in clusters of two, `_p_cl2_`, with it persistent, the query tiles
//! heaviest first across groups of heads, `_p_lpt_`),
//! the serial ones they are measured against (`attn.rs`), the negative controls and the measured
//! experiments, each body with its declaration and switches.

use crate::attn::attn_body;
use crate::attn_decl::{d128, d64, AttnDecl};
use crate::attn_ns::attn_ns_body;
use crate::attn_ov::attn_ov_body;

macro_rules! attn_entry {
    // The persistent form of the overlapped kernel: one CTA per SM walks the query tiles, the
    // producer running ahead into the next tile's Q, K and V while the consumers finish the
    // current one.
    (persistent, $name:ident, $decl:ty, $causal:literal, $doc:literal) => {
        attn_entry!(
            @entry $name, $doc, attn_ov_body::<$decl, <$decl as AttnDecl>::KPipe, <$decl as AttnDecl>::VPipe, $causal, false, true, 0>,
            /// As the non-persistent entries, with any grid size (`nctaid` CTAs share the tiles);
            /// `sched`: two `u32` in global memory, zero, not used by another launch at the same
            /// time (the kernel leaves them zero).
            ; sched: u64
        );
    };
    // The overlapped kernel with switches `$x` (`attn_ov::X_*`), persistent or not: `sched` as
    // the persistent one's.
    (experiment, $name:ident, $decl:ty, $causal:literal, $persist:literal, $x:expr, $doc:literal) => {
        attn_entry!(
            @entry $name, $doc,
            attn_ov_body::<$decl, <$decl as AttnDecl>::KPipe, <$decl as AttnDecl>::VPipe, $causal, false, $persist, { $x }>,
            /// As the persistent entries.
            ; sched: u64
        );
    };
    // The overlapped kernel in 2x1 clusters: K and V multicast to two query tiles of one head.
    (cluster, $name:ident, $decl:ty, $causal:literal, $persist:literal, $doc:literal) => {
        attn_entry!(
            @entry $name, $doc,
            attn_ov_body::<$decl, <$decl as AttnDecl>::KPipe2, <$decl as AttnDecl>::VPipe2, $causal, false, $persist, 0>,
            /// As the serial entries, launched in clusters of 2 CTAs along x, with an even
            /// number of query tiles per head (`seqlen` a multiple of 256); `sched` unused.
            ; sched: u64
        );
    };
    // Without a producer warpgroup (`attn_ns.rs`): 256 threads, two CTAs per multiprocessor.
    // `$chains`: the softmax's row reductions in that many chains (`attn::tree`).
    (nonspecialised, $name:ident, $decl:ty, $causal:literal, $chains:literal, $doc:literal) => {
        attn_entry!(
            @entry $name, $doc, attn_ns_body::<$decl, $causal, $chains>,
            /// As the serial entries, with 256 threads.
        );
    };
    ($name:ident, $decl:ty, $causal:literal, $bad:literal, $doc:literal) => {
        attn_entry!($name, $decl, $causal, $bad, false, false, $doc);
    };
    ($name:ident, $decl:ty, $causal:literal, $bad:literal, $ov:literal, $doc:literal) => {
        attn_entry!($name, $decl, $causal, $bad, $ov, false, $doc);
    };
    ($name:ident, $decl:ty, $causal:literal, $bad:literal, $ov:literal, $pf:literal, $doc:literal) => {
        attn_entry!(
            @entry $name, $doc,
            attn_body::<
                $decl,
                $causal,
                $bad,
                $ov,
                { if $pf { crate::attn::PV_PACK_FIRST } else { crate::attn::PV_BETWEEN } },
            >,
            /// `THREADS` threads, the storage's `LAUNCH_BYTES` of dynamic shared memory, a grid of
            /// `bh · seqlen / 128` CTAs; tensor maps of Q, K, V (the tiles' boxes) and O (the
            /// epilogue tile's) over `[bh · seqlen, head_dim]` in global memory; `lse` holds
            /// `bh · seqlen` f32.
        );
    };
    // The entry: the eight parameters every body takes, then the persistent one's `sched`.
    (@entry $name:ident, $doc:literal, $body:expr, $(#[$safety:meta])* $(; $extra:ident: $ty:ty)?) => {
        #[doc = $doc]
        ///
        /// # Safety
        $(#[$safety])*
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "ptx-kernel" fn $name(
            map_q: u64,
            map_k: u64,
            map_v: u64,
            map_o: u64,
            lse: u64,
            seqlen: u32,
            bh: u32,
            scale_log2: f32,
            $($extra: $ty,)?
        ) {
            $body(map_q, map_k, map_v, map_o, lse, seqlen, bh, scale_log2, $($extra,)?);
        }
    };
}

attn_entry!(
    attn_fwd_d64_rust,
    d64::Decl,
    false,
    false,
    "Attention forward, head dim 64."
);
attn_entry!(
    attn_fwd_d64_causal_rust,
    d64::Decl,
    true,
    false,
    "Attention forward, head dim 64, causal."
);
attn_entry!(
    attn_fwd_d128_rust,
    d128::Decl,
    false,
    false,
    "Attention forward, head dim 128."
);
attn_entry!(
    attn_fwd_d128_badpair_rust,
    d128::Decl,
    false,
    true,
    "The negative control: head dim 128 with P's A registers 0/1 and 2/3 swapped (a wrong \
     accumulator-to-A pairing); must fail."
);
attn_entry!(
    attn_fwd_d64_ov_rust,
    d64::Decl,
    false,
    false,
    true,
    "Head dim 64, overlapped."
);
attn_entry!(
    attn_fwd_d64_causal_ov_rust,
    d64::Decl,
    true,
    false,
    true,
    "Head dim 64, causal, overlapped."
);
attn_entry!(
    attn_fwd_d128_ov_rust,
    d128::Decl,
    false,
    false,
    true,
    "Head dim 128, overlapped."
);
attn_entry!(
    attn_fwd_d128_causal_ov_rust,
    d128::Decl,
    true,
    false,
    true,
    "Head dim 128, causal, overlapped."
);
attn_entry!(
    attn_fwd_d128_badpair_ov_rust,
    d128::Decl,
    false,
    true,
    true,
    "The negative control in the overlapped kernel."
);

attn_entry!(
    attn_fwd_d128_pf_rust,
    d128::Decl,
    false,
    false,
    false,
    true,
    "Head dim 128, P packed first."
);
attn_entry!(
    attn_fwd_d128_causal_pf_rust,
    d128::Decl,
    true,
    false,
    false,
    true,
    "Head dim 128, causal, P packed first."
);
attn_entry!(
    attn_fwd_d128_badpair_pf_rust,
    d128::Decl,
    false,
    true,
    false,
    true,
    "The negative control in the P-packed-first kernel."
);

attn_entry!(
    persistent,
    attn_fwd_d128_causal_p_rust,
    d128::Decl,
    true,
    "Head dim 128, causal, persistent."
);
attn_entry!(
    nonspecialised,
    attn_fwd_d64_ns_rust,
    d64::Decl,
    false,
    4,
    "Head dim 64, no producer warpgroup, two CTAs per multiprocessor."
);
attn_entry!(
    nonspecialised,
    attn_fwd_d64_causal_ns_rust,
    d64::Decl,
    true,
    4,
    "Head dim 64, causal, no producer warpgroup, two CTAs per multiprocessor."
);

attn_entry!(
    cluster,
    attn_fwd_d128_ov_cl2_rust,
    d128::Decl,
    false,
    false,
    "Head dim 128, overlapped, K and V multicast in clusters of two query tiles."
);
attn_entry!(
    cluster,
    attn_fwd_d128_p_cl2_rust,
    d128::Decl,
    false,
    true,
    "Head dim 128, persistent (a static schedule), K and V multicast in clusters of two query tiles."
);

// Issue 47: head dim 128 under the mask, the recorded kernel (16 x 32 x 2048: 1.062x and 1.043x
// cuDNN in two runs, H200, 2026-12-07): persistent, the query tiles heaviest first across groups
// of 16 heads (`attn_ov::X_LPT`).
use crate::attn_ov::X_LPT;
attn_entry!(
    experiment,
    attn_fwd_d128_causal_p_lpt_rust,
    d128::Decl,
    true,
    true,
    X_LPT,
    "Head dim 128, causal, persistent, the tiles heaviest first across groups of 16 heads."
);

// Issue 47: the FP8 forward (e4m3 Q, K, Vᵀ; `attn_fp8.rs`).
macro_rules! fp8_entry {
    ($name:ident, $causal:literal, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// As the serial entries, on `attn_fp8_decl::d128e4`'s storage: Q, K maps of
        /// `[b·h·s, 128]` e4m3, V's of Vᵀ, `[b·h·128, s]` e4m3 with the keys permuted within each
        /// 32 (`attn_fp8_decl::key_of`); O bf16.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "ptx-kernel" fn $name(
            map_q: u64,
            map_k: u64,
            map_v: u64,
            map_o: u64,
            lse: u64,
            seqlen: u32,
            bh: u32,
            scale_log2: f32,
        ) {
            crate::attn_fp8::attn_fp8_body::<$causal>(
                map_q, map_k, map_v, map_o, lse, seqlen, bh, scale_log2,
            );
        }
    };
}
fp8_entry!(
    attn_fp8_d128_rust,
    false,
    "Attention forward in FP8 (e4m3 Q, K, V; f32 accumulation; bf16 O), head dim 128."
);
fp8_entry!(
    attn_fp8_d128_causal_rust,
    true,
    "Attention forward in FP8, head dim 128, causal."
);
