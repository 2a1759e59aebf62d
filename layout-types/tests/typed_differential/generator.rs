//! The generator of `layout-types/tests/typed_differential/cases.rs`: every exact case of `tests/data/cute-*.jsonl`
//! (real C++ CuTe) whose operation the typed layer (`layout_types::cute`) has is written as typed
//! Rust code — static leaves as typenum types, dynamic leaves as `i64` values — whose printed
//! result the test compares with CuTe's text. Cases the typed API cannot express, or rejects by
//! design, are counted with the reason (see [`Skip`]).

use layout_types::text::parse::{parse_int_tuple, parse_layout, parse_tiler};
use layout_types::value::algebra::{Tiler, TilerMode};
use layout_types::value::int_tuple::IntTuple;
use layout_types::{value::divide, value::layout::DynLayout, value::partition};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// One case of the corpus.
pub struct Case {
    pub id: String,
    pub op: String,
    pub args: Vec<String>,
    pub expected: String,
    /// C++ CuTe does not compile this input (`"rejected": true`).
    pub rejected: bool,
}

/// Why a case is not generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    /// The operation has no typed form yet.
    OpNotTyped,
    /// An argument the typed form does not take (a layout tiler, LayoutRight, an integer
    /// coordinate where a tuple is needed, a nested mode to divide, a rank-0 tuple).
    NotExpressible,
    /// The typed form rejects it at compile time by design (a static tile that does not divide a
    /// static mode in `local_tile`, a thread extent larger than the tile mode, a static
    /// coordinate outside its mode).
    RejectedByDesign,
}

pub fn load_cases(data: &Path) -> Vec<Case> {
    let mut files: Vec<_> = std::fs::read_dir(data)
        .expect("tests/data")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.starts_with("cute-") && n.ends_with(".jsonl")
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        for line in std::fs::read_to_string(&f).unwrap().lines() {
            if line.trim().is_empty() {
                continue;
            }
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            if v["loose"].as_bool().unwrap_or(false) {
                continue;
            }
            out.push(Case {
                id: v["id"].as_str().unwrap().to_string(),
                op: v["op"].as_str().unwrap().to_string(),
                args: v["args"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap().to_string())
                    .collect(),
                expected: v["expected"].as_str().unwrap().to_string(),
                rejected: v["rejected"].as_bool().unwrap_or(false),
            });
        }
    }
    out
}

/// The typenum integer type of `n`, built bit by bit (`PInt<UInt<UInt<UTerm, B1>, B0>>` is 2).
fn typenum(n: i64) -> String {
    if n == 0 {
        return "Z0".to_string();
    }
    let mut u = "UTerm".to_string();
    let m = n.unsigned_abs();
    for i in (0..64 - m.leading_zeros()).rev() {
        let b = if m >> i & 1 == 1 { "B1" } else { "B0" };
        u = format!("UInt<{u}, {b}>");
    }
    if n > 0 {
        format!("PInt<{u}>")
    } else {
        format!("NInt<{u}>")
    }
}

/// A typed Rust expression for an IntTuple value: static leaves `C::<T>::new()`, dynamic `Ni64`.
fn expr(t: &IntTuple) -> Option<String> {
    if t.is_tuple() {
        if t.rank() == 0 {
            return None;
        }
        let parts: Option<Vec<String>> = (0..t.rank()).map(|i| expr(&t.get(i))).collect();
        let parts = parts?;
        return Some(if parts.len() == 1 {
            format!("({},)", parts[0])
        } else {
            format!("({})", parts.join(", "))
        });
    }
    if t.is_under() {
        return Some("Underscore".into());
    }
    if t.is_x() {
        return Some("X".into());
    }
    let v = t.val();
    Some(
        if v.s && ((0..=1024).contains(&v.v) || v.v > 0 && (v.v as u64).is_power_of_two()) {
            format!("Int::<{}>::new()", v.v)
        } else if v.s {
            format!("C::<{}>::new()", typenum(v.v))
        } else {
            format!("{}i64", v.v)
        },
    )
}

fn layout_expr(l: &DynLayout) -> Option<String> {
    Some(format!(
        "make_layout({}, {})",
        expr(&l.shape)?,
        expr(&l.stride)?
    ))
}

/// A layout as a tuple layout (a rank-1 layout `s:d` as `(s):(d)`), for the divides.
fn tuple_layout(l: &DynLayout) -> DynLayout {
    if l.shape.is_tuple() {
        *l
    } else {
        DynLayout::raw(IntTuple::wrap1(&l.shape), IntTuple::wrap1(&l.stride))
    }
}

/// A shape tiler: a tuple of integers (static or dynamic).
fn shape_tiler(s: &str) -> Option<IntTuple> {
    let t = parse_int_tuple(s).ok()?;
    if !t.is_tuple() || t.rank() == 0 {
        return None;
    }
    (0..t.rank()).all(|i| t.get(i).is_int()).then_some(t)
}

/// A typed expression for a divide's tiler, and whether dividing `shape` by it goes through
/// composition and complement (a layout mode, or an integer over a nested mode: the expensive
/// cases to compile) rather than the short form of an integer over a leaf.
fn tiler_expr(t: &Tiler, shape: &IntTuple) -> Option<(String, bool)> {
    if !t.by_mode {
        if t.is_whole_under() {
            return Some(("Underscore".into(), false));
        }
        return Some((layout_expr(&t.modes)?, true));
    }
    let w = shape.wrap();
    if t.rank() == 0 || t.rank() > w.rank() {
        return None;
    }
    let mut parts = Vec::new();
    let mut general = false;
    for i in 0..t.rank() {
        let m = t.modes.get(i);
        let sub = w.get(i);
        match t.kinds[i] {
            TilerMode::Layout => {
                parts.push(layout_expr(&m)?);
                general = true;
            }
            TilerMode::Int => {
                parts.push(expr(&m.shape)?);
                general |= sub.is_tuple();
            }
            TilerMode::Under => parts.push("Underscore".into()),
            TilerMode::Shape => {
                let (e, g) = tiler_expr(&t.mode(i).ok()?, &sub)?;
                parts.push(e);
                general |= g;
            }
        }
    }
    Some((
        if parts.len() == 1 {
            format!("({},)", parts[0])
        } else {
            format!("({})", parts.join(", "))
        },
        general,
    ))
}

/// Whether a divide case goes through composition and complement (see [`tiler_expr`]).
pub fn is_general_divide(c: &Case) -> bool {
    let (Ok(l), Ok(t)) = (parse_layout(&c.args[0]), parse_tiler(&c.args[1])) else {
        return false;
    };
    tiler_expr(&t, &l.shape).is_some_and(|(_, g)| g)
}

/// Divided modes must be leaves; tiler no longer than the layout.
fn dividable(l: &DynLayout, t: &IntTuple) -> bool {
    t.rank() <= l.shape.rank() && (0..t.rank()).all(|i| l.shape.get(i).is_int())
}

/// `local_tile`'s and `local_partition`'s static checks, as the typed API makes them.
fn static_conflict(l: &DynLayout, t: &IntTuple, tile: bool) -> bool {
    (0..t.rank()).any(|i| {
        let (s, tv) = (l.shape.get(i).val(), t.get(i).val());
        s.s && tv.s && if tile { s.v % tv.v != 0 } else { tv.v > s.v }
    })
}

fn has_static(args: &[String]) -> bool {
    args.iter().any(|a| {
        let b = a.as_bytes();
        (0..b.len()).any(|i| b[i] == b'_' && b.get(i + 1).is_some_and(|c| c.is_ascii_digit()))
    })
}

/// The Rust expression whose printed value is the case's result, or why there is none.
pub fn case_expr(c: &Case) -> Result<String, Skip> {
    use Skip::*;
    let lay = |i: usize| parse_layout(&c.args[i]).map_err(|_| NotExpressible);
    let le = |l: &DynLayout| layout_expr(l).ok_or(NotExpressible);
    let te = |s: &str| {
        parse_int_tuple(s)
            .ok()
            .and_then(|t| expr(&t))
            .ok_or(NotExpressible)
    };
    match c.op.as_str() {
        "size" | "cosize" | "rank" | "depth" => {
            let l = le(&lay(0)?)?;
            Ok(format!("t({l}.{}())", c.op))
        }
        "coalesce" => {
            let l = lay(0)?;
            match c.args.get(1) {
                None => Ok(format!("tl(coalesce({}))", le(&l)?)),
                // CuTe's `coalesce(layout, profile)`; a profile CuTe rejects at compile time
                // (more modes than the layout, a tuple over a leaf mode) the typed form rejects
                Some(p) => {
                    let prof = parse_int_tuple(p).map_err(|_| NotExpressible)?;
                    if c.rejected || layout_types::value::algebra::coalesce_by(&l, &prof).is_err() {
                        return Err(RejectedByDesign);
                    }
                    Ok(format!("tl(coalesce_by({}, {}))", le(&l)?, te(p)?))
                }
            }
        }
        "filter" => Ok(format!("tl(filter({}))", le(&lay(0)?)?)),
        "composition" => {
            let a = lay(0)?;
            let t = parse_tiler(&c.args[1]).map_err(|_| NotExpressible)?;
            // CuTe rejects these at compile time (the Stride and Shape Divisibility Conditions
            // on static values, more tiler modes than layout modes): so does the typed form
            if c.rejected || layout_types::value::algebra::composition_tiler(&a, &t).is_err() {
                return Err(RejectedByDesign);
            }
            if !t.by_mode && !t.is_whole_under() {
                return Ok(format!("tl(composition({}, {}))", le(&a)?, le(&t.modes)?));
            }
            let (te, _) = tiler_expr(&t, &a.shape).ok_or(NotExpressible)?;
            Ok(format!("tl(composition({}, {te}))", le(&a)?))
        }
        "make_layout" => match c.args.get(1).map(String::as_str) {
            Some("LayoutRight") => Ok(format!("tl(make_layout_right({}))", te(&c.args[0])?)),
            _ => Ok(format!("tl(make_layout_left({}))", te(&c.args[0])?)),
        },
        "crd2idx" => {
            let l = lay(0)?;
            let crd = parse_int_tuple(&c.args[1]).map_err(|_| NotExpressible)?;
            if partition::check_in_bounds(&crd, &l.shape).is_err() {
                let any_static_oob = crd.has_static() && l.shape.has_static();
                return Err(if any_static_oob {
                    RejectedByDesign
                } else {
                    NotExpressible
                });
            }
            Ok(format!("t({}.crd2idx({}))", le(&l)?, te(&c.args[1])?))
        }
        "idx2crd" | "get_flat_coord" => {
            let l = le(&lay(0)?)?;
            Ok(format!("t({l}.{}({}))", c.op, te(&c.args[1])?))
        }
        "dice" | "select" => {
            let l = lay(1)?;
            let step = parse_int_tuple(&c.args[0]).map_err(|_| NotExpressible)?;
            l.dice(&step).map_err(|_| NotExpressible)?;
            Ok(format!("tl({}.{}({}))", le(&l)?, c.op, te(&c.args[0])?))
        }
        "group" => {
            let l = lay(0)?;
            let (b, e) = (c.args[1].trim(), c.args[2].trim());
            if layout_types::text::eval::eval("group", &[&c.args[0], b, e]).is_err() {
                return Err(RejectedByDesign);
            }
            Ok(format!("tl(group::<{b}, {e}, _>({}))", le(&l)?))
        }
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" => {
            let l = lay(0)?;
            let t = parse_tiler(&c.args[1]).map_err(|_| NotExpressible)?;
            // CuTe rejects these at compile time (too many tiler modes, zip2_by's mismatched
            // ranks, the complement or the composition inside): so does the typed form
            let r = match c.op.as_str() {
                "logical_divide" => divide::logical_divide(&l, &t),
                "zipped_divide" => divide::zipped_divide(&l, &t),
                "tiled_divide" => divide::tiled_divide(&l, &t),
                _ => divide::flat_divide(&l, &t),
            };
            if c.rejected || r.is_err() {
                return Err(RejectedByDesign);
            }
            let (te, _) = tiler_expr(&t, &l.shape).ok_or(NotExpressible)?;
            Ok(format!("tl({}({}, {te}))", c.op, le(&l)?))
        }
        "make_tiled_copy_tv" | "make_tiled_copy_tiler" => {
            let (thr, val) = (lay(0)?, lay(1)?);
            // CuTe rejects these at compile time (the raked product's complement or composition)
            if c.rejected || layout_types::value::copy::TvLayout::new(&thr, &val).is_err() {
                return Err(RejectedByDesign);
            }
            let call = format!("make_tiled_copy_tv({}, {})", le(&thr)?, le(&val)?);
            Ok(if c.op == "make_tiled_copy_tv" {
                format!("tl({call}.1)")
            } else {
                format!("t({call}.0)")
            })
        }
        "local_tile" => leaf_local_tile(c).or_else(|_| any_local_tile(c)),
        "local_partition" => leaf_local_partition(c).or_else(|_| any_local_partition(c)),
        "complement" => {
            let l = lay(0)?;
            // an integer or a tuple cotarget (CuTe's `shape(cotarget)`)
            let cot = match c.args.get(1) {
                Some(a) => Some(parse_int_tuple(a).map_err(|_| NotExpressible)?),
                None => None,
            };
            // CuTe rejects these at compile time (a static non-injective layout, dynamic strides
            // on several modes): so does the typed form
            let r = match &cot {
                Some(t) => layout_types::value::algebra::complement(&l, t),
                None => layout_types::value::algebra::complement_default(&l),
            };
            if r.is_err() {
                return Err(RejectedByDesign);
            }
            Ok(match &cot {
                Some(t) => format!(
                    "tl(complement({}, {}))",
                    le(&l)?,
                    expr(t).ok_or(NotExpressible)?
                ),
                None => format!("tl(complement_default({}))", le(&l)?),
            })
        }
        "right_inverse" => Ok(format!("tl(right_inverse({}))", le(&lay(0)?)?)),
        "max_common_vector" | "max_common_layout" => {
            let (a, b) = (lay(0)?, lay(1)?);
            // CuTe rejects these at compile time (the composition with b's right inverse)
            use layout_types::value::algebra;
            if algebra::max_common_layout(&a, &b).is_err() {
                return Err(RejectedByDesign);
            }
            // the typed layer's tuples have at most 10 modes: a coalesced intermediate of more
            // (dynamic modes do not merge) is not a Rust type
            let inv = algebra::right_inverse(&b);
            let common = algebra::composition(&a, &inv).map_err(|_| RejectedByDesign)?;
            if algebra::coalesce(&common).rank() > 10 {
                return Err(NotExpressible);
            }
            let call = format!("{}({}, {})", c.op, le(&a)?, le(&b)?);
            Ok(if c.op == "max_common_vector" {
                format!("t({call})")
            } else {
                format!("tl({call})")
            })
        }
        "left_inverse" => {
            let l = lay(0)?;
            // CuTe rejects these at compile time (dynamic strides, a stride that is not a multiple
            // of the modes below it): so does the typed form
            if layout_types::value::algebra::left_inverse(&l).is_err() {
                return Err(RejectedByDesign);
            }
            Ok(format!("tl(left_inverse({}))", le(&l)?))
        }
        "logical_product" | "zipped_product" | "tiled_product" | "flat_product"
            if c.args[1].starts_with('[') || !c.args[1].contains(':') =>
        {
            // a by-mode tiler or a bare shape (CuTe's `make_tile(...)`)
            let a = lay(0)?;
            let t = parse_tiler(&c.args[1]).map_err(|_| NotExpressible)?;
            use layout_types::value::product;
            let r = match c.op.as_str() {
                "logical_product" => product::logical_product(&a, &t),
                "zipped_product" => product::zipped_product(&a, &t),
                "tiled_product" => product::tiled_product(&a, &t),
                _ => product::flat_product(&a, &t),
            };
            // CuTe rejects these at compile time (too many tiler modes, zip2_by's mismatched
            // ranks, the complement inside): so does the typed form
            if c.rejected || r.is_err() {
                return Err(RejectedByDesign);
            }
            let te = own_tiler_expr(&t).ok_or(NotExpressible)?;
            Ok(format!("tl({}({}, {te}))", c.op, le(&a)?))
        }
        "logical_product" | "zipped_product" | "tiled_product" | "flat_product"
        | "blocked_product" | "raked_product" => {
            let (a, b) = (lay(0)?, lay(1)?);
            use layout_types::{value::algebra::Tiler, value::product};
            let t = Tiler::layout(b);
            let r = match c.op.as_str() {
                "logical_product" => product::logical_product(&a, &t),
                "zipped_product" => product::zipped_product(&a, &t),
                "tiled_product" => product::tiled_product(&a, &t),
                "flat_product" => product::flat_product(&a, &t),
                "blocked_product" => product::blocked_product(&a, &b),
                _ => product::raked_product(&a, &b),
            };
            // CuTe rejects these at compile time (the complement or the composition inside):
            // so does the typed form
            if r.is_err() {
                return Err(RejectedByDesign);
            }
            Ok(format!("tl({}({}, {}))", c.op, le(&a)?, le(&b)?))
        }
        _ => Err(OpNotTyped),
    }
}

/// The closures of [`case_expr`] as functions, for the partitions.
fn lay_of(c: &Case, i: usize) -> Result<DynLayout, Skip> {
    parse_layout(&c.args[i]).map_err(|_| Skip::NotExpressible)
}
fn le_of(l: &DynLayout) -> Result<String, Skip> {
    layout_expr(l).ok_or(Skip::NotExpressible)
}
fn te_of(s: &str) -> Result<String, Skip> {
    parse_int_tuple(s)
        .ok()
        .and_then(|t| expr(&t))
        .ok_or(Skip::NotExpressible)
}

/// `local_tile` by a shape tiler over leaf modes, a dividing static tile: the leaf form the
/// tensor methods use (`local_tile_leaf`), in `cases.rs`.
fn leaf_local_tile(c: &Case) -> Result<String, Skip> {
    use Skip::*;
    let (lay, le, te) = (|i| lay_of(c, i), le_of, te_of);
    let l = tuple_layout(&lay(0)?);
    let t = shape_tiler(&c.args[1]).ok_or(NotExpressible)?;
    let crd = parse_int_tuple(&c.args[2]).map_err(|_| NotExpressible)?;
    if !crd.is_tuple() {
        return Err(NotExpressible);
    }
    let (td, cd) = match c.args.get(3) {
        Some(p) => {
            let p = parse_int_tuple(p).map_err(|_| NotExpressible)?;
            if !p.is_tuple() || p.rank() != t.rank() || p.rank() != crd.rank() {
                return Err(NotExpressible);
            }
            (IntTuple::dice(&p, &t), IntTuple::dice(&p, &crd))
        }
        None => (t, crd),
    };
    if td.rank() == 0 || cd.rank() > l.shape.rank() || !dividable(&l, &td) {
        return Err(NotExpressible);
    }
    if partition::local_tile(
        &l,
        &layout_types::value::algebra::Tiler::from_shape(&td).map_err(|_| NotExpressible)?,
        &cd,
        None,
    )
    .is_err()
    {
        return Err(NotExpressible);
    }
    if static_conflict(&l, &td, true) {
        return Err(RejectedByDesign);
    }
    let call = match c.args.get(3) {
        Some(p) => format!(
            "local_tile_proj_leaf({}, {}, {}, {})",
            le(&l)?,
            expr(&t).ok_or(NotExpressible)?,
            te(&c.args[2])?,
            te(p)?
        ),
        None => format!(
            "local_tile_leaf({}, {}, {})",
            le(&l)?,
            expr(&t).ok_or(NotExpressible)?,
            te(&c.args[2])?
        ),
    };
    Ok(format!("tl({call}.0)"))
}

/// `local_partition` over leaf modes (`local_partition_leaf`), in `cases.rs`.
fn leaf_local_partition(c: &Case) -> Result<String, Skip> {
    use Skip::*;
    let (lay, le, te) = (|i| lay_of(c, i), le_of, te_of);
    let l = tuple_layout(&lay(0)?);
    let thr = lay(1)?;
    if !thr.shape.is_tuple() || !thr.shape.is_static() {
        return Err(NotExpressible);
    }
    let td = match c.args.get(3) {
        Some(p) => {
            let p = parse_int_tuple(p).map_err(|_| NotExpressible)?;
            thr.dice(&p).map_err(|_| NotExpressible)?
        }
        None => thr,
    };
    let tiler = td.shape.product_each();
    if tiler.rank() == 0 || !dividable(&l, &tiler) {
        return Err(NotExpressible);
    }
    let idx = parse_int_tuple(&c.args[2]).map_err(|_| NotExpressible)?;
    if !idx.is_int() || idx.val().v >= thr.size().v {
        return Err(NotExpressible);
    }
    if static_conflict(&l, &tiler, false) {
        return Err(RejectedByDesign);
    }
    let call = match c.args.get(3) {
        Some(p) => format!(
            "local_partition_proj_leaf({}, {}, {}, {})",
            le(&l)?,
            le(&thr)?,
            te(&c.args[2])?,
            te(p)?
        ),
        None => format!(
            "local_partition_leaf({}, {}, {})",
            le(&l)?,
            le(&thr)?,
            te(&c.args[2])?
        ),
    };
    Ok(format!("tl({call}.0)"))
}

/// A tiler's typed expression, the tiler's own rank standing for the layout's (a projection
/// dices it first).
fn own_tiler_expr(t: &Tiler) -> Option<String> {
    let like = if t.by_mode {
        t.modes.shape
    } else {
        IntTuple::st(1)
    };
    tiler_expr(t, &like).map(|(e, _)| e)
}

/// `local_tile` in every other form C++ CuTe takes (any tiler, nested and dynamic modes,
/// non-dividing tiles, integer coordinates): the general `local_tile`, in `cases_forms.rs`.
fn any_local_tile(c: &Case) -> Result<String, Skip> {
    use Skip::*;
    let l = lay_of(c, 0)?;
    let t = parse_tiler(&c.args[1]).map_err(|_| NotExpressible)?;
    let crd = parse_int_tuple(&c.args[2]).map_err(|_| NotExpressible)?;
    let proj = match c.args.get(3) {
        Some(p) => Some(parse_int_tuple(p).map_err(|_| NotExpressible)?),
        None => None,
    };
    // CuTe rejects these at compile time (the divide's conditions, more tiler modes than layout
    // modes, a coordinate of another rank): so does the typed form
    if c.rejected || partition::local_tile(&l, &t, &crd, proj.as_ref()).is_err() {
        return Err(RejectedByDesign);
    }
    let te = own_tiler_expr(&t).ok_or(NotExpressible)?;
    Ok(match c.args.get(3) {
        Some(p) => format!(
            "tl(local_tile_proj({}, {te}, {}, {}).0)",
            le_of(&l)?,
            te_of(&c.args[2])?,
            te_of(p)?
        ),
        None => format!(
            "tl(local_tile({}, {te}, {}).0)",
            le_of(&l)?,
            te_of(&c.args[2])?
        ),
    })
}

/// `local_partition` in every other form (nested and dynamic modes, thread extents that do not
/// divide, any thread layout): the general `local_partition`, in `cases_forms.rs`.
fn any_local_partition(c: &Case) -> Result<String, Skip> {
    use Skip::*;
    let l = lay_of(c, 0)?;
    let thr = lay_of(c, 1)?;
    let idx = parse_int_tuple(&c.args[2]).map_err(|_| NotExpressible)?;
    if !idx.is_int() {
        return Err(NotExpressible);
    }
    let proj = match c.args.get(3) {
        Some(p) => Some(parse_int_tuple(p).map_err(|_| NotExpressible)?),
        None => None,
    };
    if c.rejected || partition::local_partition(&l, &thr, idx.val().v, proj.as_ref()).is_err() {
        return Err(RejectedByDesign);
    }
    Ok(match c.args.get(3) {
        Some(p) => format!(
            "tl(local_partition_proj({}, {}, {}, {}).0)",
            le_of(&l)?,
            le_of(&thr)?,
            te_of(&c.args[2])?,
            te_of(p)?
        ),
        None => format!(
            "tl(local_partition({}, {}, {}).0)",
            le_of(&l)?,
            le_of(&thr)?,
            te_of(&c.args[2])?
        ),
    })
}

/// Ops per generated test function (several functions keep each one's compile time moderate).
const PER_FN: usize = 200;

/// Per op: cases generated, of them static or mixed, skipped by reason.
pub type Stats = BTreeMap<String, (usize, usize, BTreeMap<Skip, usize>)>;

/// Whether a case goes to `cases_products.rs` (its own test binary,
/// `tests/typed_product_differential.rs`): every product case instantiates complement and
/// composition, ~0.3 s of compile time each, so they are compiled apart from the other cases.
pub fn is_product(op: &str) -> bool {
    op.ends_with("_product")
}

/// Whether a case is a complement with a tuple cotarget: ~0.18 s of compile time each (the
/// integer-cotarget complements and the inverses ~0.06 s), so they go with the products to
/// `cases_products.rs` (CI checks them with `tests/typed_props.rs`).
pub fn is_tuple_cotarget(c: &Case) -> bool {
    c.op == "complement" && c.args.get(1).is_some_and(|a| a.starts_with('('))
}

/// Whether a case goes to `cases_divides.rs` (its own test binary,
/// `tests/typed_divide_differential.rs`): a divide through composition and complement (a layout
/// tiler, or an integer over a nested mode) costs about as much to compile as a product.
pub fn is_expensive_divide(c: &Case) -> bool {
    c.op.ends_with("_divide") && is_general_divide(c)
}

/// Whether a case is one of the forms typed by issue #39 (`composition` by a tiler, `coalesce`
/// with a profile, `filter`, `make_layout` with `LayoutRight`, `local_tile` / `local_partition`
/// beyond the leaf form, `make_tiled_copy_tv` and its tiler, the products by a by-mode tiler;
/// later `max_common_vector` and `max_common_layout`):
/// they go to `cases_forms.rs` (its
/// own binary, `typed_differential_forms.rs`, behind `typed-full`), so that `cargo xtask test`'s
/// part A does not grow; `tests/typed_forms.rs` checks each form on a few cases in CI.
pub fn is_new_form(c: &Case) -> bool {
    match c.op.as_str() {
        "coalesce" => c.args.len() > 1,
        "filter" => true,
        "composition" => c.args[1].starts_with('[') || !c.args[1].contains(':'),
        "make_layout" => c.args.get(1).map(String::as_str) == Some("LayoutRight"),
        "local_tile" => leaf_local_tile(c).is_err(),
        "make_tiled_copy_tv" | "make_tiled_copy_tiler" => true,
        "logical_product" | "zipped_product" | "tiled_product" | "flat_product" => {
            c.args[1].starts_with('[') || !c.args[1].contains(':')
        }
        "local_partition" => leaf_local_partition(c).is_err(),
        "max_common_vector" | "max_common_layout" => true,
        _ => false,
    }
}

/// The generated files: `cases.rs` (three parts, compiled by the `typed_differential*` binaries),
/// `cases_products.rs`, `cases_divides.rs` and `cases_forms.rs` (behind the feature `typed-full`).
pub struct Generated {
    /// `cases.rs`.
    pub cases: String,
    /// `cases_products.rs`.
    pub products: String,
    /// `cases_divides.rs`.
    pub divides: String,
    /// `cases_forms.rs`.
    pub forms: String,
    /// Per op: generated, static or mixed, skipped by reason.
    pub stats: Stats,
}

/// The texts of the generated files and the per-op statistics `(op, generated,
/// static-or-mixed, skipped by reason)`.
pub fn generate(cases: &[Case]) -> Generated {
    let mut stats: Stats = BTreeMap::new();
    let (mut body, mut products, mut divides, mut forms) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for c in cases {
        let st = stats.entry(c.op.clone()).or_default();
        match case_expr(c) {
            Ok(e) => {
                st.0 += 1;
                if has_static(&c.args) {
                    st.1 += 1;
                }
                let line = format!("    ({:?}, {:?}, {e}),", c.id, c.expected);
                if is_new_form(c) {
                    forms.push(line);
                } else if is_product(&c.op) || is_tuple_cotarget(c) {
                    products.push(line);
                } else if is_expensive_divide(c) {
                    divides.push(line);
                } else {
                    body.push(line);
                }
            }
            Err(why) => *st.2.entry(why).or_default() += 1,
        }
    }
    Generated {
        cases: render(&body, true),
        products: render(&products, false),
        divides: render(&divides, false),
        forms: render(&forms, false),
        stats,
    }
}

/// `split`: the chunk functions are dealt out to `part_a! { .. }`, `part_b! { .. }` and
/// `part_c! { .. }`, macros that each including binary defines, one keeping its tokens and the
/// others dropping them unparsed: `typed_differential.rs` compiles part A,
/// `typed_differential_b.rs` and `_c.rs` parts B and C, and the binaries compile in parallel
/// (each part's type checking is single-threaded).
fn render(body: &[String], split: bool) -> String {
    let mut out = String::new();
    writeln!(out, "// Generated by layout-types/tests/typed_differential/generator.rs from tests/data/cute-*.jsonl: do not edit.").unwrap();
    writeln!(
        out,
        "// Regenerate: TYPED_GEN=overwrite cargo test -p layout-types --test typed_differential"
    )
    .unwrap();
    let chunks: Vec<&[String]> = body.chunks(PER_FN).collect();
    // Chunk k goes to part k mod 3: the data files come op by op and some ops cost more to
    // compile than others, so dealing the chunks out balances the binaries better than cutting
    // the list in pieces (two halves took 85 s against 62 s to compile). The compile time of a
    // part grows faster than its case count: two parts took 155 s of CPU, three 96 s; six took
    // 115 s (each binary has its fixed cost), so three.
    let names = ["part_a", "part_b", "part_c"];
    let parts: Vec<(&str, Vec<usize>)> = if split {
        (0..names.len())
            .map(|p| {
                let ks = (0..chunks.len()).filter(|k| k % names.len() == p).collect();
                (names[p], ks)
            })
            .collect()
    } else {
        vec![(names[0], (0..chunks.len()).collect())]
    };
    if split {
        for (part, r) in &parts {
            let n: usize = r.iter().map(|&k| chunks[k].len()).sum();
            writeln!(out, "#[rustfmt::skip]").unwrap();
            writeln!(out, "{part}! {{ pub const N_CASES: usize = {n}; }}").unwrap();
        }
    } else {
        writeln!(out, "#[rustfmt::skip]").unwrap();
        writeln!(out, "pub const N_CASES: usize = {};", body.len()).unwrap();
    }
    for (part, r) in &parts {
        if r.is_empty() {
            continue;
        }
        if split {
            writeln!(out, "{part}! {{").unwrap();
        }
        for &k in r {
            writeln!(out, "#[rustfmt::skip]").unwrap();
            writeln!(
                out,
                "pub fn cases_{k}() -> Vec<(&'static str, &'static str, String)> {{ vec!["
            )
            .unwrap();
            for l in chunks[k] {
                writeln!(out, "{l}").unwrap();
            }
            writeln!(out, "] }}").unwrap();
        }
        let fns: Vec<String> = r.iter().map(|k| format!("cases_{k}")).collect();
        writeln!(out, "#[rustfmt::skip]").unwrap();
        writeln!(out, "#[allow(clippy::type_complexity)]").unwrap();
        writeln!(
            out,
            "pub const CASE_FNS: &[fn() -> Vec<(&'static str, &'static str, String)>] = &[{}];",
            fns.join(", ")
        )
        .unwrap();
        if split {
            writeln!(out, "}}").unwrap();
        }
    }
    out
}
