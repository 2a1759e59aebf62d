// The valid counterparts of tests/ui/fail/typed_*.rs build and run.
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!((_16, _8):(_1, _16));
    let (tile, off) = local_tile(a, (_8, _8), (1i32, 0i32));
    assert_eq!((tile.to_string().as_str(), off), ("(_8,_8):(_1,_16)", 8));
    let (part, _) = local_partition(tile, layout!((_8, _4):(_1, _8)), 5u32);
    assert_eq!(part.to_string(), "(_1,_2):(_0,_64)");
    assert_eq!(complement(layout!((_4, _2):(_1, _4)), _16).to_string(), "_2:_8");
    assert_eq!(complement(layout!(_4:2i32), _16).to_string(), "(2,2):(_1,8)");
    let mut x = [1f32; 128];
    let mut y = [0f32; 128];
    let sx = make_tensor(make_gmem_ptr(x.as_mut_ptr()), a);
    let sy = make_tensor(make_gmem_ptr(y.as_mut_ptr()), a);
    let tc = make_tiled_copy(UniversalCopy::<f32>::new(), layout!((_4, _8):(_1, _4)), layout!((_1, _1):(_0, _0)));
    for t in 0..32u32 {
        let thr = tc.get_slice(t);
        unsafe { copy(&tc, &thr.partition_s(&sx), &thr.partition_d(&sy)) };
    }
    assert_eq!(x, y);
    let f = Fragment::<f32, _>::new(make_layout_left((_4, _2)));
    assert_eq!(*f.at(_7), 0.0);
}
