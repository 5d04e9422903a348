//! The overlapped-epilogue schedule of `conv_ov.rs` on the 256 x 128 tile of `conv128.rs`
//! (`conv_tiles.rs`: A 256 x 64, B 128 x 64, each consumer warpgroup two 64-row subtiles of
//! wgmma m64n128k16): the two accumulators packed to bf16 (`WgmmaAcc::pack`, 2 x 32 registers)
//! and written in four chunks, subtile `c / 2`, 64 columns `c % 2`, through `CTile128` as
//! `conv128::store_tile` writes them.

use crate::conv::conv_entry;
use crate::conv128::{chunk_buf, chunk_store, chunk_wait, mma_stage};
use crate::conv_ov::{conv_ov_body, OvTile};
use crate::conv_tiles::n128::A;
use crate::conv_tiles::{CTile128, Pipe128, Storage128, BM128, BN128};
use crate::ptx::*;
use smemdesc::accum::{Bf16x2, PackedAcc, WgmmaAcc};
use smemdesc::tma::Im2colWalk;

/// The 256 x 128 tile (128 C rows per consumer warpgroup).
pub(crate) struct Ov128;

impl OvTile for Ov128 {
    type Pipe = Pipe128;
    type A = A;
    type Acc = [WgmmaAcc<128>; 2];
    type Packed = [PackedAcc<128>; 2];
    const X: u32 = 1;
    const BM: u32 = BM128;
    const BN: u32 = BN128;
    const ROWS: u32 = 128;
    #[inline(always)]
    fn zero() -> Self::Acc {
        [WgmmaAcc::<128>::zero(), WgmmaAcc::<128>::zero()]
    }
    #[inline(always)]
    fn aligned_base(dyn_base: u32) -> u32 {
        Storage128::aligned_base(dyn_base)
    }
    #[inline(always)]
    fn ab(base: u32) -> (u32, u32) {
        (Storage128::a(base).addr(), Storage128::b(base).addr())
    }
    #[inline(always)]
    fn c(base: u32, im: u32) -> u32 {
        if im == 0 {
            Storage128::c0(base)
        } else {
            Storage128::c1(base)
        }
    }
    #[inline(always)]
    fn lane_off(t: u32) -> [u32; 4] {
        let mut off = [0u32; 4];
        unroll!(4, |i| {
            off[i as usize] = CTile128::writer_offset(0, (t / 32) % 4, i, t % 32);
        });
        off
    }
    #[inline(always)]
    unsafe fn mma(acc: &mut Self::Acc, (a, b): (u32, u32), im: u32, s: u32, kk: u32) {
        mma_stage(acc, a, b, im, s, kk);
    }
    #[inline(always)]
    fn fence(acc: &mut Self::Acc) {
        acc[0].fence_operands();
        acc[1].fence_operands();
    }
    #[inline(always)]
    fn pack(acc: &Self::Acc) -> Self::Packed {
        [acc[0].pack::<Bf16x2>(), acc[1].pack::<Bf16x2>()]
    }
    /// Chunk `c`: subtile `j = c / CHUNKS`, its 64 columns `cc = c % CHUNKS` into C stage
    /// `c % STAGES` (register group `g = cc·INSTRUCTIONS + i` of subtile `j`: packed registers
    /// `4g .. 4g + 4`, what `conv128::store_tile`'s `for_each_group::<4, Bf16x2>` converts), then
    /// thread 0's TMA boxes at columns `n0 + 64·cc + ..`, rows `row0 + 64·j + ..`.
    #[inline(always)]
    unsafe fn store_chunk(
        p: &Self::Packed,
        c: u32,
        cbase: u32,
        off: &[u32; 4],
        t: u32,
        bar_id: u32,
        map: u64,
        (n0, row0): (u32, u32),
    ) {
        const { assert!(CTile128::CHUNKS == 2 && CTile128::INSTRUCTIONS == 4) };
        let (j, cc) = (c / CTile128::CHUNKS, c % CTile128::CHUNKS);
        let r = p[j as usize].regs();
        let buf = chunk_buf(cbase, c);
        chunk_wait(t, bar_id);
        unroll!(CTile128::INSTRUCTIONS, |i| {
            let g = (4 * (cc * CTile128::INSTRUCTIONS + i)) as usize;
            stmatrix_x4(buf + off[i as usize], [r[g], r[g + 1], r[g + 2], r[g + 3]]);
        });
        chunk_store(buf, t, bar_id, map, (n0, cc), (row0, j));
    }
}

conv_entry!(
    gemm_conv_ov_n128_rust,
    "`gemm_conv_n128_rust` with `conv_ov.rs`'s interleaved schedule: the next tile's K-step 0 \
     before the epilogue, K-steps 1 ..= 4 between its four chunks (`A`, `B`, the storage and the \
     C tile `conv_tiles.rs`'s `n128` ones).",
    conv_ov_body::<Ov128, true>
);
