// A register-sourced GMMA (`_RS`) reads A from registers, which must hold it K-major.
use layout_types::prelude::*;
use layout_types::static_mma::*;

type Mma = TiledMMA<SM90_64xNx16_F32BF16BF16_RS<64, MajorMN, MajorK>, Layout<(_1, _1, _1), (_0, _0, _0)>>;
const TILE: [i64; 3] = Mma::TILE_MNK;

fn main() {
    let _ = TILE;
}
