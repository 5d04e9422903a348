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

/// The numbers a rule's text states are the ones the checks use.
#[test]
fn texts_state_the_checks_numbers() {
    let text = |id: &str| find(id).unwrap_or_else(|| panic!("{id}")).text;
    for arch in crate::Arch::ALL {
        let bytes = arch.max_smem_per_cta();
        let grouped = format!("{},{:03}", bytes / 1000, bytes % 1000);
        assert!(text("smem.per-cta").contains(&grouped), "{grouped}");
    }
    assert!(text("layout.capacity").contains(&format!("({})", crate::MAX_SUBMODES)));
    // The measured box limit of `shared/notes/tensor-maps.md`: 233,472 B.
    let max = crate::tma::TENSOR_MAP_MAX_BOX_BYTES;
    assert_eq!(max, 233_472);
    let e = crate::tma::TensorMapError::BoxBytesTooLarge { bytes: max + 1 };
    assert_eq!(e.rule().id, "tma.box-bytes");
    assert!(text("tma.box-bytes").contains(&format!("{},{:03}", max / 1000, max % 1000)));
}
