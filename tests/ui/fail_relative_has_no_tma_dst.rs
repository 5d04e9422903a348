// TMA writes on absolute addresses: a tile placed under the relative model has no TMA destination,
// so relative descriptors cannot be combined with a TMA load by accident.
use smemdesc::core::*;

fn main() {
    let p = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 64, 64)
        .build()
        .unwrap();
    let rel = p.tile.place::<Relative>(0x480).unwrap();
    let _ = rel.tma_dst(&p.tma, 0, 0);
}
