//! Where a rule comes from, what it is about, and the suffix an error's message ends with.

use super::Rule;

/// Where a rule comes from.
///
/// ```
/// use smemdesc_core::rules::Source;
/// let s = Source::Ptx { version: "8.0", section: "wgmma: Matrix Descriptor Format" };
/// assert_eq!(s.to_string(), "PTX ISA 8.0, \"wgmma: Matrix Descriptor Format\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A section of the PTX ISA; `version` is the PTX ISA version that introduced what the rule
    /// is about (the section is in every later version).
    Ptx {
        /// The PTX ISA version (`"8.0"`).
        version: &'static str,
        /// The section's name (`"wgmma: Matrix Descriptor Format"`).
        section: &'static str,
    },
    /// The CUDA driver API documentation of a function.
    Driver {
        /// The function (`"cuTensorMapEncodeTiled"`).
        function: &'static str,
    },
    /// The CUDA C++ Programming Guide.
    Guide {
        /// The section's name.
        section: &'static str,
    },
    /// A CUTLASS / CuTe source file (CUTLASS is stricter than, or says more than, the PTX ISA).
    Cutlass {
        /// The file, from the repository's root (`"include/cute/arch/mma_sm100_desc.hpp"`).
        file: &'static str,
    },
    /// A fact of ours measured on a GPU (where the documents say nothing).
    Measured {
        /// The record of the measurement, from the repository's root.
        record: &'static str,
        /// When it was measured (`YYYY-MM-DD`).
        date: &'static str,
    },
    /// A public report of a failure and its fix in another project (an issue or pull request),
    /// where no NVIDIA document states the rule.
    Report {
        /// The project and its reference (`"TensorRT-LLM #18133"`).
        reference: &'static str,
    },
    /// A limit of smemdesc's own model (not of the hardware): what smemdesc does not model, or
    /// a consistency rule of its declarations.
    Model {
        /// The file that defines it, from the repository's root.
        file: &'static str,
    },
}

impl Source {
    /// The kind of source, one word (`ptx`, `driver`, `guide`, `cutlass`, `measured`, `report`,
    /// `model`).
    ///
    /// ```
    /// use smemdesc_core::rules::Source;
    /// assert_eq!(Source::Driver { function: "cuTensorMapEncodeTiled" }.kind(), "driver");
    /// ```
    pub const fn kind(&self) -> &'static str {
        match self {
            Source::Ptx { .. } => "ptx",
            Source::Driver { .. } => "driver",
            Source::Guide { .. } => "guide",
            Source::Cutlass { .. } => "cutlass",
            Source::Measured { .. } => "measured",
            Source::Report { .. } => "report",
            Source::Model { .. } => "model",
        }
    }

    /// Whether every text of the source is non-empty (a measured fact also has a date).
    ///
    /// ```
    /// use smemdesc_core::rules::Source;
    /// assert!(!Source::Measured { record: "gpu/RESULTS.md", date: "" }.is_complete());
    /// ```
    pub const fn is_complete(&self) -> bool {
        match self {
            Source::Ptx { version, section } => !version.is_empty() && !section.is_empty(),
            Source::Driver { function } => !function.is_empty(),
            Source::Guide { section } => !section.is_empty(),
            Source::Cutlass { file } => !file.is_empty(),
            Source::Measured { record, date } => !record.is_empty() && date.len() == 10,
            Source::Report { reference } => !reference.is_empty(),
            Source::Model { file } => !file.is_empty(),
        }
    }
}

impl core::fmt::Display for Source {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Source::Ptx { version, section } => write!(f, "PTX ISA {version}, \"{section}\""),
            Source::Driver { function } => write!(f, "CUDA driver API, {function}"),
            Source::Guide { section } => write!(f, "CUDA C++ Programming Guide, \"{section}\""),
            Source::Cutlass { file } => write!(f, "CUTLASS {file}"),
            Source::Measured { record, date } => write!(f, "measured {date}, {record}"),
            Source::Report { reference } => write!(f, "reported in {reference}"),
            Source::Model { file } => write!(f, "smemdesc model, {file}"),
        }
    }
}

/// What a rule is about.
///
/// ```
/// use smemdesc_core::rules::Topic;
/// assert_eq!(Topic::from_name("tma"), Some(Topic::Tma));
/// assert_eq!(Topic::Tma.name(), "tma");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topic {
    /// SMEM matrix descriptors and the tiles they describe.
    Descriptor,
    /// MMA instructions: kinds, shapes, instruction descriptors, pairing A with B.
    Mma,
    /// Block-scale factors.
    Scale,
    /// Tensor maps and TMA copies.
    Tma,
    /// Implicit-GEMM convolution (im2col maps).
    Conv,
    /// Grouped GEMM (rewritten maps, tile tables).
    Grouped,
    /// Tensor Memory.
    Tmem,
    /// Pipelines: stages, barriers, dependent launches.
    Pipeline,
    /// Clusters, multicast, CTA pairs, cluster launch control.
    Cluster,
    /// Shared-memory storage and budgets.
    Storage,
    /// Register fragments (`wgmma` accumulators, `ldmatrix`, `stmatrix`).
    Fragment,
    /// Epilogues (storing the accumulator).
    Epilogue,
    /// The host: launches and the CUDA driver.
    Host,
}

impl Topic {
    /// Every topic, in the table's order.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::rules::Topic::ALL[0].name(), "descriptor");
    /// ```
    pub const ALL: [Topic; 13] = [
        Topic::Descriptor,
        Topic::Mma,
        Topic::Scale,
        Topic::Tma,
        Topic::Conv,
        Topic::Grouped,
        Topic::Tmem,
        Topic::Pipeline,
        Topic::Cluster,
        Topic::Storage,
        Topic::Fragment,
        Topic::Epilogue,
        Topic::Host,
    ];

    /// The lower-case name (`tma`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::rules::Topic::Tmem.name(), "tmem");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Topic::Descriptor => "descriptor",
            Topic::Mma => "mma",
            Topic::Scale => "scale",
            Topic::Tma => "tma",
            Topic::Conv => "conv",
            Topic::Grouped => "grouped",
            Topic::Tmem => "tmem",
            Topic::Pipeline => "pipeline",
            Topic::Cluster => "cluster",
            Topic::Storage => "storage",
            Topic::Fragment => "fragment",
            Topic::Epilogue => "epilogue",
            Topic::Host => "host",
        }
    }

    /// Parses a name [`Topic::name`] gives, in any letter case.
    ///
    /// ```
    /// use smemdesc_core::rules::Topic;
    /// assert_eq!(Topic::from_name("TMEM"), Some(Topic::Tmem));
    /// assert_eq!(Topic::from_name("gemm"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Topic> {
        Topic::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }
}

/// The end of an error's message: ` [rule ID; SOURCE]` ([`Rule::suffix`]).
///
/// ```
/// let e = smemdesc_core::Error::ZeroStages;
/// let s = e.rule().suffix().to_string();
/// assert!(s.starts_with(" [rule tile.stages; ") && s.ends_with(']'));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suffix(pub(crate) &'static Rule);

impl core::fmt::Display for Suffix {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, " [rule {}; {}]", self.0.id, self.0.source)
    }
}

// Shorthands for the table files.

/// Every architecture.
pub(super) const ALL: crate::rules::Arches = crate::rules::Arches::ALL;
/// Hopper only.
pub(super) const SM90: crate::rules::Arches = crate::rules::Arches::only(crate::base::Arch::Sm90);
/// Blackwell datacenter only.
pub(super) const SM100: crate::rules::Arches = crate::rules::Arches::only(crate::base::Arch::Sm100);

pub(super) const fn ptx(version: &'static str, section: &'static str) -> Source {
    Source::Ptx { version, section }
}
pub(super) const fn driver(function: &'static str) -> Source {
    Source::Driver { function }
}
pub(super) const fn guide(section: &'static str) -> Source {
    Source::Guide { section }
}
pub(super) const fn cutlass(file: &'static str) -> Source {
    Source::Cutlass { file }
}
pub(super) const fn measured(record: &'static str, date: &'static str) -> Source {
    Source::Measured { record, date }
}
pub(super) const fn report(reference: &'static str) -> Source {
    Source::Report { reference }
}
pub(super) const fn model(file: &'static str) -> Source {
    Source::Model { file }
}

/// One table entry.
pub(super) const fn rule(
    id: &'static str,
    topic: Topic,
    arches: crate::rules::Arches,
    source: Source,
    text: &'static str,
) -> Rule {
    Rule {
        id,
        text,
        source,
        arches,
        topic,
    }
}
