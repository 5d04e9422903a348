//! The value spellings several attributes share: a word of the source (`stmatrix_x4_trans`,
//! `st_shared_16`, ...) to the core's value, for the macros and `smemdesc header --from` alike.
//! `None` for a word that is not one of them (the caller's message lists the legal ones, from
//! the core's key tables).

use smemdesc_core::epilogue::EpiWriter;
use smemdesc_core::fragment::Writer;
use smemdesc_core::SwizzleMode;

/// `writer = …` of `#[smem_fragment_tile]`: who fills the operand tile before `ldmatrix` reads
/// it: `cp_async` (`cp.async` of 16 B per thread), `tma` (the tensor copy) or `st_shared_4`,
/// `st_shared_8`, `st_shared_16` (`st.shared` of that many bytes per thread: `.b32`, `.v2.b32`,
/// `.v4.b32`; PTX ISA, "Data Movement and Conversion Instructions: st").
///
/// ```
/// use smemdesc_core::fragment::Writer;
/// use smemdesc_grammar::words::fragment_writer;
///
/// assert_eq!(fragment_writer("cp_async"), Some(Writer::CpAsync16));
/// assert_eq!(fragment_writer("st_shared_8"), Some(Writer::StShared { bytes: 8 }));
/// assert_eq!(fragment_writer("st.shared.8"), None); // the CLI flag's spelling, not the key's
/// ```
pub fn fragment_writer(name: &str) -> Option<Writer> {
    Some(match name {
        "cp_async" => Writer::CpAsync16,
        "tma" => Writer::Tma,
        "st_shared_4" => Writer::StShared { bytes: 4 },
        "st_shared_8" => Writer::StShared { bytes: 8 },
        "st_shared_16" => Writer::StShared { bytes: 16 },
        _ => return None,
    })
}

/// `writer = …` of `#[smem_epilogue_tile]`: how the epilogue writes the C/D tile to shared
/// memory: `stmatrix_x1`, `_x2`, `_x4` (`stmatrix.sync.aligned.m8n8.x1/.x2/.x4`, each with a
/// `_trans` form for `.trans`; PTX ISA, "Warp-level matrix store instruction: stmatrix") or
/// `st_shared_4`, `st_shared_8`, `st_shared_16` (`st.shared` of that many bytes per thread).
///
/// ```
/// use smemdesc_core::epilogue::EpiWriter;
/// use smemdesc_grammar::words::epilogue_writer;
///
/// assert_eq!(epilogue_writer("stmatrix_x4_trans"), Some(EpiWriter::Stmatrix { num: 4, trans: true }));
/// assert_eq!(epilogue_writer("st_shared_16"), Some(EpiWriter::StShared { bytes: 16 }));
/// assert_eq!(epilogue_writer("stmatrix_x8"), None); // stmatrix has .x1, .x2, .x4
/// ```
pub fn epilogue_writer(name: &str) -> Option<EpiWriter> {
    let stm = |num, trans| EpiWriter::Stmatrix { num, trans };
    Some(match name {
        "stmatrix_x1" => stm(1, false),
        "stmatrix_x2" => stm(2, false),
        "stmatrix_x4" => stm(4, false),
        "stmatrix_x1_trans" => stm(1, true),
        "stmatrix_x2_trans" => stm(2, true),
        "stmatrix_x4_trans" => stm(4, true),
        "st_shared_4" => EpiWriter::StShared { bytes: 4 },
        "st_shared_8" => EpiWriter::StShared { bytes: 8 },
        "st_shared_16" => EpiWriter::StShared { bytes: 16 },
        _ => return None,
    })
}

/// `swizzle = …` (and `tma_swizzle`) of `#[smem_epilogue_tile]` and `#[smem_fragment_tile]`:
/// `auto` (`Some(None)`: the core chooses) or a swizzle mode by its name (`none`, `32B`, `64B`,
/// `128B`), `Some(Some(mode))`. `128B_base32B`, which only `#[smem_tile]` takes (the core's
/// `TILE_KEYS`; these tiles' `EPI_KEYS` and `FRAG_KEYS` list `auto | none | 32B | 64B | 128B`),
/// is `None` with the unknown words.
///
/// ```
/// use smemdesc_core::SwizzleMode;
/// use smemdesc_grammar::words::tile_swizzle;
///
/// assert_eq!(tile_swizzle("auto"), Some(None));
/// assert_eq!(tile_swizzle("128B"), Some(Some(SwizzleMode::B128)));
/// assert_eq!(tile_swizzle("128B_base32B"), None);
/// ```
pub fn tile_swizzle(name: &str) -> Option<Option<SwizzleMode>> {
    if name == "auto" {
        return Some(None);
    }
    match SwizzleMode::from_name(name) {
        Some(SwizzleMode::B128Base32B) | None => None,
        Some(m) => Some(Some(m)),
    }
}

/// `reader = …` of `#[smem_fragment_tile]`: the warp instruction that reads (or, for the C/D
/// tile, writes) it, as (matrices per instruction, whether it is `stmatrix`):
/// `ldmatrix_x1`, `_x2`, `_x4` and `stmatrix_x1`, `_x2`, `_x4` (`.x1/.x2/.x4`: one, two or four
/// 8x8 matrices; PTX ISA, "Warp-level matrix load instruction: ldmatrix" and "stmatrix").
///
/// ```
/// use smemdesc_grammar::words::fragment_reader;
///
/// assert_eq!(fragment_reader("ldmatrix_x4"), Some((4, false)));
/// assert_eq!(fragment_reader("stmatrix_x2"), Some((2, true)));
/// assert_eq!(fragment_reader("ldmatrix_x8"), None);
/// ```
pub fn fragment_reader(name: &str) -> Option<(u32, bool)> {
    Some(match name {
        "ldmatrix_x1" => (1, false),
        "ldmatrix_x2" => (2, false),
        "ldmatrix_x4" => (4, false),
        "stmatrix_x1" => (1, true),
        "stmatrix_x2" => (2, true),
        "stmatrix_x4" => (4, true),
        _ => return None,
    })
}
