//! What `#[smem_pipeline]` expands to calls (internal; not an API): the checks by error class,
//! each emitted on the key it is about, and the layout.

use smemdesc_core::pipeline::{PipelineError, PipelineLayout, PipelineSpec};

/// The class of `e` (the core's [`PipelineKey`](smemdesc_core::pipeline::PipelineKey) as a number: the macro's check classes) and the
/// load it names (`usize::MAX`: none).
const fn class(e: &PipelineError) -> (u32, usize) {
    let (key, load) = e.key();
    (
        key as u32,
        match load {
            Some(l) => l,
            None => usize::MAX,
        },
    )
}

/// Fails (a compile error where the macro put it) when `spec`'s error is of class `cls` (and
/// names load `load`, for per-load classes).
#[doc(hidden)]
pub const fn __check(spec: &PipelineSpec, cls: u32, load: usize) {
    if let Err(e) = spec.build() {
        let (c, l) = class(&e);
        if c == cls && (l == load || l == usize::MAX) {
            panic!("{}", e.message(spec).as_str());
        }
    }
}

/// The layout; an error of a class in `covered` (a check on its key reports it) yields the
/// layout without the stated numbers (`base`) or a stand-in, any other fails here.
#[doc(hidden)]
pub const fn __layout(spec: &PipelineSpec, base: &PipelineSpec, covered: u32) -> PipelineLayout {
    match spec.build() {
        Ok(p) => p,
        Err(e) => {
            if covered & (1 << class(&e).0) == 0 {
                panic!("{}", e.message(spec).as_str());
            }
            if let Ok(p) = base.build() {
                return p;
            }
            match smemdesc_core::pipeline::PipelineSpec::new(spec.arch, 1)
                .load(smemdesc_core::pipeline::PipelineLoad::bytes(
                    "stand-in", 16, 1,
                ))
                .build()
            {
                Ok(p) => p,
                Err(_) => panic!("the stand-in pipeline is legal"),
            }
        }
    }
}

/// The barrier array `name` of `bytes` holds one mbarrier per stage (of a declaration that is
/// otherwise legal: another error is reported on its own key).
#[doc(hidden)]
pub const fn __check_barriers(name: &str, bytes: u32, base: &PipelineSpec) {
    let stages = match base.build() {
        Ok(p) => p.stages(),
        Err(_) => return,
    };
    if bytes != 8 * stages {
        panic!(
            "{}",
            smemdesc_core::ConstText::<256>::new()
                .str("pipeline: the storage's barrier array `")
                .str(name)
                .str("` holds ")
                .num(bytes / 8)
                .str(" mbarriers but the pipeline has ")
                .num(stages)
                .str(" stages; legal: [Mbarrier; ")
                .num(stages)
                .str("]")
                .as_str()
        );
    }
}

/// The multicast plan of tile `T` in cluster `(x, y)` (the `#[smem_mma]` plan: the tile's own
/// TMA box). `#[smem_pipeline]` evaluates it at the declaration, on the load's name in
/// `multicast`, so a tile that cannot be shared is refused by `cargo check`.
#[doc(hidden)]
pub const fn __multicast<T: crate::SmemTile>(x: u32, y: u32) -> crate::cluster::Multicast {
    let c = match crate::cluster::Cluster::new(x, y) {
        Ok(c) => c,
        Err(_) => panic!("pipeline: illegal cluster (reported on `cluster`)"),
    };
    match c.multicast(
        T::OPERAND,
        &T::PLAN.tile,
        Some((T::PLAN.tma.box_rows, T::PLAN.tma.box_inner)),
    ) {
        Ok(m) => m,
        Err(e) => panic!("{}", multicast_message(&e).as_str()),
    }
}

/// Why a tile cannot be multicast, with the legal counts.
const fn multicast_message(e: &crate::cluster::ClusterError) -> smemdesc_core::ConstText<512> {
    let t = smemdesc_core::ConstText::<512>::new().str("pipeline: multicast: ");
    match *e {
        crate::cluster::ClusterError::NotDividing {
            operand,
            count,
            box_rows,
            atom_rows,
            legal,
        } => {
            let mut t = t
                .str(operand.name())
                .str(" is shared by ")
                .num(count)
                .str(" CTAs, but its ")
                .num(box_rows)
                .str("-row TMA box does not cut into slices of whole ")
                .num(atom_rows)
                .str("-row swizzle atoms (each CTA issues one slice of every box; an MN-major tile stacked mn_first has boxes one atom deep along K); legal: no multicast, a tile whose boxes split (order = k_first for MN-major), or multicast counts:");
            let mut c = 1;
            while c <= 16 {
                if legal & (1 << c) != 0 {
                    t = t.str(" ").num(c);
                }
                c += 1;
            }
            t
        }
        _ => t.str(
            "the tile's TMA plan does not split among the CTAs sharing it; legal: no multicast",
        ),
    }
}
