//! Products: `logical_product`, its zipped, tiled and flat forms, `blocked_product` and
//! `raked_product`.
//!
//! ```
//! use layout_types::{value::layout::DynLayout, value::product::*, text::parse::parse_tiler};
//! let block: DynLayout = "(_2,_2):(_1,_2)".parse().unwrap();
//! let tiler: DynLayout = "(_3,_4):(_1,_3)".parse().unwrap();
//! assert_eq!(blocked_product(&block, &tiler).unwrap().to_string(), "((_2,_3),(_2,_4)):((_1,_4),(_2,_12))");
//! assert_eq!(raked_product(&block, &tiler).unwrap().to_string(), "((_3,_2),(_4,_2)):((_4,_1),(_12,_2))");
//! ```

use crate::value::algebra::{ByMode, Tiler, by_mode_rank, complement, composition};
use crate::value::divide::{tile_unzip, unpack};
use crate::value::int_tuple::IntTuple;
use crate::{Error, tri, value::layout::DynLayout};

/// `logical_product(block, tiler)`: `(block, composition(complement(block, size(block)*cosize(tiler)), tiler))`,
/// by mode for a by-mode tiler; the whole tiler `_` returns `block`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::Tiler, value::product::*};
/// let b: DynLayout = "(_2,_2):(_4,_1)".parse().unwrap();
/// let t = Tiler::layout("_6:_1".parse().unwrap());
/// let r = logical_product(&b, &t).unwrap();
/// assert_eq!(r.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
/// ```
pub const fn logical_product(b: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    if t.is_whole_under() {
        return Ok(*b);
    }
    if !t.by_mode {
        let tl = t.modes;
        let cot = b.size().mul(tl.cosize());
        let c = tri!(complement(b, &IntTuple::leaf(cot)));
        let r = tri!(composition(&c, &tl));
        return Ok(DynLayout::from_modes(&[*b, r]));
    }
    product_by_mode(b, t)
}

/// `logical_product` mode by mode: mode `i` of the layout by mode `i` of the tiler (`_`, or no tiler mode,
/// keeps the layout's mode as it is).
const fn product_by_mode(a: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    let n = tri!(by_mode_rank(a, t, ByMode::Product));
    let mut sh = IntTuple::empty();
    let mut st = IntTuple::empty();
    let mut i = 0;
    while i < n {
        let ai = a.get(i);
        let m = if i >= t.rank() || t.is_under(i) {
            ai
        } else {
            let ti = tri!(t.mode(i));
            tri!(logical_product(&ai, &ti))
        };
        sh.push(&m.shape);
        st.push(&m.stride);
        i += 1;
    }
    Ok(DynLayout::raw(sh, st))
}

/// `zipped_product(block, tiler)`: `((block modes...),(tiler modes...))`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::Tiler, value::product::*};
/// let tile: DynLayout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let m = Tiler::layout("(_3,_4):(_4,_1)".parse().unwrap());
/// let r = zipped_product(&tile, &m).unwrap();
/// assert_eq!(r.to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
/// ```
pub const fn zipped_product(b: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    let p = tri!(logical_product(b, t));
    tile_unzip(&p, t)
}

/// `tiled_product(block, tiler)`: `((block modes...), t0, t1, ...)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::Tiler, value::product::*};
/// let tile: DynLayout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let m = Tiler::layout("(_3,_4):(_4,_1)".parse().unwrap());
/// let r = tiled_product(&tile, &m).unwrap();
/// assert_eq!(r.to_string(), "((_2,_2),_3,_4):((_1,_2),_16,_4)");
/// ```
pub const fn tiled_product(b: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    let z = tri!(zipped_product(b, t));
    Ok(unpack(&z, false, true))
}

/// `flat_product(block, tiler)`: `(b0, b1, ..., t0, t1, ...)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::Tiler, value::product::*};
/// let tile: DynLayout = "(_2,_2):(_1,_2)".parse().unwrap();
/// let m = Tiler::layout("(_3,_4):(_4,_1)".parse().unwrap());
/// let r = flat_product(&tile, &m).unwrap();
/// assert_eq!(r.to_string(), "(_2,_2,_3,_4):(_1,_2,_16,_4)");
/// ```
pub const fn flat_product(b: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    let z = tri!(zipped_product(b, t));
    Ok(unpack(&z, true, true))
}

const fn zip_layouts(a: &DynLayout, b: &DynLayout) -> DynLayout {
    DynLayout::raw(
        zip_tuples(&a.shape, &b.shape),
        zip_tuples(&a.stride, &b.stride),
    )
}

const fn zip_tuples(a: &IntTuple, b: &IntTuple) -> IntTuple {
    if a.is_tuple() {
        let mut r = IntTuple::empty();
        let mut i = 0;
        while i < a.rank() {
            r.push(&IntTuple::pair(&a.get(i), &b.get(i)));
            i += 1;
        }
        r
    } else {
        IntTuple::wrap1(&IntTuple::pair(a, b))
    }
}

const fn rank_padded_product(b: &DynLayout, t: &DynLayout) -> Result<DynLayout, Error> {
    let r = if b.rank() > t.rank() {
        b.rank()
    } else {
        t.rank()
    };
    let bp = b.append_to(r);
    let tp = t.append_to(r);
    logical_product(&bp, &Tiler::layout(tp))
}

/// `blocked_product(block, tiler)`: the block repeated over the tiler, mode by mode:
/// `((b0,t0),(b1,t1),...)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::product::*};
/// let block: DynLayout = "(_2,_5):(_5,_1)".parse().unwrap();
/// let tiler: DynLayout = "(_3,_4):(_1,_3)".parse().unwrap();
/// let r = blocked_product(&block, &tiler).unwrap();
/// assert_eq!(r.to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
/// ```
pub const fn blocked_product(b: &DynLayout, t: &DynLayout) -> Result<DynLayout, Error> {
    let p = tri!(rank_padded_product(b, t));
    Ok(zip_layouts(&p.get(0), &p.get(1)))
}

/// `raked_product(block, tiler)`: the block interleaved over the tiler: `((t0,b0),(t1,b1),...)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::product::*};
/// let block: DynLayout = "(_2,_5):(_5,_1)".parse().unwrap();
/// let tiler: DynLayout = "(_3,_4):(_1,_3)".parse().unwrap();
/// let r = raked_product(&block, &tiler).unwrap();
/// assert_eq!(r.to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
/// ```
pub const fn raked_product(b: &DynLayout, t: &DynLayout) -> Result<DynLayout, Error> {
    let p = tri!(rank_padded_product(b, t));
    Ok(zip_layouts(&p.get(1), &p.get(0)))
}
