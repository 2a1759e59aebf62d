// A 256 x 128 tile of f64 needs 256 KiB of shared memory; a Hopper block has 227 KB.
use layout_types::check::SmemTile;
use layout_types::prelude::*;

type Tile = Layout<(_256, _128), (_1, _256)>;
const BYTES: i64 = SmemTile::<Tile, f64>::BYTES;

fn main() {
    let _ = BYTES;
}
