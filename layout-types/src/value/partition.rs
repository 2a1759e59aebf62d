//! Partitioning: `local_tile` (inner partition) and `local_partition` (outer partition), with
//! optional projections (`Step` with `X`).
//!
//! These work on a tensor's layout; the pointer offset of the selected tile is returned beside the
//! tile's layout (see [`crate::value::tensor`] for the tensor form).
//!
//! ```
//! use layout_types::{value::layout::DynLayout, value::int_tuple::IntTuple, value::partition::*, text::parse::parse_tiler};
//! let a: DynLayout = "(4,6,8):(48,8,_1)".parse().unwrap();
//! let (tile, off) = local_tile(&a, &parse_tiler("(_2,_2)").unwrap(), &"(1,2)".parse().unwrap(), None).unwrap();
//! assert_eq!(tile.to_string(), "(_2,_2,8):(48,8,_1)");
//! assert_eq!(off.v, 2 * 48 + 4 * 8);
//! let t: DynLayout = "(8,6):(_1,8)".parse().unwrap();
//! let thr: DynLayout = "(_4,_2):(_1,_4)".parse().unwrap();
//! let (part, _) = local_partition(&t, &thr, 1, None).unwrap();
//! assert_eq!(part.to_string(), "(2,3):(_4,16)");
//! ```

use crate::value::algebra::Tiler;
use crate::value::divide::zipped_divide;
use crate::value::int_tuple::{IntTuple, Val};
use crate::{Error, tri, value::layout::DynLayout};

/// CuTe's `inner_partition(tensor, tiler, coord)`: the tile modes, at tile coordinate `coord`
/// (which may hold `_`). Returns `(layout, offset)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, text::parse::parse_tiler, value::partition::*};
/// let l: DynLayout = "(4,6,8):(48,8,_1)".parse().unwrap();
/// let t = parse_tiler("(_2,_2)").unwrap();
/// let (tile, off) = inner_partition(&l, &t, &"(1,2)".parse().unwrap()).unwrap();
/// assert_eq!(tile.to_string(), "(_2,_2,8):(48,8,_1)");
/// assert_eq!(off.v, 128); // tile (1,2): 2*48 + 2*2*8
/// ```
pub const fn inner_partition(
    l: &DynLayout,
    t: &Tiler,
    coord: &IntTuple,
) -> Result<(DynLayout, Val), Error> {
    partition_at(l, t, coord, true)
}

/// CuTe's `outer_partition(tensor, tiler, coord)`: the rest modes, at coordinate `coord` inside
/// the tile. Returns `(layout, offset)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, text::parse::parse_tiler, value::partition::*};
/// let l: DynLayout = "(8,6):(_1,8)".parse().unwrap();
/// let t = parse_tiler("(_4,_2)").unwrap();
/// let (part, off) = outer_partition(&l, &t, &"(1,0)".parse().unwrap()).unwrap();
/// assert_eq!(part.to_string(), "(2,3):(_4,16)");
/// assert_eq!(off.v, 1);
/// ```
pub const fn outer_partition(
    l: &DynLayout,
    t: &Tiler,
    coord: &IntTuple,
) -> Result<(DynLayout, Val), Error> {
    partition_at(l, t, coord, false)
}

/// `zipped_divide(l, t)` sliced at `coord` in the rest modes (`inner`, local_tile) or in the tile
/// modes (outer, local_partition); a tuple coordinate is padded with `_`.
const fn partition_at(
    l: &DynLayout,
    t: &Tiler,
    coord: &IntTuple,
    inner: bool,
) -> Result<(DynLayout, Val), Error> {
    let z = tri!(zipped_divide(l, t));
    let (r0, r1) = (z.get(0).rank(), z.get(1).rank());
    let all = IntTuple::under();
    let c = match (inner, coord.is_tuple()) {
        (true, true) => IntTuple::pair(&IntTuple::repeat(r0, &all), &coord.append_to(r1, &all)),
        (true, false) => IntTuple::pair(&IntTuple::repeat(r0, &all), coord),
        (false, true) => IntTuple::pair(&coord.append_to(r0, &all), &IntTuple::repeat(r1, &all)),
        (false, false) => IntTuple::pair(coord, &IntTuple::repeat(r1, &all)),
    };
    slice_checked(&z, &c)
}

const fn slice_checked(z: &DynLayout, c: &IntTuple) -> Result<(DynLayout, Val), Error> {
    if !c.weakly_congruent_under(&z.shape) {
        return Err(Error::new(
            "partition: the coordinate is not congruent with the tiled layout",
        ));
    }
    tri!(check_in_bounds(c, &z.shape));
    Ok(z.slice_and_offset(c))
}

/// Checks that every integer of a coordinate lies inside its (static or dynamic) mode.
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::partition::check_in_bounds};
/// let s: IntTuple = "(_2,_4)".parse().unwrap();
/// assert!(check_in_bounds(&"(1,_)".parse().unwrap(), &s).is_ok());
/// assert!(check_in_bounds(&"(2,0)".parse().unwrap(), &s).is_err());
/// ```
pub const fn check_in_bounds(c: &IntTuple, shape: &IntTuple) -> Result<(), Error> {
    if c.is_under() || c.is_x() {
        return Ok(());
    }
    if c.is_tuple() {
        let mut i = 0;
        while i < c.rank() {
            tri!(check_in_bounds(&c.get(i), &shape.get(i)));
            i += 1;
        }
        return Ok(());
    }
    let v = c.val().v;
    let s = shape.product().v;
    if v < 0 || v >= s {
        return Err(Error::with2(
            "coordinate {} is outside the shape: its mode has extent {}",
            v,
            s,
        ));
    }
    Ok(())
}

impl IntTuple {
    /// Like `weakly_congruent`, where `_` matches any mode.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let s: IntTuple = "((_2,_2),_4)".parse().unwrap();
    /// assert!("(_,1)".parse::<IntTuple>().unwrap().weakly_congruent_under(&s));
    /// assert!(!"(1,2,3)".parse::<IntTuple>().unwrap().weakly_congruent_under(&s));
    /// ```
    pub const fn weakly_congruent_under(&self, b: &IntTuple) -> bool {
        if self.is_under() || self.is_x() {
            return true;
        }
        if self.is_tuple() && b.is_tuple() {
            if self.rank() != b.rank() {
                return false;
            }
            let mut i = 0;
            while i < self.rank() {
                if !self.get(i).weakly_congruent_under(&b.get(i)) {
                    return false;
                }
                i += 1;
            }
            true
        } else {
            !self.is_tuple()
        }
    }
}

/// `local_tile(tensor, tiler, coord[, proj])`: the tile at `coord` (which may hold `_`), with the
/// tiler and coordinate first diced by `proj` when given. Returns `(tile layout, offset)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, text::parse::parse_tiler, value::partition::*};
/// let l: DynLayout = "(4,8):(8,_1)".parse().unwrap();
/// let t = parse_tiler("(_2,_2,_4)").unwrap();
/// let step = "(_1,X,_1)".parse().unwrap();
/// let (tile, off) = local_tile(&l, &t, &"(1,0,1)".parse().unwrap(), Some(&step)).unwrap();
/// assert_eq!(tile.to_string(), "(_2,_4):(8,_1)");
/// assert_eq!(off.v, 20); // row 2, column 4
/// let (all, _) = local_tile(&l, &t, &"(0,0,_)".parse().unwrap(), Some(&step)).unwrap();
/// assert_eq!(all.to_string(), "(_2,_4,2):(8,_1,_4)");
/// ```
pub const fn local_tile(
    l: &DynLayout,
    t: &Tiler,
    coord: &IntTuple,
    proj: Option<&IntTuple>,
) -> Result<(DynLayout, Val), Error> {
    match proj {
        Some(p) => {
            let td = tri!(t.dice(p));
            if coord.is_tuple() && p.is_tuple() && coord.rank() != p.rank() {
                return Err(Error::with2(
                    "the Step/projection has {} modes but the coordinate has {}; they must have the same rank",
                    p.rank() as i64,
                    coord.rank() as i64,
                ));
            }
            let cd = IntTuple::dice(p, coord);
            inner_partition(l, &td, &cd)
        }
        None => inner_partition(l, t, coord),
    }
}

/// `local_partition(tensor, thr_layout, thr_idx[, proj])`: thread `idx`'s elements when the
/// thread layout is tiled over the tensor. Returns `(layout, offset)`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::partition::local_partition};
/// let l: DynLayout = "(8,6):(_1,8)".parse().unwrap();
/// let thr: DynLayout = "(_4,_2):(_1,_4)".parse().unwrap();
/// let (part, off) = local_partition(&l, &thr, 1, None).unwrap();
/// assert_eq!((part.to_string(), off.v), ("(2,3):(_4,16)".to_string(), 1));
/// let (proj, _) = local_partition(&l, &thr, 1, Some(&"(_1,X)".parse().unwrap())).unwrap();
/// assert_eq!(proj.to_string(), "(2,6):(_4,8)");
/// ```
pub const fn local_partition(
    l: &DynLayout,
    thr: &DynLayout,
    idx: i64,
    proj: Option<&IntTuple>,
) -> Result<(DynLayout, Val), Error> {
    let n = thr.size().v;
    if idx < 0 || idx >= n {
        return Err(Error::with2(
            "local_partition: thread index {} is outside the thread layout of {} threads",
            idx,
            n,
        ));
    }
    // CuTe: local_partition(tensor, dice(proj, tile), index) -- the diced layout's strides pick
    // the thread's coordinate in the kept modes out of the full index.
    let tl = match proj {
        Some(p) => tri!(thr.dice(p)),
        None => *thr,
    };
    let tiler = tri!(Tiler::from_shape(&tl.shape.product_each()));
    let coord = tl.get_flat_coord(idx);
    outer_partition(l, &tiler, &coord)
}
