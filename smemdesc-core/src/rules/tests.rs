//! The table's own checks: unique, well-formed ids, a complete source for every rule, and every
//! variant of every error type mapped to a rule of the table.

extern crate std;

use super::{find, Rule, RULES};
use std::collections::BTreeSet;
use std::format;
use std::string::ToString;
use std::vec::Vec;

/// Every error type's table of (variant, rule); `None`: the variant wraps another error type,
/// whose own table is here too.
/// One error type's (variant, rule) table.
type Table = &'static [(&'static str, Option<&'static Rule>)];

fn tables() -> Vec<(&'static str, Table)> {
    use crate::{cluster, epilogue, fragment, mma, pipeline, smem, tma, tmem};
    std::vec![
        ("Error", crate::Error::RULE_TABLE),
        ("IdescError", mma::IdescError::RULE_TABLE),
        ("ChainError", fragment::ChainError::RULE_TABLE),
        ("FragError", fragment::FragError::RULE_TABLE),
        ("TileError", fragment::TileError::RULE_TABLE),
        ("EpiError", epilogue::EpiError::RULE_TABLE),
        ("TmemError", tmem::error::TmemError::RULE_TABLE),
        ("PipelineError", pipeline::PipelineError::RULE_TABLE),
        ("ClusterError", cluster::ClusterError::RULE_TABLE),
        ("StorageProblem", smem::StorageProblem::RULE_TABLE),
        ("TensorMapError", tma::TensorMapError::RULE_TABLE),
        ("Im2colError", tma::Im2colError::RULE_TABLE),
        ("GroupedMapError", tma::GroupedMapError::RULE_TABLE),
        ("Gather4Error", tma::Gather4Error::RULE_TABLE),
        ("ConvError", tma::ConvError::RULE_TABLE),
        ("OobWindowError", tma::OobWindowError::RULE_TABLE),
    ]
}

/// The rules only the facade's errors (`smemdesc`: `GroupedError`, `EncodeError`,
/// `Im2colEncodeError`, `ClcError`, `LaunchError`) use; its `tests/rules.rs` checks them.
const FACADE: &[&str] = &[
    "clc.response-16b",
    "cluster.size",
    "pipe.mbarrier-8b",
    "grouped.groups",
    "grouped.whole-blocks",
    "grouped.tile-count",
    "grouped.cluster-along-m",
    "grouped.table-length",
    "grouped.table-group-bits",
    "grouped.table-tile-bits",
    "grouped.multicast-in-group",
    "grouped.map-slot-128b",
    "grouped.workspace-slots",
    "host.driver-refused",
    "host.driver-context",
    "host.driver-error",
    "launch.operand",
    "launch.tiles-agree",
    "launch.extent",
    "launch.storage-holds-tiles",
];

#[test]
fn ids_are_unique_and_well_formed() {
    let mut seen = BTreeSet::new();
    for r in RULES {
        assert!(seen.insert(r.id), "duplicate rule id {}", r.id);
        let (topic, rest) = r.id.split_once('.').unwrap_or(("", ""));
        assert!(
            !topic.is_empty() && !rest.is_empty(),
            "{}: want topic.what",
            r.id
        );
        assert!(
            r.id.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-'),
            "{}: lower-case kebab words and dots only",
            r.id
        );
        assert_eq!(find(r.id), Some(r), "{}: find", r.id);
    }
}

#[test]
fn every_rule_has_text_source_and_arches() {
    for r in RULES {
        assert!(
            r.text.ends_with('.') && r.text.len() > 20,
            "{}: one sentence",
            r.id
        );
        assert!(
            r.source.is_complete(),
            "{}: incomplete source {:?}",
            r.id,
            r.source
        );
        assert!(!r.arches.is_empty(), "{}: no architecture", r.id);
        let suffix = r.suffix().to_string();
        assert_eq!(suffix, format!(" [rule {}; {}]", r.id, r.source));
    }
}

#[test]
fn every_error_variant_maps_to_a_rule_of_the_table() {
    let mut used = BTreeSet::new();
    for (ty, table) in tables() {
        assert!(!table.is_empty(), "{ty}: no variant");
        for &(variant, rule) in table {
            if let Some(rule) = rule {
                assert_eq!(
                    find(rule.id),
                    Some(rule),
                    "{ty}::{variant}: rule {} is not in RULES",
                    rule.id
                );
                assert!(
                    rule.source.is_complete(),
                    "{ty}::{variant}: {} has no source",
                    rule.id
                );
                used.insert(rule.id);
            }
        }
    }
    // The rules that state a number or flag of ARCH_LIMITS (which the checks read).
    for (_, fact) in facts() {
        if let Some(id) = fact.rule_id() {
            used.insert(id);
        }
    }
    let unused: Vec<&str> = RULES
        .iter()
        .map(|r| r.id)
        .filter(|id| !used.contains(id) && !FACADE.contains(id))
        .collect();
    assert!(unused.is_empty(), "rules no error uses: {unused:?}");
}

#[test]
fn a_message_ends_with_its_rule() {
    let e = crate::Error::ZeroStages;
    let msg = e.to_string();
    assert!(
        msg.starts_with("stages = 0: a tile needs at least 1 pipeline stage"),
        "{msg}"
    );
    assert!(
        msg.ends_with(" [rule tile.stages; smemdesc model, smemdesc-core/src/tile/decl.rs]"),
        "{msg}"
    );
}

/// Every fact of `ARCH_LIMITS` with its arch.
fn facts() -> Vec<(crate::Arch, crate::base::Fact)> {
    let mut out = Vec::new();
    for row in crate::base::ARCH_LIMITS {
        for fact in [
            row.smem_per_cta,
            row.tmem_columns,
            row.wgmma,
            row.tcgen05,
            row.tcgen05_i8,
            row.scale_vec_spelling,
            row.block_n_spelling,
            row.cluster_portable,
            row.cluster_non_portable,
        ] {
            out.push((row.arch, fact));
        }
    }
    out
}

/// Every number of `ARCH_LIMITS` is a rule of the table that applies to its arch; a number (not
/// a 0/1 flag) is stated in the rule's text, as `232,448` or `512`.
#[test]
fn every_arch_limit_is_a_rule() {
    let mut n = 0;
    for (arch, fact) in facts() {
        let Some(id) = fact.rule_id() else { continue };
        let r = find(id).unwrap_or_else(|| panic!("{}: fact rule {id} not in RULES", arch.name()));
        assert!(
            r.arches.contains(arch),
            "{id} does not list {}",
            arch.name()
        );
        let v = fact.value().unwrap();
        if v > 1 {
            let shown = if v >= 1000 {
                format!("{},{:03}", v / 1000, v % 1000)
            } else {
                v.to_string()
            };
            assert!(r.text.contains(&shown), "{id}: text lacks {shown}");
        }
        n += 1;
    }
    // 60 numbers, less the three unsourced non-portable cluster sizes of sm100/sm100f/sm103.
    assert!(n >= 57, "{n} facts");
}

/// `smemdesc rules --arch X`: for each arch, a rule its sources say applies and one they say
/// does not (CUTLASS 4.7.0 config.hpp: no kind::i8 on SM100F/SM103; CCCL tcgen05_mma.h: no
/// scale_vec::NX on sm_100f; PTX ISA: wgmma is sm_90a only, Tensor Memory is tcgen05's; CCCL
/// arch_traits.h: 99 KiB on sm_120/sm_121; sm107 has no public limits).
#[test]
fn each_arch_lists_its_rules() {
    use crate::Arch::*;
    let listed = |id: &str, a: crate::Arch| {
        find(id)
            .unwrap_or_else(|| panic!("{id}"))
            .arches
            .contains(a)
    };
    for (arch, yes, no) in [
        (Sm90, "mma.accum-sm90", "tmem.columns-512"),
        (Sm90, "smem.per-cta-227k", "smem.per-cta-99k"),
        (Sm100, "mma.kind-i8-arch", "mma.accum-sm90"),
        (
            Sm100f,
            "scale.block-n-spelling",
            "cluster.non-portable-16-sm90",
        ),
        (Sm103, "tmem.columns-512", "arch.no-smem-descriptor"),
        (Sm107, "arch.no-public-limits", "tmem.columns-512"),
        (
            Sm110,
            "cluster.non-portable-unsourced",
            "cluster.non-portable-16-sm90",
        ),
        (Sm120, "smem.per-cta-99k", "tmem.columns-512"),
        (Sm120, "arch.no-smem-descriptor", "smem.per-cta-227k"),
        (Sm121, "cluster.portable-8", "idesc.saturate"),
    ] {
        assert!(listed(yes, arch), "{} should list {yes}", arch.name());
        assert!(!listed(no, arch), "{} should not list {no}", arch.name());
    }
    for arch in crate::Arch::EVERY {
        assert!(
            RULES.iter().any(|r| r.arches.contains(arch)),
            "{}",
            arch.name()
        );
    }
    // The per-arch facts' rules: i8 is checked on sm100f/sm103 (no kind::i8 there), the 99 KiB
    // limit on sm120/sm121 only.
    let i8 = crate::Error::KindNotOnArch {
        kind: crate::MmaKind::I8,
        arch: Sm103,
    };
    assert_eq!(i8.rule().id, "mma.kind-i8-arch");
    // Block-scaled kinds are tcgen05's: on sm90 the error cites the tcgen05 targets.
    let mx = crate::Error::KindNotOnArch {
        kind: crate::MmaKind::Mxf4,
        arch: Sm90,
    };
    assert_eq!(mx.rule().id, "mma.tcgen05-targets");
    let p = crate::pipeline::PipelineError::OverBudget {
        stages: 9,
        stage_bytes: 16384,
        max: Sm121.max_smem_per_cta(),
    };
    assert_eq!(p.rule().id, "smem.per-cta-99k");
    let s = crate::StorageProblem::OverBudget {
        limit: Sm103.max_smem_per_cta(),
    };
    assert_eq!(s.rule().id, "smem.per-cta-227k");
    for arch in crate::Arch::EVERY {
        let Some(limit) = arch.smem_per_cta() else {
            continue;
        };
        let e = crate::Error::SmemBudget {
            bytes: limit + 1,
            stage_bytes: limit + 1,
            stages: 1,
            limit,
        };
        assert_eq!(
            Some(e.rule().id),
            arch.limits().smem_per_cta.rule_id(),
            "{}",
            arch.name()
        );
    }
}

/// Every looked-up PTX ISA section number belongs to a section some rule cites.
#[test]
fn ptx_numbers_name_cited_sections() {
    for (name, number) in super::source::PTX_NUMBERS {
        assert!(
            RULES.iter().any(|r| r.source.ptx_number() == Some(number)
                && matches!(r.source, super::Source::Ptx { section, .. } if section == name)),
            "{name}: no rule cites it"
        );
    }
}

/// The numbers a rule's text states are the ones the checks use.
#[test]
fn texts_state_the_checks_numbers() {
    let text = |id: &str| find(id).unwrap_or_else(|| panic!("{id}")).text;
    assert!(text("layout.capacity").contains(&format!("({})", crate::MAX_SUBMODES)));
    // The measured box limit of `shared/notes/tensor-maps.md`: 233,472 B.
    let max = crate::tma::TENSOR_MAP_MAX_BOX_BYTES;
    assert_eq!(max, 233_472);
    let e = crate::tma::TensorMapError::BoxBytesTooLarge { bytes: max + 1 };
    assert_eq!(e.rule().id, "tma.box-bytes");
    assert!(text("tma.box-bytes").contains(&format!("{},{:03}", max / 1000, max % 1000)));
}
