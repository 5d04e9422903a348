//! For `smemdesc header --from`: the `key = value` arguments of the attributes whose keys live
//! in a `(key, accepted values)` table, `#[smem_epilogue_tile]` ([`crate::header_epi`]) and
//! `#[smem_fragment_tile]` ([`crate::header_frag`]): required keys, words, integers and pairs,
//! each error at the value (or the struct's name) with what the key accepts.

use super::header_args::{args, pairs, value, word};
use super::header_loc::Src;
use crate::CliError;
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Lit, Meta, Token};

/// The parsed arguments of one attribute on struct `name`.
pub(crate) struct Keyed<'s> {
    src: &'s Src<'s>,
    /// The attribute's arguments, each `key = value` with a known key, given once.
    metas: Punctuated<Meta, Token![,]>,
    name: &'s syn::Ident,
    attr: &'static str,
    keys: &'static [(&'static str, &'static str)],
}

impl<'s> Keyed<'s> {
    /// Reads `#[attr(...)]` with the keys of `keys`: unknown and duplicate keys refused, every
    /// key given a value.
    pub(crate) fn new(
        src: &'s Src<'s>,
        a: &syn::Attribute,
        name: &'s syn::Ident,
        attr: &'static str,
        keys: &'static [(&'static str, &'static str)],
    ) -> Result<Self, CliError> {
        let metas = args(src, a)?;
        let names: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
        for (k, m) in pairs(src, &metas, &names)? {
            value(src, m, &k)?;
        }
        Ok(Keyed {
            src,
            metas,
            name,
            attr,
            keys,
        })
    }

    fn accepted(&self, key: &str) -> &'static str {
        self.keys
            .iter()
            .find(|(k, _)| *k == key)
            .map_or("", |(_, v)| *v)
    }

    fn get(&self, key: &str) -> Option<&Expr> {
        self.metas.iter().find_map(|m| match m {
            Meta::NameValue(nv) if nv.path.is_ident(key) => Some(&nv.value),
            _ => None,
        })
    }

    fn missing(&self, key: &str) -> CliError {
        self.src.err(
            self.name.span(),
            format!(
                "#[{}] on `{}`: missing required argument `{key} = {}`",
                self.attr,
                self.name,
                self.accepted(key)
            ),
        )
    }

    /// A word-valued key, parsed by `parse` (`None`: not given).
    pub(crate) fn word<T>(
        &self,
        key: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<T>, CliError> {
        let Some(e) = self.get(key) else {
            return Ok(None);
        };
        word(e).as_deref().and_then(parse).map(Some).ok_or_else(|| {
            self.src.err(
                e.span(),
                format!(
                    "unknown {key} `{}`; accepted: {}",
                    e.to_token_stream(),
                    self.accepted(key)
                ),
            )
        })
    }

    /// A required word-valued key.
    pub(crate) fn need<T>(
        &self,
        key: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<T, CliError> {
        self.word(key, parse)?.ok_or_else(|| self.missing(key))
    }

    fn int_of(&self, key: &str, e: &Expr) -> Result<u32, CliError> {
        if let Expr::Lit(syn::ExprLit {
            lit: Lit::Int(l), ..
        }) = e
        {
            if let Ok(v) = l.base10_parse::<u32>() {
                return Ok(v);
            }
        }
        Err(self.src.err(
            e.span(),
            format!(
                "`{key}` takes an integer that fits u32, found `{}`; accepted: {}",
                e.to_token_stream(),
                self.accepted(key)
            ),
        ))
    }

    /// An integer key (`None`: not given).
    pub(crate) fn int(&self, key: &str) -> Result<Option<u32>, CliError> {
        self.get(key).map(|e| self.int_of(key, e)).transpose()
    }

    /// A required integer key.
    pub(crate) fn need_int(&self, key: &str) -> Result<u32, CliError> {
        self.int(key)?.ok_or_else(|| self.missing(key))
    }

    /// A required `(a, b)` key of two integers.
    pub(crate) fn need_pair(&self, key: &str) -> Result<(u32, u32), CliError> {
        let e = self.get(key).ok_or_else(|| self.missing(key))?;
        match e {
            Expr::Tuple(t) if t.elems.len() == 2 => Ok((
                self.int_of(key, &t.elems[0])?,
                self.int_of(key, &t.elems[1])?,
            )),
            _ => Err(self.src.err(
                e.span(),
                format!(
                    "`{key}` takes `{}`: two integers, found `{}`",
                    self.accepted(key),
                    e.to_token_stream()
                ),
            )),
        }
    }

    /// The span of the first of `keys` that was given (else the struct's name).
    pub(crate) fn span(&self, keys: &[&str]) -> proc_macro2::Span {
        keys.iter()
            .find_map(|k| self.get(k))
            .map_or(self.name.span(), |e| e.span())
    }

    /// The core's error `e` at the first given key of `keys`, naming the attribute and struct.
    pub(crate) fn error(&self, keys: &[&str], e: impl std::fmt::Display) -> CliError {
        self.src.err(
            self.span(keys),
            format!("#[{}] on `{}`: {e}", self.attr, self.name),
        )
    }
}
