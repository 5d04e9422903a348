//! Unaligned-placement classes (spec §7): operand A sits at `base + P` past a 1024-aligned base,
//! P = 0x80 … 0x380, for each swizzle and major-ness, under each placement model:
//!
//! * `absolute`: TMA writes A's boxes straight to `base + P` (the swizzle lands on absolute address
//!   bits) and the descriptors carry base_offset 0 (`PlacedTile<Absolute>`);
//! * `relative`: TMA writes A to an aligned staging area, then the threads copy the stage bytes
//!   verbatim to `base + P` — a pattern that restarts at the tile start — and the descriptors carry
//!   `(P >> 7) & 7` (`PlacedTile<Relative>`).
//!
//! One negative control per model reads its bytes with the other model's base_offset and must
//! mismatch. B stays aligned in every class.

use crate::class::{ClassCfg, OperandCfg};
use smemdesc_core::{
    Absolute, ElementType, Major, Order, Placement, Relative, SmemDescriptor, SwizzleMode,
    TileLayout,
};

/// The placements (bytes past the 1024-aligned base) every unaligned class walks.
pub const OFFSETS: [u32; 7] = [0x80, 0x100, 0x180, 0x200, 0x280, 0x300, 0x380];

impl ClassCfg {
    /// The placement model A's descriptors follow: the writer's, or the other one for a
    /// placement negative control.
    pub fn desc_model(&self) -> Placement {
        if self.wrong_placement {
            other(self.placement)
        } else {
            self.placement
        }
    }

    /// A negative control (must mismatch).
    pub fn negative(&self) -> bool {
        self.wrong_sbo || self.wrong_placement
    }
}

/// The descriptor of MMA subtile `(i, k)` of stage `s` for `tile` at `addr` under `model`.
pub fn placed_desc(
    tile: &TileLayout,
    model: Placement,
    addr: u32,
    i: u32,
    k: u32,
    s: u32,
) -> Result<SmemDescriptor, String> {
    let d = match model {
        Placement::Absolute => tile
            .place::<Absolute>(addr)
            .and_then(|p| p.try_desc(i, k, s)),
        Placement::Relative => tile
            .place::<Relative>(addr)
            .and_then(|p| p.try_desc(i, k, s)),
    };
    d.map_err(|e| format!("{} desc({i},{k},{s}) at {addr:#x}: {e}", model.name()))
}

/// The other model (a negative control's descriptors).
pub fn other(p: Placement) -> Placement {
    match p {
        Placement::Absolute => Placement::Relative,
        Placement::Relative => Placement::Absolute,
    }
}

fn swz(s: SwizzleMode) -> &'static str {
    match s {
        SwizzleMode::B32 => "sw32",
        SwizzleMode::B64 => "sw64",
        _ => "sw128",
    }
}

/// Appends the unaligned classes: bf16, K- and MN-major, 32B/64B/128B, every P, both models, then
/// one negative control per model (128B K-major at P = 0x80).
pub fn push_classes(v: &mut Vec<ClassCfg>) {
    let b = OperandCfg {
        major: Major::K,
        swizzle: SwizzleMode::B128,
        order: Order::MnFirst,
    };
    let mut push = |major: Major, swizzle: SwizzleMode, p: u32, model: Placement, neg: bool| {
        let a = OperandCfg {
            major,
            swizzle,
            order: match major {
                Major::K => Order::MnFirst,
                Major::Mn => Order::KFirst,
            },
        };
        let m = if major == Major::K { "K" } else { "MN" };
        let name = format!("bf16_A{m}_{}_at_{p:#x}_{}", swz(swizzle), model.name());
        v.push(ClassCfg {
            name: if neg {
                format!("NEGATIVE_{}_base_offset_{name}", other(model).name())
            } else {
                name
            },
            dtype: ElementType::BF16,
            a,
            b,
            wrong_sbo: false,
            placement: model,
            smem_offset: p,
            wrong_placement: neg,
        });
    };
    for major in [Major::K, Major::Mn] {
        for swizzle in [SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128] {
            for p in OFFSETS {
                for model in [Placement::Absolute, Placement::Relative] {
                    push(major, swizzle, p, model, false);
                }
            }
        }
    }
    for model in [Placement::Absolute, Placement::Relative] {
        push(Major::K, SwizzleMode::B128, 0x80, model, true);
    }
}
