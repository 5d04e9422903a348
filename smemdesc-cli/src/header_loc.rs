//! Source positions for `smemdesc header --from`: every module of the `--from` reader reports its
//! errors as `FILE:LINE:COLUMN` through [`Src`] (a leaf module, so that the reader's modules do
//! not import each other in a circle).

use crate::CliError;
use proc_macro2::Span;

/// Where a span is, as `FILE:LINE:COLUMN`.
pub(crate) struct Src<'a> {
    pub(crate) file: &'a str,
}

impl Src<'_> {
    /// An error at `span`.
    pub(crate) fn err(&self, span: Span, msg: impl std::fmt::Display) -> CliError {
        let p = span.start();
        CliError(format!("{}:{}:{}: {msg}", self.file, p.line, p.column + 1))
    }
}
