//! The type-level handle (`TileAt<T, M>`, what `#[smem_storage]` accessors return) against the
//! value-based form (`PlacedTile<M>` over the core's `TileDecl::build()` run here at test time,
//! which evaluates the layout algebra through its own loops) and the core's TMA plan, for every
//! declaration of `tests/generated/macro_cases.rs`: every subtile of every stage, the checked
//! forms' errors, sampled elements, every TMA box, both placement models, and the computed
//! table entries (`advance_mn(i)`, `tma_box_offset(b)`, ...) against the arrays.

use smemdesc::core::*;
use smemdesc::smem::TileAt;
use smemdesc::{smem_tile, SmemTile};

/// Mismatches of tile `T` (declared through the macro) against `decl` built by the core now.
fn check<T: SmemTile>(name: &str, decl: TileDecl) -> Vec<String> {
    let mut bad = Vec::new();
    let plan = decl.build().expect("a generated case is legal");
    let tile = plan.tile;
    let mut diff = |what: String, got: String, want: String| {
        if got != want {
            bad.push(format!("{name}: {what}: TileAt {got}, reference {want}"));
        }
    };
    for i in 0..T::MMAS_MN {
        diff(
            format!("advance_mn({i})"),
            T::advance_mn(i).to_string(),
            tile.advance_mn(i).to_string(),
        );
    }
    for i in 0..T::MMAS_K {
        diff(
            format!("advance_k({i})"),
            T::advance_k(i).to_string(),
            tile.advance_k(i).to_string(),
        );
    }
    for b in 0..plan.tma.boxes {
        let (mn0, k0) = plan.tma.box_coord(b);
        diff(
            format!("tma_box_coord({b})"),
            format!("{:?}", T::tma_box_coord(b)),
            format!("{:?}", [mn0, k0]),
        );
        diff(
            format!("tma_box_offset({b})"),
            T::tma_box_offset(b).to_string(),
            plan.tma.box_offset(&tile, b).to_string(),
        );
    }
    // Swizzled tiles need 128 B (sm90) or the repeat (sm100); 0x2180 is off the repeat for the
    // relative model's base offset, the last address near the top of the 14-bit start field.
    let align = T::ACCESS.align;
    let top = ((1u32 << 18) - T::ACCESS.last_start - 16) / align * align;
    for addr in [0, 0x400, 0x2180 / align * align, top, top + align] {
        model::<T, Absolute>(&mut diff, &tile, &plan.tma, addr);
        model::<T, Relative>(&mut diff, &tile, &plan.tma, addr);
    }
    // Errors of the checked forms: out-of-range indices and an unaligned address.
    let t = TileAt::<T>::new_unvalidated(0x400);
    let p = PlacedTile::<Absolute>::new_unvalidated(tile, 0x400);
    for (mn, k, s) in [
        (T::MMAS_MN, 0, 0),
        (0, T::MMAS_K, 0),
        (0, 0, T::STAGES),
        (u32::MAX, 0, 0),
    ] {
        diff(
            format!("try_desc({mn}, {k}, {s}) error"),
            format!("{:?}", t.try_desc(mn, k, s)),
            format!("{:?}", p.try_desc(mn, k, s)),
        );
    }
    for (mn, k, s) in [(T::TILE_MN, 0, 0), (0, T::TILE_K, 0), (0, 0, T::STAGES)] {
        diff(
            format!("try_address({mn}, {k}, {s}) error"),
            format!("{:?}", t.try_address(mn, k, s)),
            format!("{:?}", p.try_address(mn, k, s)),
        );
    }
    if align > 16 {
        let (t, p) = (
            TileAt::<T>::new_unvalidated(0x410),
            PlacedTile::<Absolute>::new_unvalidated(tile, 0x410),
        );
        diff(
            "try_desc at 0x410".into(),
            format!("{:?}", t.try_desc(0, 0, 0)),
            format!("{:?}", p.try_desc(0, 0, 0)),
        );
    }
    // The tile's own offsets (stage 0, tile on the repeat) through the handle.
    let access = tile.access();
    for (mn, k) in elements(T::TILE_MN, T::TILE_K) {
        diff(
            format!("offset({mn}, {k})"),
            T::offset(mn, k).to_string(),
            access.offset(mn, k).to_string(),
        );
        diff(
            format!("offset_wrapping({mn} + TILE_MN, {k})"),
            T::offset_wrapping(mn + T::TILE_MN, k).to_string(),
            access.offset(mn, k).to_string(),
        );
    }
    bad
}

/// Sampled element coordinates: a stride prime to the atoms' powers of two, and the last ones.
fn elements(tile_mn: u32, tile_k: u32) -> impl Iterator<Item = (u32, u32)> {
    let mns: Vec<u32> = (0..tile_mn).step_by(7).chain([tile_mn - 1]).collect();
    let ks: Vec<u32> = (0..tile_k).step_by(5).chain([tile_k - 1]).collect();
    mns.into_iter()
        .flat_map(move |mn| ks.clone().into_iter().map(move |k| (mn, k)))
}

/// Every form of `TileAt<T, M>` at `addr` against `PlacedTile<M>`.
fn model<T: SmemTile, M: PlacementModel>(
    diff: &mut impl FnMut(String, String, String),
    tile: &TileLayout,
    tma: &TmaPlan,
    addr: u32,
) {
    let t = TileAt::<T, M>::new_unvalidated(addr);
    let p = PlacedTile::<M>::new_unvalidated(*tile, addr);
    let m = M::PLACEMENT.name();
    diff(
        format!("{m} base_offset at {addr:#x}"),
        t.base_offset().to_string(),
        p.base_offset().to_string(),
    );
    for s in 0..T::STAGES {
        diff(
            format!("{m} stage_addr({s}) at {addr:#x}"),
            t.stage_addr(s).to_string(),
            p.stage_addr(s).to_string(),
        );
        for mn in 0..T::MMAS_MN {
            for k in 0..T::MMAS_K {
                let want = format!("{:?}", p.try_desc(mn, k, s).map(|d| d.raw()));
                diff(
                    format!("{m} try_desc({mn}, {k}, {s}) at {addr:#x}"),
                    format!("{:?}", t.try_desc(mn, k, s).map(|d| d.raw())),
                    want,
                );
                let wrapped = p.desc_wrapping(mn, k, s);
                diff(
                    format!("{m} desc_wrapping({mn}, {k}, {s}) at {addr:#x}"),
                    format!("{:#x}", t.desc_wrapping(mn, k, s)),
                    format!("{wrapped:#x}"),
                );
                diff(
                    format!("{m} desc_wrapping({mn} + MMAS_MN, {k} + MMAS_K, {s}) at {addr:#x}"),
                    format!("{:#x}", t.desc_wrapping(mn + T::MMAS_MN, k + T::MMAS_K, s)),
                    format!("{wrapped:#x}"),
                );
            }
        }
        for b in 0..tma.boxes {
            if let Ok(abs) = tile.place::<Absolute>(addr) {
                let t = TileAt::<T>::new_unvalidated(addr);
                diff(
                    format!("tma_dst({b}, {s}) at {addr:#x}"),
                    t.tma_dst(b, s).to_string(),
                    abs.tma_dst(tma, b, s).to_string(),
                );
            }
        }
    }
    diff(
        format!("{m} desc_advanced(3) at {addr:#x}"),
        format!("{:#x}", t.desc_advanced(3)),
        format!("{:#x}", p.desc_advanced(3)),
    );
    // Element addresses: the value form does not divide K for packed fp4 (one byte holds two
    // values); the tile's own offset does, and so does the handle.
    if T::ACCESS.values_per_cell == 1 {
        let last = T::STAGES - 1;
        for (mn, k) in elements(T::TILE_MN, T::TILE_K) {
            diff(
                format!("{m} address({mn}, {k}, {last}) at {addr:#x}"),
                format!("{:?}", t.try_address(mn, k, last)),
                format!("{:?}", p.try_address(mn, k, last)),
            );
        }
    }
}

macro_rules! case {
    ($t:ident, $core:expr, $golden:expr) => {
        check::<$t>(stringify!($t), $core)
    };
}

// Defines `cases() -> Vec<..>` over every generated declaration.
mod generated {
    use super::*;
    type Case = Vec<String>;
    pub(super) fn all() -> Vec<Vec<String>> {
        cases()
    }
    include!("generated/macro_cases.rs");
}

#[test]
fn tile_at_equals_the_value_form_for_every_generated_declaration() {
    let all = generated::all();
    assert!(all.len() > 700, "{} cases", all.len());
    let bad: Vec<String> = all.into_iter().flatten().collect();
    assert!(
        bad.is_empty(),
        "{} mismatches, first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

/// A storage member accessor is the handle at `base + OFFSET`.
#[test]
fn storage_accessor_is_the_typed_handle() {
    #[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K,
                swizzle = 64B, mma = m64n128k32, stages = 3)]
    struct TileA8;
    #[smemdesc::smem_storage(arch = sm90)]
    struct Storage {
        bars: [Mbarrier; 6],
        a: TileA8,
    }
    let a: TileAt<TileA8> = Storage::a(0x400);
    assert_eq!(a.addr(), 0x400 + Storage::A_OFFSET);
    assert_eq!(core::mem::size_of_val(&a), 4);
    for wg in 0..2 {
        for s in 0..3 {
            assert_eq!(a.desc(wg, 0, s), TileA8::desc(a.addr(), wg, 0, s));
        }
    }
    assert_eq!(
        Storage::A_DESC,
        TileA8::DESC + u64::from(Storage::A_OFFSET >> 4)
    );
}
