//! The declaration key a pipeline error is about: where `#[smem_pipeline]` and `smemdesc header
//! --from` report it.

/// The declaration key a [`PipelineError`](crate::pipeline::PipelineError) is about (`#[smem_pipeline]`'s spelling): where the
/// macro and `smemdesc header --from` report it. The discriminant is the macro's check class.
///
/// ```
/// use smemdesc_core::pipeline::*;
/// let e = PipelineError::ExpectTx { stated: 1, derived: 2, issued: 2 };
/// assert_eq!(e.key(), (PipelineKey::ExpectTx, None));
/// assert_eq!(PipelineKey::Multicast.name(), "multicast");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PipelineKey {
    /// `expect_tx`.
    ExpectTx,
    /// `full_arrivals`.
    FullArrivals,
    /// `empty_arrivals`.
    EmptyArrivals,
    /// `multicast` (a load's entry).
    Multicast,
    /// `loads` (a load's type).
    LoadType,
    /// `empty`.
    Empty,
    /// `stages` (or the loads, whose stages it defaults to).
    Stages,
    /// `tmem`.
    Tmem,
    /// `cta_group`.
    CtaGroup,
    /// `cluster`.
    Cluster,
    /// `consumers`.
    Consumers,
    /// The loads as a whole (none, or too many).
    Loads,
    /// `consumer_threads`.
    ConsumerThreads,
    /// `consumer_arrivals`.
    ConsumerArrivals,
}

impl PipelineKey {
    /// The key as the attribute spells it.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::pipeline::PipelineKey::CtaGroup.name(), "cta_group");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            PipelineKey::ExpectTx => "expect_tx",
            PipelineKey::FullArrivals => "full_arrivals",
            PipelineKey::EmptyArrivals => "empty_arrivals",
            PipelineKey::Multicast => "multicast",
            PipelineKey::LoadType | PipelineKey::Loads => "loads",
            PipelineKey::Empty => "empty",
            PipelineKey::Stages => "stages",
            PipelineKey::Tmem => "tmem",
            PipelineKey::CtaGroup => "cta_group",
            PipelineKey::Cluster => "cluster",
            PipelineKey::Consumers => "consumers",
            PipelineKey::ConsumerThreads => "consumer_threads",
            PipelineKey::ConsumerArrivals => "consumer_arrivals",
        }
    }
}
