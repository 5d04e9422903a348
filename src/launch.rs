//! Launch parameters a GEMM's two tile declarations imply: dynamic shared memory (A then B, each
//! at its alignment), the grid of CTA tiles, the cluster a CTA pair needs, and the TMA transaction
//! bytes of one stage.

use crate::{Operand, TilePlan};

/// Why two declarations do not make one GEMM launch.
///
/// ```
/// use smemdesc::*;
/// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).stages(4).build().unwrap();
/// let e = GemmLaunch::new(&a, &a, 4096, 4096).unwrap_err();
/// assert_eq!(e, LaunchError::Operand { expected: Operand::B });
/// assert!(e.to_string().contains("operand = B"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaunchError {
    /// A tile is not the operand its position needs.
    Operand {
        /// The operand expected there.
        expected: Operand,
    },
    /// The two tiles disagree on a value that must be equal.
    Mismatch {
        /// What differs (`arch`, `stages`, `tile K`, `cta_group`).
        what: &'static str,
        /// A's value.
        a: u32,
        /// B's value.
        b: u32,
    },
    /// `m` or `n` is 0.
    ZeroExtent,
    /// A and B together exceed the shared memory of one CTA.
    SmemBudget {
        /// Bytes needed (with the alignment slack).
        bytes: u32,
        /// The limit.
        limit: u32,
    },
    /// The storage launched with is smaller than the two tiles with their slack: not the storage
    /// that holds them.
    StorageTooSmall {
        /// The storage's `LAUNCH_BYTES`.
        storage: u32,
        /// What A and B alone need.
        tiles: u32,
    },
}

impl LaunchError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            LaunchError::Operand { expected } => write!(
                f,
                "this tile must be declared `operand = {}`",
                expected.name()
            ),
            LaunchError::Mismatch { what, a, b } => {
                write!(f, "A has {what} = {a} but B has {b}; they must be equal")
            }
            LaunchError::ZeroExtent => write!(f, "m and n must be at least 1"),
            LaunchError::SmemBudget { bytes, limit } => write!(
                f,
                "A and B need {bytes} B of dynamic shared memory but a CTA has {limit} B; use fewer stages"
            ),
            LaunchError::StorageTooSmall { storage, tiles } => write!(
                f,
                "the storage's LAUNCH_BYTES is {storage} B but A and B alone need {tiles} B: launch with the #[smem_storage] that holds both tiles"
            ),
        }
    }
}

/// `?` carries it into `Box<dyn std::error::Error>` (the trait is `core`'s, so no `std` is needed):
///
/// ```
/// use smemdesc::*;
/// fn launch(m: u32) -> Result<GemmLaunch, Box<dyn std::error::Error>> {
///     let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).build()?;
///     let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 128, 64).build()?;
///     Ok(GemmLaunch::new(&a, &b, m, 4096)?)
/// }
/// assert_eq!(launch(0).unwrap_err().to_string(), "m and n must be at least 1 [rule launch.extent; smemdesc model, src/launch.rs]");
/// ```
impl core::error::Error for LaunchError {}

/// Launch parameters of a GEMM `m × n` whose CTAs hold tiles `A` and `B`.
///
/// Shared memory: A at offset 0, B at A's bytes rounded up to B's alignment; `shared_mem_bytes`
/// adds `max(align) - 16` bytes of slack so the kernel can round the dynamic shared-memory base
/// (guaranteed 16-byte aligned) up to the tiles' alignment. The grid's x runs over M tiles (a
/// `cta_group = 2` pair is two neighbours along x, one cluster of `[2, 1, 1]`), y over N tiles.
///
/// ```
/// use smemdesc::*;
/// let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).stages(4).build().unwrap();
/// let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 256, 64).stages(4).build().unwrap();
/// let l = GemmLaunch::new(&a, &b, 4096, 4096).unwrap();
/// assert_eq!((l.grid, l.cluster), ([32, 16, 1], [1, 1, 1]));
/// assert_eq!((l.smem_b, l.shared_mem_bytes), (65536, 65536 + 131072 + 1008));
/// assert_eq!(l.tx_bytes, 16384 + 32768);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmLaunch {
    /// `gridDim`: `[M tiles (× CTAs per pair), N tiles, 1]`.
    pub grid: [u32; 3],
    /// Cluster dims: `[cta_group, 1, 1]`.
    pub cluster: [u32; 3],
    /// `sharedMemBytes` (A, B, alignment slack; add the kernel's own barriers).
    pub shared_mem_bytes: u32,
    /// Byte offset of B from the aligned base (A is at 0).
    pub smem_b: u32,
    /// The alignment the kernel rounds its dynamic shared-memory base up to.
    pub smem_align: u32,
    /// Bytes the TMA loads of one stage deliver per CTA (the mbarrier transaction count).
    pub tx_bytes: u32,
}

impl GemmLaunch {
    /// The launch of an `m × n` GEMM with per-CTA tiles `a` (operand A) and `b` (operand B).
    ///
    /// ```
    /// use smemdesc::*;
    /// // sm100 CTA pair: each CTA holds half of A's 256 rows and half of B's 256 columns
    /// let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::BF16, Major::K, 128, 64).cta_group(2).stages(3).build().unwrap();
    /// let b = TileDecl::new(Arch::Sm100, Operand::B, ElementType::BF16, Major::K, 128, 64).cta_group(2).stages(3).build().unwrap();
    /// let l = GemmLaunch::new(&a, &b, 1000, 512).unwrap();
    /// assert_eq!((l.grid, l.cluster), ([8, 2, 1], [2, 1, 1])); // ceil(1000 / 256) pairs along M
    /// ```
    pub const fn new(
        a: &TilePlan,
        b: &TilePlan,
        m: u32,
        n: u32,
    ) -> Result<GemmLaunch, LaunchError> {
        if !matches!(a.decl.operand, Operand::A) {
            return Err(LaunchError::Operand {
                expected: Operand::A,
            });
        }
        if !matches!(b.decl.operand, Operand::B) {
            return Err(LaunchError::Operand {
                expected: Operand::B,
            });
        }
        let (sa, sb) = (a.tile.spec(), b.tile.spec());
        let pairs = [
            ("arch", a.decl.arch as u32, b.decl.arch as u32),
            ("stages", sa.stages, sb.stages),
            ("tile K", sa.tile_k, sb.tile_k),
            ("cta_group", a.decl.cta_group, b.decl.cta_group),
        ];
        let mut i = 0;
        while i < pairs.len() {
            let (what, x, y) = pairs[i];
            if x != y {
                return Err(LaunchError::Mismatch { what, a: x, b: y });
            }
            i += 1;
        }
        if m == 0 || n == 0 {
            return Err(LaunchError::ZeroExtent);
        }
        let cg = a.decl.cta_group;
        let (align_a, align_b) = (a.tile.align(), b.tile.align());
        let align = if align_a > align_b { align_a } else { align_b };
        // Each tile fits shared memory (checked by the core), so these sums cannot overflow u32.
        let smem_b = a.tile.bytes().next_multiple_of(align_b);
        let bytes = smem_b + b.tile.bytes() + (align - 16);
        let limit = a.decl.arch.max_smem_per_cta();
        if bytes > limit {
            return Err(LaunchError::SmemBudget { bytes, limit });
        }
        // A pair covers cg × A's rows along M and cg × B's columns along N.
        let pair_m = sa.tile_mn * cg;
        let pair_n = sb.tile_mn * cg;
        Ok(GemmLaunch {
            grid: [m.div_ceil(pair_m) * cg, n.div_ceil(pair_n), 1],
            cluster: [cg, 1, 1],
            shared_mem_bytes: bytes,
            smem_b,
            smem_align: align,
            tx_bytes: a.tile.stage_bytes() + b.tile.stage_bytes(),
        })
    }

    /// The launch with its dynamic shared memory taken from storage `S` (an `#[smem_storage]`
    /// struct: tiles, barriers, epilogue buffers and the alignment slack): `shared_mem_bytes`
    /// becomes `S::LAUNCH_BYTES`. A storage smaller than the two tiles need is refused.
    ///
    /// ```
    /// use smemdesc::prelude::*;
    /// use smemdesc::GemmLaunch;
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
    /// struct TileA;
    /// #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4)]
    /// struct TileB;
    /// #[smem_storage(arch = sm90)]
    /// struct Storage { a: TileA, b: TileB, full: [Mbarrier; 4], empty: [Mbarrier; 4] }
    /// let l = GemmLaunch::new(&TileA::PLAN, &TileB::PLAN, 4096, 4096).unwrap();
    /// assert_eq!(l.shared_mem_bytes, 65536 + 131072 + 1008); // the tiles alone
    /// let l = l.with_storage::<Storage>().unwrap();
    /// assert_eq!(l.shared_mem_bytes, Storage::LAUNCH_BYTES); // + the 64 B of barriers
    /// assert_eq!(Storage::LAUNCH_BYTES, 65536 + 131072 + 64 + 1008);
    /// ```
    pub const fn with_storage<S: crate::smem::SmemStorage>(
        self,
    ) -> Result<GemmLaunch, LaunchError> {
        if S::LAUNCH_BYTES < self.shared_mem_bytes {
            return Err(LaunchError::StorageTooSmall {
                storage: S::LAUNCH_BYTES,
                tiles: self.shared_mem_bytes,
            });
        }
        Ok(GemmLaunch {
            shared_mem_bytes: S::LAUNCH_BYTES,
            ..self
        })
    }
}
