// TMA writes on absolute addresses: a tile placed under the relative model has no TMA destination,
// so relative descriptors cannot be combined with a TMA load by accident (the value-based form
// and the type-level handle alike).
use smemdesc::core::*;
use smemdesc::smem::TileAt;

#[smemdesc::smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
struct T;

fn main() {
    let p = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 64, 64)
        .build()
        .unwrap();
    let rel = p.tile.place::<Relative>(0x480).unwrap();
    let _ = rel.tma_dst(&p.tma, 0, 0);
    let typed = TileAt::<T, Relative>::new_unvalidated(0x480);
    let _ = typed.tma_dst(0, 0);
}
