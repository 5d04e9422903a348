//! For `smemdesc check-ptx` ([`crate::check_ptx`]): the PTX module read into its module-scope
//! declarations (`.extern .func`, `.global`/`.const` data with their initial bytes) and its
//! function bodies, and a panic `Location` decoded from the data.
//!
//! This reads what LLVM's NVPTX back end writes for rustc, not all of PTX: statements end at `;`,
//! a `{` after `=` opens an initialiser, any other `{` at module scope opens a function body.

/// A module-scope `.extern .func` declaration.
#[derive(Debug)]
pub struct ExternFunc {
    /// The symbol as written (mangled).
    pub name: String,
    /// 1-based line of the declaration.
    pub line: usize,
}

/// A pointer stored in data: the bytes at `offset` hold the address of `symbol` + `addend`.
#[derive(Debug, Clone)]
pub struct Reloc {
    /// Byte offset in the variable.
    pub offset: usize,
    /// The symbol whose address is stored.
    pub symbol: String,
    /// Bytes added to the symbol's address.
    pub addend: u64,
}

/// A `.global`, `.const` or `.local` variable: its name, size and initial bytes.
#[derive(Debug)]
pub struct DataVar {
    /// The variable's name (mangled).
    pub name: String,
    /// State space: `global`, `const` or `local`.
    pub space: &'static str,
    /// Size in bytes, when the declaration gives every dimension.
    pub size: Option<u64>,
    /// Declared `.extern` (defined by another module).
    pub external: bool,
    /// 1-based line of the declaration.
    pub line: usize,
    /// Initial bytes (zero where the initialiser says nothing or holds a pointer).
    pub bytes: Vec<u8>,
    /// The pointers in the initialiser.
    pub relocs: Vec<Reloc>,
}

/// A function defined by the module: a kernel (`.entry`) or a device function (`.func`).
#[derive(Debug)]
pub struct Function {
    /// The function's name (mangled).
    pub name: String,
    /// True for an `.entry` (a kernel).
    pub kernel: bool,
    /// The body's lines (comments removed) with their 1-based line numbers.
    pub body: Vec<(usize, String)>,
}

/// What [`parse`] reads of a module.
#[derive(Debug, Default)]
pub struct Module {
    /// The `.extern .func` declarations.
    pub externs: Vec<ExternFunc>,
    /// The module-scope `.global` and `.const` variables.
    pub data: Vec<DataVar>,
    /// The functions with a body, in file order.
    pub functions: Vec<Function>,
}

/// Whether `c` can be part of a PTX identifier as rustc's symbols are written.
pub fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Reads the module-scope structure of a PTX text.
pub fn parse(text: &str) -> Module {
    let mut m = Module::default();
    let mut stmt = String::new();
    let mut stmt_line = 0;
    // Open braces: of an initialiser (at module scope) or of the current function body.
    let mut init_depth = 0usize;
    let mut body: Option<(Function, usize)> = None;
    let mut in_block_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let line = strip_comments(raw, &mut in_block_comment);
        if let Some((f, depth)) = body.as_mut() {
            for c in line.chars() {
                match c {
                    '{' => *depth += 1,
                    '}' => *depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            if *depth == 0 {
                let f = body.take().expect("open").0;
                // A nameless block (`.section .debug_info { ... }`) is no function.
                if !f.name.is_empty() {
                    m.functions.push(f);
                }
            } else if !line.trim().is_empty() {
                f.body.push((i + 1, line.trim().to_string()));
            }
            continue;
        }
        let directive = line.trim_start();
        if stmt.trim().is_empty()
            && [".version", ".target", ".address_size", ".file"]
                .iter()
                .any(|d| directive.starts_with(d))
        {
            // Directives without a `;`.
            continue;
        }
        for c in line.chars() {
            if stmt.trim().is_empty() {
                stmt_line = i + 1;
            }
            match c {
                '{' if init_depth > 0 || stmt.contains('=') => {
                    init_depth += 1;
                    stmt.push(c);
                }
                '{' => {
                    let (name, kernel) = function_name(&stmt);
                    body = Some((
                        Function {
                            name,
                            kernel,
                            body: Vec::new(),
                        },
                        1,
                    ));
                    stmt.clear();
                    // LLVM opens a body on a line of its own.
                    break;
                }
                '}' => {
                    init_depth = init_depth.saturating_sub(1);
                    stmt.push(c);
                }
                ';' if init_depth == 0 => {
                    declaration(&stmt, stmt_line, &mut m);
                    stmt.clear();
                }
                _ => stmt.push(c),
            }
        }
        stmt.push('\n');
    }
    m
}

/// `raw` without `//` and `/* */` comments (PTX has no string literals to confuse them).
fn strip_comments(raw: &str, in_block: &mut bool) -> String {
    let mut out = String::new();
    let mut rest = raw;
    loop {
        if *in_block {
            match rest.find("*/") {
                Some(p) => {
                    rest = &rest[p + 2..];
                    *in_block = false;
                }
                None => return out,
            }
        }
        let line_c = rest.find("//");
        let block_c = rest.find("/*");
        match (line_c, block_c) {
            (Some(l), b) if b.is_none_or(|b| l < b) => {
                out.push_str(&rest[..l]);
                return out;
            }
            (_, Some(b)) => {
                out.push_str(&rest[..b]);
                rest = &rest[b + 2..];
                *in_block = true;
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// The name in a function header (`.visible .entry NAME(` or `.func (.param .b32 r) NAME(`).
fn function_name(header: &str) -> (String, bool) {
    let kernel = header.contains(".entry");
    let key = if kernel { ".entry" } else { ".func" };
    let mut rest = header
        .find(key)
        .map_or("", |p| &header[p + key.len()..])
        .trim_start();
    if rest.starts_with('(') {
        // The return value's declaration.
        rest = rest.find(')').map_or("", |p| &rest[p + 1..]).trim_start();
    }
    let name: String = rest.chars().take_while(|&c| ident_char(c)).collect();
    (name, kernel)
}

/// Records a module-scope statement that declares an extern function or `.global`/`.const` data.
fn declaration(stmt: &str, line: usize, m: &mut Module) {
    let head = stmt.split('=').next().unwrap_or("");
    let words: Vec<&str> = head.split_whitespace().collect();
    if words.contains(&".func") {
        if words.contains(&".extern") {
            let (name, _) = function_name(head);
            m.externs.push(ExternFunc { name, line });
        }
    } else if let Some(var) = data_decl(stmt, line) {
        if var.space != "local" {
            m.data.push(var);
        }
    }
}

/// Reads a `.global`/`.const`/`.local` variable declaration (with its initialiser, if any).
pub fn data_decl(stmt: &str, line: usize) -> Option<DataVar> {
    let (head, init) = match stmt.split_once('=') {
        Some((h, i)) => (h, Some(i)),
        None => (stmt, None),
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    let space = if words.contains(&".global") {
        "global"
    } else if words.contains(&".const") {
        "const"
    } else if words.contains(&".local") {
        "local"
    } else {
        return None;
    };
    let width = words.iter().find_map(|w| type_width(w))?;
    // The declarator: the words after the type (a name, maybe `[N]` dimensions, maybe spaced).
    let type_pos = words.iter().position(|w| type_width(w).is_some())?;
    let declarator: String = words[type_pos + 1..].concat();
    let name: String = declarator.chars().take_while(|&c| ident_char(c)).collect();
    if name.is_empty() {
        return None;
    }
    let mut size = Some(width);
    for dim in declarator[name.len()..].split('[').skip(1) {
        let n = dim.trim_end_matches(']').trim().parse::<u64>().ok();
        size = size.zip(n).and_then(|(s, n)| s.checked_mul(n));
    }
    let (bytes, relocs) = init.map_or_else(Default::default, |i| initial_bytes(i, width));
    Some(DataVar {
        name,
        space,
        size,
        external: words.contains(&".extern"),
        line,
        bytes,
        relocs,
    })
}

/// Bytes per element of a PTX fundamental type (`.b8`, `.u32`, `.f64`, ...).
fn type_width(w: &str) -> Option<u64> {
    let mut t = w.strip_prefix('.')?.chars();
    let kind = t.next()?;
    let bits = t.as_str();
    if !matches!(kind, 'b' | 'u' | 's' | 'f') {
        return None;
    }
    match bits {
        "8" => Some(1),
        "16" => Some(2),
        "32" => Some(4),
        "64" => Some(8),
        _ => None,
    }
}

/// The bytes and pointers of an initialiser `{a, b, ...}` of `width`-byte elements (nested braces
/// of a multi-dimensional array are flattened).
fn initial_bytes(init: &str, width: u64) -> (Vec<u8>, Vec<Reloc>) {
    let flat: String = init.chars().filter(|c| !matches!(c, '{' | '}')).collect();
    let mut bytes = Vec::new();
    let mut relocs = Vec::new();
    for item in flat.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let offset = bytes.len();
        let (value, reloc) = element(item);
        if let Some((symbol, addend, byte)) = reloc {
            // A whole pointer, or byte 0 of one written a byte at a time (`0xFF(generic(x))`).
            if byte == 0 {
                relocs.push(Reloc {
                    offset,
                    symbol,
                    addend,
                });
            }
        }
        bytes.extend_from_slice(&value.to_le_bytes()[..width as usize]);
    }
    (bytes, relocs)
}

/// One initialiser element: its value, or the symbol (+ addend) it points to and which byte of
/// the pointer it is (0 for a whole pointer).
fn element(item: &str) -> (u64, Option<(String, u64, u32)>) {
    if let Some(v) = number(item) {
        return (v, None);
    }
    // `MASK(expr)`: one byte of a pointer, the byte MASK selects.
    let mut byte = 0;
    let mut e = item;
    if let Some(open) = e.find('(') {
        if let Some(mask) = number(&e[..open]) {
            byte = mask.trailing_zeros() / 8;
            e = e[open + 1..].strip_suffix(')').unwrap_or("");
        }
    }
    let e: String = e.replace("generic(", "").replace([')', ' '], "");
    let (sym, addend) = match e.split_once('+') {
        Some((s, a)) => (s.to_string(), number(a).unwrap_or(0)),
        None => (e, 0),
    };
    if sym.is_empty() || !sym.chars().all(ident_char) {
        return (0, None);
    }
    (0, Some((sym, addend, byte)))
}

/// A PTX integer literal (decimal, `0x` hex, octal is not written by LLVM, `-` allowed, `U`
/// suffix allowed) or a float given by its bits (`0f3F800000`, `0d...`).
fn number(s: &str) -> Option<u64> {
    let s = s.trim().trim_end_matches('U');
    if let Some(h) = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_prefix("0f"))
        .or_else(|| s.strip_prefix("0F"))
        .or_else(|| s.strip_prefix("0d"))
        .or_else(|| s.strip_prefix("0D"))
    {
        return u64::from_str_radix(h, 16).ok();
    }
    if let Some(n) = s.strip_prefix('-') {
        return n.parse::<u64>().ok().map(|v| v.wrapping_neg());
    }
    s.parse::<u64>().ok()
}

/// A `core::panic::Location` (`file: &str` as pointer and length, then line and column u32s) in
/// `var`, its file name read from the variable the pointer names: `(file, line, column)`.
pub fn location(var: &DataVar, data: &[DataVar]) -> Option<(String, u32, u32)> {
    let ptr = var.relocs.iter().find(|r| r.offset == 0)?;
    let b = var.bytes.get(8..24)?;
    let len = u64::from_le_bytes(b[..8].try_into().ok()?);
    let line = u32::from_le_bytes(b[8..12].try_into().ok()?);
    let col = u32::from_le_bytes(b[12..16].try_into().ok()?);
    let file_var = data.iter().find(|d| d.name == ptr.symbol)?;
    let start = usize::try_from(ptr.addend).ok()?;
    let end = start.checked_add(usize::try_from(len).ok()?)?;
    // The name lies within the variable: its declared size, else its initial bytes (no
    // allocation sized by a length read from the data).
    let limit = file_var
        .size
        .and_then(|s| usize::try_from(s).ok())
        .unwrap_or(file_var.bytes.len());
    if end > limit.max(file_var.bytes.len()) {
        return None;
    }
    let mut name = file_var
        .bytes
        .get(start..end.min(file_var.bytes.len()))?
        .to_vec();
    // Trailing zero bytes are left out of the initialiser: put them back.
    name.resize(end - start, 0);
    let file = String::from_utf8(name).ok()?;
    let file = file.trim_end_matches('\0').to_string();
    (line > 0 && !file.is_empty()).then_some((file, line, col))
}
