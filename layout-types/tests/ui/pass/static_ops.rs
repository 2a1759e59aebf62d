// The valid counterparts of the compile-fail cases: they build, and their values are constants.
use layout_types::check::{SmemTile, TiledCopyTv, VectorCopy, thread_layout, tiled_copy};
use layout_types::prelude::*;

const TILES: i64 =
    <ZippedDivide<((_4, _4), _8), ((_1, _4), _16), (_4, _8)> as StaticLayoutValue>::SIZE;
const BYTES: i64 = SmemTile::<Layout<(_128, _64), (_1, _128)>, f32>::BYTES;
type Tv = TiledCopyTv<Layout<(_16, _16), (_1, _16)>, Layout<(_8, _1), (_1, _0)>>;
type Tile = Layout<(_128, _16), (_1, _128)>;
const VEC: i64 = VectorCopy::<Tile, Tile, Tv, u16, 128>::VECTOR_ELEMS;

fn main() {
    let c = composition(layout!((_4, _8):(_1, _4)), layout!(_4:_1));
    assert_eq!(c.to_string(), "_4:_1");
    let c = composition(layout!((_4, _8):(_1, _8)), layout!(_2:_8));
    assert_eq!(c.to_string(), "_2:_16");
    assert_eq!(TILES, 128);
    let a = layout!((_4, _8):(_1, _4));
    assert_eq!(a.crd2idx((_2, _7)).to_string(), "_30");
    assert_eq!(layout!((_4, _8):(_8, _1)).slice((_3, Underscore)).to_string(), "(_8):(_1)");
    let l = layout!((_128, _64, _32):(_1, _128, _8192));
    assert_eq!(l.dice((_1, X, _1)).to_string(), "(_128,_32):(_1,_8192)");
    let _copy = tiled_copy::<u16, 128, _, _, _, _>(
        layout!((_64, _32):(_1, _64)),
        layout!((_64, _32):(_1, _64)),
        layout!((_8, _32):(_1, _8)),
        layout!((_8, _1):(_1, _0)),
    );
    assert_eq!(BYTES, 32768);
    assert_eq!(VEC, 8);
    assert_eq!(thread_layout(layout!((_32, _32):(_1, _32))).to_string(), "(_32,_32):(_1,_32)");
    assert_eq!(left_inverse(layout!((_4, _2):(_2, _1))).to_string(), "(_2,_4):(_4,_1)");
    assert_eq!(complement(layout!((_4, _2):(_1, _8)), _32).to_string(), "(_2,_2):(_4,_16)");
}
