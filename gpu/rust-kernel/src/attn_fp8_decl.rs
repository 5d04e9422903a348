//! The declarations of the FP8 attention forward (issue 47, `attn_fp8.rs`), shared by the kernel
//! and the host (`gpu/src/bin/rust_kernels/attn.rs` includes this file beside `attn_decl.rs`).
//! Target-independent: no `asm!`.
//!
//! Head dim 128, e4m3 Q, K and V, f32 accumulation, O in bf16 and the row log-sum-exp in f32:
//!
//! * `S = Q·Kᵀ`: `wgmma m64n128k32 .e4m3`, both operands K-major in shared memory (the 8-bit
//!   `wgmma` takes no transpose: PTX ISA, `wgmma.mma_async`, "imm-trans-a, imm-trans-b … only
//!   for .f16/.bf16"), 4 k-steps of 32 head-dim bytes;
//! * `P`: S's softmax in f32 (the kernel's `softmax`), converted to e4m3 (`cvt.rn.satfinite
//!   .e4m3x2.f32`) into the RS `wgmma`'s A registers;
//! * `O += P·V`: `wgmma m64n128k32 .e4m3` RS. Its B, V, must be K-major too: its K is the keys,
//!   so the kernel reads **Vᵀ** (`[b·h·d, s]`, keys contiguous), which the host writes once per
//!   V. And an 8-bit A register holds keys `4·(lane % 4) … + 3` of its row where the f32
//!   accumulator of the same thread holds keys `2·(lane % 4) + {0, 1, 8, 9}` (`WgmmaRegA` against
//!   `WgmmaAccum`, checked below): instead of shuffling P between lanes, the host stores Vᵀ's
//!   keys permuted within every 32 ([`key_of`]), so A position `k` meets the key whose P the
//!   thread packed there.

use super::attn_decl::{impl_attn_decl, AttnDecl, BM, BN, CONSUMERS};
use smemdesc::fragment::{ChainedMma, WgmmaAccum, WgmmaRegA};

use smemdesc::smem::TileAt;
use smemdesc::{
    smem_epilogue_tile, smem_mma, smem_pipeline, smem_storage, smem_tile, Mbarrier, SmemTile,
};
use smemdesc::{AccumType, ElementType, MmaShape};

/// The key (within its group of 32) whose P an 8-bit A fragment holds at k position `k` of a
/// k32 step, when thread `T` packs its f32 accumulator elements `16s + {0, 1, 4, 5}` into
/// register 0, `{2, 3, 6, 7}` into 1, `{8, 9, 12, 13}` into 2 and `{10, 11, 14, 15}` into 3 (its
/// own elements, no shuffles): `k = 16h + 4q + i` holds key `16h + 2q + (i & 1) + 8 (i >> 1)`.
/// Vᵀ's key column `32c + k` holds key `32c + key_of(k)`.
///
/// ```ignore
/// assert_eq!((0..32).map(key_of).collect::<Vec<_>>()[..8], [0, 1, 8, 9, 2, 3, 10, 11]);
/// ```
#[inline]
pub const fn key_of(k: u32) -> u32 {
    let (h, q, i) = (k >> 4, (k >> 2) & 3, k & 3);
    16 * h + 2 * q + (i & 1) + 8 * (i >> 1)
}

/// The accumulator element (of k32 step 0) that thread `T` packs as byte `i` of A register `j`.
#[inline]
pub const fn packed_elem(j: u32, i: u32) -> u32 {
    8 * (j >> 1) + 2 * (j & 1) + (i & 1) + 4 * (i >> 1)
}

// The packing and the permutation against the PTX fragment maps of the core (independent of
// `key_of`'s formula): for every thread, register and byte, the element packed is in the A
// position's row, and its column is the key `key_of` says.
const _: () = {
    let a = match WgmmaRegA::new(ElementType::E4M3) {
        Some(a) => a,
        None => panic!(),
    };
    let acc = match WgmmaAccum::new(BN) {
        Some(x) => x,
        None => panic!(),
    };
    let mut t = 0;
    while t < 128 {
        let mut e = 0;
        while e < 16 {
            let (j, i) = (e / 4, e % 4);
            let (am, ak) = match a.coord(t, e) {
                Some(c) => c,
                None => panic!(),
            };
            let (sm, sn) = match acc.coord(t, packed_elem(j, i)) {
                Some(c) => c,
                None => panic!(),
            };
            assert!(am == sm && sn == key_of(ak));
            e += 1;
        }
        t += 1;
    }
    // key_of is a permutation of 0..32.
    let mut seen = 0u64;
    let mut k = 0;
    while k < 32 {
        seen |= 1 << key_of(k);
        k += 1;
    }
    assert!(seen == 0xFFFF_FFFF);
};

/// Head dimension 128, e4m3.
pub mod d128e4 {
    use super::*;

    /// `S = Q·Kᵀ`: both operands e4m3, K-major, in shared memory.
    #[smem_mma(accum = f32)]
    pub mod qk {
        use smemdesc::smem_tile;
        /// Q: 128 query rows x 128 head-dim bytes, one 64-row subtile per consumer.
        #[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K,
                    swizzle = 128B, mma = (64, 128, 32), stages = 1)]
        pub struct Q;
        /// K: 128 key rows (S's N) x 128 head-dim bytes (S's K), 2 stages.
        #[smem_tile(arch = sm90, operand = B, dtype = e4m3, tile = (128, 128), major = K,
                    swizzle = 128B, mma = (64, 128, 32), stages = 2)]
        pub struct K;
    }
    pub use qk::{K, Q};

    /// Vᵀ: head_dim (O's N) x 128 keys (O's K), keys contiguous: K-major, as the 8-bit `wgmma`
    /// requires; the keys permuted within each 32 ([`key_of`]).
    #[smem_tile(arch = sm90, operand = B, dtype = e4m3, tile = (128, 128), major = K,
                swizzle = 128B, mma = (64, 128, 32), stages = 2)]
    pub struct V;

    /// One consumer's O: 64 x 128 bf16 from its f32 accumulator (stmatrix, TMA store).
    #[smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 128, stages = 2,
                         writer = stmatrix_x4, reader = tma_store, tma_swizzle = 128B)]
    pub struct OTile;

    /// One CTA's shared memory (the barrier sets of every pipeline the trait names; the FP8
    /// kernel uses Q's and the K/V one).
    #[smem_storage(arch = sm90)]
    pub struct Storage {
        q: Q,
        k: K,
        v: V,
        #[smem(epilogue)]
        o0: OTile,
        #[smem(epilogue)]
        o1: OTile,
        qfull: [Mbarrier; 1],
        qempty: [Mbarrier; 1],
        full: [Mbarrier; 2],
        empty: [Mbarrier; 2],
        kfull: [Mbarrier; 2],
        kempty: [Mbarrier; 2],
        vfull: [Mbarrier; 2],
        vempty: [Mbarrier; 2],
        qtile: [u32; 1],
    }

    /// Q: one stage.
    #[smem_pipeline(storage = Storage, loads = (q: Q), consumers = 2, full = qfull,
                    empty = qempty)]
    pub struct QPipe;
    /// K and Vᵀ of one key block per stage.
    #[smem_pipeline(storage = Storage, loads = (k: K, v: V), consumers = 2)]
    pub struct KvPipe;
    /// K alone (declared for the trait; not used by the FP8 kernel).
    #[smem_pipeline(storage = Storage, loads = (k: K), consumers = 2, full = kfull,
                    empty = kempty)]
    pub struct KPipe;
    /// Vᵀ alone (declared for the trait; not used).
    #[smem_pipeline(storage = Storage, loads = (v: V), consumers = 2, full = vfull,
                    empty = vempty)]
    pub struct VPipe;
    /// K multicast (declared for the trait; not used).
    #[smem_pipeline(storage = Storage, loads = (k: K), consumers = 2, full = kfull,
                    empty = kempty, multicast = (k), cluster = (2, 1))]
    pub struct KPipe2;
    /// Vᵀ multicast (declared for the trait; not used).
    #[smem_pipeline(storage = Storage, loads = (v: V), consumers = 2, full = vfull,
                    empty = vempty, multicast = (v), cluster = (2, 1))]
    pub struct VPipe2;

    /// S's accumulator map (m64n128 f32): the trait's chain, whose first instruction's
    /// accumulator is the one the softmax reads. P·V's 8-bit A is no `ChainedMma` (not lane-local:
    /// `ChainError::NotLaneLocal`); its packing is [`packed_elem`] with [`key_of`].
    pub const CHAIN: ChainedMma = ChainedMma::declare(
        (MmaShape::new(64, BN, 16), ElementType::BF16, AccumType::F32),
        (
            MmaShape::new(64, 128, 16),
            ElementType::BF16,
            AccumType::F32,
        ),
    );

    impl_attn_decl!(128, "Marker of this declaration.");

    // The kernel's constants agree with the declarations: S's instruction is the Q/K pair's,
    // P·V's k-steps cover a key block, the tiles cover the CTA, the storage fits.
    const _: () = {
        assert!(
            Q::MMA_M == 64
                && Q::MMA_K == 32
                && K::MMA_N == BN
                && Q::TILE_MN == BM
                && Q::MMAS_MN == CONSUMERS
                && Q::TILE_K == 128
                && Q::MMAS_K == 4
                && K::TILE_MN == BN
                && K::MMAS_MN == 1
                && V::TILE_MN == 128
                && V::MMA_N == 128
                && V::MMAS_MN == 1
                && V::TILE_K == BN
                && V::MMAS_K * 32 == BN
                && OTile::EPILOGUE.spec().n * OTile::CHUNKS == 128
                && Storage::LAUNCH_BYTES <= smemdesc::smem::MAX_SMEM_PER_CTA
        );
        assert!(CHAIN.first().accum_fragment().n() == BN);
    };
}
