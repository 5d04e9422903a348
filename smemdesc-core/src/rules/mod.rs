//! The legality rules smemdesc checks, as `const` data: one [`Rule`] per rule, each with a stable
//! id, the rule in one sentence, its [`Source`] (a PTX ISA section, a CUDA document, a CUTLASS
//! file, a fact measured on a GPU with its record and date, or a limit of smemdesc's own model),
//! the architectures it applies to ([`Arches`]) and a [`Topic`].
//!
//! Every variant of every error type maps to one rule (`rule()`, an exhaustive `match`), and every
//! error's message ends with the rule's id and source (`[rule tile.stages; smemdesc model, ...]`).
//! [`RULES`] is the whole table (`smemdesc rules` lists it), [`find`] looks a rule up by id.
//!
//! ```
//! use smemdesc_core::rules::{find, Topic, RULES};
//! use smemdesc_core::{Arch, Error};
//! let r = Error::ZeroStages.rule();
//! assert_eq!(find(r.id), Some(r));
//! assert!(RULES.iter().any(|r| r.topic == Topic::Tma && r.arches.contains(Arch::Sm90)));
//! assert!(Error::ZeroStages.to_string().ends_with(&r.suffix().to_string()));
//! ```
//!
//! The rule table imports every group (the errors it maps live there); no group imports it.

mod arches;
mod map_core;
mod map_more;
mod map_tma;
mod source;
mod table_desc;
mod table_frag;
mod table_mma;
mod table_pipe;
mod table_tma;
mod table_tmem;

pub use arches::Arches;
pub use source::{Source, Suffix, Topic};

/// One legality rule.
///
/// ```
/// use smemdesc_core::rules::{Source, Topic};
/// let r = smemdesc_core::Error::ZeroStages.rule();
/// assert_eq!(r.topic, Topic::Descriptor);
/// assert!(!r.text.is_empty() && !matches!(r.source, Source::Ptx { section: "", .. }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The stable id, `topic.what` in lower-case kebab words (`swizzle.atom-width`).
    pub id: &'static str,
    /// The rule in one sentence.
    pub text: &'static str,
    /// Where the rule comes from.
    pub source: Source,
    /// The architectures it applies to.
    pub arches: Arches,
    /// What it is about.
    pub topic: Topic,
}

impl Rule {
    /// What an error's message ends with: ` [rule ID; SOURCE]`.
    ///
    /// ```
    /// let r = smemdesc_core::Error::ZeroStages.rule();
    /// assert!(r.suffix().to_string().starts_with(" [rule "));
    /// ```
    pub const fn suffix(&'static self) -> Suffix {
        Suffix(self)
    }
}

const PARTS: [&[Rule]; 6] = [
    table_desc::LIST,
    table_mma::LIST,
    table_tma::LIST,
    table_tmem::LIST,
    table_pipe::LIST,
    table_frag::LIST,
];

const fn count() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < PARTS.len() {
        n += PARTS[i].len();
        i += 1;
    }
    n
}

const COUNT: usize = count();

const fn concat() -> [Rule; COUNT] {
    let mut out = [PARTS[0][0]; COUNT];
    let mut n = 0;
    let mut i = 0;
    while i < PARTS.len() {
        let mut j = 0;
        while j < PARTS[i].len() {
            out[n] = PARTS[i][j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

// A `const` (not a `static`): `RULES` and `find` are usable in `const` context on the MSRV. It is
// used once, through `RULES`, whose `&ALL` is one promoted allocation.
#[allow(clippy::large_const_arrays)]
const ALL: [Rule; COUNT] = concat();

/// Every rule, grouped by topic.
///
/// ```
/// use smemdesc_core::rules::RULES;
/// assert!(RULES.len() > 100);
/// assert!(RULES.iter().all(|r| !r.text.is_empty()));
/// ```
pub const RULES: &[Rule] = &ALL;

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The rule with this id, in `const` context too.
///
/// ```
/// use smemdesc_core::rules::find;
/// const R: Option<&smemdesc_core::rules::Rule> = find("tile.stages");
/// assert_eq!(R.map(|r| r.id), Some("tile.stages"));
/// assert_eq!(find("no.such-rule"), None);
/// ```
pub const fn find(id: &str) -> Option<&'static Rule> {
    let mut i = 0;
    while i < RULES.len() {
        if str_eq(RULES[i].id, id) {
            return Some(&RULES[i]);
        }
        i += 1;
    }
    None
}

/// Builds the `rule()` method of an error type (an exhaustive `match`: a new variant without an
/// entry does not compile), its `Display` (the message, then the rule's [`Suffix`]; a variant that
/// wraps another error shows the wrapped error's, which ends its message) and, in tests, the
/// table of every variant's rule.
#[doc(hidden)]
#[macro_export]
macro_rules! __rule_map {
    (
        $ty:ident, $example:literal;
        rules { $($v:ident $({ $($p:tt)* })? => $r:expr,)* }
        inner { $($w:ident . $f:tt,)* }
    ) => {
        impl $ty {
            #[doc = concat!("The rule this error breaks, from the rule table (`smemdesc rules`).\n\n```\n", $example, "\n```")]
            pub const fn rule(&self) -> &'static $crate::rules::Rule {
                match self {
                    $($ty::$v { $($($p)*)? .. } => &$r,)*
                    $($ty::$w { $f: e, .. } => e.rule(),)*
                }
            }

            /// Whether the message ends with a wrapped error's own (and its rule's suffix).
            #[allow(dead_code)]
            const fn wraps(&self) -> bool {
                match self {
                    $($ty::$w { .. } => true,)*
                    #[allow(unreachable_patterns)]
                    _ => false,
                }
            }

            /// Test only: every variant's name and its rule (`None`: the wrapped error's).
            #[cfg(test)]
            #[allow(dead_code)]
            pub(crate) const RULE_TABLE: &'static [(&'static str, Option<&'static $crate::rules::Rule>)] = &[
                $((stringify!($v), Some(&$r)),)*
                $((stringify!($w), None),)*
            ];
        }

        impl core::fmt::Display for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                self.fmt_message(f)?;
                if self.wraps() {
                    Ok(())
                } else {
                    core::fmt::Display::fmt(&self.rule().suffix(), f)
                }
            }
        }
    };
}

#[cfg(test)]
mod tests;
