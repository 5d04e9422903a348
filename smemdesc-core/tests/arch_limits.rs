//! Every per-arch limit of `base/arch_limits.rs` against the number its public source gives
//! (typed here from the source, not read from the table): each test names its source.

use smemdesc_core::base::{ArchGap, Fact, ARCH_LIMITS};
use smemdesc_core::*;

/// CCCL `libcudacxx/include/cuda/__device/arch_traits.h` (commit 571f2fc3):
/// `max_shared_memory_per_block_optin = max_shared_memory_per_multiprocessor -
/// reserved_shared_memory_per_block` with 228 KiB per SM for sm_90 and sm_100, 100 KiB for
/// sm_120, 1 KiB reserved (compute capability >= 8.0); sm_103 and sm_110 copy sm_100, sm_121
/// copies sm_120.
#[test]
fn smem_per_cta_is_cccl_arch_traits_optin() {
    let sm100 = 228 * 1024 - 1024;
    let sm120 = 100 * 1024 - 1024;
    for (arch, want) in [
        (Arch::Sm90, 228 * 1024 - 1024),
        (Arch::Sm100, sm100),
        (Arch::Sm100f, sm100),
        (Arch::Sm103, sm100),
        (Arch::Sm110, sm100),
        (Arch::Sm120, sm120),
        (Arch::Sm121, sm120),
    ] {
        assert_eq!(arch.smem_per_cta(), Some(want), "{}", arch.name());
        assert_eq!(arch.max_smem_per_cta(), want, "{}", arch.name());
    }
}

/// CUTLASS 4.7.0 `include/cutlass/arch/arch.h`: `sm100_smem_capacity_bytes = 232448`,
/// `sm120_smem_capacity_bytes = 101376`, `Sm103::kSharedMemoryCapacityBytes =
/// sm100_smem_capacity_bytes`.
#[test]
fn smem_per_cta_is_cutlass_arch_h_capacity() {
    assert_eq!(Arch::Sm100.max_smem_per_cta(), 232448);
    assert_eq!(Arch::Sm103.max_smem_per_cta(), 232448);
    assert_eq!(Arch::Sm120.max_smem_per_cta(), 101376);
    // CUDA C++ Programming Guide, Technical Specifications: 227 KB (9.0, 10.x), 99 KB (12.x).
    assert_eq!(Arch::Sm90.max_smem_per_cta(), 227 * 1024);
    assert_eq!(Arch::Sm121.max_smem_per_cta(), 99 * 1024);
}

/// PTX ISA 9.x "Tensor Memory": 512 columns x 128 lanes per CTA on sm_100a/sm_100f; CUTLASS
/// 4.7.0 `tmem_allocator_sm100.hpp` `Sm100TmemCapacityColumns = 512`, the allocator of every
/// target `cute/arch/config.hpp` gives `CUTE_ARCH_TCGEN05_TMEM_ENABLED` (SM100A/F, SM103A/F,
/// SM110A/F) and none of SM120A/SM121A.
#[test]
fn tmem_columns_are_ptx_isa_tensor_memory() {
    for arch in [Arch::Sm100, Arch::Sm100f, Arch::Sm103, Arch::Sm110] {
        assert_eq!(arch.tmem_columns(), 512, "{}", arch.name());
        assert!(arch.has_tcgen05(), "{}", arch.name());
    }
    for arch in [Arch::Sm90, Arch::Sm120, Arch::Sm121] {
        assert_eq!(arch.tmem_columns(), 0, "{}", arch.name());
        assert!(!arch.has_tcgen05(), "{}", arch.name());
    }
}

/// CUTLASS 4.7.0 `cute/arch/config.hpp`: `CUTE_ARCH_TCGEN05_S8_MMA_ENABLED` for SM100A and
/// SM110A, not SM100F or SM103A/F; cuBLASDx's Blackwell pipeline card: sm103 "no integer
/// tcgen05". Every other tcgen05 kind (`TF32`, `F16F32`, `MXF8F6F4`, `MXF4`, `MXF4NVF4`) on all.
#[test]
fn tcgen05_kinds_are_cutlass_config() {
    let all = [
        MmaKind::F16,
        MmaKind::Tf32,
        MmaKind::F8f6f4,
        MmaKind::Mxf8f6f4,
        MmaKind::Mxf4,
        MmaKind::Mxf4nvf4,
    ];
    for arch in [Arch::Sm100, Arch::Sm100f, Arch::Sm103, Arch::Sm110] {
        for k in all {
            assert!(k.on(arch), "{} {}", k.name(), arch.name());
        }
    }
    assert!(MmaKind::I8.on(Arch::Sm100) && MmaKind::I8.on(Arch::Sm110));
    assert!(!MmaKind::I8.on(Arch::Sm100f) && !MmaKind::I8.on(Arch::Sm103));
    let e = TileDecl::new(Arch::Sm103, Operand::A, ElementType::S8, Major::K, 128, 64).build();
    assert_eq!(
        e.unwrap_err(),
        Error::KindNotOnArch {
            kind: MmaKind::I8,
            arch: Arch::Sm103
        }
    );
    // sm120/sm121 (CUTLASS config.hpp: CUTE_ARCH_MMA_SM120, mma.sync only): no descriptor kind.
    for k in all {
        assert!(!k.on(Arch::Sm120) && !k.on(Arch::Sm121));
    }
}

/// CCCL `generated/tcgen05_mma.h`: `.block_scale.scale_vec::NX` variants target SM_100a,
/// SM_103a, SM_110a; `.block_scale.block16/.block32` (PTX ISA 88) SM_100a, SM_100f, SM_103a,
/// SM_103f, SM_110a, SM_110f. The descriptor is the same for both spellings.
#[test]
fn block_scale_spelling_is_cccl_tcgen05_mma() {
    assert!(Arch::Sm100.scale_vec_spelling() && Arch::Sm103.scale_vec_spelling());
    assert!(Arch::Sm110.scale_vec_spelling() && !Arch::Sm100f.scale_vec_spelling());
    let pair = |arch| {
        let t = |op, mn| {
            TileDecl::new(arch, op, ElementType::E2M1, Major::K, mn, 256)
                .kind(MmaKind::Mxf4nvf4)
                .build()
                .unwrap()
        };
        let o = PairOptions::new(AccumType::F32)
            .scale_format(ScaleFormat::Ue4m3)
            .scale_vec(16);
        MmaPair::pair(&t(Operand::A, 128), &t(Operand::B, 256), o).unwrap()
    };
    let (p100, p103, p100f) = (pair(Arch::Sm100), pair(Arch::Sm103), pair(Arch::Sm100f));
    let ends = |p: &MmaPair, tail: &str| p.mnemonic().to_string().ends_with(tail);
    assert!(ends(&p100, ".kind::mxf4nvf4.block_scale.scale_vec::4X"));
    assert!(ends(&p103, ".kind::mxf4nvf4.block_scale.block16"));
    assert!(ends(&p100f, ".kind::mxf4nvf4.block_scale.block16"));
    // PTX ISA instruction descriptor (.kind::mxf4nvf4): E2M1 A/B, N>>3 at 17, M>>7 at 27.
    let want = (1 << 7) | (1 << 10) | (32 << 17) | (1 << 27);
    for p in [p100, p103, p100f] {
        assert_eq!(p.idesc().unwrap().raw(), want);
    }
}

/// No public source gives sm107's shared memory or Tensor Memory (CUTLASS 4.7.0, CCCL
/// `arch_traits.h`): refused, never guessed.
#[test]
fn sm107_is_refused_for_want_of_a_source() {
    let row = Arch::Sm107.limits();
    assert_eq!(row.smem_per_cta, Fact::NoPublicSource);
    assert_eq!(row.tmem_columns, Fact::NoPublicSource);
    assert_eq!(Arch::Sm107.smem_per_cta(), None);
    let e = TileDecl::new(
        Arch::Sm107,
        Operand::A,
        ElementType::BF16,
        Major::K,
        128,
        64,
    )
    .build();
    let e = e.unwrap_err();
    assert_eq!(
        e,
        Error::ArchRefused {
            arch: Arch::Sm107,
            gap: ArchGap::NoPublicLimits
        }
    );
    assert_eq!(e.argument(), Argument::Arch);
    assert!(e.to_string().contains("no public source"), "{e}");
}

/// CUTLASS 4.7.0 `cute/arch/config.hpp`: SM120A/SM121A enable no tcgen05 feature; PTX ISA
/// `wgmma.mma_async` requires sm_90a: consumer Blackwell has no SMEM matrix descriptor.
#[test]
fn sm120_tiles_are_refused() {
    for arch in [Arch::Sm120, Arch::Sm121] {
        let e = TileDecl::new(arch, Operand::B, ElementType::F16, Major::K, 128, 64).build();
        assert_eq!(
            e.unwrap_err(),
            Error::ArchRefused {
                arch,
                gap: ArchGap::NoSmemDescriptor
            }
        );
    }
}

/// The table: one row per arch in `Arch::EVERY` order, every value with a non-empty source;
/// CUDA C++ Programming Guide "Thread Block Clusters": 8 portable CTAs, 16 non-portable on H100.
#[test]
fn table_rows_have_sources() {
    assert_eq!(ARCH_LIMITS.len(), Arch::EVERY.len());
    for (row, arch) in ARCH_LIMITS.iter().zip(Arch::EVERY) {
        assert_eq!(row.arch, arch);
        assert_eq!(
            row.ptx_target.replace('_', "").trim_end_matches(['a', 'f']),
            arch.name().trim_end_matches('f')
        );
        for fact in [
            row.smem_per_cta,
            row.tmem_columns,
            row.wgmma,
            row.tcgen05,
            row.cluster_portable,
        ] {
            if let Fact::Value(_, s) = fact {
                assert!(s.len() > 20, "{}: {s}", arch.name());
            }
        }
    }
    assert_eq!(Arch::Sm90.limits().cluster_portable.value(), Some(8));
    assert_eq!(Arch::Sm90.limits().cluster_non_portable.value(), Some(16));
    assert_eq!(Arch::Sm90.limits().wgmma.flag(), Some(true));
    assert_eq!(Arch::Sm100.limits().wgmma.flag(), Some(false));
}

/// PTX targets (`sm_100a`, `sm_100f`, `sm_103a`, …) and smemdesc's spellings parse to their arch;
/// sm90 and sm100 behave as before (their descriptor generation is themselves).
#[test]
fn names_parse() {
    for (name, arch) in [
        ("sm_100a", Arch::Sm100),
        ("sm100", Arch::Sm100),
        ("sm_100f", Arch::Sm100f),
        ("SM103A", Arch::Sm103),
        ("sm_107a", Arch::Sm107),
        ("sm110", Arch::Sm110),
        ("sm_120a", Arch::Sm120),
        ("sm121", Arch::Sm121),
    ] {
        assert_eq!(Arch::from_name(name), Some(arch), "{name}");
        assert_eq!(Arch::from_name(arch.name()), Some(arch));
    }
    for bad in ["sm_101a", "sm103f", "sm120f", "sm_90f", "sm", "sm_"] {
        assert_eq!(Arch::from_name(bad), None, "{bad}");
    }
    assert_eq!(Arch::Sm90.generation(), Arch::Sm90);
    assert_eq!(Arch::Sm100.generation(), Arch::Sm100);
}
