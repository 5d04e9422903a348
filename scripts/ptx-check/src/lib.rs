//! Kernels that call every run-time access form of smemdesc (`smemdesc::access`) with indices
//! read from kernel parameters (never masked, never constant), built for `nvptx64-nvidia-cuda`
//! into one PTX module and checked by `scripts/check_access_ptx.py` (run from
//! `scripts/check_kernel_asm.sh`): no `call`, no `.extern .func`, no `.global`/`.const` data, no
//! `ld.global`, no local memory; the asserting forms end in a `trap` in this module.
//!
//! For every tile of [`for_each_tile!`] (every swizzle × both majors × both stacking orders, plus
//! tiles whose subtile counts are not powers of two, FP8, tf32, sm100 and packed fp4) there is one
//! kernel per form and path, named `<path>_<form>__<tile>`:
//!
//! | path | forms |
//! |---|---|
//! | `inherent`: the items `#[smem_tile]` emits | `desc`, `try_desc`, `desc_wrapping`, `offset`, `try_offset`, `offset_wrapping`, `value_offset` |
//! | `trait`: the facade's `SmemTile` defaults (an impl that overrides none of them) | `desc`, `try_desc`, `desc_wrapping`, `offset`, `try_offset`, `offset_wrapping` |
//! | `core`: the core's `TileLayout` (a `const` of the plan's tile) | `desc`, `try_desc`, `desc_wrapping`, `byte_offset`, `try_offset`, `offset_wrapping` |
//! | `storage`: `TileAt<T>` (an `#[smem_storage]` member) | `place` + `desc`, `desc`, `try_desc`, `desc_wrapping`, `stage_addr`, `address`, `try_address`, `tma_dst` |
//!
//! plus `user.rs`: the kernels of issue 19 as a user wrote them (with the deprecated
//! `smem::Placed` alias in one of them, and its replacement, an `#[smem_storage]` member), and
//! `lanes.rs`: the per-lane forms of `#[smem_epilogue_tile]` and `#[smem_fragment_tile]` with a
//! run-time lane.
#![no_std]
#![feature(abi_ptx, asm_experimental_arch)]
#![allow(clippy::missing_safety_doc)]

pub mod lanes;
pub mod user;

use smemdesc::{Error, SmemDescriptor};

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: aborts the kernel.
    unsafe { core::arch::asm!("trap;", options(noreturn, nostack)) }
}

/// What a kernel stores for a checked form: the descriptor or offset, or a code of the error
/// (its index for an index out of range), so the error's construction is not dead code.
#[inline(always)]
pub fn code<T: Into<u64>>(r: Result<T, Error>) -> u64 {
    match r {
        Ok(v) => v.into(),
        Err(Error::IndexOutOfRange { index, count, .. }) => {
            (1 << 63) | ((count as u64) << 32) | index as u64
        }
        Err(Error::UnalignedBase { addr, .. }) => (1 << 62) | addr as u64,
        Err(_) => u64::MAX,
    }
}

/// [`code`] for a descriptor.
#[inline(always)]
pub fn desc_code(r: Result<SmemDescriptor, Error>) -> u64 {
    code(r.map(|d| d.raw()))
}

/// Calls `$m!(name, attribute arguments)` for every tile the check covers.
#[rustfmt::skip]
macro_rules! for_each_tile {
    ($m:ident) => {
        // bf16, sm90: every swizzle x major x stacking order; 2 MN and 8 K subtiles, 3 stages.
        $m!(bf16_K_none_mnfirst, arch = sm90, operand = A, dtype = bf16, tile = (128, 128), major = K, swizzle = none, order = mn_first, mma = (64, 64), stages = 3);
        $m!(bf16_K_none_kfirst, arch = sm90, operand = A, dtype = bf16, tile = (128, 128), major = K, swizzle = none, order = k_first, mma = (64, 64), stages = 3);
        $m!(bf16_K_sw32_mnfirst, arch = sm90, operand = A, dtype = bf16, tile = (128, 128), major = K, swizzle = 32B, order = mn_first, mma = (64, 64), stages = 3);
        $m!(bf16_K_sw32_kfirst, arch = sm90, operand = A, dtype = bf16, tile = (128, 128), major = K, swizzle = 32B, order = k_first, mma = (64, 64), stages = 3);
        $m!(bf16_K_sw64_mnfirst, arch = sm90, operand = A, dtype = bf16, tile = (128, 128), major = K, swizzle = 64B, order = mn_first, mma = (64, 64), stages = 3);
        $m!(bf16_K_sw64_kfirst, arch = sm90, operand = A, dtype = bf16, tile = (128, 128), major = K, swizzle = 64B, order = k_first, mma = (64, 64), stages = 3);
        $m!(bf16_K_sw128_mnfirst, arch = sm90, operand = A, dtype = bf16, tile = (128, 128), major = K, swizzle = 128B, order = mn_first, mma = (64, 64), stages = 3);
        $m!(bf16_K_sw128_kfirst, arch = sm90, operand = A, dtype = bf16, tile = (128, 128), major = K, swizzle = 128B, order = k_first, mma = (64, 64), stages = 3);
        $m!(bf16_MN_none_mnfirst, arch = sm90, operand = B, dtype = bf16, tile = (128, 128), major = MN, swizzle = none, order = mn_first, mma = (64, 64), stages = 3);
        $m!(bf16_MN_none_kfirst, arch = sm90, operand = B, dtype = bf16, tile = (128, 128), major = MN, swizzle = none, order = k_first, mma = (64, 64), stages = 3);
        $m!(bf16_MN_sw32_mnfirst, arch = sm90, operand = B, dtype = bf16, tile = (128, 128), major = MN, swizzle = 32B, order = mn_first, mma = (64, 64), stages = 3);
        $m!(bf16_MN_sw32_kfirst, arch = sm90, operand = B, dtype = bf16, tile = (128, 128), major = MN, swizzle = 32B, order = k_first, mma = (64, 64), stages = 3);
        $m!(bf16_MN_sw64_mnfirst, arch = sm90, operand = B, dtype = bf16, tile = (128, 128), major = MN, swizzle = 64B, order = mn_first, mma = (64, 64), stages = 3);
        $m!(bf16_MN_sw64_kfirst, arch = sm90, operand = B, dtype = bf16, tile = (128, 128), major = MN, swizzle = 64B, order = k_first, mma = (64, 64), stages = 3);
        $m!(bf16_MN_sw128_mnfirst, arch = sm90, operand = B, dtype = bf16, tile = (128, 128), major = MN, swizzle = 128B, order = mn_first, mma = (64, 64), stages = 3);
        $m!(bf16_MN_sw128_kfirst, arch = sm90, operand = B, dtype = bf16, tile = (128, 128), major = MN, swizzle = 128B, order = k_first, mma = (64, 64), stages = 3);
        // Subtile counts that are not powers of two: 3 MN x 6 K subtiles (K mode (2, 3) of 32B atoms).
        $m!(bf16_K_sw32_3x6, arch = sm90, operand = A, dtype = bf16, tile = (192, 96), major = K, swizzle = 32B, order = mn_first, mma = (64, 64), stages = 3);
        $m!(bf16_MN_sw64_3x6, arch = sm90, operand = B, dtype = bf16, tile = (96, 96), major = MN, swizzle = 64B, order = k_first, mma = (64, 32), stages = 5);
        // Other element types and sm100.
        $m!(e4m3_K_sw128_mnfirst, arch = sm90, operand = B, dtype = e4m3, tile = (128, 128), major = K, swizzle = 128B, order = mn_first, mma = (64, 64), stages = 5);
        $m!(tf32_K_sw128_kfirst, arch = sm90, operand = A, dtype = tf32, tile = (128, 64), major = K, swizzle = 128B, order = k_first, stages = 2);
        $m!(sm100_bf16_K_sw64_mnfirst, arch = sm100, operand = B, dtype = bf16, tile = (128, 96), major = K, swizzle = 64B, mma = (128, 64), stages = 2);
        $m!(sm100_e2m1_K_packed, arch = sm100, operand = B, dtype = e2m1, kind = mxf4, tile = (256, 256), major = K, mma = (128, 128), stages = 2);
    };
}

/// The trait path: an impl of `SmemTile` that sets the constants and overrides no function, so
/// the kernels call the trait's default `desc`, `offset`, … (and its default `ACCESS`).
macro_rules! defaults_impl {
    ($wrapper:ident, $t:ident) => {
        pub struct $wrapper;
        impl smemdesc::SmemTile for $wrapper {
            const PLAN: smemdesc::TilePlan = $t::PLAN;
            const DESC: u64 = $t::DESC;
            const LBO: u32 = $t::LBO;
            const SBO: u32 = $t::SBO;
            const LAYOUT_TYPE: u8 = $t::LAYOUT_TYPE;
            const SWIZZLE: smemdesc::SwizzleMode = $t::SWIZZLE;
            const MMA_M: u32 = $t::MMA_M;
            const MMA_N: u32 = $t::MMA_N;
            const MMA_K: u32 = $t::MMA_K;
            const MMAS_MN: u32 = $t::MMAS_MN;
            const MMAS_K: u32 = $t::MMAS_K;
            const ADVANCE_MN: &'static [u16] = &$t::ADVANCE_MN;
            const ADVANCE_K: &'static [u16] = &$t::ADVANCE_K;
            const ADVANCE_STAGE: u32 = $t::ADVANCE_STAGE;
            const STAGES: u32 = $t::STAGES;
            const STAGE_BYTES: u32 = $t::STAGE_BYTES;
            const BYTES: u32 = $t::BYTES;
            const ALIGN: u32 = $t::ALIGN;
            const TMA_BOX_DIM: [u32; 2] = $t::TMA_BOX_DIM;
            const TMA_BOXES: u32 = $t::TMA_BOXES;
            const TMA_SWIZZLE: u32 = $t::TMA_SWIZZLE;
            const TMA_DATA_TYPE: u32 = $t::TMA_DATA_TYPE;
            const TMA_BOX_OFFSETS: &'static [u32] = &$t::TMA_BOX_OFFSETS;
            const TMA_BOX_COORDS: &'static [[u32; 2]] = &$t::TMA_BOX_COORDS;
        }
    };
}

/// One kernel: `out[0] = $body` with `addr`, `mn`, `k`, `stage` read from the parameters.
macro_rules! kernel {
    ($path:literal, $form:literal, $tile:ident, |$addr:ident, $mn:ident, $k:ident, $stage:ident| $body:expr) => {
        #[export_name = concat!($path, "_", $form, "__", stringify!($tile))]
        pub unsafe extern "ptx-kernel" fn kernel(
            out: *mut u64,
            $addr: u32,
            $mn: u32,
            $k: u32,
            $stage: u32,
        ) {
            let _ = ($addr, $mn, $k, $stage);
            *out = $body;
        }
    };
}

/// The kernels of one tile, in a module named after it.
macro_rules! tile_kernels {
    ($name:ident, $($arg:tt)*) => {
        #[allow(non_snake_case)]
        pub mod $name {
            use smemdesc::{smem::TileAt, smem_tile, SmemTile, TileLayout};
            use crate::{code, desc_code};

            /// The tile.
            #[smem_tile($($arg)*)]
            pub struct T;
            defaults_impl!(D, T);
            /// The core path's tile.
            pub const L: TileLayout = T::PLAN.tile;

            pub mod inherent_desc { use super::*; kernel!("inherent", "desc", $name, |a, mn, k, s| T::desc(a, mn, k, s)); }
            pub mod inherent_try_desc { use super::*; kernel!("inherent", "try_desc", $name, |a, mn, k, s| desc_code(T::try_desc(a, mn, k, s))); }
            pub mod inherent_desc_unchecked { use super::*; kernel!("inherent", "desc_wrapping", $name, |a, mn, k, s| T::desc_wrapping(a, mn, k, s)); }
            pub mod inherent_offset { use super::*; kernel!("inherent", "offset", $name, |a, mn, k, s| T::offset(mn, k) as u64); }
            pub mod inherent_try_offset { use super::*; kernel!("inherent", "try_offset", $name, |a, mn, k, s| code(T::try_offset(mn, k))); }
            pub mod inherent_offset_unchecked { use super::*; kernel!("inherent", "offset_wrapping", $name, |a, mn, k, s| T::offset_wrapping(mn, k) as u64); }
            pub mod inherent_value_offset { use super::*; kernel!("inherent", "value_offset", $name, |a, mn, k, s| {
                let v = T::value_offset(mn, k);
                ((v.byte as u64) << 16) | ((v.bit as u64) << 8) | v.bits as u64
            }); }

            pub mod trait_desc { use super::*; kernel!("trait", "desc", $name, |a, mn, k, s| <D as SmemTile>::desc(a, mn, k, s)); }
            pub mod trait_try_desc { use super::*; kernel!("trait", "try_desc", $name, |a, mn, k, s| desc_code(<D as SmemTile>::try_desc(a, mn, k, s))); }
            pub mod trait_desc_unchecked { use super::*; kernel!("trait", "desc_wrapping", $name, |a, mn, k, s| <D as SmemTile>::desc_wrapping(a, mn, k, s)); }
            pub mod trait_offset { use super::*; kernel!("trait", "offset", $name, |a, mn, k, s| <D as SmemTile>::offset(mn, k) as u64); }
            pub mod trait_try_offset { use super::*; kernel!("trait", "try_offset", $name, |a, mn, k, s| code(<D as SmemTile>::try_offset(mn, k))); }
            pub mod trait_offset_unchecked { use super::*; kernel!("trait", "offset_wrapping", $name, |a, mn, k, s| <D as SmemTile>::offset_wrapping(mn, k) as u64); }

            pub mod core_desc { use super::*; kernel!("core", "desc", $name, |a, mn, k, s| L.desc(a, mn, k, s)); }
            pub mod core_try_desc { use super::*; kernel!("core", "try_desc", $name, |a, mn, k, s| desc_code(L.try_desc(a, mn, k, s))); }
            pub mod core_desc_unchecked { use super::*; kernel!("core", "desc_wrapping", $name, |a, mn, k, s| L.desc_wrapping(a, mn, k, s)); }
            pub mod core_byte_offset { use super::*; kernel!("core", "byte_offset", $name, |a, mn, k, s| L.byte_offset(mn, k) as u64); }
            pub mod core_try_offset { use super::*; kernel!("core", "try_offset", $name, |a, mn, k, s| code(L.try_offset(mn, k))); }
            pub mod core_offset_unchecked { use super::*; kernel!("core", "offset_wrapping", $name, |a, mn, k, s| L.offset_wrapping(mn, k) as u64); }

            // What an `#[smem_storage]` member accessor returns: the type-level `TileAt<T>`.
            pub mod storage_place_desc { use super::*; kernel!("storage", "place_desc", $name, |a, mn, k, s| match TileAt::<T>::place(a) {
                Ok(p) => p.desc(mn, k, s),
                Err(e) => code::<u64>(Err(e)),
            }); }
            pub mod storage_desc { use super::*; kernel!("storage", "desc", $name, |a, mn, k, s| TileAt::<T>::new_unvalidated(a).desc(mn, k, s)); }
            pub mod storage_try_desc { use super::*; kernel!("storage", "try_desc", $name, |a, mn, k, s| desc_code(TileAt::<T>::new_unvalidated(a).try_desc(mn, k, s))); }
            pub mod storage_desc_wrapping { use super::*; kernel!("storage", "desc_wrapping", $name, |a, mn, k, s| TileAt::<T>::new_unvalidated(a).desc_wrapping(mn, k, s)); }
            pub mod storage_stage_addr { use super::*; kernel!("storage", "stage_addr", $name, |a, mn, k, s| TileAt::<T>::new_unvalidated(a).stage_addr(s) as u64); }
            pub mod storage_address { use super::*; kernel!("storage", "address", $name, |a, mn, k, s| TileAt::<T>::new_unvalidated(a).address(mn, k, s) as u64); }
            pub mod storage_try_address { use super::*; kernel!("storage", "try_address", $name, |a, mn, k, s| code(TileAt::<T>::new_unvalidated(a).try_address(mn, k, s))); }
            pub mod storage_tma_dst { use super::*; kernel!("storage", "tma_dst", $name, |a, mn, k, s| TileAt::<T>::new_unvalidated(a).tma_dst(k, s) as u64); }
        }
    };
}

/// The kernels, one module per tile.
pub mod tiles {
    for_each_tile!(tile_kernels);
}
