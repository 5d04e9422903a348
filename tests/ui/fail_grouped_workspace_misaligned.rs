// A map workspace staged in shared memory whose slots are not 128-B aligned: a tensor map is a
// 128-B aligned object (PTX ISA, tensormap.replace), so the declaration is refused where it is
// made, not at the first rewrite (issue 46, item 3).
use smemdesc::grouped::{MapSpace, MapWorkspaceDecl};

// Two slots per stage, two stages, 64 B past a 128-B boundary.
const WS: MapWorkspaceDecl = MapWorkspaceDecl::declare(MapSpace::Shared { offset: 0x1040 }, 2, 2);

fn main() {
    let _ = WS.cta_bytes();
}
