// The transpose of kernels/copy with its Sw<3,2,6> swizzle: both smem sides conflict-free.
use layout_types::check::BankConflictFree;
use layout_types::prelude::*;
use layout_types::value::swizzle::Swizzle;

type LoadThr = Layout<(_16, _16), (_16, _1)>;
type StoreThr = Layout<((_4, _4), (_8, _2)), ((_8, _64), (_1, _32))>;
type Val = Layout<(_1, _4), (_0, _1)>;
type Tile = Layout<(_64, _64), (_64, _1)>;
type TileNM = Layout<(_64, _64), (_1, _64)>;

fn main() {
    let () = BankConflictFree::<Tile, Swizzle<3, 2, 6>, LoadThr, Val, f32, 4>::CHECK;
    let () = BankConflictFree::<TileNM, Swizzle<3, 2, 6>, StoreThr, Val, f32, 1>::CHECK;
}
