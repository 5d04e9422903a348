//! For `smemdesc header --from` ([`crate::header_src`]): what the second pass reads, shared by
//! the module that walks the file ([`crate::header_src`]) and the one that reads a storage
//! ([`crate::header_storage`]), so that neither imports the other.

use super::header_args::TileSrc;
use super::header_eval::{resolve, Consts, Named};
use super::header_loc::Src;

/// Rust identifier as written (`r#type` → `type`).
pub(crate) fn ident(i: &syn::Ident) -> String {
    i.to_string().trim_start_matches("r#").to_owned()
}

/// Every tile of the file, with its module path.
pub(crate) struct Tiles(pub(crate) Vec<Named<TileSrc>>);

/// Every `use … as …` rename of the file: module path, alias, the path it stands for.
pub(crate) struct Renames(pub(crate) Vec<Named<syn::Path>>);

/// What pass 2 reads: where errors point, the file's `const` items and its tiles.
pub(crate) struct Cx<'a> {
    pub(crate) src: Src<'a>,
    pub(crate) consts: Consts<'a>,
    pub(crate) tiles: Tiles,
    pub(crate) aliases: Renames,
}

impl Cx<'_> {
    /// The tile `p` names from module `scope` (through a `use … as …` rename of that module).
    pub(crate) fn tile_by_path(
        &self,
        scope: &[String],
        p: &syn::Path,
    ) -> Result<Option<&Named<TileSrc>>, String> {
        let renamed = p.get_ident().and_then(|i| {
            self.aliases
                .0
                .iter()
                .find(|(s, a, _)| s == scope && i == a)
                .map(|(_, _, target)| target)
        });
        resolve(&self.tiles.0, scope, renamed.unwrap_or(p))
    }
}
