// A TiledMMA of 2x2 SM80 16x8x16 atoms covers a 32x16 tile of C; a 48x64 CTA tile is not a
// whole number of those tiles along M (CuTe would read past the tile without a word).
use layout_types::prelude::*;
use layout_types::static_mma::*;

type Mma = TiledMMA<SM80_16x8x16_F32F16F16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>>;
type Cta = Layout<(_48, _64), (_1, _48)>;
const ACC: DynLayout = <PartitionC<Mma, Cta> as StaticLayout>::VALUE;

fn main() {
    let _ = ACC;
}
