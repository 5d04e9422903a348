//! The keys a tile declaration (`#[smem_tile(...)]`, `smem_plan!`, and the tiles `smemdesc header
//! --from` reads), an MMA pairing (`#[smem_mma(...)]`), an epilogue tile and a fragment tile accept, with the values each takes: one
//! text for the macros' messages and the CLI's, so the two cannot drift apart.

/// Every key of a tile declaration with a human-readable list of the values it takes, in the order
/// the messages list them. The first five (`arch`, `operand`, `dtype`, `tile`, `major`) are the
/// required ones.
///
/// ```
/// use smemdesc_core::TILE_KEYS;
/// let swizzle = TILE_KEYS.iter().find(|(k, _)| *k == "swizzle").map(|(_, v)| *v);
/// assert_eq!(swizzle, Some("auto | none | 32B | 64B | 128B | 128B_base32B"));
/// assert_eq!(TILE_KEYS[..5].iter().map(|(k, _)| *k).collect::<Vec<_>>(),
///            ["arch", "operand", "dtype", "tile", "major"]);
/// ```
pub const TILE_KEYS: &[(&str, &str)] = &[
    (
        "arch",
        "sm90 | sm100 | sm100f | sm103 | sm107 | sm110 | sm120 | sm121",
    ),
    ("operand", "A | B"),
    (
        "dtype",
        "f16 | bf16 | tf32 | f32 | e4m3 | e5m2 | s8 | u8 | e2m3 | e3m2 | e2m1",
    ),
    ("tile", "(MN, K)"),
    ("major", "K | MN"),
    ("swizzle", "auto | none | 32B | 64B | 128B | 128B_base32B"),
    ("order", "mn_first | k_first"),
    ("mma", "mMnNkK (e.g. m64n256k16) | (M, N) | (M, N, K)"),
    (
        "kind",
        "f16 | tf32 | f8f6f4 | i8 | mxf8f6f4 | mxf4 | mxf4nvf4",
    ),
    ("stages", "an integer >= 1"),
    ("tma_box", "(rows, inner)"),
    ("cta_group", "1 | 2"),
    (
        "global_dims",
        "(dim0, dim1, ...) elements, innermost first, 2 to 5 of them; `_` for a run-time value",
    ),
    (
        "global_strides",
        "(stride1, ...) bytes of dims 1.., one fewer than global_dims; `_` for a run-time value",
    ),
];

/// The keys of `#[smem_mma(...)]` with the values each takes, as the macro and `smemdesc header
/// --from` list them in their messages.
///
/// ```
/// use smemdesc_core::MMA_KEYS;
/// assert!(MMA_KEYS.starts_with("accum = f16 | f32 | s32 (required), "));
/// assert!(MMA_KEYS.ends_with("vec = 16 | 32, cluster = (x, y), non_portable = true | false"));
/// ```
pub const MMA_KEYS: &str = "accum = f16 | f32 | s32 (required), negate_a = true | false, \
                            negate_b = true | false, saturate = true | false, sf = ue8m0 | ue4m3, \
                            vec = 16 | 32, cluster = (x, y), non_portable = true | false";

/// Every key of `#[smem_epilogue_tile(...)]` with the values it takes, as the macro and `smemdesc
/// header --from` list them in their messages.
///
/// ```
/// use smemdesc_core::EPI_KEYS;
/// assert_eq!(EPI_KEYS[0].0, "dtype");
/// assert!(EPI_KEYS.iter().any(|&(k, _)| k == "tma_swizzle"));
/// ```
pub const EPI_KEYS: &[(&str, &str)] = &[
    (
        "dtype",
        "f16 | bf16 (stmatrix or st_shared_4) | f32 | u32 | s32 (st_shared_8) | u64 | s64 (st_shared_16)",
    ),
    ("tile", "(M, N) in elements"),
    ("wgmma_n", "the accumulator's N (m64nNk*): a multiple of 8 up to 256"),
    ("major", "n | m"),
    ("stages", "1, 2, ..."),
    (
        "writer",
        "stmatrix_x1 | stmatrix_x2 | stmatrix_x4 | stmatrix_x1_trans | stmatrix_x2_trans | stmatrix_x4_trans | st_shared_4 | st_shared_8 | st_shared_16",
    ),
    (
        "reader",
        "tma_store | tma_reduce_add | tma_reduce_min | tma_reduce_max | tma_reduce_inc | tma_reduce_dec | tma_reduce_and | tma_reduce_or | tma_reduce_xor | loads",
    ),
    ("swizzle", "auto | none | 32B | 64B | 128B"),
    ("tma_swizzle", "none | 32B | 64B | 128B (the TMA store map's; must equal the tile's)"),
];

/// Every key of `#[smem_fragment_tile(...)]` with the values it takes, as the macro and `smemdesc
/// header --from` list them in their messages.
///
/// ```
/// use smemdesc_core::FRAG_KEYS;
/// assert_eq!(FRAG_KEYS[0], ("arch", "sm80 | sm86 | sm89 | sm90 | sm120"));
/// ```
pub const FRAG_KEYS: &[(&str, &str)] = &[
    ("arch", "sm80 | sm86 | sm89 | sm90 | sm120"),
    ("mma", "m16n8k4 | m16n8k8 | m16n8k16 | m16n8k32 | m16n8k64"),
    (
        "dtype",
        "f16 | bf16 | tf32 | s8 | u8 | e4m3 | e5m2 | e3m2 | e2m3 | e2m1",
    ),
    ("kind", "plain | f8f6f4 | mxf8f6f4 | mxf4 | mxf4nvf4"),
    (
        "scale_vec",
        "1X | 2X | 4X (block-scaled kinds; default: the kind's, none for mxf4nvf4)",
    ),
    ("stype", "ue8m0 | ue4m3 (with scale_vec)"),
    ("operand", "A | B | D (16-bit results, written with stmatrix)"),
    ("major", "K | MN"),
    ("tile", "(MN, K) in elements"),
    (
        "reader",
        "ldmatrix_x1 | ldmatrix_x2 | ldmatrix_x4 (A, B); stmatrix_x1 | stmatrix_x2 | stmatrix_x4 (D)",
    ),
    (
        "writer",
        "cp_async | tma | st_shared_4 | st_shared_8 | st_shared_16",
    ),
    ("swizzle", "auto | none | 32B | 64B | 128B"),
    ("conflict_free", "true | false"),
];
