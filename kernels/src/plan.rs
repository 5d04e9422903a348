//! Launch plans: grid, block, dynamic shared memory and tile counts of each launcher, from the
//! kernels' own declarations (`gpu/rust-kernel/src/epi_tiles.rs`, `tiles.rs`), and the shape
//! checks. Pure functions: no GPU needed.

use crate::epi_tiles::{self as et, EpiDecl};
use crate::error::{Dim, ShapeError};
use crate::tiles;
use smemdesc::cuda::cudarc::driver::LaunchConfig;
use smemdesc::SmemTile;

/// The entry of the dense bf16 GEMM with the TMA-store epilogue (`gpu/rust-kernel/src/epi.rs`).
///
/// ```
/// assert_eq!(smemdesc_kernels::GEMM_BF16_KERNEL, "gemm_epi_rust");
/// ```
pub const GEMM_BF16_KERNEL: &str = "gemm_epi_rust";

/// The entry of the dense FP8 (e4m3) GEMM (`gpu/rust-kernel/src/gemm.rs`).
///
/// ```
/// assert_eq!(smemdesc_kernels::GEMM_FP8_KERNEL, "gemm_fp8_rust");
/// ```
pub const GEMM_FP8_KERNEL: &str = "gemm_fp8_rust";

/// Rows of C tiles per raster group (the kernels' `group_m`: consecutive CTAs walk `GROUP_M`
/// tile rows before the next column, for L2 reuse of B); the value the recorded runs use.
///
/// ```
/// assert_eq!(smemdesc_kernels::GROUP_M, 16);
/// ```
pub const GROUP_M: u32 = 16;

/// The largest dimension accepted: TMA coordinates are signed 32-bit integers.
///
/// ```
/// assert_eq!(smemdesc_kernels::MAX_DIM, i32::MAX as u32);
/// ```
pub const MAX_DIM: u32 = i32::MAX as u32;

/// The sizes of a GEMM `C = A · Bᵀ`: A is M × K, B is N × K (both with K contiguous, as
/// `torch.nn.functional.linear`'s weight), C is M × N row-major.
///
/// ```
/// use smemdesc_kernels::GemmShape;
/// let s = GemmShape::new(256, 512, 128);
/// assert_eq!((s.a_len(), s.b_len(), s.c_len()), (256 * 128, 512 * 128, 256 * 512));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmShape {
    /// Rows of A and C.
    pub m: u32,
    /// Rows of B, columns of C.
    pub n: u32,
    /// Columns of A and B.
    pub k: u32,
}

impl GemmShape {
    /// The shape `m × n × k`.
    ///
    /// ```
    /// let s = smemdesc_kernels::GemmShape::new(128, 256, 64);
    /// assert_eq!((s.m, s.n, s.k), (128, 256, 64));
    /// ```
    pub const fn new(m: u32, n: u32, k: u32) -> GemmShape {
        GemmShape { m, n, k }
    }

    /// Elements of A (M · K).
    ///
    /// ```
    /// assert_eq!(smemdesc_kernels::GemmShape::new(2, 3, 4).a_len(), 8);
    /// ```
    pub const fn a_len(&self) -> usize {
        self.m as usize * self.k as usize
    }

    /// Elements of B (N · K).
    ///
    /// ```
    /// assert_eq!(smemdesc_kernels::GemmShape::new(2, 3, 4).b_len(), 12);
    /// ```
    pub const fn b_len(&self) -> usize {
        self.n as usize * self.k as usize
    }

    /// Elements of C (M · N).
    ///
    /// ```
    /// assert_eq!(smemdesc_kernels::GemmShape::new(2, 3, 4).c_len(), 6);
    /// ```
    pub const fn c_len(&self) -> usize {
        self.m as usize * self.n as usize
    }

    /// Checks the buffers' lengths (elements) against the shape: A, B, C in that order.
    ///
    /// ```
    /// use smemdesc_kernels::{GemmShape, ShapeError};
    /// let s = GemmShape::new(128, 256, 64);
    /// assert!(s.check_lengths(128 * 64, 256 * 64, 128 * 256).is_ok());
    /// assert_eq!(
    ///     s.check_lengths(128 * 64, 256 * 64, 100),
    ///     Err(ShapeError::Length { operand: "C", len: 100, expected: 128 * 256 })
    /// );
    /// ```
    pub const fn check_lengths(&self, a: usize, b: usize, c: usize) -> Result<(), ShapeError> {
        let want = [
            ("A", a, self.a_len()),
            ("B", b, self.b_len()),
            ("C", c, self.c_len()),
        ];
        let mut i = 0;
        while i < want.len() {
            let (operand, len, expected) = want[i];
            if len != expected {
                return Err(ShapeError::Length {
                    operand,
                    len,
                    expected,
                });
            }
            i += 1;
        }
        Ok(())
    }

    /// Checks every dimension: not zero, at most [`MAX_DIM`], a multiple of the tile along it
    /// (`tile`: M, N, K).
    ///
    /// ```
    /// use smemdesc_kernels::{Dim, GemmShape, ShapeError};
    /// let s = GemmShape::new(128, 0, 64);
    /// assert_eq!(s.check_tiles([128, 256, 64]), Err(ShapeError::Zero { dim: Dim::N }));
    /// ```
    pub const fn check_tiles(&self, tile: [u32; 3]) -> Result<(), ShapeError> {
        let dims = [(Dim::M, self.m), (Dim::N, self.n), (Dim::K, self.k)];
        let mut i = 0;
        while i < 3 {
            let (dim, value) = dims[i];
            if value == 0 {
                return Err(ShapeError::Zero { dim });
            }
            if value > MAX_DIM {
                return Err(ShapeError::TooLarge {
                    dim,
                    value,
                    max: MAX_DIM,
                });
            }
            if tile[i] == 0 || value % tile[i] != 0 {
                return Err(ShapeError::NotMultiple {
                    dim,
                    value,
                    multiple: tile[i],
                });
            }
            i += 1;
        }
        Ok(())
    }
}

/// How a launcher launches its kernel at one shape.
///
/// ```
/// use smemdesc_kernels::{gemm_bf16_plan, GemmShape};
/// let p = gemm_bf16_plan(GemmShape::new(1024, 1024, 512), 132).unwrap();
/// assert_eq!((p.tiles, p.grid), (8 * 4, (32, 1, 1))); // persistent: min(tiles, SMs) CTAs
/// assert_eq!(p.config().block_dim, (384, 1, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchPlan {
    /// The PTX entry.
    pub kernel: &'static str,
    /// The C tile one CTA computes at a time, (rows, columns).
    pub tile: (u32, u32),
    /// Tiles of C.
    pub tiles: u32,
    /// `gridDim` (a persistent 1-D grid: each CTA loops over tiles).
    pub grid: (u32, u32, u32),
    /// `blockDim`: the kernel's warpgroups (one producer, two consumers).
    pub block: (u32, u32, u32),
    /// Dynamic shared memory: the kernel's storage's `LAUNCH_BYTES` (tiles, barriers, epilogue
    /// buffers, alignment slack).
    pub shared_mem_bytes: u32,
    /// Bytes the TMA loads of one pipeline stage deliver (the full barrier's transaction count).
    pub stage_tx_bytes: u32,
}

impl LaunchPlan {
    /// The plan as cudarc's launch configuration.
    ///
    /// ```
    /// use smemdesc_kernels::{gemm_fp8_plan, GemmShape};
    /// let p = gemm_fp8_plan(GemmShape::new(128, 256, 128), 132).unwrap();
    /// let c = p.config();
    /// assert_eq!((c.grid_dim, c.shared_mem_bytes), ((1, 1, 1), p.shared_mem_bytes));
    /// ```
    pub const fn config(&self) -> LaunchConfig {
        LaunchConfig {
            grid_dim: self.grid,
            block_dim: self.block,
            shared_mem_bytes: self.shared_mem_bytes,
        }
    }
}

const fn persistent_grid(tiles: u32, sms: u32) -> u32 {
    let sms = if sms == 0 { 1 } else { sms };
    if tiles < sms {
        tiles
    } else {
        sms
    }
}

/// The launch of the dense bf16 GEMM with the TMA-store epilogue ([`GEMM_BF16_KERNEL`]) on a
/// device of `sms` SMs: M a multiple of 128, N of 256, K of 64 (the declared A/B tiles of
/// `epi_tiles.rs`, 1x1 cluster), the storage `Storage11`'s launch bytes.
///
/// ```
/// use smemdesc_kernels::{gemm_bf16_plan, GemmShape};
/// let p = gemm_bf16_plan(GemmShape::new(8192, 8192, 8192), 132).unwrap();
/// assert_eq!((p.tile, p.tiles, p.grid.0), ((128, 256), 64 * 32, 132));
/// assert!(gemm_bf16_plan(GemmShape::new(8192, 8192, 8200), 132).is_err()); // K % 64
/// ```
pub const fn gemm_bf16_plan(shape: GemmShape, sms: u32) -> Result<LaunchPlan, ShapeError> {
    type A = et::cl11::A;
    type B = et::cl11::B;
    let (bm, bn) = (A::TILE_MN * et::Decl11::X, B::TILE_MN * et::Decl11::Y);
    if let Err(e) = shape.check_tiles([bm, bn, A::TILE_K]) {
        return Err(e);
    }
    let tiles = (shape.m / bm) * (shape.n / bn);
    Ok(LaunchPlan {
        kernel: GEMM_BF16_KERNEL,
        tile: (bm, bn),
        tiles,
        grid: (persistent_grid(tiles, sms), 1, 1),
        block: (et::THREADS, 1, 1),
        shared_mem_bytes: et::Storage11::LAUNCH_BYTES,
        stage_tx_bytes: et::Decl11::EXPECT_TX,
    })
}

/// The launch of the dense FP8 GEMM (e4m3 A and B, bf16 C, [`GEMM_FP8_KERNEL`]) on a device of
/// `sms` SMs: M a multiple of 128, N of 256, K of 128 (the declared `Fp8A`/`Fp8B` tiles of
/// `tiles.rs`), the launch bytes of its storage layout (`FP8_SMEM`).
///
/// ```
/// use smemdesc_kernels::{gemm_fp8_plan, GemmShape};
/// let p = gemm_fp8_plan(GemmShape::new(4096, 4096, 4096), 132).unwrap();
/// assert_eq!((p.tile, p.tiles, p.grid.0, p.block.0), ((128, 256), 32 * 16, 132, 384));
/// ```
pub const fn gemm_fp8_plan(shape: GemmShape, sms: u32) -> Result<LaunchPlan, ShapeError> {
    type A = tiles::Fp8A;
    type B = tiles::Fp8B;
    let (bm, bn) = (A::TILE_MN, B::TILE_MN);
    if let Err(e) = shape.check_tiles([bm, bn, A::TILE_K]) {
        return Err(e);
    }
    let tiles = (shape.m / bm) * (shape.n / bn);
    Ok(LaunchPlan {
        kernel: GEMM_FP8_KERNEL,
        tile: (bm, bn),
        tiles,
        grid: (persistent_grid(tiles, sms), 1, 1),
        block: (tiles::GEMM_THREADS, 1, 1),
        shared_mem_bytes: tiles::FP8_SMEM.launch_bytes,
        stage_tx_bytes: A::TMA_BOXES * A::PLAN.tma.box_bytes + B::TMA_BOXES * B::PLAN.tma.box_bytes,
    })
}
