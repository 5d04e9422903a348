//! The per-lane forms of the register-fragment and epilogue declarations, with every index read
//! from a kernel parameter: what a kernel evaluates with its own lane and warp at run time
//! (`#[smem_epilogue_tile]`'s `writer_offset` and `pair`, `#[smem_fragment_tile]`'s
//! `ldmatrix_offset`, `dest` and `writer_offset`). Kernels are named `lane_<decl>_<form>_<tile>`;
//! `scripts/check_access_ptx.py` requires each to read its indices and to be straight-line
//! integer code (no call, no table, no trap). Before the core's fragment and epilogue functions
//! were `#[inline]`, every one of these was a call to an `.extern .func` the module did not
//! define, and two plans were copied into `.global` tables.

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
