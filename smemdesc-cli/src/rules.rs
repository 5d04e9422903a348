//! `smemdesc rules`: the legality rules smemdesc checks (`smemdesc_core::rules::RULES`), each with
//! its id, architectures, topic, source and text; filtered by `--arch` and `--topic`; as text,
//! `--json` or `--markdown` (the table of the guide's correctness chapter).

use super::CliError;
use smemdesc_core::rules::{Rule, Source, Topic, RULES};
use smemdesc_core::Arch;

/// The marker lines between which `docs/guide/correctness.md` holds `smemdesc rules --markdown`.
///
/// ```
/// assert!(smemdesc_cli::rules::MARKDOWN_BEGIN.starts_with("<!-- BEGIN"));
/// ```
pub const MARKDOWN_BEGIN: &str = "<!-- BEGIN smemdesc rules --markdown -->";
/// The closing marker ([`MARKDOWN_BEGIN`]).
///
/// ```
/// assert!(smemdesc_cli::rules::MARKDOWN_END.starts_with("<!-- END"));
/// ```
pub const MARKDOWN_END: &str = "<!-- END smemdesc rules --markdown -->";

/// How to print the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Text,
    Json,
    Markdown,
}

/// Parses `--topic`.
pub(crate) fn parse_topic_arg(s: &str) -> Result<Topic, String> {
    Topic::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Topic::ALL.iter().map(|t| t.name()).collect();
        format!("unknown topic `{s}`; legal: {}", names.join(", "))
    })
}

fn selected(arch: Option<Arch>, topic: Option<Topic>) -> Vec<&'static Rule> {
    RULES
        .iter()
        .filter(|r| arch.is_none_or(|a| r.arches.contains(a)))
        .filter(|r| topic.is_none_or(|t| r.topic == t))
        .collect()
}

/// The rules as `format` prints them.
pub(crate) fn run(
    arch: Option<Arch>,
    topic: Option<Topic>,
    format: Format,
) -> Result<String, CliError> {
    let rules = selected(arch, topic);
    match format {
        Format::Text => Ok(text(&rules)),
        Format::Json => json(&rules),
        Format::Markdown => Ok(markdown(&rules)),
    }
}

fn text(rules: &[&Rule]) -> String {
    let mut out = String::new();
    for r in rules {
        out += &format!(
            "{}  [{}; {}]\n  {}\n  source: {}\n",
            r.id,
            r.topic.name(),
            r.arches,
            r.text,
            r.source
        );
    }
    out += &format!("{} rules\n", rules.len());
    out
}

fn source_json(s: &Source) -> serde_json::Value {
    let mut v = match *s {
        Source::Ptx { version, section } => {
            serde_json::json!({ "version": version, "section": section })
        }
        Source::Driver { function } => serde_json::json!({ "function": function }),
        Source::Guide { section } => serde_json::json!({ "section": section }),
        Source::Cutlass { file } | Source::Model { file } => serde_json::json!({ "file": file }),
        Source::Measured { record, date } => {
            serde_json::json!({ "record": record, "date": date })
        }
        Source::Report { reference } => serde_json::json!({ "reference": reference }),
    };
    v["kind"] = s.kind().into();
    v["text"] = s.to_string().into();
    v
}

fn json(rules: &[&Rule]) -> Result<String, CliError> {
    let list: Vec<serde_json::Value> = rules
        .iter()
        .map(|r| {
            let arches: Vec<&str> = Arch::ALL
                .iter()
                .filter(|&&a| r.arches.contains(a))
                .map(|a| a.name())
                .collect();
            serde_json::json!({
                "id": r.id,
                "topic": r.topic.name(),
                "arches": arches,
                "text": r.text,
                "source": source_json(&r.source),
            })
        })
        .collect();
    super::to_json(&list)
}

/// One Markdown table per topic (the topics in the table's order).
fn markdown(rules: &[&Rule]) -> String {
    let mut out = String::new();
    for topic in Topic::ALL {
        let of: Vec<&&Rule> = rules.iter().filter(|r| r.topic == topic).collect();
        if of.is_empty() {
            continue;
        }
        out += &format!(
            "\n#### {}\n\n| Rule | Arches | Rule text | Source |\n|---|---|---|---|\n",
            topic.name()
        );
        for r in of {
            out += &format!(
                "| `{}` | {} | {} | {} |\n",
                r.id,
                r.arches,
                md_escape(r.text),
                md_escape(&r.source.to_string())
            );
        }
    }
    out
}

/// Escapes what Markdown (and rustdoc's links) would read: `|`, `[` and `]`.
fn md_escape(text: &str) -> String {
    text.replace('|', "\\|")
        .replace('[', "\\[")
        .replace(']', "\\]")
}
