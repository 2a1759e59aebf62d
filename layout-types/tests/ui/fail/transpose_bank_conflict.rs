// The transpose of kernels/copy without its swizzle: the store side reads a column of the
// row-major 64x64 f32 smem tile, so eight lanes of a phase land in one bank.
use layout_types::check::BankConflictFree;
use layout_types::prelude::*;
use layout_types::value::swizzle::Swizzle;

type StoreThr = Layout<((_4, _4), (_8, _2)), ((_8, _64), (_1, _32))>;
type Val = Layout<(_1, _4), (_0, _1)>;
/// The row-major (m, n) smem tile seen from the (n, m) output tile.
type TileNM = Layout<(_64, _64), (_1, _64)>;

fn main() {
    // Swizzle<3, 2, 6> passes; the identity swizzle does not.
    let () = BankConflictFree::<TileNM, Swizzle<0, 4, 3>, StoreThr, Val, f32, 1>::CHECK;
}
