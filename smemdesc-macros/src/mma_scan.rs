//! What `#[smem_mma]` refuses in its module body besides the grammar's pairing: tiles under
//! `#[cfg]` (the pairing is computed at expansion, before configuration).

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};

/// A tile under `#[cfg]` (or `#[cfg_attr]`) in the module: refused, because the pairing is
/// computed when the attribute expands, before configuration decides which tiles exist.
pub(crate) fn refuse_cfg_tiles(body: &TokenStream) -> syn::Result<()> {
    // The outer attributes of each top-level item: `#[..]` groups since the previous item ended
    // (at a `;` or a `{ .. }` body).
    let toks: Vec<TokenTree> = body.clone().into_iter().collect();
    let mut attrs: Vec<&Group> = Vec::new();
    let mut at = 0;
    while at < toks.len() {
        match &toks[at] {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                if let Some(TokenTree::Group(g)) = toks.get(at + 1) {
                    if g.delimiter() == Delimiter::Bracket {
                        attrs.push(g);
                        at += 1;
                    }
                }
            }
            TokenTree::Punct(p) if p.as_char() == ';' => attrs.clear(),
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => attrs.clear(),
            TokenTree::Ident(i) if i == "struct" => {
                let first = |g: &Group| match g.stream().into_iter().next() {
                    Some(TokenTree::Ident(i)) => i.to_string(),
                    _ => String::new(),
                };
                let tile = attrs.iter().any(|g| {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    matches!(inner.as_slice(), [.., TokenTree::Ident(n), TokenTree::Group(_)]
                        if n == "smem_tile" || n == "smem_scale_tile")
                });
                let cfg = attrs
                    .iter()
                    .find(|g| first(g) == "cfg" || first(g) == "cfg_attr");
                if let (true, Some(c)) = (tile, cfg) {
                    let name = match toks.get(at + 1) {
                        Some(TokenTree::Ident(n)) => n.to_string(),
                        _ => "the tile".to_owned(),
                    };
                    return Err(syn::Error::new(
                        c.span(),
                        format!(
                            "#[smem_mma] pairs its tiles when it expands, before `#[cfg]` is \
                             evaluated, so it cannot tell whether `{name}` exists; put the #[cfg] \
                             on the module instead (one #[smem_mma] module per configuration)"
                        ),
                    ));
                }
                attrs.clear();
            }
            _ => {}
        }
        at += 1;
    }
    Ok(())
}
