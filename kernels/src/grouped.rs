//! The grouped (MoE) bf16 GEMM: its plan (schedule, tables, grid) and launcher.

use crate::epi_tiles::{self as et};
use crate::error::{Dim, Error, ShapeError};
use crate::grouped_decl::{c_template, C_REWRITES};
use crate::launch::{operand_map, Kernels};
use crate::plan::{LaunchPlan, MAX_DIM};
use smemdesc::cuda;
use smemdesc::cuda::cudarc::driver::{
    CudaSlice, CudaStream, DevicePtr, DevicePtrMut, PushKernelArg,
};
use smemdesc::grouped::{
    GroupShape, GroupValues, GroupedMap, GroupedTiles, MapWorkspace, MapWorkspaceDecl,
};
use smemdesc::SmemTile;
use std::sync::Arc;

/// The entry of the grouped bf16 GEMM (`gpu/rust-kernel/src/grouped.rs`, the recorded variant:
/// waits that never give up, every consumer computes every tile).
///
/// ```
/// assert_eq!(smemdesc_kernels::GEMM_GROUPED_BF16_KERNEL, "gemm_grouped_spin_all_rust");
/// ```
pub const GEMM_GROUPED_BF16_KERNEL: &str = "gemm_grouped_spin_all_rust";

/// A grouped GEMM's launch: the library's schedule (`smemdesc::grouped::GroupedTiles`, M tiles
/// innermost, empty groups skipped) as the tables the kernel reads, and the launch sizes.
///
/// ```
/// use smemdesc_kernels::gemm_grouped_plan;
/// let p = gemm_grouped_plan(&[300, 0, 64], 512, 128, 132).unwrap();
/// assert_eq!(p.offsets, [0, 300, 300, 364]);
/// assert_eq!(p.launch.tiles, 3 * 2 + 1 * 2); // 128-row tiles per group x 2 N tiles
/// assert_eq!(p.launch.grid, (8, 1, 1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupedPlan {
    /// Grid, block, shared memory, tiles.
    pub launch: LaunchPlan,
    /// `G + 1` row offsets: group `g` is rows `offsets[g]..offsets[g + 1]` of A and C.
    pub offsets: Vec<u32>,
    /// `G + 1` tile offsets: the tiles before each group.
    pub tile_start: Vec<u32>,
    /// One packed `(group, M tile, N tile)` per tile (`smemdesc::grouped::pack_tile`), in order.
    pub table: Vec<u32>,
    /// C's map slots of the kernel's workspace (`MapWorkspace<2>`: two per CTA).
    pub map_slots: usize,
}

/// The plan of a grouped GEMM: group `g` is `C_g = A_g · B_gᵀ` with `rows[g]` rows of A and C
/// (any number, 0 included: the TMA store clips a group's last tile), B_g the `g`-th N × K block
/// of B; N a multiple of 256 and K of 64 (the 1x1 epilogue GEMM's declared tiles), at most
/// 1,024 groups with tiles (the table's word).
///
/// ```
/// use smemdesc_kernels::{gemm_grouped_plan, Dim, Error, ShapeError};
/// let e = gemm_grouped_plan(&[128], 300, 64, 132).unwrap_err();
/// assert!(matches!(e, Error::Shape(ShapeError::NotMultiple { dim: Dim::N, multiple: 256, .. })));
/// ```
pub fn gemm_grouped_plan(rows: &[u32], n: u32, k: u32, sms: u32) -> Result<GroupedPlan, Error> {
    type A = et::cl11::A;
    type B = et::cl11::B;
    let (bm, bn, bk) = (A::TILE_MN, B::TILE_MN, A::TILE_K);
    for (dim, value, tile) in [(Dim::N, n, bn), (Dim::K, k, bk)] {
        if value == 0 {
            return Err(ShapeError::Zero { dim }.into());
        }
        if value > MAX_DIM {
            return Err(ShapeError::TooLarge {
                dim,
                value,
                max: MAX_DIM,
            }
            .into());
        }
        if value % tile != 0 {
            return Err(ShapeError::NotMultiple {
                dim,
                value,
                multiple: tile,
            }
            .into());
        }
    }
    let mut offsets = vec![0u32];
    let mut total = 0u64;
    for &m in rows {
        total += u64::from(m);
        if total > u64::from(MAX_DIM) {
            return Err(ShapeError::TooLarge {
                dim: Dim::M,
                value: u32::try_from(total).unwrap_or(u32::MAX),
                max: MAX_DIM,
            }
            .into());
        }
        offsets.push(total as u32);
    }
    let b_rows = rows.len() as u64 * u64::from(n);
    if b_rows > u64::from(MAX_DIM) {
        return Err(ShapeError::TooLarge {
            dim: Dim::N,
            value: u32::try_from(b_rows).unwrap_or(u32::MAX),
            max: MAX_DIM,
        }
        .into());
    }
    let shapes: Vec<GroupShape> = rows.iter().map(|&m| GroupShape { m, n, k }).collect();
    let sched = GroupedTiles::new::<et::Pipe11>(&shapes, bm, bn, bk).map_err(Error::Grouped)?;
    let mut tile_start = vec![0u32];
    for g in 0..rows.len() {
        tile_start.push(tile_start[g] + sched.group_tiles(g));
    }
    let mut table = vec![0u32; sched.tiles() as usize];
    sched.write_table(&mut table).map_err(Error::Grouped)?;
    let grid = sched.persistent_grid(sms.max(1));
    let map_slots =
        MapWorkspace::<2>::bytes(grid).unwrap_or(0) / u64::from(MapWorkspaceDecl::SLOT_BYTES);
    Ok(GroupedPlan {
        launch: LaunchPlan {
            kernel: GEMM_GROUPED_BF16_KERNEL,
            tile: (bm, bn),
            tiles: sched.tiles(),
            grid: (grid, 1, 1),
            block: (et::THREADS, 1, 1),
            shared_mem_bytes: et::Storage11::LAUNCH_BYTES,
            stage_tx_bytes: et::Pipe11::EXPECT_TX,
        },
        offsets,
        tile_start,
        table,
        map_slots: map_slots as usize,
    })
}

impl Kernels {
    /// The grouped (MoE) bf16 GEMM, as `torch._grouped_mm` with offsets: A is the groups' rows
    /// concatenated (`Σ rows` × K), B the groups' N × K blocks stacked (`G·N` × K), C the
    /// groups' rows (`Σ rows` × N), all row-major bf16 bits; group `g` is
    /// `C[o_g..o_g+1] = A[o_g..o_g+1] · B_gᵀ` ([`gemm_grouped_plan`]). The persistent kernel
    /// rewrites C's TMA store map per group in device memory (`smemdesc::grouped`). Groups of
    /// no rows are skipped; all groups empty launches nothing.
    ///
    /// ```no_run
    /// use smemdesc_kernels::Kernels;
    /// use smemdesc_kernels::cudarc::driver::CudaContext;
    /// let ctx = CudaContext::new(0)?;
    /// let stream = ctx.default_stream();
    /// let kernels = Kernels::from_ptx_file(&ctx, ".gpu-rust/kernels.ptx")?;
    /// let (rows, n, k) = ([300u32, 0, 17, 1000], 2048, 1024);
    /// let total: u32 = rows.iter().sum();
    /// let a = stream.alloc_zeros::<u16>((total * k) as usize)?;
    /// let b = stream.alloc_zeros::<u16>(rows.len() * (n * k) as usize)?;
    /// let mut c = stream.alloc_zeros::<u16>((total * n) as usize)?;
    /// kernels.gemm_grouped_bf16(&stream, &rows, n, k, &a, &b, &mut c)?;
    /// # Ok::<(), smemdesc_kernels::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn gemm_grouped_bf16(
        &self,
        stream: &Arc<CudaStream>,
        rows: &[u32],
        n: u32,
        k: u32,
        a: &CudaSlice<u16>,
        b: &CudaSlice<u16>,
        c: &mut CudaSlice<u16>,
    ) -> Result<(), Error> {
        let plan = gemm_grouped_plan(rows, n, k, self.sms())?;
        let total = *plan.offsets.last().unwrap_or(&0) as usize;
        let (nu, ku) = (n as usize, k as usize);
        for (operand, len, expected) in [
            ("A", a.len(), total * ku),
            ("B", b.len(), rows.len() * nu * ku),
            ("C", c.len(), total * nu),
        ] {
            if len != expected {
                return Err(ShapeError::Length {
                    operand,
                    len,
                    expected,
                }
                .into());
            }
        }
        if plan.launch.tiles == 0 {
            return Ok(());
        }
        let f = self.plan_function(&plan.launch)?;
        let (pa, _ga) = a.device_ptr(stream);
        let (pb, _gb) = b.device_ptr(stream);
        let (pc, _gc) = c.device_ptr_mut(stream);
        let maps = cuda::upload(
            stream,
            &[
                operand_map::<et::cl11::A>(pa, total as u64, u64::from(k))?,
                operand_map::<et::cl11::B>(pb, rows.len() as u64 * u64::from(n), u64::from(k))?,
            ],
        )?;
        // C's template (every slot starts as a map of the launch's columns; the kernel rewrites
        // the address and rows per group).
        let gm = GroupedMap::new(c_template().dim(0, u64::from(n)), &C_REWRITES)
            .map_err(Error::GroupedMap)?;
        let start = cuda::encode_group(&gm, &GroupValues::new(pc).dim(1, 1))?;
        let slots = cuda::upload(stream, &vec![start; plan.map_slots])?;
        let offs = stream.clone_htod(&plan.offsets)?;
        let tstart = stream.clone_htod(&plan.tile_start)?;
        let table = stream.clone_htod(&plan.table)?;
        let (pm, _gm) = maps.device_ptr(stream);
        let (map_a, map_b) = (pm, pm + 128);
        let (groups, tiles) = (rows.len() as u32, plan.launch.tiles);
        let mut w = self.watchdog_slice();
        let (pw, _gw) = w.device_ptr_mut(stream);
        let mut l = stream.launch_builder(&f);
        l.arg(&map_a).arg(&map_b).arg(&slots).arg(&pc);
        l.arg(&offs).arg(&tstart).arg(&table);
        l.arg(&groups).arg(&tiles).arg(&n).arg(&k).arg(&pw);
        // SAFETY: `gemm_grouped_spin_all_rust(map_a, map_b, cslots, c, offs, tstart, tinfo: u64,
        // groups, tiles, n, k: u32, err: u64)` (gpu/rust-kernel/src/grouped.rs) with its
        // documented preconditions: 384 threads, Storage11's LAUNCH_BYTES (the function's
        // maximum), A's map over `[Σ rows, K]` and B's over `[G·N, K]` (the 1x1 declaration's
        // boxes), two C map slots per CTA holding the template, C of `Σ rows × N`, `offs` and
        // `tstart` of G + 1 u32, the packed table of `tiles` entries, N and K multiples of the
        // tiles (checked), `err` one device u32. Every buffer lives until the launch is ordered.
        unsafe { l.launch(plan.launch.config()) }?;
        Ok(())
    }
}
