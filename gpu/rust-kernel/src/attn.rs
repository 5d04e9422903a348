//! Issue 31: forward attention (FlashAttention-style, bf16, head dims 64 and 128, causal or
//! not) on the declarations of `attn_decl.rs`: the serial kernel, its pieces, and the pieces the
//! recorded kernels (the overlapped one, `attn_ov.rs`; the two-CTA one, `attn_ns.rs`) share
//! with it.
//!
//! One CTA: 128 query rows of one (batch, head). Warpgroup 0 is the producer (one thread: Q once
//! through `QPipe`, then K and V of every key block through the 2-stage `KvPipe`); warpgroups 1
//! and 2 are consumers, 64 query rows each. Per key block a consumer of the serial kernel
//!
//! 1. computes `S = Q·Kᵀ` (`accum::wgmma_m64n128k16_bf16` into a `WgmmaAcc<128>`, both operands
//!    from shared memory, the tiles' descriptors and K advances);
//! 2. masks it (`mask_causal`, diagonal block only), takes the row maxima over the declared row
//!    ownership (`row_max_chains`: a row's elements in chains, then its quad), rescales the
//!    running O and sum, and exponentiates (`exp2_scaled_row_sums`: `ex2.approx` of one `fma`,
//!    the scale folded into log2 units);
//! 3. packs P into bf16 A registers as the declared chain says (`pack` / `pack_ksteps`: the
//!    elements `ChainedMma::source` names) and accumulates `O += P·V` (the RS `wgmma`, A from
//!    registers, V an MN-major B);
//!
//! The register side is the library's (`smemdesc::accum`, issue 43 item 6): no fragment arrays,
//! index tables or `asm!` of the kernel's own for the accumulators, the `wgmma`s, TMA,
//! mbarriers or tensor maps.
//!
//! (`attn_fwd_d128[_causal]_pf_rust` packs P before the k-steps, `attn_fwd_d64[_causal]_rust`
//! between them: measured beside the recorded overlapped kernel, `docs/guide/attention.md`),
//!
//! then divides O by the row sums, writes it through the declared epilogue tile (stmatrix,
//! TMA store) and writes the row log-sum-exp (natural log) as f32.
//!
//! Tensors: Q, K, V, O are `[b·h·s, d]` bf16 row-major (`[b, h, s, d]` contiguous); LSE is
//! `[b·h·s]` f32.

use crate::attn_decl::{d128, d64, AttnDecl, BM, BN, MAX_O, S_ACC};
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::accum::{self, Bf16x2, PackedAcc, WgmmaAcc};
use smemdesc::pipeline::{Consumers, PipeAt};
use smemdesc::SmemTile;

/// S = Q·Kᵀ of one consumer warpgroup: the m64n128 f32 accumulator (64 registers per thread).
pub(crate) type SAcc = WgmmaAcc<128>;
/// P, S packed to bf16 pairs: the A registers of every k-step of `O += P·V`.
pub(crate) type PAcc = PackedAcc<128>;

/// O's accumulator, m64n{head_dim}: the library's typed accumulator and its `wgmma` issue with
/// A = P from registers and B = V, MN-major (`imm-trans-b` 1).
pub(crate) trait OAcc: Copy {
    /// All zero.
    fn zero() -> Self;
    /// `O += A·V` for one k-step: A the step's four P registers, `desc_b` V's descriptor there.
    ///
    /// # Safety
    /// As `smemdesc::accum::wgmma_m64n128k16_bf16_rs`.
    unsafe fn pv_kstep(&mut self, a: [u32; 4], desc_b: u64);
    /// `WgmmaAcc::scale_rows`.
    fn scale_rows(&mut self, f: [f32; 2]);
    /// `WgmmaAcc::fence_operands`.
    fn fence_operands(&mut self);
    /// `WgmmaAcc::for_each_group::<4, Bf16x2>`: the epilogue's `stmatrix.x4` register groups.
    fn for_each_group4(&self, f: impl FnMut(usize, [u32; 4]));
}

macro_rules! o_acc {
    ($n:literal, $rs:ident) => {
        impl OAcc for WgmmaAcc<$n> {
            #[inline(always)]
            fn zero() -> Self {
                WgmmaAcc::<$n>::zero()
            }
            #[inline(always)]
            unsafe fn pv_kstep(&mut self, a: [u32; 4], desc_b: u64) {
                accum::$rs::<1>(self, a, desc_b, true)
            }
            #[inline(always)]
            fn scale_rows(&mut self, f: [f32; 2]) {
                WgmmaAcc::<$n>::scale_rows(self, f)
            }
            #[inline(always)]
            fn fence_operands(&mut self) {
                WgmmaAcc::<$n>::fence_operands(self)
            }
            #[inline(always)]
            fn for_each_group4(&self, f: impl FnMut(usize, [u32; 4])) {
                self.for_each_group::<4, Bf16x2>(f)
            }
        }
    };
}
o_acc!(64, wgmma_m64n64k16_bf16_rs);
o_acc!(128, wgmma_m64n128k16_bf16_rs);

/// A head dimension's declaration with its O accumulator type.
pub(crate) trait AttnKernel: AttnDecl {
    /// O's accumulator, `WgmmaAcc<HD>`.
    type ORegs: OAcc;
}
impl AttnKernel for d64::Decl {
    type ORegs = WgmmaAcc<64>;
}
impl AttnKernel for d128::Decl {
    type ORegs = WgmmaAcc<128>;
}

/// The wgmma of `S = Q·Kᵀ` for consumer `im` on K stage `stage`: the tiles' descriptors, one
/// k-step per `Q::MMAS_K`, K advances from the tiles' tables.
#[inline(always)]
pub(crate) unsafe fn qk<D: AttnKernel>(
    s: &mut SAcc,
    q_addr: u32,
    k_addr: u32,
    im: u32,
    stage: u32,
) {
    let da = <D::Q as SmemTile>::ACCESS.desc_wrapping(q_addr, im, 0, 0);
    let db = <D::K as SmemTile>::ACCESS.desc_wrapping(k_addr, 0, 0, stage);
    unroll!(<D::Q as SmemTile>::MMAS_K, |k| {
        let (ka, kb) = (
            <D::Q as SmemTile>::advance_k(k) as u64,
            <D::K as SmemTile>::advance_k(k) as u64,
        );
        accum::wgmma_m64n128k16_bf16::<0, 0>(s, da + ka, db + kb, k != 0);
    });
}

/// One k-step's A registers as the declared chain pairs them (`BAD`: the negative control,
/// registers 0/1 and 2/3 swapped: rows `g` and `g + 8` exchanged, a wrong pairing of
/// accumulator rows with A rows).
#[inline(always)]
fn pairing<const BAD: bool>(a: [u32; 4]) -> [u32; 4] {
    if BAD {
        [a[1], a[0], a[3], a[2]]
    } else {
        a
    }
}

/// `O += P·V` for key block stage `stage`: one wgmma per k-step of the chain, its A registers
/// packed right before it (`WgmmaAcc::pack_ksteps`). `FENCE_EACH`: a `wgmma.fence` of ours
/// after each packing (else `ptxas` injects one there: C7519; the caller fences before the
/// first either way).
#[inline(always)]
pub(crate) unsafe fn pv<D: AttnKernel, const BAD: bool, const FENCE_EACH: bool>(
    o: &mut D::ORegs,
    p: &SAcc,
    v_addr: u32,
    stage: u32,
) {
    const { assert!(SAcc::KSTEPS as u32 == BN / 16) };
    let db = <D::V as SmemTile>::ACCESS.desc_wrapping(v_addr, 0, 0, stage);
    p.pack_ksteps::<Bf16x2>(
        #[inline(always)]
        |ks, a| {
            if FENCE_EACH {
                accum::wgmma_fence();
            }
            let dk = db + <D::V as SmemTile>::advance_k(ks as u32) as u64;
            o.pv_kstep(pairing::<BAD>(a), dk);
        },
    );
}

/// Causal mask of key block `j` (where it reaches past the CTA's first query row), row maxima
/// (the thread's elements of each row in `K` chains, then its quad: `row_max_chains`), the
/// running max `m` and sum `l` (log2 units), and S turned into P in place
/// (`exp2_scaled_row_sums`). Returns each row's correction factor for O.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn softmax<const CAUSAL: bool, const K: usize>(
    s: &mut SAcc,
    m: &mut [f32; 2],
    l: &mut [f32; 2],
    t: u32,
    j: u32,
    qt: u32,
    im: u32,
    scale_log2: f32,
) -> [f32; 2] {
    if CAUSAL && j * BN + BN > qt * BM {
        // Key column (block j) past the query row: -inf.
        s.mask_causal(t, qt * BM + im * 64, j * BN);
    }
    let mx = s.row_max_chains::<K>();
    let mut corr = [0.0f32; 2];
    let mut m_new = [0.0f32; 2];
    unroll!(2, |h| {
        let h = h as usize;
        m_new[h] = accum::max_f32(m[h], mx[h] * scale_log2);
        corr[h] = accum::ex2_approx(m[h] - m_new[h]);
        m[h] = m_new[h];
    });
    // The row sums in `K` chains too (f32 sums in that order).
    let sum = s.exp2_scaled_row_sums::<K>(scale_log2, m_new);
    unroll!(2, |h| {
        let h = h as usize;
        l[h] = l[h] * corr[h] + sum[h];
    });
    corr
}

/// Every k-step's A registers of P, packed before the k-steps' fence.
#[inline(always)]
pub(crate) fn pack_all(p: &SAcc) -> PAcc {
    p.pack::<Bf16x2>()
}

/// `O += P·V` from packed registers `pa` (issued, not waited for).
#[inline(always)]
pub(crate) unsafe fn pv_regs<D: AttnKernel, const BAD: bool>(
    o: &mut D::ORegs,
    pa: &PAcc,
    v_addr: u32,
    stage: u32,
) {
    let db = <D::V as SmemTile>::ACCESS.desc_wrapping(v_addr, 0, 0, stage);
    pa.for_each_kstep(
        #[inline(always)]
        |ks, a| {
            let dk = db + <D::V as SmemTile>::advance_k(ks as u32) as u64;
            o.pv_kstep(pairing::<BAD>(a), dk);
        },
    );
}

/// The query tile a CTA computes.
#[derive(Clone, Copy)]
pub(crate) struct Tile {
    /// The tile's index in its head (rows `qt · BM ..`).
    pub qt: u32,
    /// The head's first row in the `[b·h·s, d]` tensors.
    pub row0: u32,
    /// The tile's first row there.
    pub q_row: u32,
    /// Key blocks to walk (causal: up to the diagonal).
    pub blocks: u32,
}

impl Tile {
    /// CTA `cta`'s tile. A head's query tiles are consecutive CTAs, so the CTAs running at one
    /// time read the K and V of a few heads, from L2 (with the heads interleaved, 132 CTAs read
    /// 132 heads' K and V: on the H200 the short sequences were bound by HBM). Within a head,
    /// heaviest first (causal: the last tiles have the most key blocks).
    #[inline(always)]
    pub(crate) fn of_cta<const CAUSAL: bool>(cta: u32, seqlen: u32) -> Tile {
        let q_tiles = seqlen / BM;
        let (head, qt) = (cta / q_tiles, q_tiles - 1 - cta % q_tiles);
        let row0 = head * seqlen;
        Tile {
            qt,
            row0,
            q_row: row0 + qt * BM,
            blocks: if CAUSAL {
                (qt * BM + BM).div_ceil(BN)
            } else {
                seqlen / BN
            },
        }
    }
}

/// The CTA's storage base (aligned as declared) and the addresses of Q, K and V there.
#[inline(always)]
pub(crate) fn storage<D: AttnDecl>() -> (u32, u32, u32, u32) {
    let base = D::aligned_base(smem_dyn());
    let (q, k, v) = (D::q(base), D::k(base), D::v(base));
    (base, q.addr(), k.addr(), v.addr())
}

/// Producer warpgroup start: registers given up; thread 0 (`true`) acquires Q's, K's, V's maps.
#[inline(always)]
pub(crate) unsafe fn producer_start(tid: u32, map_q: u64, map_k: u64, map_v: u64) -> bool {
    setmaxnreg_dec_40();
    if tid == 0 {
        tensormap_acquire(map_q);
        tensormap_acquire(map_k);
        tensormap_acquire(map_v);
    }
    tid == 0
}

/// Consumer warpgroup `wg`'s start: registers taken, O's tensor map acquired by its thread 0.
/// Returns `(im, t, rows)`: the consumer, CTA thread `tid`'s index in it, its two rows (0..64).
#[inline(always)]
pub(crate) unsafe fn consumer_start(wg: u32, tid: u32, map_o: u64) -> (u32, u32, [u32; 2]) {
    setmaxnreg_inc_232();
    let (im, t) = (wg - 1, tid % 128);
    if t == 0 {
        tensormap_acquire(map_o);
    }
    let Some(rows) = S_ACC.rows(t) else { trap() };
    (im, t, rows)
}

/// The kernel body. `params`: `seqlen` (a multiple of 128), `bh` (batch · heads),
/// `scale_log2` (softmax scale · log2 e). `OV`: the overlapped kernel instead; `PV`: how `P·V`
/// takes its A registers ([`PV_PACK_FIRST`] or [`PV_BETWEEN`]; [`serial_consumer`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn attn_body<
    D: AttnKernel,
    const CAUSAL: bool,
    const BAD: bool,
    const OV: bool,
    const PV: u8,
>(
    map_q: u64,
    map_k: u64,
    map_v: u64,
    map_o: u64,
    lse: u64,
    seqlen: u32,
    bh: u32,
    scale_log2: f32,
) {
    if OV {
        return crate::attn_ov::attn_ov_body::<D, D::KPipe, D::VPipe, CAUSAL, BAD, false, 0>(
            map_q, map_k, map_v, map_o, lse, seqlen, bh, scale_log2, 0,
        );
    }
    if bh == 0 || seqlen < BM {
        return;
    }
    let addrs = storage::<D>();
    let base = addrs.0;
    let tile = Tile::of_cta::<CAUSAL>(ctaid(), seqlen);
    let Tile {
        row0,
        q_row,
        blocks,
        ..
    } = tile;
    let tid = tid();
    let wg = tid / 128;
    let qpipe = PipeAt::<D::QPipe>::new(base, 0);
    let kv = PipeAt::<D::KvPipe>::new(base, 0);
    if tid == 0 {
        qpipe.init::<PtxSpin>();
        kv.init::<PtxSpin>();
    }
    kv.init_sync::<PtxSpin>();
    let ((mut qp, qc), (mut producer, kvc)) = (qpipe.split(), kv.split());
    if wg == 0 {
        if producer_start(tid, map_q, map_k, map_v) {
            if let Some(fill) = qp.acquire::<PtxSpin>() {
                let _ = fill.load::<PtxSpin>(map_q, 0, q_row).issued();
            }
            let mut j = 0;
            while j < blocks {
                let Some(fill) = producer.acquire::<PtxSpin>() else {
                    break;
                };
                let kv_row = row0 + j * BN;
                // K: K-major, coordinates (head_dim, row); V: MN-major, (row = its K, head_dim).
                let _ = fill
                    .load::<PtxSpin>(map_k, 0, kv_row)
                    .load::<PtxSpin>(map_v, kv_row, 0)
                    .issued();
                j += 1;
            }
        }
        return;
    }
    let (im, t, rows) = consumer_start(wg, tid, map_o);
    serial_consumer::<D, CAUSAL, BAD, PV, 16>(
        qc,
        kvc,
        tile,
        im,
        t,
        rows,
        addrs,
        lse,
        map_o,
        scale_log2,
        |_| {},
    );
}

/// `P·V`'s A registers all packed before its first k-step, then one `wgmma.fence` ([`pv_regs`]).
pub(crate) const PV_PACK_FIRST: u8 = 0;
/// Each k-step's A registers packed right before it, `ptxas` injecting the fences (C7519).
pub(crate) const PV_BETWEEN: u8 = 1;
/// Each k-step's A registers packed right before it, then a `wgmma.fence` of the kernel's.
pub(crate) const PV_FENCED: u8 = 2;

/// Consumer warpgroup `im`'s query tile in the serial schedule: Q waited for, then per key block
/// `S = Q·Kᵀ`, the softmax (row reductions in `K` chains, [`tree`]), O rescaled, `O += P·V` (its
/// A registers as `PV` says: [`PV_PACK_FIRST`], [`PV_BETWEEN`], [`PV_FENCED`]), the stage
/// released; then [`finish_tile`]. `before(j)` runs at the top of block `j`, before its wait
/// (where the two-CTA kernel's thread 0 refills a stage). `addrs`: the storage base and Q's,
/// K's, V's addresses.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn serial_consumer<
    D: AttnKernel,
    const CAUSAL: bool,
    const BAD: bool,
    const PV: u8,
    const K: usize,
>(
    qpipe: Consumers<D::QPipe>,
    kv: Consumers<D::KvPipe>,
    tile: Tile,
    im: u32,
    t: u32,
    rows: [u32; 2],
    addrs: (u32, u32, u32, u32),
    lse: u64,
    map_o: u64,
    scale_log2: f32,
    mut before: impl FnMut(u32),
) {
    let (base, q_addr, k_addr, v_addr) = addrs;
    let Tile {
        qt, q_row, blocks, ..
    } = tile;
    let mut m = [f32::NEG_INFINITY; 2];
    let mut l = [0.0f32; 2];
    let mut o = D::ORegs::zero();
    let mut s = SAcc::zero();
    let mut qc = qpipe.thread(t);
    if let Some(q) = qc.wait::<PtxSpin>() {
        q.release::<PtxSpin>();
    }
    let mut consumer = kv.thread(t);
    let mut j = 0;
    while j < blocks {
        before(j);
        let Some(full) = consumer.wait::<PtxSpin>() else {
            break;
        };
        let stage = full.stage();
        accum::wgmma_fence();
        qk::<D>(&mut s, q_addr, k_addr, im, stage);
        accum::wgmma_commit_group();
        accum::wgmma_wait_group::<0>();
        s.fence_operands();
        let corr = softmax::<CAUSAL, K>(&mut s, &mut m, &mut l, t, j, qt, im, scale_log2);
        o.scale_rows(corr);
        if PV == PV_PACK_FIRST {
            // Every A register first, then one fence and the k-steps back to back (packing
            // between the wgmma makes ptxas inject a warpgroup.arrive before each: C7519).
            let pa = pack_all(&s);
            accum::wgmma_fence();
            pv_regs::<D, BAD>(&mut o, &pa, v_addr, stage);
        } else if PV == PV_FENCED {
            pv::<D, BAD, true>(&mut o, &s, v_addr, stage);
        } else {
            accum::wgmma_fence();
            pv::<D, BAD, false>(&mut o, &s, v_addr, stage);
        }
        accum::wgmma_commit_group();
        accum::wgmma_wait_group::<0>();
        full.release::<PtxSpin>();
        j += 1;
    }
    o.fence_operands();
    finish_tile::<D>(&mut o, m, l, rows, t, im, q_row, lse, base, map_o, true);
}

/// The end of a query tile, for consumer `im`: each row's sum across its quad, O divided by it,
/// the row log-sum-exp `(m + log2 l) · ln 2` (f32, by the quad's first lane), and O stored
/// through the declared epilogue tile. With `wait_read` (the CTA's last tile), thread 0 waits
/// until the stores have read shared memory (not until they are written: the kernel's end makes
/// them visible); otherwise the next tile's `store_o` waits before it reuses a stage.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn finish_tile<D: AttnKernel>(
    o: &mut D::ORegs,
    m: [f32; 2],
    l: [f32; 2],
    rows: [u32; 2],
    t: u32,
    im: u32,
    q_row: u32,
    lse: u64,
    base: u32,
    map_o: u64,
    wait_read: bool,
) {
    let mut inv = [0.0f32; 2];
    unroll!(2, |h| {
        let mut sum = l[h as usize];
        unroll!(2, |x| {
            sum += accum::shfl_bfly(
                sum,
                smemdesc::fragment::WgmmaAccum::ROW_REDUCE_XOR[x as usize],
            );
        });
        inv[h as usize] = accum::rcp_approx(sum);
        if t.is_multiple_of(4) {
            let row = q_row + im * 64 + rows[h as usize];
            let v = (m[h as usize] + accum::lg2_approx(sum)) * core::f32::consts::LN_2;
            st_global_u32(lse + 4 * row as u64, v.to_bits());
        }
    });
    o.scale_rows(inv);
    store_o::<D>(o, D::o(base, im), t, 1 + im, map_o, q_row + im * 64);
    if wait_read && t == 0 {
        bulk_wait_read::<0>();
    }
}

/// O of one consumer warpgroup through its declared epilogue tile: chunk `c` (64 columns) into
/// stage `c % STAGES` with the declaration's stmatrix offsets and the library's register groups
/// (`WgmmaAcc::for_each_group`: group `g` is instruction `g % instrs` of chunk `g / instrs`),
/// then thread 0 stores the stage's TMA boxes at columns `64c + ..`, rows `row0 + ..`.
#[inline(always)]
pub(crate) unsafe fn store_o<D: AttnKernel>(
    o: &D::ORegs,
    obase: u32,
    t: u32,
    bar_id: u32,
    map: u64,
    row0: u32,
) {
    // The library's groups are the declaration's register pairs: pair(c, i, q) = 4 (c·instrs + i) + q.
    const {
        let o = D::O;
        assert!(4 * o.chunks * o.instrs == D::HD / 4); // pairs per thread
        let mut c = 0;
        while c < o.chunks {
            let mut i = 0;
            while i < o.instrs {
                let mut q = 0;
                while q < 4 {
                    assert!(
                        o.pair[c as usize][i as usize][q as usize] == 4 * (c * o.instrs + i) + q
                    );
                    q += 1;
                }
                i += 1;
            }
            c += 1;
        }
    };
    let (warp, lane) = (t / 32, t % 32);
    // This thread's stmatrix row address per writer instruction, from the declaration.
    let mut off = [0u32; MAX_O];
    unroll!(D::O.instrs, |i| {
        off[i as usize] = D::O_EPI.writer_offset(0, warp, i, lane);
    });
    o.for_each_group4(
        #[inline(always)]
        |g, regs| {
            let (c, i) = (g as u32 / D::O.instrs, g as u32 % D::O.instrs);
            let buf = obase + (c % D::O.stages) * D::O.stage_bytes;
            // Chunk 0's stage may still be read by the previous tile's stores (the persistent
            // kernel), and a chunk past the stages reuses one: wait for those reads. A later chunk
            // of the first round has a stage of its own (waiting there for the stores just issued
            // held up every tile's end).
            if i == 0 && (c == 0 || c >= D::O.stages) {
                if t == 0 {
                    bulk_wait_read::<0>();
                }
                named_bar(bar_id, 128);
            }
            stmatrix_x4(buf + off[i as usize], regs);
            if i == D::O.instrs - 1 {
                fence_proxy_async_shared();
                named_bar(bar_id, 128);
                if t == 0 {
                    unroll!(D::O.boxes, |b| {
                        let (boff, (inner0, r0)) = D::O.box_at[b as usize];
                        tma_store_2d(map, buf + boff, c * D::O.n + inner0, row0 + r0);
                    });
                    bulk_commit();
                }
            }
        },
    );
}
