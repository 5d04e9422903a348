//! The type-level handle (`TileAt<T, M>`, what `#[smem_storage]` accessors return) against the
//! value-based form (`PlacedTile<M>` over the core's `TileDecl::build()` run here at test time,
//! which evaluates the layout algebra through its own loops) and the core's TMA plan, for every
//! declaration of `cases/macro_cases.rs`: every subtile of every stage, the checked
//! forms' errors, sampled elements, every TMA box, both placement models, and the computed
//! table entries (`advance_mn(i)`, `tma_box_offset(b)`, ...) against the core's.
//!
//! One walk (`walk`) reads every form through the small [`Handle`] trait, which both forms
//! implement, into plain numbers ([`Read`]); the two walks' numbers must be equal.

use smemdesc::core::*;
use smemdesc::smem::TileAt;
use smemdesc::{smem_tile, SmemTile};

/// What a walk reads from a placed tile: the forms both kinds of handle have.
trait Handle {
    fn base_offset(&self) -> u8;
    fn stage_addr(&self, s: u32) -> u32;
    fn try_desc(&self, mn: u32, k: u32, s: u32) -> Result<u64, Error>;
    fn desc_wrapping(&self, mn: u32, k: u32, s: u32) -> u64;
    fn desc_advanced(&self, units: u32) -> u64;
    fn try_address(&self, mn: u32, k: u32, s: u32) -> Result<u32, Error>;
    /// `None` under the relative model (no TMA destination).
    fn tma_dst(&self, b: u32, s: u32) -> Option<u32>;
}

/// The TMA destination of a handle under model `M`: only the absolute model has one. (A trait of
/// the model rather than a `match M::PLACEMENT`, whose dead arm a debug build still compiles for
/// every relative handle: 776 copies of the absolute `tma_dst`.)
trait TmaDst: PlacementModel {
    fn tma_dst<T: SmemTile>(addr: u32, b: u32, s: u32) -> Option<u32>;
}

impl TmaDst for Absolute {
    fn tma_dst<T: SmemTile>(addr: u32, b: u32, s: u32) -> Option<u32> {
        Some(TileAt::<T, Absolute>::new_unvalidated(addr).tma_dst(b, s))
    }
}

impl TmaDst for Relative {
    fn tma_dst<T: SmemTile>(_: u32, _: u32, _: u32) -> Option<u32> {
        None
    }
}

impl<T: SmemTile, M: TmaDst> Handle for TileAt<T, M> {
    fn base_offset(&self) -> u8 {
        TileAt::base_offset(self)
    }
    fn stage_addr(&self, s: u32) -> u32 {
        TileAt::stage_addr(self, s)
    }
    fn try_desc(&self, mn: u32, k: u32, s: u32) -> Result<u64, Error> {
        TileAt::try_desc(self, mn, k, s).map(|d| d.raw())
    }
    fn desc_wrapping(&self, mn: u32, k: u32, s: u32) -> u64 {
        TileAt::desc_wrapping(self, mn, k, s)
    }
    fn desc_advanced(&self, units: u32) -> u64 {
        TileAt::desc_advanced(self, units)
    }
    fn try_address(&self, mn: u32, k: u32, s: u32) -> Result<u32, Error> {
        TileAt::try_address(self, mn, k, s)
    }
    fn tma_dst(&self, b: u32, s: u32) -> Option<u32> {
        M::tma_dst::<T>(self.addr(), b, s)
    }
}

/// The value-based form with the tile's TMA plan.
struct Value<M>(PlacedTile<M>, TmaPlan);

impl<M: PlacementModel> Handle for Value<M> {
    fn base_offset(&self) -> u8 {
        self.0.base_offset()
    }
    fn stage_addr(&self, s: u32) -> u32 {
        self.0.stage_addr(s)
    }
    fn try_desc(&self, mn: u32, k: u32, s: u32) -> Result<u64, Error> {
        self.0.try_desc(mn, k, s).map(|d| d.raw())
    }
    fn desc_wrapping(&self, mn: u32, k: u32, s: u32) -> u64 {
        self.0.desc_wrapping(mn, k, s)
    }
    fn desc_advanced(&self, units: u32) -> u64 {
        self.0.desc_advanced(units)
    }
    fn try_address(&self, mn: u32, k: u32, s: u32) -> Result<u32, Error> {
        self.0.try_address(mn, k, s)
    }
    fn tma_dst(&self, b: u32, s: u32) -> Option<u32> {
        match M::PLACEMENT {
            Placement::Absolute => {
                let abs = PlacedTile::<Absolute>::new_unvalidated(self.0.tile(), self.0.addr());
                Some(abs.tma_dst(&self.1, b, s))
            }
            Placement::Relative => None,
        }
    }
}

/// The tile's counts (from the core's plan: the walk's bounds are the reference's, not the
/// handle's).
#[derive(Clone, Copy)]
struct Counts {
    mmas: [u32; 2],
    stages: u32,
    tile: [u32; 2],
    boxes: u32,
}

/// One number (or checked result) a walk reads, with the form and indices that gave it. The two
/// sides' lists are compared entry by entry; a mismatch prints both entries. (Values, not
/// formatted strings: formatting was most of this file's run time.)
#[derive(Debug, PartialEq)]
enum Read {
    BaseOffset(u8),
    StageAddr {
        s: u32,
        addr: u32,
    },
    /// `try_desc`, `desc_wrapping`, and `desc_wrapping` at the indices plus the counts.
    Desc {
        mn: u32,
        k: u32,
        s: u32,
        checked: Result<u64, Error>,
        wrapping: u64,
        wrapped: u64,
    },
    TmaDst {
        b: u32,
        s: u32,
        dst: Option<u32>,
    },
    TryDesc {
        mn: u32,
        k: u32,
        s: u32,
        desc: Result<u64, Error>,
    },
    DescAdvanced(u64),
    TryAddress {
        mn: u32,
        k: u32,
        s: u32,
        addr: Result<u32, Error>,
    },
    /// `try_address` of a sampled element in the last stage.
    Address {
        mn: u32,
        k: u32,
        addr: Result<u32, Error>,
    },
    AdvanceMn {
        i: u32,
        units: u32,
    },
    AdvanceK {
        i: u32,
        units: u32,
    },
    Box {
        b: u32,
        coord: [u32; 2],
        offset: u32,
    },
    /// `offset`, `offset_wrapping` at `mn + tile_mn`, and `try_offset`.
    Offset {
        mn: u32,
        k: u32,
        offset: u32,
        wrapping: u32,
        checked: Result<u32, Error>,
    },
}

/// Every form at every index in range, one past each range, and wrapped indices.
fn walk(h: &dyn Handle, c: Counts, out: &mut Vec<Read>) {
    out.push(Read::BaseOffset(h.base_offset()));
    let [mmas_mn, mmas_k] = c.mmas;
    for s in 0..c.stages {
        out.push(Read::StageAddr {
            s,
            addr: h.stage_addr(s),
        });
        for mn in 0..mmas_mn {
            for k in 0..mmas_k {
                out.push(Read::Desc {
                    mn,
                    k,
                    s,
                    checked: h.try_desc(mn, k, s),
                    wrapping: h.desc_wrapping(mn, k, s),
                    wrapped: h.desc_wrapping(mn + mmas_mn, k + mmas_k, s),
                });
            }
        }
        for b in 0..c.boxes {
            out.push(Read::TmaDst {
                b,
                s,
                dst: h.tma_dst(b, s),
            });
        }
    }
    for (mn, k, s) in [
        (mmas_mn, 0, 0),
        (0, mmas_k, 0),
        (0, 0, c.stages),
        (u32::MAX, 0, 0),
    ] {
        let desc = h.try_desc(mn, k, s);
        out.push(Read::TryDesc { mn, k, s, desc });
    }
    out.push(Read::DescAdvanced(h.desc_advanced(3)));
    let [tile_mn, tile_k] = c.tile;
    for (mn, k, s) in [(tile_mn, 0, 0), (0, tile_k, 0), (0, 0, c.stages)] {
        let addr = h.try_address(mn, k, s);
        out.push(Read::TryAddress { mn, k, s, addr });
    }
    for (mn, k) in elements(tile_mn, tile_k) {
        let addr = h.try_address(mn, k, c.stages - 1);
        out.push(Read::Address { mn, k, addr });
    }
}

/// Sampled element coordinates: a stride prime to the atoms' powers of two, and the last ones.
fn elements(tile_mn: u32, tile_k: u32) -> impl Iterator<Item = (u32, u32)> {
    let mns: Vec<u32> = (0..tile_mn).step_by(7).chain([tile_mn - 1]).collect();
    let ks: Vec<u32> = (0..tile_k).step_by(5).chain([tile_k - 1]).collect();
    mns.into_iter()
        .flat_map(move |mn| ks.clone().into_iter().map(move |k| (mn, k)))
}

/// Tile `T`'s own functions, taken as pointers (the generic part: one small function per
/// declaration). Everything that loops over them, `handle_side` and `check_with`, is compiled once
/// instead of once per declaration: with 776 declarations, the per-type copies were most of this
/// file's build time.
struct TypeFns {
    absolute: fn(u32) -> Box<dyn Handle>,
    relative: fn(u32) -> Box<dyn Handle>,
    advance_mn: fn(u32) -> u16,
    advance_k: fn(u32) -> u16,
    tma_box_coord: fn(u32) -> [u32; 2],
    tma_box_offset: fn(u32) -> u32,
    offset: fn(u32, u32) -> u32,
    offset_wrapping: fn(u32, u32) -> u32,
    try_offset: fn(u32, u32) -> Result<u32, Error>,
}

/// `T`'s `SmemTile::offset` as a pointer, taken here only: `macro_consts` compares this pointer's
/// results with the inherent `offset`, so both files call one copy of its body per tile (a pointer
/// taken in each file was a copy in each file's codegen unit).
pub(crate) fn trait_offset<T: SmemTile>() -> fn(u32, u32) -> u32 {
    T::offset
}

fn type_fns<T: SmemTile + 'static>() -> TypeFns {
    TypeFns {
        absolute: |a| Box::new(TileAt::<T, Absolute>::new_unvalidated(a)),
        relative: |a| Box::new(TileAt::<T, Relative>::new_unvalidated(a)),
        advance_mn: T::advance_mn,
        advance_k: T::advance_k,
        tma_box_coord: T::tma_box_coord,
        tma_box_offset: T::tma_box_offset,
        offset: trait_offset::<T>(),
        offset_wrapping: T::offset_wrapping,
        try_offset: T::try_offset,
    }
}

/// The handle's walks and entries for the tile of `t` at the given addresses.
fn handle_side(t: &TypeFns, addrs: &[u32], c: Counts) -> Vec<Read> {
    let mut out = Vec::new();
    for &a in addrs {
        walk(&*(t.absolute)(a), c, &mut out);
        walk(&*(t.relative)(a), c, &mut out);
    }
    out.extend((0..c.mmas[0]).map(|i| Read::AdvanceMn {
        i,
        units: (t.advance_mn)(i).into(),
    }));
    out.extend((0..c.mmas[1]).map(|i| Read::AdvanceK {
        i,
        units: (t.advance_k)(i).into(),
    }));
    for b in 0..c.boxes {
        let (coord, offset) = ((t.tma_box_coord)(b), (t.tma_box_offset)(b));
        out.push(Read::Box { b, coord, offset });
    }
    let [tile_mn, tile_k] = c.tile;
    for (mn, k) in elements(tile_mn, tile_k) {
        out.push(Read::Offset {
            mn,
            k,
            offset: (t.offset)(mn, k),
            wrapping: (t.offset_wrapping)(mn + tile_mn, k),
            checked: (t.try_offset)(mn, k),
        });
    }
    out
}

/// The same from the core's plan built now (not generic).
fn reference_side(plan: &TilePlan, addrs: &[u32], c: Counts) -> Vec<Read> {
    let (tile, tma) = (plan.tile, plan.tma);
    let mut out = Vec::new();
    for &a in addrs {
        let abs = Value(PlacedTile::<Absolute>::new_unvalidated(tile, a), tma);
        let rel = Value(PlacedTile::<Relative>::new_unvalidated(tile, a), tma);
        walk(&abs, c, &mut out);
        walk(&rel, c, &mut out);
    }
    out.extend((0..c.mmas[0]).map(|i| Read::AdvanceMn {
        i,
        units: tile.advance_mn(i),
    }));
    out.extend((0..c.mmas[1]).map(|i| Read::AdvanceK {
        i,
        units: tile.advance_k(i),
    }));
    for b in 0..c.boxes {
        let (mn, k) = tma.box_coord(b);
        let offset = tma.box_offset(&tile, b);
        out.push(Read::Box {
            b,
            coord: [mn, k],
            offset,
        });
    }
    let access = tile.access();
    let [tile_mn, tile_k] = c.tile;
    for (mn, k) in elements(tile_mn, tile_k) {
        let offset = access.offset(mn, k);
        out.push(Read::Offset {
            mn,
            k,
            offset,
            wrapping: offset,
            checked: access.try_offset(mn, k),
        });
    }
    out
}

/// Mismatches of tile `T` (declared through the macro) against `decl` built by the core now.
fn check<T: SmemTile + 'static>(name: &str, decl: TileDecl) -> Vec<String> {
    check_with(name, decl, &type_fns::<T>())
}

fn check_with(name: &str, decl: TileDecl, t: &TypeFns) -> Vec<String> {
    let plan = decl.build().expect("a generated case is legal");
    let (tile, access) = (plan.tile, plan.tile.access());
    let c = Counts {
        mmas: [tile.mmas_mn(), tile.mmas_k()],
        stages: tile.spec().stages,
        tile: [tile.spec().tile_mn, tile.spec().tile_k],
        boxes: plan.tma.boxes,
    };
    // Swizzled tiles need 128 B (sm90) or the repeat (sm100); 0x2180 rounded down is off the
    // repeat (the relative model's base offset); `top` is the highest base the start field
    // names, `top + align` one past it; 0x410 is unaligned for every swizzled tile.
    let align = access.align;
    let top = ((1u32 << 18) - access.last_start - 16) / align * align;
    let addrs = [0, 0x400, 0x2180 / align * align, top, top + align, 0x410];
    let got = handle_side(t, &addrs, c);
    let want = reference_side(&plan, &addrs, c);
    if got.len() != want.len() {
        return vec![format!(
            "{name}: {} numbers, reference {}",
            got.len(),
            want.len()
        )];
    }
    got.iter()
        .zip(&want)
        .filter(|(g, w)| g != w)
        .map(|(g, w)| format!("{name}: TileAt `{g:?}`, reference `{w:?}`"))
        .collect()
}

macro_rules! case {
    ($t:ident, $core:expr, $golden:expr) => {
        check::<$t>(stringify!($t), $core)
    };
}

#[test]
fn tile_at_equals_the_value_form_for_every_generated_declaration() {
    use crate::macro_cases::*;
    // Every generated declaration, each giving its mismatches.
    let all: Vec<Vec<String>> = generated_cases!(case);
    // 776 with SMEMDESC_FULL_GRID (CI), the 237 sampled ones without (macro_cases.rs).
    let want = if cfg!(smemdesc_full_grid) { 776 } else { 237 };
    assert_eq!(all.len(), want, "generated cases");
    let bad: Vec<String> = all.into_iter().flatten().collect();
    assert!(
        bad.is_empty(),
        "{} mismatches, first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

/// A storage member accessor is the handle at `base + OFFSET`, one `u32` wide.
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
    // The descriptor of a tile at `A_OFFSET`: the start field is the offset in 16-B units.
    assert_eq!(
        Storage::A_DESC,
        TileA8::DESC + u64::from(Storage::A_OFFSET >> 4)
    );
}
