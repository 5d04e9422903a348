//! The run-time forms of the declarations beside `#[smem_tile]`, with every index read from a
//! kernel parameter: what a kernel evaluates with its own lane, warp, rank or TMEM address
//! (`#[smem_epilogue_tile]`'s `writer_offset`, `pair`, `tma_box`; `#[smem_fragment_tile]`'s
//! `ldmatrix_offset`, `dest`, `writer_offset`; `#[smem_scale_tile]`'s `copy_desc`, `offset`;
//! `#[smem_mma]`'s `idesc_with_sf_tmem` and its cluster multicast slices; `#[smem_storage]`'s
//! `aligned_base`; a Tensor Memory accumulator's addresses). Kernels are named
//! `lane_<decl>_<form>_<what>`; `scripts/check_access_ptx.py` requires each to read its indices
//! and to be short straight-line integer code (the asserting `copy_desc`: a branch to a `trap`).
//! Before the core's functions behind them were `#[inline]`, the fragment and epilogue kernels
//! alone made 42 calls to `.extern .func`s the module did not define (the driver refuses such a
//! module), the scale, MMA and cluster forms 6 more, two plans were copied into `.global`
//! tables, and `copy_desc` formatted a panic message.

/// Kernels for one `#[smem_epilogue_tile]` declaration: `writer_offset` and `pair` with every
/// index read from a kernel parameter.
macro_rules! epi_kernels {
    ($name:ident, $($arg:tt)*) => {
        pub mod $name {
            #[smemdesc::smem_epilogue_tile($($arg)*)]
            pub struct T;
            #[export_name = concat!("lane_epi_writer_offset_", stringify!($name))]
            pub unsafe extern "ptx-kernel" fn writer_offset(out: *mut u32, wg: u32, warp: u32, instr: u32, lane: u32) {
                *out = T::writer_offset(wg, warp, instr, lane);
            }
            #[export_name = concat!("lane_epi_pair_", stringify!($name))]
            pub unsafe extern "ptx-kernel" fn pair(out: *mut u32, chunk: u32, instr: u32, q: u32) {
                *out = T::pair(chunk, instr, q);
            }
        }
    };
}

epi_kernels!(
    bf16_x4_n256,
    dtype = bf16,
    tile = (64, 64),
    wgmma_n = 256,
    stages = 2,
    writer = stmatrix_x4,
    reader = tma_store,
    tma_swizzle = 128B
);
epi_kernels!(
    f16_x2_trans_m,
    dtype = f16,
    tile = (64, 64),
    wgmma_n = 128,
    major = m,
    writer = stmatrix_x2_trans,
    reader = tma_store
);
epi_kernels!(
    bf16_x1_n64,
    dtype = bf16,
    tile = (64, 32),
    wgmma_n = 64,
    writer = stmatrix_x1,
    reader = loads
);
epi_kernels!(
    f32_st8,
    dtype = f32,
    tile = (64, 64),
    wgmma_n = 64,
    writer = st_shared_8,
    reader = tma_reduce_add
);

/// Kernels for one `#[smem_fragment_tile]` with a writer: `ldmatrix_offset`, `dest` and
/// `writer_offset` with run-time indices.
macro_rules! frag_kernels {
    ($name:ident, $($arg:tt)*) => {
        pub mod $name {
            #[smemdesc::smem_fragment_tile($($arg)*)]
            pub struct T;
            #[export_name = concat!("lane_frag_ldmatrix_offset_", stringify!($name))]
            pub unsafe extern "ptx-kernel" fn ldmatrix_offset(out: *mut u32, instr: u32, lane: u32) {
                *out = T::ldmatrix_offset(instr, lane);
            }
            #[export_name = concat!("lane_frag_dest_", stringify!($name))]
            pub unsafe extern "ptx-kernel" fn dest(out: *mut [u32; 3], instr: u32, d: u32) {
                let (k, f, r) = T::dest(instr, d);
                *out = [k, f, r];
            }
            #[export_name = concat!("lane_frag_writer_offset_", stringify!($name))]
            pub unsafe extern "ptx-kernel" fn writer_offset(out: *mut u32, issue: u32, lane: u32) {
                *out = T::writer_offset(issue, lane);
            }
        }
    };
}
frag_kernels!(
    sm80_bf16_a_x4_cpasync,
    arch = sm80,
    mma = m16n8k16,
    dtype = bf16,
    operand = A,
    tile = (64, 64),
    reader = ldmatrix_x4,
    writer = cp_async
);
frag_kernels!(
    sm90_f16_b_mn_tma,
    arch = sm90,
    mma = m16n8k16,
    dtype = f16,
    operand = B,
    major = MN,
    tile = (64, 32),
    writer = tma
);
frag_kernels!(
    sm80_s8_a_x2_st16,
    arch = sm80,
    mma = m16n8k32,
    dtype = s8,
    operand = A,
    tile = (64, 64),
    reader = ldmatrix_x2,
    writer = st_shared_16
);
frag_kernels!(
    sm120_e4m3_b_x4_st8,
    arch = sm120,
    mma = m16n8k32,
    dtype = e4m3,
    operand = B,
    tile = (64, 64),
    reader = ldmatrix_x4,
    writer = st_shared_8
);
frag_kernels!(
    sm90_bf16_d_x4,
    arch = sm90,
    mma = m16n8k16,
    dtype = bf16,
    operand = D,
    tile = (64, 32),
    reader = stmatrix_x4,
    writer = st_shared_4
);

/// An sm100 block-scaled pair with its scale-factor tiles: the run-time forms of `#[smem_mma]`
/// (the scale-factor ids of run-time TMEM addresses) and `#[smem_scale_tile]` (`copy_desc`,
/// asserting, and `offset`).
#[smemdesc::smem_mma(accum = f32, sf = ue4m3)]
pub mod nvf4 {
    use smemdesc::{smem_scale_tile, smem_tile};
    /// A: packed fp4, 128 x 256.
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K, stages = 3)]
    pub struct TileA;
    /// B: packed fp4, 256 x 256.
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4nvf4, tile = (256, 256),
                major = K, stages = 3)]
    pub struct TileB;
    /// A's scale factors.
    #[smem_scale_tile(kind = mxf4nvf4, operand = A, tile = (128, 256), sf = ue4m3, stages = 3)]
    pub struct SfA;
    /// B's scale factors.
    #[smem_scale_tile(kind = mxf4nvf4, operand = B, tile = (256, 256), sf = ue4m3, stages = 3)]
    pub struct SfB;
}

/// `IDESC64` with the scale-factor ids of run-time TMEM addresses (unchecked fast path).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn lane_mma_idesc_with_sf_tmem_nvf4(out: *mut u64, a: u32, b: u32) {
    *out = nvf4::idesc_with_sf_tmem(a, b);
}

/// The checked form (an id the kind does not allow is an error value, not a trap).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn lane_mma_try_idesc_with_sf_tmem_nvf4(
    out: *mut u64,
    a: u32,
    b: u32,
) {
    *out = match nvf4::try_idesc_with_sf_tmem(a, b) {
        Ok(v) => v,
        Err(_) => u64::MAX,
    };
}

/// The `tcgen05.cp` source descriptor of a run-time atom and stage (asserting: traps when out
/// of range).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn lane_scale_copy_desc_nvf4_sfa(
    out: *mut u64,
    addr: u32,
    i: u32,
    j: u32,
    stage: u32,
) {
    *out = nvf4::SfA::copy_desc(addr, i, j, stage);
}

/// The byte offset of the factor scaling a run-time operand value.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn lane_scale_offset_nvf4_sfb(out: *mut u32, mn: u32, k: u32) {
    *out = nvf4::SfB::offset(mn, k);
}

/// The epilogue tile's TMA store box `b` (run-time).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn lane_epi_tma_box_bf16_x4_n256(out: *mut [u32; 3], b: u32) {
    let (off, (x, y)) = bf16_x4_n256::T::tma_box(b);
    *out = [off, x, y];
}

/// A storage with two C tiles.
#[smemdesc::smem_storage(arch = sm90)]
pub struct EpiStorage {
    #[smem(epilogue)]
    c0: bf16_x4_n256::T,
    #[smem(epilogue)]
    c1: bf16_x4_n256::T,
}

/// The storage's base rounded up from a run-time dynamic shared-memory address.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn lane_storage_aligned_base_epi(out: *mut u32, dyn_base: u32) {
    *out = EpiStorage::aligned_base(dyn_base);
}

/// A 2x1 cluster's multicast of B (`#[smem_mma(cluster = (2, 1))]`).
#[smemdesc::smem_mma(accum = f32, cluster = (2, 1))]
pub mod cl21 {
    use smemdesc::smem_tile;
    /// A: 128 x 64 bf16.
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
                swizzle = 128B, mma = m64n256k16, stages = 4)]
    pub struct A;
    /// B: 256 x 64 bf16, shared by the pair.
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K,
                swizzle = 128B, mma = m64n256k16, stages = 4)]
    pub struct B;
}

/// B's slice `b` for the CTA of run-time `rank`: SMEM offset, coordinates and `ctaMask`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn lane_cluster_slice_cl21_b(out: *mut [u32; 4], rank: u32, b: u32) {
    let (x, y) = cl21::B_MULTICAST.slice_coord(rank, b);
    *out = [
        cl21::B_MULTICAST.slice_offset(rank, b),
        x,
        y,
        cl21::B_MULTICAST.cta_mask(rank) as u32,
    ];
}

/// A 128 x 128 f32 accumulator of a CTA pair in Tensor Memory.
const ACCUM: smemdesc::tmem::TmemAccum =
    smemdesc::tmem::TmemAccum::expect_new(128, 128, 2, smemdesc::mma::AccumType::F32);

/// Where accumulator element `(m, n)` lives (lane, column), run-time.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn lane_tmem_address_accum(out: *mut [u32; 2], m: u32, n: u32) {
    let (l, c) = ACCUM.address_wrapping(m, n);
    *out = [l, c];
}

/// Which element a (lane, column) holds, run-time.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn lane_tmem_element_accum(out: *mut [u32; 2], lane: u32, col: u32) {
    let (m, n) = ACCUM.element_wrapping(lane, col);
    *out = [m, n];
}
