//! The rules of the facade's own errors (the table is the core's, `smemdesc_core::rules`).

use crate::clc::ClcError;
use crate::grouped::{GroupedError, MapWorkspaceError};
use crate::launch::LaunchError;
use smemdesc_core::rules::{find, Rule};

/// The rule `id` of the core's table; a compile error if there is none.
const fn rule(id: &str) -> Rule {
    match find(id) {
        Some(r) => *r,
        None => panic!("no rule with this id in smemdesc_core::rules::RULES"),
    }
}

const SMEM_BUDGET: Rule = rule("smem.per-cta");
const EXTENT: Rule = rule("tile.extent-positive");
const CLC_RESPONSE: Rule = rule("clc.response-16b");
const MBAR_ALIGN: Rule = rule("pipe.mbarrier-8b");
const G_GROUPS: Rule = rule("grouped.groups");
const G_BLOCKS: Rule = rule("grouped.whole-blocks");
const G_COUNT: Rule = rule("grouped.tile-count");
const G_CLUSTER: Rule = rule("grouped.cluster-along-m");
const G_TABLE: Rule = rule("grouped.table-length");
const G_TABLE_GROUP: Rule = rule("grouped.table-group-bits");
const G_TABLE_TILES: Rule = rule("grouped.table-tile-bits");
const G_MULTICAST: Rule = rule("grouped.multicast-in-group");
const G_SLOT_ALIGN: Rule = rule("grouped.map-slot-128b");
const G_SLOT_COUNT: Rule = rule("grouped.workspace-slots");
const CL_SIZE: Rule = rule("cluster.size");
const L_OPERAND: Rule = rule("launch.operand");
const L_AGREE: Rule = rule("launch.tiles-agree");
const L_EXTENT: Rule = rule("launch.extent");
const L_STORAGE: Rule = rule("launch.storage-holds-tiles");

smemdesc_core::__rule_map! {
    ClcError, "use smemdesc::clc::ClcError;\nassert_eq!(ClcError::BarrierMisaligned { address: 4 }.rule().id, \"pipe.mbarrier-8b\");";
    rules {
        ResponseMisaligned => CLC_RESPONSE,
        BarrierMisaligned => MBAR_ALIGN,
        ClusterSize => CL_SIZE,
    }
    inner {}
}

smemdesc_core::__rule_map! {
    GroupedError, "use smemdesc::grouped::GroupedError;\nassert_eq!(GroupedError::NoGroups.rule().id, \"grouped.groups\");";
    rules {
        NoGroups => G_GROUPS,
        ZeroTile => EXTENT,
        NotBlocked => G_BLOCKS,
        TooManyTiles => G_COUNT,
        ClusterAlongN => G_CLUSTER,
        TableLength => G_TABLE,
        TableGroupTooLarge => G_TABLE_GROUP,
        TableTilesTooLarge => G_TABLE_TILES,
        MulticastAcrossGroups => G_MULTICAST,
    }
    inner {}
}

smemdesc_core::__rule_map! {
    MapWorkspaceError, "use smemdesc::grouped::MapWorkspaceError;\nassert_eq!(MapWorkspaceError::SlotMisaligned { offset: 64 }.rule().id, \"grouped.map-slot-128b\");";
    rules {
        SlotMisaligned => G_SLOT_ALIGN,
        SlotCount => G_SLOT_COUNT,
    }
    inner {}
}

smemdesc_core::__rule_map! {
    LaunchError, "use smemdesc::LaunchError;\nassert_eq!(LaunchError::ZeroExtent.rule().id, \"launch.extent\");";
    rules {
        Operand => L_OPERAND,
        Mismatch => L_AGREE,
        ZeroExtent => L_EXTENT,
        SmemBudget => SMEM_BUDGET,
        StorageTooSmall => L_STORAGE,
    }
    inner {}
}

#[cfg(feature = "cudarc")]
mod cuda {
    use super::rule;
    use crate::cuda::{EncodeError, Im2colEncodeError};
    use smemdesc_core::rules::Rule;

    const DRIVER_REFUSED: Rule = rule("host.driver-refused");
    const DRIVER_CONTEXT: Rule = rule("host.driver-context");
    const DRIVER_ERROR: Rule = rule("host.driver-error");

    smemdesc_core::__rule_map! {
        EncodeError, "use smemdesc::cuda::EncodeError;\nlet e = EncodeError::Driver(smemdesc::cuda::cudarc::driver::sys::CUresult::CUDA_ERROR_UNKNOWN);\nassert_eq!(e.rule().id, \"host.driver-error\");";
        rules {
            DriverRefused => DRIVER_REFUSED,
            NoContext => DRIVER_CONTEXT,
            Driver => DRIVER_ERROR,
        }
        inner {
            Invalid.0,
        }
    }

    smemdesc_core::__rule_map! {
        Im2colEncodeError, "use smemdesc::cuda::Im2colEncodeError;\nlet e = Im2colEncodeError::Driver(smemdesc::cuda::cudarc::driver::sys::CUresult::CUDA_ERROR_UNKNOWN);\nassert_eq!(e.rule().id, \"host.driver-error\");";
        rules {
            DriverRefused => DRIVER_REFUSED,
            NoContext => DRIVER_CONTEXT,
            Driver => DRIVER_ERROR,
        }
        inner {
            Invalid.0,
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::string::ToString;
    use std::vec::Vec;

    type Table = &'static [(&'static str, Option<&'static Rule>)];

    /// Every facade error type's variants, each with a rule of the core's table and a source.
    #[test]
    fn every_facade_error_variant_maps_to_a_rule_of_the_table() {
        #[allow(unused_mut)]
        let mut tables: Vec<(&str, Table)> = std::vec![
            ("ClcError", ClcError::RULE_TABLE),
            ("GroupedError", GroupedError::RULE_TABLE),
            ("MapWorkspaceError", MapWorkspaceError::RULE_TABLE),
            ("LaunchError", LaunchError::RULE_TABLE),
        ];
        #[cfg(feature = "cudarc")]
        {
            tables.push(("EncodeError", crate::cuda::EncodeError::RULE_TABLE));
            tables.push((
                "Im2colEncodeError",
                crate::cuda::Im2colEncodeError::RULE_TABLE,
            ));
        }
        for (ty, table) in tables {
            assert!(!table.is_empty(), "{ty}");
            for &(variant, rule) in table {
                if let Some(rule) = rule {
                    assert_eq!(find(rule.id), Some(rule), "{ty}::{variant}: {}", rule.id);
                    assert!(
                        rule.source.is_complete(),
                        "{ty}::{variant}: {} has no source",
                        rule.id
                    );
                }
            }
        }
    }

    #[test]
    fn a_facade_message_ends_with_its_rule() {
        let e = LaunchError::ZeroExtent;
        let msg = e.to_string();
        assert!(
            msg.ends_with(" [rule launch.extent; smemdesc model, src/launch.rs]"),
            "{msg}"
        );
    }
}
