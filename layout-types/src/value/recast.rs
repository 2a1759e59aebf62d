//! Changing the element type under a layout: CuTe's `upcast<N>`, `downcast<N>` and
//! `recast_layout<Old, New>`. A layout over `b`-bit elements becomes a layout over `N*b`-bit
//! (upcast) or `b/N`-bit (downcast) elements: the stride-1 mode shrinks (grows) by `N`, every
//! other stride is divided (multiplied) by `N`.
//!
//! Copy atoms are written over bits (`SM75_U32x4_LDSM_N`'s `SrcLayout` maps `(thr, bit)` to a
//! bit) and GMMA's shared-memory atoms over bits too; `recast_layout` turns them into layouts of
//! elements, exactly as CuTe does.
//!
//! ```
//! use layout_types::{value::layout::DynLayout, value::recast::*};
//! let bits: DynLayout = "(_8,_1024):(_1024,_1)".parse().unwrap();
//! assert_eq!(upcast(&bits, 16).unwrap().to_string(), "(_8,_64):(_64,_1)");
//! let halfs: DynLayout = "(_8,_64):(_64,_1)".parse().unwrap();
//! assert_eq!(downcast(&halfs, 2).unwrap().to_string(), "(_8,_128):(_128,_1)");
//! assert_eq!(recast_layout(&halfs, 16, 32).unwrap().to_string(), "(_8,_32):(_32,_1)");
//! ```

use crate::value::int_tuple::{IntTuple, Val, gcd};
use crate::{Error, tri, value::layout::DynLayout};

const fn upcast_impl(s: &IntTuple, d: &IntTuple, n: i64) -> Result<(IntTuple, IntTuple), Error> {
    if s.is_tuple() {
        let mut rs = IntTuple::empty();
        let mut rd = IntTuple::empty();
        let mut i = 0;
        while i < s.rank() {
            let (a, b) = tri!(upcast_impl(&s.get(i), &d.get(i), n));
            rs.push(&a);
            rd.push(&b);
            i += 1;
        }
        return Ok((rs, rd));
    }
    let dv = d.val();
    if dv.is_const(0) {
        return Ok((*s, *d));
    }
    let nn = Val::st(n);
    if dv.s {
        let a = dv.abs();
        if a.v % n != 0 && n % a.v != 0 {
            return Err(Error::with2(
                "upcast: Divisibility condition violated: the stride {} and the factor {} must divide one another",
                dv.v,
                n,
            ));
        }
        // shape: ceil_div(shape, ceil_div(N, |d|)); stride: signum(d) * ceil_div(|d|, N)
        let sh = s.val().ceil_div(nn.ceil_div(a));
        let st = dv.signum().mul(a.ceil_div(nn));
        return Ok((IntTuple::leaf(sh), IntTuple::leaf(st)));
    }
    // a dynamic stride is assumed to be a multiple of N (CuTe's safe_div)
    Ok((*s, IntTuple::leaf(dv.div(nn))))
}

/// CuTe's `upcast<N>(layout)`: the layout over elements `N` times as wide. A static stride `d`
/// must divide `N` or be a multiple of it (CuTe's "Divisibility condition"); a static `_0`
/// stride stays; a dynamic stride is divided by `N`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::recast::upcast};
/// let l: DynLayout = "((_8,_4),_128):((_128,_0),_1)".parse().unwrap(); // LDSM_N x1 source, in bits
/// assert_eq!(upcast(&l, 16).unwrap().to_string(), "((_8,_4),_8):((_8,_0),_1)");
/// assert!(upcast(&"_4:_3".parse().unwrap(), 2).is_err());
/// ```
pub const fn upcast(l: &DynLayout, n: i64) -> Result<DynLayout, Error> {
    if n <= 0 {
        return Err(Error::with1("upcast: the factor must be positive", n));
    }
    let (s, d) = tri!(upcast_impl(&l.shape, &l.stride, n));
    Ok(DynLayout::raw(s, d))
}

const fn downcast_impl(s: &IntTuple, d: &IntTuple, n: i64) -> (IntTuple, IntTuple) {
    if s.is_tuple() {
        let mut rs = IntTuple::empty();
        let mut rd = IntTuple::empty();
        let mut i = 0;
        while i < s.rank() {
            let (a, b) = downcast_impl(&s.get(i), &d.get(i), n);
            rs.push(&a);
            rd.push(&b);
            i += 1;
        }
        return (rs, rd);
    }
    let dv = d.val();
    if dv.is_const(1) || dv.is_const(-1) {
        (IntTuple::leaf(s.val().mul(Val::st(n))), *d)
    } else {
        (*s, IntTuple::leaf(dv.mul(Val::st(n))))
    }
}

const fn has_int1(d: &IntTuple) -> bool {
    let mut i = 0;
    while i < d.leaf_count() {
        if d.leaf_at(i).is_const(1) {
            return true;
        }
        i += 1;
    }
    false
}

/// CuTe's `downcast<N>(layout)`: the layout over elements `N` times narrower (a static stride-±1
/// mode grows by `N`, every other stride is multiplied by `N`). The layout needs a static
/// stride-`_1` mode (CuTe: "Downcast requires adjacent elements").
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::recast::downcast};
/// let l: DynLayout = "(_4,_8):(_1,_4)".parse().unwrap();
/// assert_eq!(downcast(&l, 2).unwrap().to_string(), "(_8,_8):(_1,_8)");
/// assert!(downcast(&"(_4,_8):(_2,_8)".parse().unwrap(), 2).is_err());
/// ```
pub const fn downcast(l: &DynLayout, n: i64) -> Result<DynLayout, Error> {
    if !has_int1(&l.stride) {
        return Err(Error::new(
            "downcast: Downcast requires adjacent elements (a static stride-1 mode)",
        ));
    }
    let (s, d) = downcast_impl(&l.shape, &l.stride, n);
    Ok(DynLayout::raw(s, d))
}

/// CuTe's `recast_layout<OldType, NewType>(layout)` for element widths in bits: with
/// `new/old = num/den` reduced, `upcast<num>` then `downcast<den>`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::recast::recast_layout};
/// let bits: DynLayout = "(_32,(_32,_4)):(_32,(_1,_1024))".parse().unwrap(); // LDSM_N x4 destination
/// assert_eq!(recast_layout(&bits, 1, 16).unwrap().to_string(), "(_32,(_2,_4)):(_2,(_1,_64))");
/// ```
pub const fn recast_layout(
    l: &DynLayout,
    old_bits: i64,
    new_bits: i64,
) -> Result<DynLayout, Error> {
    if old_bits <= 0 || new_bits <= 0 {
        return Err(Error::with2(
            "recast_layout: element widths must be positive (old, new)",
            old_bits,
            new_bits,
        ));
    }
    let g = gcd(old_bits, new_bits);
    let (num, den) = (new_bits / g, old_bits / g);
    if num == 1 && den == 1 {
        return Ok(*l);
    }
    let up = if num == 1 { *l } else { tri!(upcast(l, num)) };
    if den == 1 { Ok(up) } else { downcast(&up, den) }
}
