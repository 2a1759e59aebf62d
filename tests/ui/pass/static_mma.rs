// The valid counterparts of the TiledMMA / tile_to_shape compile-fail cases: constants, built at
// compile time.
use layout_types::prelude::*;
use layout_types::static_mma::*;

type Mma = TiledMMA<SM80_16x8x16_F32F16F16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>>;
type Cta = Layout<(_64, _64), (_1, _64)>;
const ACC: DynLayout = <PartitionC<Mma, Cta> as StaticLayout>::VALUE;
const ELEMS: i64 = TileToShape::<Layout_K_SW128_Atom<16>, (_128, _64, _3)>::COSIZE;
type Wg = TiledMMA<SM90_64xNx16_F32BF16BF16_RS<64, MajorK, MajorMN>, Layout<(_1, _1, _1), (_0, _0, _0)>>;
const TILE: [i64; 3] = Wg::TILE_MNK;

fn main() {
    assert_eq!(ACC.shape.to_string(), "((_2,_2),_2,_4)");
    assert_eq!(ELEMS, 128 * 64 * 3);
    assert_eq!(TILE, [64, 64, 16]);
}
