//! `host layout`: evaluate a CuTe layout expression and show it.
//!
//! ```text
//! host layout EXPR [--svg FILE] [--color index|bw|thread] [--table]
//! host layout --tv THR VAL [--svg FILE] [--table]
//! host layout --coalescing GMEM THR [--elem-bytes 4] [--vec N] [--smem LAYOUT]
//! ```
//!
//! `EXPR` is a layout in CuTe text (`(_4,8):(_1,_4)`), a shape (`(4,8)`, read as
//! `make_layout(shape)`), or `op(arg, ...)` where each argument is CuTe text or another
//! expression and `op` is any operation of [`layout_types::text::eval::eval`]
//! (`composition`, `zipped_divide`, `coalesce`, `logical_product`, `local_partition`, ...).
//! `make_tiled_copy(THR, VAL)` is the same as `--tv THR VAL`.
//!
//! Output: the result in CuTe text, then (for layouts) the table of indices in exactly
//! the format of `cute::print_layout`. Errors are one line on stderr, exit code 2.

use std::collections::{BTreeMap, BTreeSet};

use layout_types::text::eval::{Value, eval};
use layout_types::value::copy::TvLayout;
use layout_types::value::partition::local_partition;
use layout_types::{value::int_tuple::IntTuple, value::layout::DynLayout};

use crate::cli::svg;

/// Tables with more cells than this are summarised unless `--table` is given.
const TABLE_CELLS: usize = 4096;
/// Pictures with more cells than this are refused (the SVG would be unusable).
const SVG_CELLS: usize = 65536;

/// How to colour the cells of a layout picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorBy {
    /// A light ramp over 0..cosize: neighbouring indices, neighbouring colours.
    #[default]
    Index,
    /// CuTe's `TikzColor_BWx8` greys, `idx % 8`.
    Bw,
    /// CuTe's `TikzColor_TV` palette, `idx % 8` (the layout maps to thread ids).
    Thread,
}

/// `host layout`: print and draw CuTe layouts, TiledCopy TV layouts, coalescing reports.
#[derive(Clone, Debug, Default, clap::Args)]
#[command(
    after_help = "EXPR is CuTe text ((_4,8):(_1,_4)), a shape ((4,8) = make_layout), or \
op(arg, ...) with any op of layout_types::text::eval; arguments nest. Errors: one line, exit 2."
)]
pub struct LayoutArgs {
    /// EXPR, or THR VAL with --tv, or ATOM ATOM_LAYOUT [PERM] with --mma, or GMEM THR with
    /// --coalescing (pieces split by the shell are glued back).
    #[arg(value_name = "EXPR")]
    pub positional: Vec<String>,
    /// Also draw the result as an SVG picture into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    /// How the SVG colours cells.
    #[arg(long, alias = "colour", value_enum, default_value_t = ColorBy::Index)]
    pub color: ColorBy,
    /// Print the full table even when it is large.
    #[arg(long)]
    pub table: bool,
    /// THR VAL: the TiledCopy make_tiled_copy(atom, THR, VAL): TV layout, tiler, owners.
    #[arg(long)]
    pub tv: bool,
    /// ATOM ATOM_LAYOUT [PERM]: the TiledMMA make_tiled_mma(ATOM, ATOM_LAYOUT, PERM): its
    /// layouts and who owns which element of C, A and B (the SVG is CuTe's print_latex).
    #[arg(long)]
    pub mma: bool,
    /// GMEM THR: sectors and bank conflicts of a thread layout walking GMEM.
    #[arg(long)]
    pub coalescing: bool,
    /// Bytes per element (--coalescing): 1, 2, 4, 8 or 16.
    #[arg(long, value_name = "B", default_value_t = 4)]
    pub elem_bytes: i64,
    /// Elements per access (--coalescing): a power of two up to 16, along the stride-1 mode.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub vec: i64,
    /// Shared-memory layout of the same tile (--coalescing; default: GMEM).
    #[arg(long, value_name = "LAYOUT")]
    pub smem: Option<String>,
}

/// Entry point; returns the exit code.
pub fn main(args: &LayoutArgs) -> u8 {
    match run(args) {
        Ok(out) => {
            print!("{out}");
            0
        }
        Err(e) => {
            eprintln!("host layout: {e}");
            2
        }
    }
}

/// Checks the numeric options (clap has parsed their types).
fn check_opts(o: &LayoutArgs) -> Result<(), String> {
    if ![1, 2, 4, 8, 16].contains(&o.elem_bytes) {
        return Err(format!(
            "--elem-bytes: `{}` is not one of 1, 2, 4, 8, 16",
            o.elem_bytes
        ));
    }
    let n = o.vec;
    if !(n >= 1 && (n & (n - 1)) == 0 && n <= 16) {
        return Err(format!(
            "--vec: `{n}` is not a power of two between 1 and 16"
        ));
    }
    Ok(())
}

/// Runs `host layout` and returns what it prints on stdout.
pub fn run(o: &LayoutArgs) -> Result<String, String> {
    check_opts(o)?;
    if [o.tv, o.mma, o.coalescing].iter().filter(|x| **x).count() > 1 {
        return Err("--tv, --mma and --coalescing exclude each other".into());
    }
    if o.mma {
        let (mut out, pic) = super::mma_svg::report(&o.positional, o.svg.is_some(), o.table)?;
        if let (Some(path), Some(pic)) = (&o.svg, pic) {
            write_file(path, &pic)?;
            out += &format!("svg: {path}\n");
        }
        return Ok(out);
    }
    if o.coalescing {
        let [g, t] = two(&o.positional, "--coalescing GMEM THR")?;
        let smem = o.smem.as_deref().map(layout_arg).transpose()?;
        return coalescing(
            &layout_arg(g)?,
            &layout_arg(t)?,
            smem.as_ref(),
            o.elem_bytes,
            o.vec,
        );
    }
    if o.tv {
        let [t, v] = two(&o.positional, "--tv THR VAL")?;
        return tv_report(&layout_arg(t)?, &layout_arg(v)?, o);
    }
    if o.positional.is_empty() {
        return Err("missing expression (see `host layout --help`)".into());
    }
    // The shell may split an unquoted expression at spaces: glue the pieces back.
    let text = o.positional.join(" ");
    if let Some((op, args)) = split_call(&text)?
        && op == "make_tiled_copy"
    {
        let [t, v] = two(&args, "make_tiled_copy(THR, VAL)")?;
        return tv_report(&layout_arg(t)?, &layout_arg(v)?, o);
    }
    match eval_expr(&text)? {
        Value::Layout(l) => layout_report(&l, o),
        v => {
            if o.svg.is_some() {
                return Err(format!("--svg: `{text}` is {v}, not a layout"));
            }
            Ok(format!("{v}\n"))
        }
    }
}

fn two<'a>(pos: &'a [String], what: &str) -> Result<[&'a str; 2], String> {
    match pos {
        [a, b] => Ok([a.as_str(), b.as_str()]),
        _ => Err(format!("{what} takes 2 layouts, got {}", pos.len())),
    }
}

/// A layout argument: CuTe text or an expression that evaluates to a layout.
fn layout_arg(s: &str) -> Result<DynLayout, String> {
    match eval_expr(s)? {
        Value::Layout(l) => Ok(l),
        v => Err(format!("`{s}` is {v}, not a layout")),
    }
}

/// Splits `op(a, b, ...)` into the op name and its top-level arguments; `None` when `s` is
/// not a call (plain CuTe text).
pub fn split_call(s: &str) -> Result<Option<(String, Vec<String>)>, String> {
    let s = s.trim();
    let name_len = s
        .bytes()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
        .count();
    let first = s.bytes().next().unwrap_or(b' ');
    if name_len == 0 || !first.is_ascii_alphabetic() || !s[name_len..].trim_start().starts_with('(')
    {
        return Ok(None);
    }
    let op = &s[..name_len];
    let body = s[name_len..].trim_start();
    let mut depth = 0i32;
    let mut args = Vec::new();
    let mut start = 1;
    for (i, c) in body.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!("unbalanced `{c}` in `{s}`"));
                }
                if depth == 0 {
                    if !body[i + 1..].trim().is_empty() {
                        return Err(format!(
                            "unexpected text after `{op}(...)`: `{}`",
                            body[i + 1..].trim()
                        ));
                    }
                    let last = body[start..i].trim();
                    if !last.is_empty() || !args.is_empty() {
                        args.push(last.to_string());
                    }
                    if args.iter().any(|a: &String| a.is_empty()) {
                        return Err(format!("empty argument in `{s}`"));
                    }
                    return Ok(Some((op.to_string(), args)));
                }
            }
            ',' if depth == 1 => {
                args.push(body[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    Err(format!("unbalanced parentheses in `{s}`: missing `)`"))
}

/// Evaluates an expression: CuTe text, a shape, or `op(args...)` (arguments may nest).
pub fn eval_expr(s: &str) -> Result<Value, String> {
    let s = s.trim();
    if s.is_empty() {
        return Err("empty expression".into());
    }
    match split_call(s)? {
        Some((op, args)) => {
            if op == "make_tiled_copy" {
                return Err("make_tiled_copy(THR, VAL) is a TiledCopy, not a layout: use it alone, or make_tiled_copy_tv(THR, VAL) for its TV layout".into());
            }
            let mut texts = Vec::with_capacity(args.len());
            for a in &args {
                texts.push(match split_call(a)? {
                    Some(_) => eval_expr(a)?.to_string(),
                    None => a.clone(),
                });
            }
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            guarded(|| eval(&op, &refs)).map_err(|e| {
                if e == "unknown op" {
                    format!("unknown operation `{op}` (try composition, coalesce, zipped_divide, logical_product, complement, right_inverse, local_partition, make_tiled_copy, ...)")
                } else {
                    format!("{op}({}): {e}", refs.join(", "))
                }
            })
        }
        None => {
            if s.contains(':') {
                s.parse::<DynLayout>()
                    .map(Value::Layout)
                    .map_err(|e| format!("malformed layout `{s}`: {e}"))
            } else {
                // A shape alone: make_layout(shape), as CuTe does.
                guarded(|| eval("make_layout", &[s]))
                    .map_err(|e| format!("malformed layout `{s}`: {e}"))
            }
        }
    }
}

/// Runs the evaluator with panics turned into errors (the algebra is const fn and panics on
/// some impossible inputs).
fn guarded<T>(f: impl FnOnce() -> Result<T, layout_types::Error>) -> Result<T, String> {
    host::quiet::catch_quiet(f)?.map_err(|e| e.to_string())
}

/// The 2-D view `print_layout` shows: (rows, cols, value(m, n)). Rank 1 is one row of N;
/// rank 2 is mode 0 down, mode 1 across (nested modes flattened colexicographically, as
/// `layout(m, n)` does); rank > 2 groups modes 1.. into the columns.
pub struct Table2d {
    pub rows: usize,
    pub cols: usize,
    row_mode: Option<DynLayout>,
    col_mode: DynLayout,
}

impl Table2d {
    pub fn new(l: &DynLayout) -> Result<Table2d, String> {
        let (row_mode, col_mode) = if !l.shape.is_tuple() || l.rank() == 1 {
            (None, *l)
        } else if l.rank() == 2 {
            (Some(l.get(0)), l.get(1))
        } else if l.rank() == 0 {
            return Err("the layout has rank 0: nothing to show".into());
        } else {
            let g = l.group(1, l.rank());
            (Some(g.get(0)), g.get(1))
        };
        let rows = row_mode.map_or(1, |r| r.size().v);
        let cols = col_mode.size().v;
        if rows <= 0 || cols <= 0 {
            return Err("the layout is empty".into());
        }
        Ok(Table2d {
            rows: rows as usize,
            cols: cols as usize,
            row_mode,
            col_mode,
        })
    }
    pub fn at(&self, m: usize, n: usize) -> i64 {
        self.row_mode.map_or(0, |r| r.call(m as i64)) + self.col_mode.call(n as i64)
    }
}

/// CuTe's `num_digits`.
fn num_digits(x: i64) -> usize {
    x.max(1).to_string().len()
}

/// `cute::print_layout`, byte for byte (print_tensor.hpp), for the 2-D view of `l`.
pub fn print_layout(l: &DynLayout) -> Result<String, String> {
    let t = Table2d::new(l)?;
    let w = num_digits(l.cosize().v) + 2;
    let delim = "+-----------------------";
    let bar: String = delim.chars().take(w + 1).collect();
    let mut s = format!("{l}\n    ");
    for n in 0..t.cols {
        s += &format!("  {:>1$} ", n, w - 2);
    }
    s += "\n";
    let line = format!("    {}+\n", bar.repeat(t.cols));
    for m in 0..t.rows {
        s += &line;
        s += &format!("{m:>2}  ");
        for n in 0..t.cols {
            s += &format!("| {:>1$} ", t.at(m, n), w - 2);
        }
        s += "|\n";
    }
    s += &line;
    Ok(s)
}

fn layout_report(l: &DynLayout, o: &LayoutArgs) -> Result<String, String> {
    let mut out = String::new();
    let t = Table2d::new(l)?;
    let cells = t.rows * t.cols;
    if cells <= TABLE_CELLS || o.table {
        out += &print_layout(l)?;
    } else {
        out += &format!(
            "{l}\n(print_layout table omitted: {}x{} = {cells} cells; pass --table to print it, or --svg FILE)\n",
            t.rows, t.cols
        );
    }
    if let Some(path) = &o.svg {
        write_file(path, &layout_svg(l, o.color)?)?;
        out += &format!("svg: {path}\n");
    }
    Ok(out)
}

/// The picture of a layout: its 2-D view, the index in each cell.
pub fn layout_svg(l: &DynLayout, color: ColorBy) -> Result<String, String> {
    let t = Table2d::new(l)?;
    if t.rows * t.cols > SVG_CELLS {
        return Err(format!(
            "{}x{} cells is too many for a picture (limit {SVG_CELLS})",
            t.rows, t.cols
        ));
    }
    let cos = (l.cosize().v - 1).max(1) as f64;
    let shape = if t.row_mode.is_none() {
        format!("1 x {}", t.cols)
    } else {
        format!("{} x {}", t.rows, t.cols)
    };
    let how = match color {
        ColorBy::Index => "colour: index",
        ColorBy::Bw => "colour: index % 8 (CuTe BWx8)",
        ColorBy::Thread => "colour: index % 8 as a thread id (CuTe TV)",
    };
    let sub = format!(
        "(m,n) -> index, {shape}, size {}, cosize {}; {how}",
        l.size(),
        l.cosize()
    );
    Ok(svg::grid(&l.to_string(), &sub, t.rows, t.cols, |m, n| {
        let idx = t.at(m, n);
        let fill = match color {
            ColorBy::Index => svg::ramp(idx as f64 / cos),
            ColorBy::Bw => svg::BW_PALETTE[idx.rem_euclid(8) as usize].to_string(),
            ColorBy::Thread => svg::TV_PALETTE[idx.rem_euclid(8) as usize].to_string(),
        };
        Some(svg::Cell {
            fill,
            lines: vec![idx.to_string()],
        })
    }))
}

/// Which (thread, value) owns each element of a TiledCopy's (M, N) tile: the first (t, v)
/// that maps there, in the order `print_latex_tv` uses.
pub struct TvMap {
    pub tv: TvLayout,
    pub m: usize,
    pub n: usize,
    pub owner: Vec<Option<(i64, i64)>>,
}

pub fn tv_map(thr: &DynLayout, val: &DynLayout) -> Result<TvMap, String> {
    let tv = guarded(|| TvLayout::new(thr, val))
        .map_err(|e| format!("make_tiled_copy({thr}, {val}): {e}"))?;
    let (m, n) = if tv.tiler.is_tuple() && tv.tiler.rank() >= 2 {
        (tv.tiler.get(0).product().v, tv.tiler.get(1).product().v)
    } else {
        (tv.tiler.product().v, 1)
    };
    let (m, n) = (m.max(1) as usize, n.max(1) as usize);
    if m * n > SVG_CELLS {
        return Err(format!("the TiledCopy tile is {m}x{n}: too large to show"));
    }
    let mut owner = vec![None; m * n];
    let (t_mode, v_mode) = (tv.layout_tv.get(0), tv.layout_tv.get(1));
    for t in 0..tv.threads {
        for v in 0..tv.values {
            let idx = t_mode.call(t) + v_mode.call(v);
            let (mm, nn) = (idx.rem_euclid(m as i64) as usize, (idx / m as i64) as usize);
            if nn < n && owner[nn * m + mm].is_none() {
                owner[nn * m + mm] = Some((t, v));
            }
        }
    }
    Ok(TvMap { tv, m, n, owner })
}

fn tv_report(thr: &DynLayout, val: &DynLayout, o: &LayoutArgs) -> Result<String, String> {
    let map = tv_map(thr, val)?;
    let mut out = format!(
        "make_tiled_copy(thr = {thr}, val = {val})\n  layout_tv: {}   (thread, value) -> index in the tile\n  tiler_mn:  {}   {} threads x {} values\n",
        map.tv.layout_tv, map.tv.tiler, map.tv.threads, map.tv.values
    );
    if map.m * map.n <= TABLE_CELLS || o.table {
        out += &tv_table(&map);
    } else {
        out += &format!(
            "(table omitted: {}x{} cells; pass --table, or --svg FILE)\n",
            map.m, map.n
        );
    }
    if let Some(path) = &o.svg {
        write_file(path, &tv_svg(&map, thr, val))?;
        out += &format!("svg: {path}\n");
    }
    Ok(out)
}

/// The (M, N) tile as a `print_layout`-style table of `T<t>V<v>` owners.
fn tv_table(map: &TvMap) -> String {
    let text = |m: usize, n: usize| {
        map.owner[n * map.m + m].map_or("-".to_string(), |(t, v)| format!("T{t}V{v}"))
    };
    let w = (0..map.m)
        .flat_map(|m| (0..map.n).map(move |n| (m, n)))
        .map(|(m, n)| text(m, n).len())
        .max()
        .unwrap_or(1);
    let bar = format!("+{}", "-".repeat(w + 2));
    let mut s = String::from("    ");
    for n in 0..map.n {
        s += &format!("  {n:>w$} ");
    }
    s += "\n";
    let line = format!("    {}+\n", bar.repeat(map.n));
    for m in 0..map.m {
        s += &line;
        s += &format!("{m:>2}  ");
        for n in 0..map.n {
            s += &format!("| {:>w$} ", text(m, n));
        }
        s += "|\n";
    }
    s + &line
}

pub fn tv_svg(map: &TvMap, thr: &DynLayout, val: &DynLayout) -> String {
    let title = format!("TiledCopy  thr {thr}  val {val}");
    let sub = format!(
        "layout_tv {}  tile {}x{}  colour: thread % 8 (CuTe TV palette)",
        map.tv.layout_tv, map.m, map.n
    );
    svg::grid(&title, &sub, map.m, map.n, |m, n| {
        map.owner[n * map.m + m].map(|(t, v)| svg::Cell {
            fill: svg::TV_PALETTE[(t % 8) as usize].to_string(),
            lines: vec![format!("T{t}"), format!("V{v}")],
        })
    })
}

fn write_file(path: &str, text: &str) -> Result<(), String> {
    let p = std::path::Path::new(path);
    if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    }
    std::fs::write(p, text).map_err(|e| format!("writing {path}: {e}"))
}

/// The layout of `vec`-element vectors of `l`: its first stride-1 leaf `s:1` becomes
/// `s/vec : vec` (what a TiledCopy with a `vec`-wide value layout along that mode partitions).
fn vector_view(l: &DynLayout, vec: i64, what: &str) -> Result<DynLayout, String> {
    if vec == 1 {
        return Ok(*l);
    }
    let (shapes, strides) = (l.shape.flatten_to_tuple(), l.stride.flatten_to_tuple());
    let k = (0..shapes.rank())
        .find(|&i| strides.get(i).val().v == 1 && shapes.get(i).val().v % vec == 0)
        .ok_or(format!(
            "--vec {vec}: {what} {l} has no stride-1 mode whose size {vec} divides"
        ))?;
    let (mut sh, mut st) = (IntTuple::empty(), IntTuple::empty());
    for i in 0..shapes.rank() {
        let (mut a, mut b) = (shapes.get(i).val(), strides.get(i).val());
        if i == k {
            a.v /= vec;
            b.v = vec;
        }
        sh.push(&IntTuple::leaf(a));
        st.push(&IntTuple::leaf(b));
    }
    let (shape, stride) = if l.shape.is_tuple() {
        (
            IntTuple::unflatten(&sh, &l.shape),
            IntTuple::unflatten(&st, &l.stride),
        )
    } else {
        (sh.get(0), st.get(0))
    };
    Ok(DynLayout::raw(shape, stride))
}

/// Per thread, per access, the element offsets it touches: `local_partition` of the vector
/// view of `l` by `thr`, each vector expanded to its `vec` consecutive elements.
fn partition_offsets(
    l: &DynLayout,
    thr: &DynLayout,
    vec: i64,
    what: &str,
) -> Result<Vec<Vec<Vec<i64>>>, String> {
    let lv = vector_view(l, vec, what)?;
    let threads = thr.size().v;
    (0..threads)
        .map(|t| {
            let (p, off) = guarded(|| local_partition(&lv, thr, t, None))
                .map_err(|e| format!("local_partition({what} {lv}, {thr}, {t}): {e}"))?;
            Ok((0..p.size().v)
                .map(|v| (0..vec).map(|j| off.v + p.call(v) + j).collect())
                .collect())
        })
        .collect()
}

/// Statistics of one warp-wide access.
#[derive(Default, Clone, Copy)]
struct Access {
    sectors: usize,
    lines: usize,
    ideal_sectors: usize,
    wavefronts: usize,
    phases: usize,
    worst_way: usize,
}

/// Global-memory sectors (32 B) and cache lines (128 B) that `addrs` (bytes, each `bytes` long)
/// touch.
fn global_access(elems: &[i64], eb: i64) -> (usize, usize, usize) {
    let mut sectors = BTreeSet::new();
    let mut lines = BTreeSet::new();
    let mut distinct = BTreeSet::new();
    for &e in elems {
        distinct.insert(e);
        let (b0, b1) = (e * eb, e * eb + eb - 1);
        for s in b0.div_euclid(32)..=b1.div_euclid(32) {
            sectors.insert(s);
        }
        for c in b0.div_euclid(128)..=b1.div_euclid(128) {
            lines.insert(c);
        }
    }
    let ideal = (distinct.len() as i64 * eb + 31) / 32;
    (sectors.len(), lines.len(), ideal as usize)
}

/// Shared-memory wavefronts of one warp access: each thread reads `per_thread` (its
/// elements, `eb` bytes each, one vector of `vec * eb` bytes). The hardware serves a warp in
/// phases of 128 B (32 threads for <= 4 B, 16 for 8 B, 8 for 16 B); in a phase, each bank
/// (4-byte word address % 32) serves one distinct word per wavefront; equal words broadcast.
fn shared_access(per_thread: &[Vec<i64>], eb: i64, vec: i64) -> (usize, usize, usize) {
    let access_bytes = eb * vec;
    let per_phase = (32 / (access_bytes / 4).max(1)) as usize;
    let mut wavefronts = 0;
    let mut phases = 0;
    let mut worst = 0;
    for chunk in per_thread.chunks(per_phase) {
        let mut banks: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
        for elems in chunk {
            for &e in elems {
                let (w0, w1) = ((e * eb).div_euclid(4), (e * eb + eb - 1).div_euclid(4));
                for w in w0..=w1 {
                    banks.entry(w.rem_euclid(32)).or_default().insert(w);
                }
            }
        }
        let way = banks.values().map(BTreeSet::len).max().unwrap_or(0);
        wavefronts += way;
        worst = worst.max(way);
        phases += 1;
    }
    (wavefronts, phases, worst)
}

/// The coalescing report: for every warp and every access of `local_partition(gmem, thr, t)`,
/// the 32-byte sectors a warp touches and the shared-memory bank conflicts (32 banks x 4 B)
/// the same access pattern has on `smem` (default: the same layout).
pub fn coalescing(
    g: &DynLayout,
    thr: &DynLayout,
    smem: Option<&DynLayout>,
    eb: i64,
    vec: i64,
) -> Result<String, String> {
    let threads = thr.size().v as usize;
    if threads == 0 {
        return Err("the thread layout is empty".into());
    }
    if threads > 4096 {
        return Err(format!(
            "{threads} threads: a thread block has at most 1024"
        ));
    }
    let s = smem.copied().unwrap_or(*g);
    let gp = partition_offsets(g, thr, vec, "gmem")?;
    let sp = partition_offsets(&s, thr, vec, "smem")?;
    let accesses = gp[0].len();
    if sp[0].len() != accesses {
        return Err(format!(
            "smem {s} gives {} accesses per thread, gmem {g} gives {accesses}",
            sp[0].len()
        ));
    }
    let vals = accesses * vec as usize;
    let aligned =
        |parts: &[Vec<Vec<i64>>]| parts.iter().flatten().all(|a| a[0].rem_euclid(vec) == 0);
    let (g_vec, s_vec) = (aligned(&gp), aligned(&sp));
    let warps = threads.div_ceil(32);
    let mut per: Vec<Vec<Access>> = Vec::new();
    for w in 0..warps {
        let lanes = w * 32..((w + 1) * 32).min(threads);
        let mut row = Vec::new();
        for k in 0..accesses {
            let ge: Vec<i64> = lanes.clone().flat_map(|t| gp[t][k].clone()).collect();
            let se: Vec<Vec<i64>> = lanes.clone().map(|t| sp[t][k].clone()).collect();
            let (sectors, lines, ideal_sectors) = global_access(&ge, eb);
            let (wavefronts, phases, worst_way) = shared_access(&se, eb, vec);
            row.push(Access {
                sectors,
                lines,
                ideal_sectors,
                wavefronts,
                phases,
                worst_way,
            });
        }
        per.push(row);
    }
    let all: Vec<Access> = per.iter().flatten().copied().collect();
    let n = all.len() as f64;
    let avg = |f: fn(&Access) -> usize| all.iter().map(f).sum::<usize>() as f64 / n;
    let max = |f: fn(&Access) -> usize| all.iter().map(f).max().unwrap_or(0);
    let a0 = per[0][0];
    let bytes = vec * eb;

    let mut o = String::new();
    o += &format!(
        "coalescing: gmem {g}  threads {thr}  ({eb}-byte elements, {vec} per access = {bytes} B)\n"
    );
    if smem.is_some() {
        o += &format!("            smem {s}\n");
    }
    o += &format!(
        "  {threads} threads ({warps} warp{}), {vals} values per thread = {accesses} access{} of {bytes} B per thread\n",
        if warps == 1 { "" } else { "s" },
        if accesses == 1 { "" } else { "es" }
    );
    let show: Vec<String> = (0..threads.min(8))
        .map(|t| format!("T{t}:{}", gp[t][0][0]))
        .collect();
    o += &format!(
        "  warp 0, access 0, first gmem element of each thread: {}{}\n",
        show.join(" "),
        if threads > 8 { " ..." } else { "" }
    );
    let lane_step: Vec<i64> = (1..threads.min(32))
        .map(|t| gp[t][0][0] - gp[t - 1][0][0])
        .collect();
    if !lane_step.is_empty() && lane_step.iter().all(|d| *d == lane_step[0]) {
        o += &format!(
            "  neighbouring lanes are {} element{} apart in gmem\n",
            lane_step[0],
            if lane_step[0] == 1 { "" } else { "s" }
        );
    }
    if vec > 1 {
        o += &format!(
            "  {vec}-wide vectors along the stride-1 mode: gmem {}, smem {}\n",
            if g_vec {
                "aligned"
            } else {
                "NOT aligned to the vector (the copy cannot vectorise)"
            },
            if s_vec {
                "aligned"
            } else {
                "NOT aligned to the vector (the copy cannot vectorise)"
            }
        );
    }
    let eff = |a: &Access| 100.0 * a.ideal_sectors as f64 / a.sectors.max(1) as f64;
    o += &format!(
        "  global memory: {} sectors of 32 B per warp access (ideal {}), {} line{} of 128 B: {:.1}% sector efficiency{}\n",
        a0.sectors,
        a0.ideal_sectors,
        a0.lines,
        if a0.lines == 1 { "" } else { "s" },
        eff(&a0),
        if a0.sectors == a0.ideal_sectors {
            " (coalesced)"
        } else {
            ""
        }
    );
    o += &format!(
        "    over all {} warp accesses: {:.1} sectors on average, {} at worst (ideal {:.1})\n",
        all.len(),
        avg(|a| a.sectors),
        max(|a| a.sectors),
        avg(|a| a.ideal_sectors)
    );
    let conflicts = a0.wavefronts - a0.phases;
    o += &format!(
        "  shared memory: {} wavefront{} per warp access ({} phase{} of {} threads): {}\n",
        a0.wavefronts,
        if a0.wavefronts == 1 { "" } else { "s" },
        a0.phases,
        if a0.phases == 1 { "" } else { "s" },
        32 / (bytes / 4).max(1),
        if conflicts == 0 {
            "no bank conflicts".to_string()
        } else {
            format!(
                "{}-way bank conflict ({conflicts} extra wavefronts)",
                a0.worst_way
            )
        }
    );
    let worst = max(|a| a.worst_way);
    o += &format!(
        "    over all {} warp accesses: {:.1} extra wavefronts on average, {}\n",
        all.len(),
        avg(|a| a.wavefronts - a.phases),
        if worst > 1 {
            format!("{worst}-way at worst")
        } else {
            "never a conflict".to_string()
        }
    );
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(s: &str) -> DynLayout {
        s.parse().unwrap()
    }

    #[test]
    fn print_layout_matches_cute() {
        let want = "\
(_2,_3):(_3,_1)
      0   1   2 
    +---+---+---+
 0  | 0 | 1 | 2 |
    +---+---+---+
 1  | 3 | 4 | 5 |
    +---+---+---+
";
        assert_eq!(print_layout(&l("(_2,_3):(_3,_1)")).unwrap(), want);
    }

    #[test]
    fn nested_modes_flatten_colexicographically() {
        let t = Table2d::new(&l("((_2,_2),_2):((_1,_4),_2)")).unwrap();
        assert_eq!((t.rows, t.cols), (4, 2));
        assert_eq!((0..4).map(|m| t.at(m, 0)).collect::<Vec<_>>(), [0, 1, 4, 5]);
        let r1 = Table2d::new(&l("_8:_2")).unwrap();
        assert_eq!((r1.rows, r1.cols, r1.at(0, 3)), (1, 8, 6));
    }

    #[test]
    fn expressions_nest() {
        let v = eval_expr("coalesce(composition((_4,_2):(_1,_4), _8:_1))").unwrap();
        assert_eq!(v.to_string(), "_8:_1");
        assert!(eval_expr("composition((_4,_2):(_1,_4)").is_err());
        assert!(
            eval_expr("frob((_4,_2):(_1,_4))")
                .unwrap_err()
                .contains("unknown operation `frob`")
        );
        assert!(
            eval_expr("(_4,_2):(_1)")
                .unwrap_err()
                .starts_with("malformed layout")
        );
    }

    #[test]
    fn tv_owner_of_a_row_major_copy() {
        let m = tv_map(&l("(_32,_8):(_8,_1)"), &l("(_1,_4):(_0,_1)")).unwrap();
        assert_eq!((m.m, m.n), (32, 32));
        // thread 1 owns row 0, columns 4..8
        assert_eq!(m.owner[4 * 32], Some((1, 0)));
        assert_eq!(m.owner[7 * 32], Some((1, 3)));
        assert_eq!(m.owner[32 + 1], Some((8, 1)));
    }

    #[test]
    fn coalescing_row_vs_column_threads() {
        // 32x32 row-major floats; a warp along a row reads 128 contiguous bytes.
        let good =
            coalescing(&l("(_32,_32):(_32,_1)"), &l("(_1,_32):(_0,_1)"), None, 4, 1).unwrap();
        assert!(
            good.contains("4 sectors of 32 B per warp access (ideal 4)"),
            "{good}"
        );
        assert!(good.contains("no bank conflicts"), "{good}");
        // down a column: 32 sectors, and a 32-way bank conflict in smem.
        let bad = coalescing(&l("(_32,_32):(_32,_1)"), &l("(_32,_1):(_1,_0)"), None, 4, 1).unwrap();
        assert!(
            bad.contains("32 sectors of 32 B per warp access (ideal 4)"),
            "{bad}"
        );
        assert!(bad.contains("32-way bank conflict"), "{bad}");
        // padded smem removes the conflict.
        let pad = coalescing(
            &l("(_32,_32):(_32,_1)"),
            &l("(_32,_1):(_1,_0)"),
            Some(&l("(_32,_32):(_33,_1)")),
            4,
            1,
        )
        .unwrap();
        assert!(pad.contains("no bank conflicts"), "{pad}");
        // 128-bit vectors: 8 threads a phase, 4 phases.
        let v4 = coalescing(
            &l("(_8,_128):(_128,_1)"),
            &l("(_1,_32):(_0,_1)"),
            None,
            4,
            4,
        )
        .unwrap();
        assert!(
            v4.contains("16 sectors of 32 B per warp access (ideal 16)"),
            "{v4}"
        );
        assert!(
            v4.contains("(4 phases of 8 threads): no bank conflicts"),
            "{v4}"
        );
    }
}
