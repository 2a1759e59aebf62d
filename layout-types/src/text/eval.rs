//! Text-level evaluation of one CuTe operation: the engine behind `host eval` and the
//! differential tests. Arguments and results are CuTe print text.
//!
//! ```
//! use layout_types::text::eval::eval;
//! let got = eval("zipped_divide", &["(_32,_256):(_256,_1)", "(_32,_8):(_8,_1)"]).unwrap();
//! assert_eq!(got.to_string(), "(((_4,_8),_8),_32):(((_2048,_1),_256),_8)");
//! assert!(eval("no_such_op", &[]).is_err());
//! ```

use crate::text::parse::{parse_layout, parse_tiler};
use crate::value::algebra::{self, Tiler};
use crate::value::copy::TvLayout;
use crate::value::int_tuple::{IntTuple, Val};
use crate::value::swizzle::ComposedLayout;
use crate::{
    value::divide, value::gmma, value::layout::DynLayout, value::mma, value::partition,
    value::product,
};
use core::fmt;

pub use crate::Error;

/// Result of an evaluation; its `Display` is CuTe's print text.
// Plain `Copy` values (no_std, no allocation): the size difference is accepted.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy)]
pub enum Value {
    /// An integer (`_N` or `N`).
    Int(Val),
    /// An IntTuple (shapes, coordinates).
    Tuple(IntTuple),
    /// A layout.
    Layout(DynLayout),
    /// A composed (swizzled) layout, e.g. a GMMA shared-memory atom.
    Composed(ComposedLayout),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Tuple(t) => write!(f, "{t}"),
            Value::Layout(l) => write!(f, "{l}"),
            Value::Composed(c) => write!(f, "{c}"),
        }
    }
}

fn has_static_int(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).any(|i| b[i] == b'_' && b.get(i + 1).is_some_and(|c| c.is_ascii_digit()))
}

fn arg<'a>(args: &[&'a str], i: usize) -> Result<&'a str, Error> {
    args.get(i).copied().ok_or(Error::new("missing argument"))
}

fn nargs(args: &[&str], lo: usize, hi: usize) -> Result<(), Error> {
    if args.len() < lo || args.len() > hi {
        return Err(Error::with2(
            "wrong number of arguments (got, expected at least)",
            args.len() as i64,
            lo as i64,
        ));
    }
    Ok(())
}

fn index_val(s: &str, plain: bool) -> Result<Val, Error> {
    let t = crate::text::parse::parse_int_tuple(s)?;
    if !t.is_int() {
        return Err(Error::new("expected an integer index"));
    }
    let v = t.val();
    Ok(if plain && !v.s { Val::kn(v.v) } else { v })
}

fn index(s: &str) -> Result<i64, Error> {
    let t = crate::text::parse::parse_int_tuple(s)?;
    if !t.is_int() {
        return Err(Error::new("expected an integer index"));
    }
    Ok(t.val().v)
}

/// The operand an op name ends with (`_a`, `_b`, `_c`).
fn operand(op: &str) -> mma::Operand {
    if op.ends_with('a') {
        mma::Operand::A
    } else if op.ends_with('b') {
        mma::Operand::B
    } else {
        mma::Operand::C
    }
}

/// `make_tiled_mma(atom, atom_layout[, permutation])` from `args[at]`, `args[at+1]` and the
/// optional `args[perm]`.
fn tiled_mma(args: &[&str], at: usize, perm: usize) -> Result<mma::TiledMma, Error> {
    let atom = mma::MmaAtom::parse(arg(args, at)?)?;
    let layout = parse_layout(arg(args, at + 1)?)?;
    let p = match args.get(perm) {
        Some(t) => parse_tiler(t)?,
        None => mma::TiledMma::no_permutation(),
    };
    mma::TiledMma::new(&atom, &layout, &p)
}

/// Evaluates CuTe operation `op` on `args` (CuTe text), with the argument conventions of
/// `shared/cute-cases/FORMAT.md`.
///
/// Integers are static (`_N`) or dynamic (`N`) as in C++ CuTe, whose decisions (merging modes,
/// dropping size-1 modes, sorting strides) are taken on static values only. When no argument
/// holds a static integer, the case is read as CuTe's reference definition (pycute) reads it:
/// plain integers that decisions may use (see [`Val`]).
///
/// ```
/// use layout_types::text::eval::eval;
/// // a row-major 4x8 after a row-major 8x4: the transpose, column-major 8x4
/// let t = eval("composition", &["(_4,_8):(_8,_1)", "(_8,_4):(_4,_1)"]).unwrap();
/// assert_eq!(t.to_string(), "(_8,_4):(_1,_8)");
/// // with a static integer, a dynamic one is C++ CuTe's `int`: the modes are not merged
/// assert_eq!(eval("coalesce", &["(2,_4):(1,2)"]).unwrap().to_string(), "(2,_4):(1,2)");
/// assert_eq!(eval("coalesce", &["(2,4):(1,2)"]).unwrap().to_string(), "8:1"); // none: pycute
/// ```
pub fn eval(op: &str, args: &[&str]) -> Result<Value, Error> {
    eval_in(Semantics::Auto, op, args)
}

/// How `eval` reads dynamic integers (see [`Val`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Semantics {
    /// [`Semantics::Reference`] when no argument holds a static integer, else [`Semantics::Cute`].
    Auto,
    /// C++ CuTe: a dynamic `N` is an `int` the algebra cannot decide on.
    Cute,
    /// CuTe's reference definition (pycute): every integer is a plain value to decide on.
    Reference,
}

/// [`eval`] with an explicit reading of dynamic integers.
///
/// ```
/// use layout_types::text::eval::{Semantics, eval_in};
/// // C++ CuTe keeps dynamic modes apart; the reference definition merges them.
/// assert_eq!(eval_in(Semantics::Cute, "coalesce", &["(2,4):(1,2)"]).unwrap().to_string(), "(2,4):(1,2)");
/// assert_eq!(eval_in(Semantics::Reference, "coalesce", &["(2,4):(1,2)"]).unwrap().to_string(), "8:1");
/// ```
pub fn eval_in(sem: Semantics, op: &str, args: &[&str]) -> Result<Value, Error> {
    use Value::*;
    let plain = match sem {
        Semantics::Auto => !args.iter().any(|a| has_static_int(a)),
        Semantics::Cute => false,
        Semantics::Reference => true,
    };
    let fix = move |l: DynLayout| {
        if plain {
            DynLayout::raw(l.shape.to_known(), l.stride.to_known())
        } else {
            l
        }
    };
    let lay = |i: usize| -> Result<DynLayout, Error> { Ok(fix(parse_layout(arg(args, i)?)?)) };
    let til = |i: usize| -> Result<Tiler, Error> {
        let mut t = parse_tiler(arg(args, i)?)?;
        t.modes = fix(t.modes);
        Ok(t)
    };
    let parse_int_tuple = |s: &str| -> Result<IntTuple, Error> {
        let t = crate::text::parse::parse_int_tuple(s)?;
        Ok(if plain { t.to_known() } else { t })
    };
    Ok(match op {
        "size" | "cosize" | "rank" | "depth" => {
            nargs(args, 1, 1)?;
            let l = lay(0)?;
            match op {
                "size" => Int(l.size()),
                "cosize" => Int(l.cosize()),
                "rank" => Int(Val::st(l.rank() as i64)),
                _ => Int(Val::st(l.depth() as i64)),
            }
        }
        "make_layout" => {
            nargs(args, 1, 2)?;
            let s = parse_int_tuple(args[0])?;
            let right = match args.get(1).copied() {
                None | Some("LayoutLeft") => false,
                Some("LayoutRight") => true,
                Some(_) => {
                    return Err(Error::new(
                        "make_layout: expected LayoutLeft or LayoutRight",
                    ));
                }
            };
            Layout(DynLayout::make_layout(&s, right))
        }
        "coalesce" => {
            nargs(args, 1, 2)?;
            let l = lay(0)?;
            match args.get(1) {
                Some(p) => Layout(algebra::coalesce_by(&l, &parse_int_tuple(p)?)?),
                None => Layout(algebra::coalesce(&l)),
            }
        }
        "filter" => {
            nargs(args, 1, 1)?;
            Layout(algebra::filter(&lay(0)?))
        }
        "filter_zeros" => {
            nargs(args, 1, 1)?;
            Layout(algebra::filter_zeros(&lay(0)?))
        }
        "composition" => {
            nargs(args, 2, 2)?;
            Layout(algebra::composition_tiler(&lay(0)?, &til(1)?)?)
        }
        "complement" => {
            nargs(args, 1, 2)?;
            let l = lay(0)?;
            match args.get(1) {
                Some(c) => Layout(algebra::complement(&l, &parse_int_tuple(c)?)?),
                None => Layout(algebra::complement_default(&l)?),
            }
        }
        "right_inverse" => {
            nargs(args, 1, 1)?;
            Layout(algebra::right_inverse(&lay(0)?))
        }
        "left_inverse" => {
            nargs(args, 1, 1)?;
            Layout(algebra::left_inverse(&lay(0)?)?)
        }
        "max_common_vector" => {
            nargs(args, 2, 2)?;
            Int(algebra::max_common_vector(&lay(0)?, &lay(1)?)?)
        }
        "max_common_layout" => {
            nargs(args, 2, 2)?;
            Layout(algebra::max_common_layout(&lay(0)?, &lay(1)?)?)
        }
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" => {
            nargs(args, 2, 2)?;
            let (l, t) = (lay(0)?, til(1)?);
            Layout(match op {
                "logical_divide" => divide::logical_divide(&l, &t)?,
                "zipped_divide" => divide::zipped_divide(&l, &t)?,
                "tiled_divide" => divide::tiled_divide(&l, &t)?,
                _ => divide::flat_divide(&l, &t)?,
            })
        }
        "logical_product" | "zipped_product" | "tiled_product" | "flat_product" => {
            nargs(args, 2, 2)?;
            let (l, t) = (lay(0)?, til(1)?);
            Layout(match op {
                "logical_product" => product::logical_product(&l, &t)?,
                "zipped_product" => product::zipped_product(&l, &t)?,
                "tiled_product" => product::tiled_product(&l, &t)?,
                _ => product::flat_product(&l, &t)?,
            })
        }
        "blocked_product" | "raked_product" => {
            nargs(args, 2, 2)?;
            let (a, b) = (lay(0)?, lay(1)?);
            Layout(if op == "blocked_product" {
                product::blocked_product(&a, &b)?
            } else {
                product::raked_product(&a, &b)?
            })
        }
        "crd2idx" => {
            nargs(args, 2, 2)?;
            let l = lay(0)?;
            let c = parse_int_tuple(args[1])?;
            if c.has_under() {
                return Err(Error::new("crd2idx: the coordinate holds `_`"));
            }
            Int(l.try_crd2idx(&c)?)
        }
        "idx2crd" | "get_hier_coord" | "get_flat_coord" | "get_1d_coord" => {
            nargs(args, 2, 2)?;
            let l = lay(0)?;
            let i = index_val(args[1], plain)?;
            match op {
                "idx2crd" => Tuple(crate::value::layout::idx2crd(i, &l.shape)),
                "get_hier_coord" => Tuple(l.get_hier_coord_val(i)),
                "get_flat_coord" => Tuple(l.get_flat_coord_val(i)),
                _ => Int(l.get_1d_coord_val(i)),
            }
        }
        "group" => {
            // group<B, E>(layout): modes [B, E) as one (E = -1: to the end)
            nargs(args, 3, 3)?;
            let l = lay(0)?;
            let idx = |i: usize| -> Result<i64, Error> {
                arg(args, i)?
                    .trim()
                    .parse::<i64>()
                    .map_err(|_| Error::new("group: B and E are integers"))
            };
            let r = l.shape.wrap().rank() as i64;
            let (b, e) = (idx(1)?, idx(2)?);
            let e = if e == -1 { r } else { e };
            if b < 0 || b > e || e > r {
                return Err(Error::new(
                    "group<B, E>: needs 0 <= B <= E <= rank (or E = -1)",
                ));
            }
            Layout(l.group(b as usize, e as usize))
        }
        "dice" | "select" => {
            nargs(args, 2, 2)?;
            let step = parse_int_tuple(args[0])?;
            let l = lay(1)?;
            if op == "dice" {
                Layout(l.dice(&step)?)
            } else {
                // select by Step: keep the modes marked with an integer (same as dice)
                Layout(l.dice(&step)?)
            }
        }
        "local_tile" => {
            nargs(args, 3, 4)?;
            let l = lay(0)?;
            let t = til(1)?;
            let c = parse_int_tuple(args[2])?;
            let p = match args.get(3) {
                Some(s) => Some(parse_int_tuple(s)?),
                None => None,
            };
            Layout(partition::local_tile(&l, &t, &c, p.as_ref())?.0)
        }
        "local_partition" => {
            nargs(args, 3, 4)?;
            let l = lay(0)?;
            let thr = lay(1)?;
            let i = index(args[2])?;
            let p = match args.get(3) {
                Some(s) => Some(parse_int_tuple(s)?),
                None => None,
            };
            Layout(partition::local_partition(&l, &thr, i, p.as_ref())?.0)
        }
        "make_tiled_copy_tv" | "make_tiled_copy_tiler" => {
            nargs(args, 2, 2)?;
            let tv = TvLayout::new(&lay(0)?, &lay(1)?)?;
            if op == "make_tiled_copy_tv" {
                Layout(tv.layout_tv)
            } else {
                Tuple(tv.tiler)
            }
        }
        "tiled_mma_tv_a" | "tiled_mma_tv_b" | "tiled_mma_tv_c" | "tiled_mma_tile" => {
            nargs(args, 2, 3)?;
            let mma = tiled_mma(args, 0, 2)?;
            match op {
                "tiled_mma_tile" => Tuple(mma.tile_shape()),
                _ => Layout(mma.layout_tv(operand(op))?),
            }
        }
        "tiled_mma_partition_a"
        | "tiled_mma_partition_b"
        | "tiled_mma_partition_c"
        | "tiled_mma_fragment_a"
        | "tiled_mma_fragment_b"
        | "tiled_mma_fragment_c" => {
            nargs(args, 4, 5)?;
            let mma = tiled_mma(args, 0, 4)?;
            // a swizzled shared-memory layout: the swizzle goes with the pointer, the layout is
            // partitioned (as CuTe's make_tensor(smem_ptr, ComposedLayout) does)
            let (l, sw) = if args[2].trim_start().starts_with("Sw<") {
                let c: ComposedLayout = args[2].parse()?;
                (fix(c.layout), c.swizzle)
            } else {
                (lay(2)?, crate::value::swizzle::DynSwizzle::identity())
            };
            let thr = mma.get_slice(index(args[3])?);
            Layout(if op.starts_with("tiled_mma_partition") {
                thr.partition(operand(op), &l)?.0
            } else {
                thr.partition_fragment_swizzled(operand(op), &l, sw)?
            })
        }
        "make_tiled_copy_a" | "make_tiled_copy_b" | "make_tiled_copy_c" => {
            nargs(args, 4, 5)?;
            let cop = mma::LdsmOp::parse(args[0])?;
            let mma = tiled_mma(args, 1, 4)?;
            let tc = mma::make_tiled_copy_for(cop, &mma, operand(op))?;
            Layout(match args[3].trim() {
                "S" => tc.layout_s_tv()?,
                "D" => tc.layout_d_tv()?,
                _ => {
                    return Err(Error::new(
                        "make_tiled_copy_a/b/c: the 4th argument is `S` (get_layoutS_TV) or `D` (get_layoutD_TV)",
                    ));
                }
            })
        }
        "gmma_smem_atom" => {
            nargs(args, 3, 3)?;
            let major = match args[0].trim() {
                "K" => mma::Major::K,
                "MN" => mma::Major::MN,
                _ => return Err(Error::new("gmma_smem_atom: the major is `K` or `MN`")),
            };
            let sw = gmma::GmmaSwizzle::parse(args[1])?;
            let bits = index(args[2])?;
            Composed(gmma::gmma_smem_atom(major, sw, bits)?)
        }
        "tile_to_shape" => {
            nargs(args, 2, 3)?;
            let shape = parse_int_tuple(args[1])?;
            let order = match args.get(2) {
                Some(o) => gmma::Order::parse(o)?,
                None => gmma::Order::ColMajor,
            };
            if args[0].trim_start().starts_with("Sw<") {
                let c: ComposedLayout = args[0].parse()?;
                Composed(gmma::tile_to_shape_composed(&c, &shape, &order)?)
            } else {
                Layout(gmma::tile_to_shape(&lay(0)?, &shape, &order)?)
            }
        }
        _ => return Err(Error::new("unknown op")),
    })
}
