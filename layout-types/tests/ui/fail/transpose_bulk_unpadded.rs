// The bulk transpose of kernels/copy with its B tile unpadded: lanes store 128-bit vectors down
// consecutive rows of a (64,64):(64,1) f32 tile, every row starting in bank 0, so the eight lanes
// of a phase hit the same four banks. Padding the rows to 68 floats (the kernel's
// `TbTileB = (64,64):(68,1)`) passes.
use layout_types::check::BankConflictFree;
use layout_types::prelude::*;
use layout_types::value::swizzle::Swizzle;

/// Thread `t` takes column `n = t mod 64` and row quads `t / 64 + 4j` of the (n, m) tile.
type ColThr = Layout<(_64, _4), (_1, _64)>;
type Val = Layout<(_1, _4), (_0, _1)>;
type TileB = Layout<(_64, _64), (_64, _1)>;

fn main() {
    let () = BankConflictFree::<TileB, Swizzle<0, 4, 3>, ColThr, Val, f32, 4>::CHECK;
}
