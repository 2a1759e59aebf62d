//! Divides: `logical_divide` and its zipped, tiled and flat forms.
//!
//! ```
//! use layout_types::{value::layout::DynLayout, value::divide::*, text::parse::parse_tiler};
//! let gmem: DynLayout = "(_256,_32):(_1,_256)".parse().unwrap();
//! let thr = parse_tiler("(_32,_8):(_1,_32)").unwrap();
//! assert_eq!(zipped_divide(&gmem, &thr).unwrap().to_string(), "((_32,_8),_32):((_1,_32),_256)");
//! let t = parse_tiler("(_2,_2)").unwrap();
//! let l: DynLayout = "(4,6,8):(48,8,_1)".parse().unwrap();
//! assert_eq!(zipped_divide(&l, &t).unwrap().to_string(), "((_2,_2),(2,3,8)):((48,8),(96,16,_1))");
//! ```

use crate::value::algebra::{
    ByMode, Tiler, TilerMode, by_mode_rank, coalesce, complement, composition,
};
use crate::value::int_tuple::IntTuple;
use crate::{Error, tri, value::layout::DynLayout};

/// `logical_divide(layout, tiler)`: `composition(layout, (tiler, complement(tiler)))`, by mode for
/// a by-mode tiler. Result modes: (tile, rest) at each tiled mode. The whole tiler `_` returns
/// `layout`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::divide::*, text::parse::parse_tiler};
/// let l: DynLayout = "(_4,_2,_3):(_2,_1,_8)".parse().unwrap();
/// let t = parse_tiler("_4:_2").unwrap();
/// let r = logical_divide(&l, &t).unwrap();
/// assert_eq!(r.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
/// ```
pub const fn logical_divide(l: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    if t.is_whole_under() {
        return Ok(*l);
    }
    if !t.by_mode {
        let tl = t.modes;
        let c = tri!(complement(&tl, &coalesce(l).shape));
        return composition(l, &DynLayout::from_modes(&[tl, c]));
    }
    divide_by_mode(l, t)
}

/// `logical_divide` mode by mode: mode `i` of the layout by mode `i` of the tiler (`_`, or no tiler mode,
/// keeps the layout's mode as it is).
const fn divide_by_mode(a: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    let n = tri!(by_mode_rank(a, t, ByMode::Divide));
    let mut sh = IntTuple::empty();
    let mut st = IntTuple::empty();
    let mut i = 0;
    while i < n {
        let ai = a.get(i);
        let m = if i >= t.rank() || t.is_under(i) {
            ai
        } else {
            let ti = tri!(t.mode(i));
            tri!(logical_divide(&ai, &ti))
        };
        sh.push(&m.shape);
        st.push(&m.stride);
        i += 1;
    }
    Ok(DynLayout::raw(sh, st))
}

/// CuTe's `zip2_by`: gather the rank-2 modes found at the tiler's terminals into
/// `((tiles...),(rests..., untouched modes...))`.
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::divide::zip2_by, text::parse::parse_tiler};
/// let x: IntTuple = "((_3,_2),(_4,_5))".parse().unwrap();
/// let t = parse_tiler("(_3,_4)").unwrap();
/// assert_eq!(zip2_by(&x, &t).unwrap().to_string(), "((_3,_4),(_2,_5))");
/// ```
pub const fn zip2_by(x: &IntTuple, t: &Tiler) -> Result<IntTuple, Error> {
    if !t.by_mode {
        if x.rank() != 2 {
            return Err(Error::new("zip2_by: mismatched ranks"));
        }
        return Ok(*x);
    }
    let gr = t.rank();
    if x.rank() < gr {
        return Err(Error::new("zip2_by: mismatched ranks"));
    }
    let mut a = IntTuple::empty();
    let mut b = IntTuple::empty();
    let mut i = 0;
    while i < gr {
        let xi = x.get(i);
        let split = if matches!(t.kinds[i], TilerMode::Shape) {
            let ti = tri!(t.mode(i));
            tri!(zip2_by(&xi, &ti))
        } else {
            xi
        };
        if !split.is_tuple() || split.rank() != 2 {
            return Err(Error::new("zip2_by: a tiled mode is not rank 2"));
        }
        a.push(&split.get(0));
        b.push(&split.get(1));
        i += 1;
    }
    while i < x.rank() {
        b.push(&x.get(i));
        i += 1;
    }
    Ok(IntTuple::pair(&a, &b))
}

/// `tile_unzip(layout, tiler)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::divide::*, text::parse::parse_tiler};
/// let l: DynLayout = "((_3,_2),(_4,_5)):((_16,_1),(_48,_2))".parse().unwrap();
/// let t = parse_tiler("(_3,_4)").unwrap();
/// let r = tile_unzip(&l, &t).unwrap();
/// assert_eq!(r.to_string(), "((_3,_4),(_2,_5)):((_16,_48),(_1,_2))");
/// ```
pub const fn tile_unzip(l: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    Ok(DynLayout::raw(
        tri!(zip2_by(&l.shape, t)),
        tri!(zip2_by(&l.stride, t)),
    ))
}

/// `zipped_divide(layout, tiler)`: `((tile modes...),(rest modes...))`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::divide::*, text::parse::parse_tiler};
/// let l: DynLayout = "((_3,_2),(_4,_5)):((_16,_1),(_48,_2))".parse().unwrap();
/// let t = parse_tiler("(_3,_4)").unwrap();
/// let r = zipped_divide(&l, &t).unwrap();
/// assert_eq!(r.to_string(), "((_3,_4),(_2,_5)):((_16,_48),(_1,_2))");
/// ```
pub const fn zipped_divide(l: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    let d = tri!(logical_divide(l, t));
    tile_unzip(&d, t)
}

/// `result(_, repeat<R1>(_))`-style unpacking of mode `m` (0 or 1) of a rank-2 layout, or both.
pub(crate) const fn unpack(l: &DynLayout, first: bool, second: bool) -> DynLayout {
    let r0 = l.get(0).rank();
    let r1 = l.get(1).rank();
    let c0 = if first {
        IntTuple::repeat(r0, &IntTuple::under())
    } else {
        IntTuple::under()
    };
    let c1 = if second {
        IntTuple::repeat(r1, &IntTuple::under())
    } else {
        IntTuple::under()
    };
    l.slice(&IntTuple::pair(&c0, &c1))
}

/// `tiled_divide(layout, tiler)`: `((tile modes...), rest0, rest1, ...)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::divide::*, text::parse::parse_tiler};
/// let l: DynLayout = "((_3,_2),(_4,_5)):((_16,_1),(_48,_2))".parse().unwrap();
/// let t = parse_tiler("(_3,_4)").unwrap();
/// let r = tiled_divide(&l, &t).unwrap();
/// assert_eq!(r.to_string(), "((_3,_4),_2,_5):((_16,_48),_1,_2)");
/// ```
pub const fn tiled_divide(l: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    let z = tri!(zipped_divide(l, t));
    Ok(unpack(&z, false, true))
}

/// `flat_divide(layout, tiler)`: `(tile0, tile1, ..., rest0, rest1, ...)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::divide::*, text::parse::parse_tiler};
/// let l: DynLayout = "((_3,_2),(_4,_5)):((_16,_1),(_48,_2))".parse().unwrap();
/// let t = parse_tiler("(_3,_4)").unwrap();
/// let r = flat_divide(&l, &t).unwrap();
/// assert_eq!(r.to_string(), "(_3,_4,_2,_5):(_16,_48,_1,_2)");
/// ```
pub const fn flat_divide(l: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    let z = tri!(zipped_divide(l, t));
    Ok(unpack(&z, true, true))
}
