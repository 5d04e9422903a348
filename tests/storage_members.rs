//! `#[smem_storage]` members the review found miscounted: fields under `#[cfg]`, raw identifiers
//! and arrays of tiles. Expected values by hand from the rules (declaration order, each member at
//! the next multiple of its alignment; a 128B-swizzled tile on its 1024-B repeat).

use smemdesc::{smem_storage, smem_tile};

/// 128x64 bf16, K-major, 128B swizzle: 128 * 64 * 2 = 16384 B per stage, 1024-B aligned.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            mma = m64n256k16)]
pub struct TileA;

/// A field whose `#[cfg]` does not hold takes no bytes and generates nothing; one whose `#[cfg]`
/// holds counts as usual.
#[smem_storage(arch = sm90)]
pub struct Cfg {
    a: [u8; 16],
    #[cfg(any())]
    x: [u8; 3000],
    #[cfg(test)]
    y: [u8; 8],
    #[cfg(any())]
    #[smem(align = 1024)]
    z: [u8; 16],
    b: [u32; 4],
}

/// Alternatives under opposite `#[cfg]`s may share a name.
#[smem_storage(arch = sm90)]
pub struct Alt {
    #[cfg(any())]
    v: [u8; 100],
    #[cfg(not(any()))]
    v: [u8; 24],
    w: u64,
}

#[smem_storage(arch = sm90)]
pub struct Raw {
    r#type: [u8; 16],
    r#match: u64,
}

#[smem_storage(arch = sm90)]
pub struct Tiles {
    bar: u64,
    t: [TileA; 2],
    c: [u8; 4],
}

#[test]
fn cfg_fields_count_only_when_their_cfg_holds() {
    // a: 16 B at 0; x: absent; y: 8 B at 16; b: 16 B at 24 (multiple of 4); ends at 40.
    assert_eq!(
        [Cfg::A_OFFSET, Cfg::Y_OFFSET, Cfg::B_OFFSET, Cfg::BYTES],
        [0, 16, 24, 40]
    );
    assert_eq!(Cfg::LAYOUT.member_count(), 3);
    assert_eq!(Cfg::LAUNCH_BYTES, 40);
    // v: the 24-B alternative at 0; w: 8 B at 24.
    assert_eq!([Alt::V_BYTES, Alt::W_OFFSET, Alt::BYTES], [24, 24, 32]);
}

#[test]
fn raw_identifiers_name_their_items_without_the_prefix() {
    assert_eq!([Raw::TYPE_OFFSET, Raw::TYPE_BYTES], [0, 16]);
    assert_eq!([Raw::MATCH_OFFSET, Raw::MATCH_BYTES], [16, 8]);
    assert_eq!(Raw::r#type(0x400), 0x400);
    assert_eq!(Raw::type_at(0x400, 3), 0x403);
    assert_eq!(Raw::LAYOUT.member(0).name, "type");
}

#[test]
fn arrays_of_tiles_take_every_element() {
    // bar: 8 B at 0; t: 2 x 16384 B at the next 1024 B = 1024; c: 4 B at 1024 + 32768 = 33792.
    assert_eq!(
        [Tiles::T_OFFSET, Tiles::T_BYTES, Tiles::T_ALIGN],
        [1024, 32768, 1024]
    );
    assert_eq!([Tiles::C_OFFSET, Tiles::BYTES], [33792, 33796]);
    assert_eq!(Tiles::t_at(0, 1), 1024 + 16384);
}

mod m {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    pub struct T;
}
use m::T as Q;

/// The storage `smemdesc-cli/tests/header_from_review.rs` gives `header --from`: the macro's
/// numbers must be the same (worked by hand there and here).
#[smem_storage(arch = sm90)]
pub struct Renamed {
    bar: u64,
    q: Q,
    w: u128,
    arr: [m::T; 2],
}

#[test]
fn renamed_tiles_u128_and_tile_arrays() {
    // bar: 8 B at 0; q: 16384 B at 1024; w: 16 B aligned to 16 at 17408; arr: 32768 B at 18432.
    assert_eq!(
        [
            Renamed::Q_OFFSET,
            Renamed::W_OFFSET,
            Renamed::W_ALIGN,
            Renamed::ARR_OFFSET
        ],
        [1024, 17408, 16, 18432]
    );
    assert_eq!([Renamed::ARR_BYTES, Renamed::BYTES], [32768, 51200]);
}
