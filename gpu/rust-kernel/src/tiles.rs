//! Every tile the Rust kernels use, declared once with `#[smem_tile]`. Target-independent (no
//! `asm!`): the kernel crate compiles it for nvptx64 and the host program
//! (`gpu/src/bin/rust_kernels/`) includes the same file, so tensor maps, boxes and descriptors on both sides
//! come from the same declarations.

use core::mem::{align_of, size_of};
use smemdesc::smem::{Mbarrier, StorageLayout, StorageMember};
use smemdesc::tile::Arch;
use smemdesc::{smem_tile, SmemTile};

/// Rows along M (A) and N (B) of every check class: two wgmma subtiles of 64.
pub const CHECK_TILE_MN: u32 = 128;
/// Stages of every check class.
pub const CHECK_STAGES: u32 = 2;

/// The shared memory of a check kernel, per class: the core's [`StorageLayout`] (what
/// `#[smem_storage]` builds), written generically over the class's tiles since a macro cannot
/// name a type parameter. A and B sit on their swizzle pattern's repeat, then one mbarrier.
pub struct CheckSmem<A, B>(core::marker::PhantomData<(A, B)>);

impl<A: SmemTile, B: SmemTile> CheckSmem<A, B> {
    /// The layout, checked against the per-CTA limit at compile time.
    pub const LAYOUT: StorageLayout<3> = StorageLayout::plan(
        "CheckSmem",
        Arch::Sm90,
        [
            StorageMember::tile("a", A::PLAN.tile, None),
            StorageMember::tile("b", B::PLAN.tile, None),
            StorageMember::sized("bar", size_of::<Mbarrier>(), align_of::<Mbarrier>()),
        ],
    )
    .expect_fits();
    /// Offset of A's stages from the storage base.
    pub const A: u32 = Self::LAYOUT.offset(0);
    /// Offset of B's stages.
    pub const B: u32 = Self::LAYOUT.offset(1);
    /// Offset of the mbarrier.
    pub const BAR: u32 = Self::LAYOUT.offset(2);
    /// Alignment the storage base is rounded up to.
    pub const ALIGN: u32 = Self::LAYOUT.align();
    /// Dynamic shared memory to launch with (the members plus the slack to align a 16-byte
    /// aligned dynamic base to `ALIGN`).
    pub const LAUNCH_BYTES: u32 = Self::LAYOUT.launch_bytes();
}

/// Calls `$m!` once per sm90 layout class of the check (the classes of `gpu/`: dtype × major ×
/// swizzle × stacking order that sm90 allows, two mixed-major bf16 classes, and the negative
/// control). Arguments: module name, dtype, K elements per stage (256 bytes), A major, swizzle,
/// order, B major, swizzle, order, negative control.
#[macro_export]
#[rustfmt::skip]
macro_rules! for_each_class {
    ($m:ident) => {
        $m!(bf16_K_none_mnfirst, bf16, 128, K, none, mn_first, K, none, mn_first, false);
        $m!(bf16_K_none_kfirst, bf16, 128, K, none, k_first, K, none, k_first, false);
        $m!(bf16_K_sw32_mnfirst, bf16, 128, K, 32B, mn_first, K, 32B, mn_first, false);
        $m!(bf16_K_sw32_kfirst, bf16, 128, K, 32B, k_first, K, 32B, k_first, false);
        $m!(bf16_K_sw64_mnfirst, bf16, 128, K, 64B, mn_first, K, 64B, mn_first, false);
        $m!(bf16_K_sw64_kfirst, bf16, 128, K, 64B, k_first, K, 64B, k_first, false);
        $m!(bf16_K_sw128_mnfirst, bf16, 128, K, 128B, mn_first, K, 128B, mn_first, false);
        $m!(bf16_K_sw128_kfirst, bf16, 128, K, 128B, k_first, K, 128B, k_first, false);
        $m!(bf16_MN_none_mnfirst, bf16, 128, MN, none, mn_first, MN, none, mn_first, false);
        $m!(bf16_MN_none_kfirst, bf16, 128, MN, none, k_first, MN, none, k_first, false);
        $m!(bf16_MN_sw32_mnfirst, bf16, 128, MN, 32B, mn_first, MN, 32B, mn_first, false);
        $m!(bf16_MN_sw32_kfirst, bf16, 128, MN, 32B, k_first, MN, 32B, k_first, false);
        $m!(bf16_MN_sw64_mnfirst, bf16, 128, MN, 64B, mn_first, MN, 64B, mn_first, false);
        $m!(bf16_MN_sw64_kfirst, bf16, 128, MN, 64B, k_first, MN, 64B, k_first, false);
        $m!(bf16_MN_sw128_mnfirst, bf16, 128, MN, 128B, mn_first, MN, 128B, mn_first, false);
        $m!(bf16_MN_sw128_kfirst, bf16, 128, MN, 128B, k_first, MN, 128B, k_first, false);
        $m!(e4m3_K_none_mnfirst, e4m3, 256, K, none, mn_first, K, none, mn_first, false);
        $m!(e4m3_K_none_kfirst, e4m3, 256, K, none, k_first, K, none, k_first, false);
        $m!(e4m3_K_sw32_mnfirst, e4m3, 256, K, 32B, mn_first, K, 32B, mn_first, false);
        $m!(e4m3_K_sw32_kfirst, e4m3, 256, K, 32B, k_first, K, 32B, k_first, false);
        $m!(e4m3_K_sw64_mnfirst, e4m3, 256, K, 64B, mn_first, K, 64B, mn_first, false);
        $m!(e4m3_K_sw64_kfirst, e4m3, 256, K, 64B, k_first, K, 64B, k_first, false);
        $m!(e4m3_K_sw128_mnfirst, e4m3, 256, K, 128B, mn_first, K, 128B, mn_first, false);
        $m!(e4m3_K_sw128_kfirst, e4m3, 256, K, 128B, k_first, K, 128B, k_first, false);
        $m!(tf32_K_none_mnfirst, tf32, 64, K, none, mn_first, K, none, mn_first, false);
        $m!(tf32_K_none_kfirst, tf32, 64, K, none, k_first, K, none, k_first, false);
        $m!(tf32_K_sw32_mnfirst, tf32, 64, K, 32B, mn_first, K, 32B, mn_first, false);
        $m!(tf32_K_sw32_kfirst, tf32, 64, K, 32B, k_first, K, 32B, k_first, false);
        $m!(tf32_K_sw64_mnfirst, tf32, 64, K, 64B, mn_first, K, 64B, mn_first, false);
        $m!(tf32_K_sw64_kfirst, tf32, 64, K, 64B, k_first, K, 64B, k_first, false);
        $m!(tf32_K_sw128_mnfirst, tf32, 64, K, 128B, mn_first, K, 128B, mn_first, false);
        $m!(tf32_K_sw128_kfirst, tf32, 64, K, 128B, k_first, K, 128B, k_first, false);
        $m!(bf16_AK_sw128_mnfirst_BMN_sw64_kfirst, bf16, 128, K, 128B, mn_first, MN, 64B, k_first, false);
        $m!(bf16_AMN_sw32_mnfirst_BK_none_kfirst, bf16, 128, MN, 32B, mn_first, K, none, k_first, false);
        $m!(NEGATIVE_wrong_sbo_bf16_K_sw128_mnfirst, bf16, 128, K, 128B, mn_first, K, 128B, mn_first, true);
    };
}

/// Declares one check class: `pub mod $name { pub struct A; pub struct B; NAME; NEGATIVE }`.
macro_rules! declare_class {
    ($name:ident, $dt:tt, $tk:literal, $ma:tt, $sa:tt, $oa:tt, $mb:tt, $sb:tt, $ob:tt, $neg:expr) => {
        #[allow(non_snake_case)]
        pub mod $name {
            use super::smem_tile;
            /// Operand A of the class.
            #[smem_tile(arch = sm90, operand = A, dtype = $dt, tile = (128, $tk), major = $ma,
                                        swizzle = $sa, order = $oa, mma = (64, 64), stages = 2)]
            pub struct A;
            /// Operand B of the class.
            #[smem_tile(arch = sm90, operand = B, dtype = $dt, tile = (128, $tk), major = $mb,
                                        swizzle = $sb, order = $ob, mma = (64, 64), stages = 2)]
            pub struct B;
            /// Class name (as in `gpu/`'s classes; the kernel is `check_<NAME>`).
            pub const NAME: &str = stringify!($name);
            /// Negative control: A's descriptors get SBO doubled on the device.
            pub const NEGATIVE: bool = $neg;
        }
    };
}

/// The check classes.
pub mod class {
    use super::smem_tile;
    for_each_class!(declare_class);
}

/// GEMM block tile: rows of C per CTA.
pub const GEMM_BM: u32 = 128;
/// GEMM block tile: columns of C per CTA.
pub const GEMM_BN: u32 = 256;
/// Consumer warpgroups (one per 64-row A subtile); one producer warpgroup more.
pub const GEMM_CONSUMERS: u32 = 2;
/// Threads per GEMM CTA.
pub const GEMM_THREADS: u32 = 128 * (GEMM_CONSUMERS + 1);
/// Columns of one epilogue pass (per warp, 16 rows x 64 columns of bf16 through shared memory).
pub const EPI_COLS: u32 = 64;
/// Row pitch of a warp's epilogue buffer: 64 bf16 plus 16 bytes (no bank conflicts).
pub const EPI_PITCH: u32 = EPI_COLS * 2 + 16;
/// Bytes of the epilogue buffers: 4 warps per consumer warpgroup, 16 rows each.
pub const EPI_BYTES: u32 = GEMM_CONSUMERS * 4 * 16 * EPI_PITCH;

/// bf16 GEMM, A: 128 x 64 per stage, K-major, 128B swizzle, 4 stages, wgmma m64n256k16.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            order = mn_first, mma = m64n256k16, stages = 4)]
pub struct Bf16A;

/// bf16 GEMM, B: 256 x 64 per stage (N x K), K-major, 128B swizzle, 4 stages.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, swizzle = 128B,
            order = mn_first, mma = m64n256k16, stages = 4)]
pub struct Bf16B;

/// FP8 GEMM, A: 128 x 128 e4m3 per stage (128 B of K), K-major, 128B swizzle, 4 stages,
/// wgmma m64n256k32.
#[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K, swizzle = 128B,
            order = mn_first, mma = (64, 256, 32), stages = 4)]
pub struct Fp8A;

/// FP8 GEMM, B: 256 x 128 e4m3 per stage, K-major, 128B swizzle, 4 stages.
#[smem_tile(arch = sm90, operand = B, dtype = e4m3, tile = (256, 128), major = K, swizzle = 128B,
            order = mn_first, mma = (64, 256, 32), stages = 4)]
pub struct Fp8B;

/// Where everything of a GEMM CTA lives in dynamic shared memory, from the aligned storage base:
/// the numbers of [`gemm_layout`] (a kernel and the host take them as plain `u32`s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmSmem {
    /// A's stages.
    pub a: u32,
    /// B's stages.
    pub b: u32,
    /// `full[s]` mbarriers (8 bytes each).
    pub full: u32,
    /// `empty[s]` mbarriers.
    pub empty: u32,
    /// Epilogue buffers.
    pub epi: u32,
    /// Bytes to ask for at launch (includes the slack to round the base up).
    pub launch_bytes: u32,
    /// Alignment the base is rounded up to.
    pub align: u32,
}

/// The shared memory of a GEMM with tiles `A`, `B` (same stage count) as the core's
/// [`StorageLayout`] (what `#[smem_storage]` builds, written generically over the tiles): A and
/// B on their swizzle pattern's repeat, `full` and `empty` mbarriers per stage, the epilogue
/// buffers; checked against the per-CTA limit.
pub const fn gemm_layout<A: SmemTile, B: SmemTile>() -> StorageLayout<5> {
    let bars = size_of::<Mbarrier>() * A::STAGES as usize;
    StorageLayout::plan(
        "GemmSmem",
        Arch::Sm90,
        [
            StorageMember::tile("a", A::PLAN.tile, None),
            StorageMember::tile("b", B::PLAN.tile, None),
            StorageMember::sized("full", bars, align_of::<Mbarrier>()),
            StorageMember::sized("empty", bars, align_of::<Mbarrier>()),
            StorageMember::new("epi", EPI_BYTES, 16),
        ],
    )
    .expect_fits()
}

/// [`gemm_layout`]'s offsets, launch bytes and alignment.
pub const fn gemm_smem<A: SmemTile, B: SmemTile>() -> GemmSmem {
    let l = gemm_layout::<A, B>();
    GemmSmem {
        a: l.offset(0),
        b: l.offset(1),
        full: l.offset(2),
        empty: l.offset(3),
        epi: l.offset(4),
        launch_bytes: l.launch_bytes(),
        align: l.align(),
    }
}

/// Shared-memory plan of the bf16 GEMM.
pub const BF16_SMEM: GemmSmem = gemm_smem::<Bf16A, Bf16B>();
/// Shared-memory plan of the FP8 GEMM.
pub const FP8_SMEM: GemmSmem = gemm_smem::<Fp8A, Fp8B>();
