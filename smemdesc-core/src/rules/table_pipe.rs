//! Rules of pipelines, barriers, clusters, storage, grouped GEMM schedules and the host.

use super::source::Topic::{Cluster as C, Grouped as G, Host as H, Pipeline as P, Storage as S};
use super::source::{driver, guide, model, ptx, rule, DESC, KNOWN, SM100};
use super::Rule;

const PIPE: &str = "smemdesc-core/src/pipeline/spec.rs";
const MCAST: &str = "cp.async.bulk.tensor";
const MBAR: &str = "mbarrier.init";
const GROUPED: &str = "src/grouped/problem.rs";
const LAUNCH: &str = "src/launch.rs";
const STORAGE: &str = "smemdesc-core/src/smem/storage.rs";
const TECH: &str = "Technical Specifications per Compute Capability";

pub(super) const LOADS: Rule = rule(
    "pipe.loads",
    P,
    DESC,
    model(PIPE),
    "A pipeline has at most MAX_LOADS loads per stage.",
);
pub(super) const LOADS_NONEMPTY: Rule = rule(
    "pipe.loads-nonempty",
    P,
    DESC,
    model(PIPE),
    "A pipeline stage loads something.",
);
pub(super) const CONSUMERS: Rule = rule(
    "pipe.consumers",
    P,
    DESC,
    model(PIPE),
    "A pipeline has a consumer, and every consumer arrives.",
);
pub(super) const PAIR_ONE: Rule = rule(
    "pipe.pair-one-consumer",
    P,
    SM100,
    ptx("8.6", "tcgen05: CTA pair"),
    "A cta_group::2 pipeline has one consumer group: the leader CTA's MMA issuer.",
);
pub(super) const PAIR_CLUSTER: Rule = rule(
    "pipe.pair-is-cluster",
    P,
    SM100,
    model(PIPE),
    "A cta_group::2 pipeline declares no other cluster: the pair is its cluster.",
);
pub(super) const LOAD_STAGES: Rule = rule(
    "pipe.load-stages",
    P,
    DESC,
    model(PIPE),
    "Every load has the pipeline's stages.",
);
pub(super) const SAME_ARCH: Rule = rule(
    "pipe.same-arch",
    P,
    DESC,
    model(PIPE),
    "Every load is declared for the pipeline's architecture.",
);
pub(super) const MC_CLUSTER: Rule = rule(
    "cluster.multicast-needs-cluster",
    C,
    DESC,
    ptx("8.0", MCAST),
    ".multicast::cluster needs a cluster of more than one CTA.",
);
pub(super) const MC_OPERAND: Rule = rule(
    "cluster.multicast-operand",
    C,
    DESC,
    model(PIPE),
    "Only operand tiles are multicast (scale factors are per CTA).",
);
pub(super) const MC_SHARED: Rule = rule(
    "cluster.multicast-shared",
    C,
    DESC,
    model(PIPE),
    "A multicast operand is shared by other CTAs of the cluster.",
);
pub(super) const MC_EVEN: Rule = rule(
    "cluster.multicast-even",
    C,
    DESC,
    ptx("8.0", "mbarrier.expect_tx"),
    "A multicast load's stage bytes split into equal slices among its sharers (each sharer's expect_tx counts them all).",
);
pub(super) const EMPTY_BARRIERS: Rule = rule(
    "pipe.empty-barriers",
    P,
    DESC,
    model(PIPE),
    "A pipeline of more than one stage has empty barriers (the producer waits for the consumers).",
);
pub(super) const EXPECT_TX: Rule = rule(
    "pipe.expect-tx",
    P,
    DESC,
    ptx("8.0", "mbarrier.expect_tx"),
    "A stage's expect_tx is the bytes that land in the stage.",
);
pub(super) const FULL_ARRIVALS: Rule = rule(
    "pipe.full-arrivals",
    P,
    DESC,
    ptx("7.0", MBAR),
    "A full barrier's count is the producer's arrivals.",
);
pub(super) const EMPTY_ARRIVALS: Rule = rule(
    "pipe.empty-arrivals",
    P,
    DESC,
    ptx("7.0", MBAR),
    "An empty barrier's count is the consumers' arrivals.",
);
pub(super) const CONSUMER_ARRIVALS: Rule = rule(
    "pipe.consumer-arrivals",
    P,
    DESC,
    model(PIPE),
    "consumer_arrivals divides consumer_threads.",
);
pub(super) const THREADS: Rule = rule(
    "pipe.threads-1024",
    P,
    DESC,
    guide(TECH),
    "A CTA has at most 1024 threads.",
);
pub(super) const MBAR_COUNT: Rule = rule(
    "pipe.mbarrier-count",
    P,
    DESC,
    ptx("7.0", MBAR),
    "An mbarrier's init count is 1 to 2^20 - 1.",
);
pub(super) const MEMBER: Rule = rule(
    "storage.member-holds-stages",
    S,
    KNOWN,
    model(STORAGE),
    "A load's storage member holds every stage at a TMA destination's alignment.",
);
pub(super) const ALIGN_POW2: Rule = rule(
    "storage.align-pow2",
    S,
    KNOWN,
    model(STORAGE),
    "A storage member's alignment is a power of two.",
);
pub(super) const STORAGE_ARCH: Rule = rule(
    "storage.same-arch",
    S,
    KNOWN,
    model(STORAGE),
    "A storage's tile members are declared for the storage's architecture.",
);
pub(super) const CL_EXTENT: Rule = rule(
    "cluster.extent",
    C,
    KNOWN,
    model("smemdesc-core/src/cluster/mod.rs"),
    "A cluster's extents are at least 1.",
);
pub(super) const CL_SIZE: Rule = rule(
    "cluster.size",
    C,
    KNOWN,
    guide("Thread Block Clusters"),
    "A cluster has at most the architecture's cluster size in CTAs (the numbers: rules cluster.portable-8, cluster.non-portable-16-sm90, cluster.non-portable-unsourced).",
);
pub(super) const CL_SLICES: Rule = rule(
    "cluster.multicast-slices",
    C,
    DESC,
    model("smemdesc-core/src/cluster/multicast.rs"),
    "The multicast count cuts a TMA box into whole swizzle-atom row groups.",
);
pub(super) const CL_PAIR: Rule = rule(
    "cluster.pair-shape",
    C,
    SM100,
    ptx("8.6", "tcgen05: CTA pair"),
    "A cta_group::2 pair's shape is legal (two CTAs of one cluster, M of 128 or 256).",
);
pub(super) const CLC_RESPONSE: Rule = rule(
    "clc.response-16b",
    C,
    SM100,
    ptx("8.6", "clusterlaunchcontrol.try_cancel"),
    "A cluster-launch-control response is a naturally aligned 16-byte .b128.",
);
pub(super) const MBAR_ALIGN: Rule = rule(
    "pipe.mbarrier-8b",
    P,
    KNOWN,
    ptx("7.0", "mbarrier: Size and alignment of mbarrier object"),
    "An mbarrier is an 8-byte object, 8-byte aligned.",
);
pub(super) const G_GROUPS: Rule = rule(
    "grouped.groups",
    G,
    DESC,
    model(GROUPED),
    "A grouped GEMM has at least one group.",
);
pub(super) const G_BLOCKS: Rule = rule(
    "grouped.whole-blocks",
    G,
    DESC,
    model(GROUPED),
    "Each group's n and k are whole blocks of the tile (only m may have a tail).",
);
pub(super) const G_COUNT: Rule = rule(
    "grouped.tile-count",
    G,
    DESC,
    model(GROUPED),
    "A grouped GEMM has at most 2^32 - 1 tiles.",
);
pub(super) const G_CLUSTER: Rule = rule(
    "grouped.cluster-along-m",
    G,
    DESC,
    model(GROUPED),
    "A grouped GEMM's cluster has no CTAs along N (nor A multicast).",
);
pub(super) const G_TABLE: Rule = rule(
    "grouped.table-length",
    G,
    DESC,
    model(GROUPED),
    "A tile table holds exactly one entry per tile.",
);
pub(super) const G_TABLE_GROUP: Rule = rule(
    "grouped.table-group-bits",
    G,
    DESC,
    model(GROUPED),
    "A tile table's word holds groups 0 to 1023 (bits 22 to 31).",
);
pub(super) const G_TABLE_TILES: Rule = rule(
    "grouped.table-tile-bits",
    G,
    DESC,
    model(GROUPED),
    "A tile table's word holds 2048 M tiles and 2048 N tiles per group.",
);
pub(super) const G_MULTICAST: Rule = rule(
    "grouped.multicast-in-group",
    G,
    DESC,
    model(GROUPED),
    "A cluster sharing B stays within one group: each group's M tiles are a multiple of the cluster's x.",
);
pub(super) const G_SLOT_ALIGN: Rule = rule(
    "grouped.map-slot-128b",
    G,
    DESC,
    ptx("8.3", "tensormap.replace"),
    "A map workspace's slots are 128-B aligned: tensormap.replace and the tensormap proxy fences take a 128-B aligned map.",
);
pub(super) const G_SLOT_COUNT: Rule = rule(
    "grouped.workspace-slots",
    G,
    DESC,
    model("src/grouped/workspace_decl.rs"),
    "A map workspace has at least one slot per stage and one stage, and at most MAX_SLOTS slots per CTA.",
);
pub(super) const DRIVER_REFUSED: Rule = rule(
    "host.driver-refused",
    H,
    KNOWN,
    driver("cuTensorMapEncodeTiled"),
    "The driver accepts the arguments the checks accept (CUDA_ERROR_INVALID_VALUE otherwise).",
);
pub(super) const DRIVER_CONTEXT: Rule = rule(
    "host.driver-context",
    H,
    KNOWN,
    driver("cuInit"),
    "Encoding needs a loadable driver and a current context.",
);
pub(super) const DRIVER_ERROR: Rule = rule(
    "host.driver-error",
    H,
    KNOWN,
    driver("CUresult"),
    "A driver call returns CUDA_SUCCESS.",
);
pub(super) const L_OPERAND: Rule = rule(
    "launch.operand",
    H,
    DESC,
    model(LAUNCH),
    "A launch's tiles are the operands their positions need (A then B).",
);
pub(super) const L_AGREE: Rule = rule(
    "launch.tiles-agree",
    H,
    DESC,
    model(LAUNCH),
    "A launch's two tiles agree on the values that must be equal.",
);
pub(super) const L_EXTENT: Rule = rule(
    "launch.extent",
    H,
    DESC,
    model(LAUNCH),
    "A launch's m and n are positive.",
);
pub(super) const L_STORAGE: Rule = rule(
    "launch.storage-holds-tiles",
    H,
    DESC,
    model(LAUNCH),
    "The storage launched with holds both tiles with their slack.",
);
pub(super) const LIST: &[Rule] = &[
    LOADS,
    LOADS_NONEMPTY,
    CONSUMERS,
    PAIR_ONE,
    PAIR_CLUSTER,
    LOAD_STAGES,
    SAME_ARCH,
    MC_CLUSTER,
    MC_OPERAND,
    MC_SHARED,
    MC_EVEN,
    EMPTY_BARRIERS,
    EXPECT_TX,
    FULL_ARRIVALS,
    EMPTY_ARRIVALS,
    CONSUMER_ARRIVALS,
    THREADS,
    MBAR_COUNT,
    MEMBER,
    ALIGN_POW2,
    STORAGE_ARCH,
    CL_EXTENT,
    CL_SIZE,
    CL_SLICES,
    CL_PAIR,
    CLC_RESPONSE,
    MBAR_ALIGN,
    G_GROUPS,
    G_BLOCKS,
    G_COUNT,
    G_CLUSTER,
    G_TABLE,
    G_TABLE_GROUP,
    G_TABLE_TILES,
    G_MULTICAST,
    G_SLOT_ALIGN,
    G_SLOT_COUNT,
    DRIVER_REFUSED,
    DRIVER_CONTEXT,
    DRIVER_ERROR,
    L_OPERAND,
    L_AGREE,
    L_EXTENT,
    L_STORAGE,
];
