//! The pipeline declaration's ranges (issue 42, items 2, 3, 6, 7), each against a model written
//! from the rule it cites, in `u64` so that nothing wraps: the consumer groups' threads fit a CTA
//! (1024, CUDA C++ Programming Guide, "Compute Capabilities"), the empty barriers' init count is
//! in `mbarrier.init`'s range (1 ..= 2^20 - 1, PTX ISA), a tile's CTA group is the pipeline's,
//! and a load's storage member holds every stage at a TMA destination's 128-B alignment.

use smemdesc_core::pipeline::{PipelineError, PipelineLoad, PipelineSpec};
use smemdesc_core::{Arch, ElementType, Major, Operand, TileDecl};

fn a_load(stages: u32) -> PipelineLoad {
    PipelineLoad::bytes("x", 1024, stages)
}

#[test]
fn threads_and_init_counts_follow_the_model_and_never_wrap() {
    let big = [
        1u32,
        2,
        3,
        7,
        8,
        9,
        1023,
        1024,
        1025,
        2048,
        1 << 20,
        (1 << 20) + 1,
        1 << 31,
        u32::MAX,
    ];
    for &consumers in &big {
        for &threads in &[1u32, 32, 128, 512, 1024, 2048, u32::MAX] {
            for &arrivals in &[1u32, 2, 32, 128] {
                if threads % arrivals != 0 {
                    continue;
                }
                let s = PipelineSpec::new(Arch::Sm90, consumers)
                    .consumer_threads(threads)
                    .consumer_arrivals(arrivals)
                    .load(a_load(2));
                // The model: the init count first (the instruction's range), then the CTA.
                let count = u64::from(consumers) * u64::from(arrivals);
                let cta = u64::from(consumers) * u64::from(threads);
                let r = s.build();
                if count > (1 << 20) - 1 {
                    assert!(
                        matches!(r, Err(PipelineError::InitCount { .. })),
                        "{consumers} {threads} {arrivals}: {r:?}"
                    );
                } else if cta > 1024 {
                    assert_eq!(
                        r,
                        Err(PipelineError::TooManyThreads { consumers, threads }),
                        "{consumers} {threads} {arrivals}"
                    );
                } else {
                    assert_eq!(u64::from(r.unwrap().empty_arrivals()), count);
                }
            }
        }
    }
}

#[test]
fn a_multicast_cluster_multiplies_the_count_in_range() {
    // 2x1 multicasting B: each CTA's stages are released by both CTAs' consumers.
    let b = PipelineLoad {
        operand: Some(Operand::B),
        ..PipelineLoad::bytes("b", 32768, 2)
    };
    for arrivals in [1u32, 2, 4, 8, 16, 32, 64, 128] {
        let s = PipelineSpec::new(Arch::Sm90, 8)
            .consumer_arrivals(arrivals)
            .cluster(2, 1)
            .load(b.multicast());
        assert_eq!(s.build().unwrap().empty_arrivals(), 8 * arrivals * 2);
    }
}

#[test]
fn a_tiles_cta_group_must_be_the_pipelines() {
    for tile_group in [1u32, 2] {
        let plan = TileDecl::new(
            Arch::Sm100,
            Operand::A,
            ElementType::BF16,
            Major::K,
            128,
            64,
        )
        .cta_group(tile_group)
        .stages(2)
        .build()
        .unwrap();
        assert_eq!(plan.decl.cta_group, tile_group);
        for pipe_group in [1u32, 2] {
            let r = PipelineSpec::new(Arch::Sm100, 1)
                .cta_group(pipe_group)
                .load(PipelineLoad::plan("a", &plan))
                .build();
            if tile_group == pipe_group {
                assert!(r.is_ok(), "{tile_group} {pipe_group}: {r:?}");
            } else {
                assert_eq!(
                    r,
                    Err(PipelineError::CtaGroupMismatch {
                        load: 0,
                        tile: tile_group,
                        pipeline: pipe_group
                    })
                );
            }
        }
    }
}

#[test]
fn a_loads_member_holds_every_stage_at_tma_alignment() {
    // 4 stages of 2048 B: 8192 B, at an address 128-B aligned.
    for bytes in [16u32, 2048, 8191, 8192, 8320, u32::MAX] {
        for align in [1u32, 8, 16, 64, 128, 256, 1024] {
            let r = PipelineSpec::new(Arch::Sm100, 1)
                .load(PipelineLoad::bytes("sfa", 2048, 4).into_member(bytes, align))
                .build();
            let legal = u64::from(bytes) >= 4 * 2048 && align >= 128;
            assert_eq!(r.is_ok(), legal, "{bytes} B at {align}: {r:?}");
        }
    }
    // A member that could not hold a wrapped stage count either.
    let r = PipelineSpec::new(Arch::Sm100, 1)
        .load(PipelineLoad::bytes("x", 1 << 16, 1 << 16).into_member(u32::MAX, 128))
        .stages(1 << 16)
        .build();
    assert!(r.is_err());
}

#[test]
fn an_error_built_by_hand_words_its_message_without_a_panic() {
    // Public fields, so any value: a load index past MAX_LOADS, 0 sharers, 0 threads.
    let spec = PipelineSpec::new(Arch::Sm90, 1);
    let far = usize::MAX;
    for e in [
        PipelineError::MulticastUneven {
            load: far,
            operand: Operand::B,
            sharers: 0,
        },
        PipelineError::StagesMismatch {
            load: far,
            load_stages: 1,
            stages: 2,
        },
        PipelineError::MemberTooSmall {
            load: far,
            member_bytes: 0,
            member_align: 0,
        },
        PipelineError::CtaGroupMismatch {
            load: far,
            tile: 2,
            pipeline: 1,
        },
        PipelineError::TooManyThreads {
            consumers: u32::MAX,
            threads: 0,
        },
        PipelineError::InitCount {
            consumers: u32::MAX,
            per_consumer: u32::MAX,
            ctas: u32::MAX,
        },
        PipelineError::OverBudget {
            stages: 1,
            stage_bytes: 0,
            max: 1,
        },
    ] {
        assert!(e.message(&spec).as_str().starts_with("pipeline: "), "{e:?}");
        assert!(!e.to_string().is_empty());
    }
}
