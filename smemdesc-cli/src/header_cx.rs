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

/// Every `#[smem_epilogue_tile]` of the file, with its module path.
pub(crate) struct Epilogues(pub(crate) Vec<Named<smemdesc_core::epilogue::EpilogueTile>>);

/// Every `use … as …` rename of the file: module path, alias, the path it stands for.
pub(crate) struct Renames(pub(crate) Vec<Named<syn::Path>>);

/// What pass 2 reads: where errors point, the file's `const` items and its tiles.
pub(crate) struct Cx<'a> {
    pub(crate) src: Src<'a>,
    pub(crate) consts: Consts<'a>,
    pub(crate) tiles: Tiles,
    pub(crate) epilogues: Epilogues,
    pub(crate) aliases: Renames,
}

impl Cx<'_> {
    /// `p`, or the path a `use … as …` rename of module `scope` stands for.
    fn renamed<'p>(&'p self, scope: &[String], p: &'p syn::Path) -> &'p syn::Path {
        p.get_ident()
            .and_then(|i| {
                self.aliases
                    .0
                    .iter()
                    .find(|(s, a, _)| s == scope && i == a)
                    .map(|(_, _, target)| target)
            })
            .unwrap_or(p)
    }

    /// The tile `p` names from module `scope` (through a `use … as …` rename of that module).
    pub(crate) fn tile_by_path(
        &self,
        scope: &[String],
        p: &syn::Path,
    ) -> Result<Option<&Named<TileSrc>>, String> {
        resolve(&self.tiles.0, scope, self.renamed(scope, p))
    }

    /// The `#[smem_epilogue_tile]` `p` names from module `scope` (as [`Self::tile_by_path`]).
    pub(crate) fn epilogue_by_path(
        &self,
        scope: &[String],
        p: &syn::Path,
    ) -> Result<Option<&Named<smemdesc_core::epilogue::EpilogueTile>>, String> {
        resolve(&self.epilogues.0, scope, self.renamed(scope, p))
    }
}
