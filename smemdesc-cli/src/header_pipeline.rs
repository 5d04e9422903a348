//! For `smemdesc header --from` ([`crate::header_src`]): one `#[smem_pipeline]` struct as a
//! namespace — the numbers of its barrier protocol (init counts, `expect_tx` per CTA rank, the
//! CTAs a release reaches, whether the init needs a cluster barrier) from the core's
//! `PipelineSpec`, checked as the macro checks them, so a CUDA C++ kernel initialises and waits
//! on the barriers of the same declaration as the Rust one.

use super::header::{item, scalar, Ns, Val};
use super::header_cx::{ident, Cx};
use crate::CliError;
use proc_macro2::Span;
use smemdesc_core::pipeline::{PipelineError, PipelineKey, PipelineLoad, PipelineSpec};
use syn::spanned::Spanned;

use smemdesc_grammar::pipeline as grammar;

/// The namespace of pipeline `s` declared in module `path`.
pub(crate) fn pipeline(
    cx: &Cx,
    attr: &syn::Attribute,
    s: &syn::ItemStruct,
    path: &[String],
) -> Result<Ns, CliError> {
    let src = &cx.src;
    let site = attr.span();
    let tokens = match &attr.meta {
        syn::Meta::List(l) => l.tokens.clone(),
        _ => return Err(src.err(site, "#[smem_pipeline] needs its arguments")),
    };
    let a = grammar::parse_args(tokens, site).map_err(|e| src.err(e.span(), e))?;
    // The loads' tiles, resolved as the storage resolves its members.
    let mut tiles = Vec::new();
    for l in &a.loads {
        if l.scale {
            return Err(src.err(l.ty.span(), "header --from does not support scale-factor loads (`scale`): their bytes are the #[smem_scale_tile]'s STAGE_BYTES; use the macro's EXPECT_TX"));
        }
        let syn::Type::Path(tp) = &l.ty else {
            return Err(src.err(l.ty.span(), "expected the path of a #[smem_tile] struct"));
        };
        let t = cx
            .tile_by_path(path, &tp.path)
            .map_err(|e| src.err(l.ty.span(), e))?
            .ok_or_else(|| {
                src.err(
                    l.ty.span(),
                    "not a #[smem_tile] struct declared in this file",
                )
            })?;
        tiles.push((ident(&l.name), t.2.plan));
    }
    let arch = tiles[0].1.decl.arch;
    let consumers = a
        .cons_lit
        .base10_parse::<u32>()
        .map_err(|e| src.err(a.cons_lit.span(), e))?;
    let mut spec = PipelineSpec::new(arch, consumers)
        .consumer_arrivals(a.arrivals_v)
        .consumer_threads(a.threads_v);
    if let Some((_, x, y)) = a.cluster {
        spec = spec.cluster(x, y);
    }
    if let Some((g, _)) = a.cta_group {
        spec = spec.cta_group(g);
    }
    if let Some((g, _)) = a.tmem {
        spec = spec.tmem(g);
    }
    if let Some((n, _)) = a.stages {
        spec = spec.stages(n);
    }
    if a.empty.as_ref().is_some_and(|p| p.is_ident("none")) {
        spec = spec.no_empty_barriers();
    }
    // (the names live as long as the header run: leaked, a few bytes per load)
    for (i, (name, plan)) in tiles.iter().enumerate() {
        let n: &'static str = Box::leak(name.clone().into_boxed_str());
        let mut l = PipelineLoad::plan(n, plan);
        if a.mc_idx.iter().any(|m| m.0 == i) {
            l = l.multicast();
        }
        spec = spec.load(l);
    }
    if let Some((n, _)) = a.expect_tx {
        spec = spec.expect_tx(n);
    }
    if let Some((n, _)) = a.full_arr {
        spec = spec.full_arrivals(n);
    }
    if let Some((n, _)) = a.empty_arr {
        spec = spec.empty_arrivals(n);
    }
    let p = spec.build().map_err(|e| {
        let span = error_span(&a, &e).unwrap_or(site);
        src.err(span, e.message(&spec).as_str())
    })?;
    // Each multicast load's plan, as the macro makes it at the declaration.
    for &(i, span) in &a.mc_idx {
        let plan = &tiles[i].1;
        let (x, y) = spec.cluster;
        let tma_box = Some((plan.tma.box_rows, plan.tma.box_inner));
        smemdesc_core::cluster::Cluster::new(x, y)
            .and_then(|c| c.multicast(plan.decl.operand, &plan.tile, tma_box))
            .map_err(|e| src.err(span, format!("pipeline: multicast: {e}")))?;
    }
    let ctas = p.ctas();
    let by_rank =
        |f: &dyn Fn(u32) -> u64| Val::Array((0..ctas).map(f).collect(), vec![ctas as usize], false);
    let items = vec![
        scalar("STAGES", "unsigned int", p.stages().into(), "stages; iteration i uses stage i % STAGES"),
        scalar("STAGE_BYTES", "unsigned int", p.stage_bytes().into(), "SMEM bytes of one stage of all loads, per CTA"),
        scalar("CTAS", "unsigned int", ctas.into(), "CTAs of the cluster (2 for a cta_group::2 pair)"),
        scalar("FULL_ARRIVALS", "unsigned int", p.full_arrivals().into(), "mbarrier.init count of every full barrier (the producer's arrive.expect_tx)"),
        scalar("EMPTY_ARRIVALS", "unsigned int", p.empty_arrivals().into(), "mbarrier.init count of every empty barrier (consumers x arrivals x CTAs releasing a stage)"),
        scalar("EXPECT_TX", "unsigned int", p.expect_tx(0).into(), "bytes rank 0's full barrier expects per stage (every CTA's under cta_group::1)"),
        item("EXPECT_TX_BY_RANK", "unsigned int", by_rank(&|r| p.expect_tx(r).into()), "expect_tx of each CTA rank (cta_group::2: the leader both halves, the peer 0)"),
        item("ISSUED_BYTES_BY_RANK", "unsigned int", by_rank(&|r| p.issued_bytes(r).into()), "bytes each CTA's producer issues per stage (multicast: its slices)"),
        item("RELEASE_MASK_BY_RANK", "unsigned int", by_rank(&|r| p.release_mask(r).into()), "ctaMask of the CTAs whose empty barrier a consumer of each rank arrives on"),
        scalar("CLUSTER_SYNC", "unsigned int", u64::from(p.needs_cluster_sync()), "1: a cluster barrier after init + fence.mbarrier_init (peers arrive on or write to this CTA's barriers)"),
    ];
    Ok(Ns {
        name: ident(&s.ident),
        summary: format!(
            "#[smem_pipeline] {} stages, {} B per stage: consumers wait full[i % STAGES] with parity (i / STAGES) & 1, the producer waits empty[i % STAGES] with parity ((i / STAGES) & 1) ^ 1",
            p.stages(),
            p.stage_bytes()
        ),
        items,
        children: Vec::new(),
    })
}

/// The key an error is about (as the macro reports it).
fn error_span(a: &grammar::PipelineArgs, e: &PipelineError) -> Option<Span> {
    let (key, load) = e.key();
    Some(match key {
        PipelineKey::ExpectTx => a.expect_tx.as_ref()?.1.span(),
        PipelineKey::FullArrivals => a.full_arr.as_ref()?.1.span(),
        PipelineKey::EmptyArrivals => a.empty_arr.as_ref()?.1.span(),
        PipelineKey::Multicast => a.mc_idx.iter().find(|m| Some(m.0) == load)?.1,
        PipelineKey::LoadType => a.loads.get(load?)?.ty.span(),
        PipelineKey::Tmem => a.tmem.as_ref()?.1.span(),
        PipelineKey::CtaGroup => a.cta_group.as_ref()?.1.span(),
        PipelineKey::Stages => a.stages.as_ref()?.1.span(),
        PipelineKey::Consumers => a.cons_lit.span(),
        PipelineKey::ConsumerThreads => a.threads.as_ref()?.1.span(),
        PipelineKey::ConsumerArrivals => a.arrivals.as_ref()?.1.span(),
        _ => return None,
    })
}
