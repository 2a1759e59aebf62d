// Rows of a smem tile stored as 3 x 4 blocks, divided into 4-row tiles: the 4-row tile does not
// fit the 3-row blocks (Shape Divisibility Condition), reported while evaluating a `const` item.
use layout_types::prelude::*;

type Smem = Layout<((_3, _4), _8), ((_1, _4), _16)>;
type Tiler = (_4, _8);
const TILES: i64 = <ZippedDivide<Smem, Tiler> as StaticLayout>::SIZE;

fn main() {
    let _ = TILES;
}
