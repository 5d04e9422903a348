//! For `smemdesc header --from` ([`crate::header_src`]): the `cluster = (x, y)` of an
//! `#[smem_mma]` module as header values. The cluster and both operands' multicast plans come
//! from the core ([`Cluster::for_arch`] with the tiles' arch, [`Cluster::multicast`] with each
//! tile's TMA box), checked by the macro's grammar; this module only lists the numbers.

use super::header::{item, scalar, Item, Val};
use super::header_loc::Src;
use crate::CliError;
use proc_macro2::Span;
use smemdesc_core::cluster::{Cluster, Multicast};
use smemdesc_core::{Operand, TilePlan};

/// The cluster's items (none without `cluster = (x, y)`): its shape, and per operand the
/// multicast slices, the `ctaMask` of every CTA rank and the full barrier's `expect_tx`.
/// `cluster`: the cluster the grammar checked (`smemdesc_grammar::mma_check::cluster`, which
/// refuses what the macro refuses) with the span of its value.
pub(crate) fn cluster_items(
    src: &Src,
    cluster: Option<(Cluster, Span)>,
    a: &TilePlan,
    b: &TilePlan,
) -> Result<Vec<Item>, CliError> {
    let Some((c, span)) = cluster else {
        return Ok(Vec::new());
    };
    let (x, y) = (c.x(), c.y());
    // A block-scaled pair's scale-factor tiles (which every stage's barrier also receives) are
    // not in the header.
    if smemdesc_core::is_block_scaled(a.kind) {
        return Err(src.err(
            span,
            format!(
                "#[smem_mma] cluster ({x}, {y}) with a block-scaled kind: header --from does not emit the scale-factor tiles, so its EXPECT_TX would leave their bytes out; use the macro's EXPECT_TX (it adds each #[smem_scale_tile]'s STAGE_BYTES)"
            ),
        ));
    }
    let cast = |op: Operand, p: &TilePlan| -> Result<Multicast, CliError> {
        c.multicast(op, &p.tile, Some((p.tma.box_rows, p.tma.box_inner)))
            .map_err(|e| src.err(span, format!("cluster ({x}, {y}): {e}")))
    };
    let (ma, mb) = (cast(Operand::A, a)?, cast(Operand::B, b)?);
    let size = c.size();
    let mut items = vec![
        scalar(
            "CLUSTER_X",
            "unsigned int",
            c.x().into(),
            "cluster CTAs along M",
        ),
        scalar(
            "CLUSTER_Y",
            "unsigned int",
            c.y().into(),
            "cluster CTAs along N",
        ),
        scalar(
            "CLUSTER_SIZE",
            "unsigned int",
            size.into(),
            "CTAs in the cluster (rank = i + x * j)",
        ),
        scalar(
            "CLUSTER_NON_PORTABLE",
            "unsigned int",
            u64::from(c.needs_non_portable()),
            "1: the cluster needs cudaFuncAttributeNonPortableClusterSizeAllowed",
        ),
    ];
    for (l, m) in [("A", &ma), ("B", &mb)] {
        items.extend([
            scalar(
                format!("{l}_MULTICAST_COUNT"),
                "unsigned int",
                m.count().into(),
                format!("CTAs sharing each {l} tile"),
            ),
            scalar(
                format!("{l}_SLICES"),
                "unsigned int",
                m.slices().into(),
                format!("{l} TMA slices each CTA issues per stage"),
            ),
            scalar(
                format!("{l}_SLICE_BYTES"),
                "unsigned int",
                m.slice_bytes().into(),
                format!("bytes of one slice of {l}"),
            ),
            item(
                format!("{l}_SLICE_BOX_DIM"),
                "unsigned int",
                Val::Array(
                    m.slice_box_dim().iter().map(|&v| v.into()).collect(),
                    vec![2],
                    false,
                ),
                format!("boxDim of one slice of {l}, innermost first"),
            ),
            item(
                format!("{l}_CTA_MASK"),
                "unsigned int",
                Val::Array(
                    (0..size).map(|r| m.cta_mask(r).into()).collect(),
                    vec![size as usize],
                    true,
                ),
                format!("ctaMask of the multicast of {l} that CTA rank [r] issues"),
            ),
        ]);
    }
    items.push(scalar(
        "EXPECT_TX",
        "unsigned int",
        Multicast::expect_tx_total(&ma, &mb).into(),
        "bytes every CTA's full barrier expects per stage (both operands)",
    ));
    Ok(items)
}
