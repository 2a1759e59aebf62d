//! Differential test: our layout algebra against ground truth from real C++ CuTe.
//!
//! Every `tests/data/*.jsonl` file holds one case a line, `{"id","op","args":[..],"expected"[,"loose"]}` in the
//! format of `/work/shared/cute-cases/FORMAT.md`; each case runs through `layout_types::text::eval::eval(op, args)` and the
//! printed value must equal `expected` exactly (CuTe's `cute::print` text, static marks included). Cases marked
//! `"loose": true` (the pycute set) compare ignoring `_` marks, reading a rank-1 tuple `(x)` as `x`, and ignoring
//! the stride of any mode of size 1.
//!
//! Exact cases are evaluated with C++ CuTe's reading of dynamic integers (`Semantics::Cute`: the algebra decides
//! only on static values). Loose cases come from pycute, CuTe's reference definition, where every integer is a
//! plain value; they run with `Semantics::Auto`, which reads arguments without any static integer that way.
//!
//! A file `NAME.skip` next to `NAME.jsonl` lists ids (first word of a line; `#` starts a comment) that are not
//! run: cases of the shared files that real C++ CuTe contradicts (see tools/oracle/README.md).
//!
//! Cases marked `"rejected": true` are inputs real C++ CuTe refuses to compile (a static_assert); `eval` must
//! return an error for them.
//!
//! Data come from `tools/oracle/gen.py` and `tools/oracle/gen_mma.py`; regenerate them there, never by hand.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;

use cute_rs::layout_types::text::eval::{Semantics, eval_in};

const MAX_SHOWN_PER_OP: usize = 5;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
}

struct Case {
    id: String,
    op: String,
    args: Vec<String>,
    expected: String,
    loose: bool,
    /// C++ CuTe refuses these inputs (a static_assert): `eval` must return an error.
    rejected: bool,
}

fn load(file: &str) -> Vec<Case> {
    let path = data_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{file}:{}: bad JSON: {e}", n + 1));
        let s = |k: &str| -> String {
            v[k].as_str()
                .unwrap_or_else(|| panic!("{file}:{}: missing string field {k:?}", n + 1))
                .to_string()
        };
        let args = v["args"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}:{}: missing args", n + 1))
            .iter()
            .map(|a| {
                a.as_str()
                    .unwrap_or_else(|| panic!("{file}:{}: non-string arg", n + 1))
                    .to_string()
            })
            .collect();
        out.push(Case {
            id: s("id"),
            op: s("op"),
            args,
            expected: s("expected"),
            loose: v["loose"].as_bool().unwrap_or(false),
            rejected: v["rejected"].as_bool().unwrap_or(false),
        });
    }
    out
}

fn skips(file: &str) -> HashMap<String, String> {
    let path = data_dir().join(file.trim_end_matches(".jsonl").to_string() + ".skip");
    let Ok(text) = std::fs::read_to_string(path) else {
        return HashMap::new();
    };
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (id, why) = l.split_once(' ').unwrap_or((l, ""));
            (id.to_string(), why.trim().to_string())
        })
        .collect()
}

// ------------------------------------------------------------------------------------------------ loose compare

/// A parsed CuTe text: integers (static mark kept), `_`, `X`, tuples.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    Int(i64, bool),
    Under,
    X,
    Tuple(Vec<Node>),
    /// Stands for "any stride" (size-1 modes under the loose comparison).
    Any,
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn tuple(&mut self) -> Option<Node> {
        if self.peek() == Some(b'(') {
            self.i += 1;
            let mut v = Vec::new();
            if self.peek() == Some(b')') {
                self.i += 1;
                return Some(Node::Tuple(v));
            }
            loop {
                v.push(self.tuple()?);
                match self.peek() {
                    Some(b',') => self.i += 1,
                    Some(b')') => {
                        self.i += 1;
                        return Some(Node::Tuple(v));
                    }
                    _ => return None,
                }
            }
        }
        self.leaf()
    }
    fn leaf(&mut self) -> Option<Node> {
        let mut stat = false;
        match self.peek()? {
            b'X' => {
                self.i += 1;
                return Some(Node::X);
            }
            b'_' => {
                self.i += 1;
                stat = true;
                if !matches!(self.peek(), Some(c) if c.is_ascii_digit() || c == b'-') {
                    return Some(Node::Under);
                }
            }
            _ => {}
        }
        let j = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[j..self.i])
            .ok()?
            .parse()
            .ok()
            .map(|v| Node::Int(v, stat))
    }
}

/// `(shape, Some(stride))` for a layout, `(tuple, None)` otherwise.
fn parse_text(s: &str) -> Option<(Node, Option<Node>)> {
    let mut p = Parser {
        s: s.trim().as_bytes(),
        i: 0,
    };
    let a = p.tuple()?;
    let b = if p.peek() == Some(b':') {
        p.i += 1;
        Some(p.tuple()?)
    } else {
        None
    };
    (p.i == p.s.len()).then_some((a, b))
}

fn product(n: &Node) -> Option<i64> {
    match n {
        Node::Int(v, _) => Some(*v),
        Node::Tuple(v) => v.iter().map(product).try_fold(1i64, |a, b| Some(a * b?)),
        _ => None,
    }
}

fn unmark(n: &Node) -> Node {
    match n {
        Node::Int(v, _) => Node::Int(*v, false),
        Node::Tuple(v) => Node::Tuple(v.iter().map(unmark).collect()),
        o => o.clone(),
    }
}

fn unwrap_rank1(n: Node) -> Node {
    match n {
        Node::Tuple(v) => {
            let mut v: Vec<Node> = v.into_iter().map(unwrap_rank1).collect();
            if v.len() == 1 {
                v.pop().unwrap()
            } else {
                Node::Tuple(v)
            }
        }
        o => o,
    }
}

/// Replace the stride of every size-1 mode by `Any`; None if shape and stride are not congruent.
fn mask_size1(shape: &Node, stride: &Node) -> Option<Node> {
    if product(shape) == Some(1) {
        return Some(Node::Any);
    }
    match (shape, stride) {
        (Node::Tuple(a), Node::Tuple(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .map(|(x, y)| mask_size1(x, y))
            .collect::<Option<Vec<_>>>()
            .map(Node::Tuple),
        (Node::Int(..), Node::Int(..)) => Some(stride.clone()),
        _ => None,
    }
}

fn loose_norm(s: &str) -> Option<(Node, Option<Node>)> {
    let (a, b) = parse_text(s)?;
    let a = unmark(&a);
    match b {
        Some(b) => {
            let b = mask_size1(&a, &unmark(&b))?;
            Some((unwrap_rank1(a), Some(unwrap_rank1(b))))
        }
        None => Some((unwrap_rank1(a), None)),
    }
}

fn loose_eq(expected: &str, got: &str) -> bool {
    match (loose_norm(expected), loose_norm(got)) {
        (Some(a), Some(b)) => a == b,
        _ => expected.trim() == got.trim(),
    }
}

// ------------------------------------------------------------------------------------------------ running

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Panics inside `eval` are reported as mismatches, without a backtrace per case.
fn install_quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let prev = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                prev(info);
            }
        }));
    });
}

fn run_one(op: &str, args: &[String], loose: bool) -> Result<String, String> {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let sem = if loose {
        Semantics::Auto
    } else {
        Semantics::Cute
    };
    QUIET.with(|q| q.set(true));
    let r = panic::catch_unwind(AssertUnwindSafe(|| {
        eval_in(sem, op, &a)
            .map(|v| v.to_string())
            .map_err(|e| e.to_string())
    }));
    QUIET.with(|q| q.set(false));
    match r {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(format!("Err({e})")),
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(format!("panic: {msg}"))
        }
    }
}

#[derive(Default)]
struct OpStats {
    cases: usize,
    pass: usize,
    fail: usize,
    skip: usize,
    shown: Vec<String>,
}

fn check_file(file: &str) {
    install_quiet_hook();
    let cases = load(file);
    assert!(!cases.is_empty(), "{file}: no cases");
    let skip = skips(file);
    let mut stats: BTreeMap<String, OpStats> = BTreeMap::new();
    for c in &cases {
        let st = stats.entry(c.op.clone()).or_default();
        st.cases += 1;
        if skip.contains_key(&c.id) {
            st.skip += 1;
            continue;
        }
        let got = run_one(&c.op, &c.args, c.loose);
        let ok = match &got {
            _ if c.rejected => matches!(&got, Err(e) if e.starts_with("Err(")),
            Ok(g) if c.loose => loose_eq(&c.expected, g),
            Ok(g) => g.trim() == c.expected.trim(),
            Err(_) => false,
        };
        if ok {
            st.pass += 1;
        } else {
            st.fail += 1;
            if st.shown.len() < MAX_SHOWN_PER_OP {
                let got = match got {
                    Ok(g) => g,
                    Err(e) => e,
                };
                st.shown.push(format!(
                    "  {}{}\n      args:     {}\n      expected: {}\n      got:      {}",
                    c.id,
                    if c.loose { " (loose)" } else { "" },
                    c.args.join("  "),
                    if c.rejected {
                        "an error (C++ CuTe does not compile these inputs)"
                    } else {
                        &c.expected
                    },
                    got
                ));
            }
        }
    }
    let mut report = String::new();
    let (mut tc, mut tp, mut tf, mut ts) = (0, 0, 0, 0);
    writeln!(report, "\n{file}").unwrap();
    writeln!(
        report,
        "  {:<24} {:>6} {:>6} {:>6} {:>6}",
        "op", "cases", "pass", "fail", "skip"
    )
    .unwrap();
    for (op, s) in &stats {
        writeln!(
            report,
            "  {:<24} {:>6} {:>6} {:>6} {:>6}",
            op, s.cases, s.pass, s.fail, s.skip
        )
        .unwrap();
        tc += s.cases;
        tp += s.pass;
        tf += s.fail;
        ts += s.skip;
    }
    writeln!(
        report,
        "  {:<24} {:>6} {:>6} {:>6} {:>6}",
        "TOTAL", tc, tp, tf, ts
    )
    .unwrap();
    for (op, s) in &stats {
        if !s.shown.is_empty() {
            writeln!(
                report,
                "\nfirst mismatches for {op} ({} of {}):",
                s.shown.len(),
                s.fail
            )
            .unwrap();
            for m in &s.shown {
                writeln!(report, "{m}").unwrap();
            }
        }
    }
    println!("{report}");
    assert!(
        tf == 0,
        "{file}: {tf} of {} cases mismatch (see the table above)",
        tc - ts
    );
}

macro_rules! data_tests {
    ($($name:ident => $file:literal,)*) => {
        const FILES: &[&str] = &[$($file),*];
        $(
            #[test]
            fn $name() {
                check_file($file);
            }
        )*
    };
}

data_tests! {
    shared_seed_examples => "shared-seed-examples.jsonl",
    shared_pycute_public => "shared-pycute-public.jsonl",
    pycute_exact => "cute-pycute-exact.jsonl",
    size => "cute-size.jsonl",
    cosize => "cute-cosize.jsonl",
    rank => "cute-rank.jsonl",
    depth => "cute-depth.jsonl",
    make_layout => "cute-make_layout.jsonl",
    coalesce => "cute-coalesce.jsonl",
    filter => "cute-filter.jsonl",
    composition => "cute-composition.jsonl",
    complement => "cute-complement.jsonl",
    right_inverse => "cute-right_inverse.jsonl",
    left_inverse => "cute-left_inverse.jsonl",
    max_common_vector => "cute-max_common_vector.jsonl",
    max_common_layout => "cute-max_common_layout.jsonl",
    logical_divide => "cute-logical_divide.jsonl",
    zipped_divide => "cute-zipped_divide.jsonl",
    tiled_divide => "cute-tiled_divide.jsonl",
    flat_divide => "cute-flat_divide.jsonl",
    logical_product => "cute-logical_product.jsonl",
    zipped_product => "cute-zipped_product.jsonl",
    tiled_product => "cute-tiled_product.jsonl",
    flat_product => "cute-flat_product.jsonl",
    blocked_product => "cute-blocked_product.jsonl",
    raked_product => "cute-raked_product.jsonl",
    crd2idx => "cute-crd2idx.jsonl",
    idx2crd => "cute-idx2crd.jsonl",
    get_flat_coord => "cute-get_flat_coord.jsonl",
    dice => "cute-dice.jsonl",
    select => "cute-select.jsonl",
    group => "cute-group.jsonl",
    local_tile => "cute-local_tile.jsonl",
    local_partition => "cute-local_partition.jsonl",
    make_tiled_copy_tv => "cute-make_tiled_copy_tv.jsonl",
    make_tiled_copy_tiler => "cute-make_tiled_copy_tiler.jsonl",
    under_tiler => "cute-under_tiler.jsonl",
    shared_mma_public => "shared-mma-public.jsonl",
    tiled_mma_tv_a => "cute-tiled_mma_tv_a.jsonl",
    tiled_mma_tv_b => "cute-tiled_mma_tv_b.jsonl",
    tiled_mma_tv_c => "cute-tiled_mma_tv_c.jsonl",
    tiled_mma_tile => "cute-tiled_mma_tile.jsonl",
    tiled_mma_tv_a_fp8 => "cute-tiled_mma_tv_a_fp8.jsonl",
    tiled_mma_tv_b_fp8 => "cute-tiled_mma_tv_b_fp8.jsonl",
    tiled_mma_tv_c_fp8 => "cute-tiled_mma_tv_c_fp8.jsonl",
    tiled_mma_tile_fp8 => "cute-tiled_mma_tile_fp8.jsonl",
    tiled_mma_partition_a => "cute-tiled_mma_partition_a.jsonl",
    tiled_mma_partition_b => "cute-tiled_mma_partition_b.jsonl",
    tiled_mma_partition_c => "cute-tiled_mma_partition_c.jsonl",
    tiled_mma_fragment_a => "cute-tiled_mma_fragment_a.jsonl",
    tiled_mma_fragment_b => "cute-tiled_mma_fragment_b.jsonl",
    tiled_mma_fragment_c => "cute-tiled_mma_fragment_c.jsonl",
    make_tiled_copy_a => "cute-make_tiled_copy_a.jsonl",
    make_tiled_copy_b => "cute-make_tiled_copy_b.jsonl",
    make_tiled_copy_c => "cute-make_tiled_copy_c.jsonl",
    gmma_smem_atom => "cute-gmma_smem_atom.jsonl",
    tile_to_shape => "cute-tile_to_shape.jsonl",
    mma_rejected => "cute-mma-rejected.jsonl",
}

/// A new data file must get its own test above.
#[test]
fn every_data_file_has_a_test() {
    let mut missing = Vec::new();
    for e in std::fs::read_dir(data_dir()).expect("tests/data") {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".jsonl") && !FILES.contains(&name.as_str()) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "data files without a test in tests/differential.rs: {missing:?}"
    );
}

/// The loose comparison itself (FORMAT.md).
#[test]
fn loose_comparison_rules() {
    assert!(loose_eq("(_4,_2):(_1,_4)", "(4,2):(1,4)"));
    assert!(loose_eq("(8):(2)", "8:2"));
    assert!(loose_eq("((8),4):((1),8)", "(8,4):(1,8)"));
    assert!(loose_eq("(2,1):(16,0)", "(2,1):(16,32)"));
    assert!(loose_eq("(2,(1,1)):(16,(7,9))", "(2,(1,1)):(16,(0,0))"));
    assert!(loose_eq("12", "_12"));
    assert!(loose_eq("(1,(8))", "(1,8)"));
    assert!(!loose_eq("(2,4):(1,2)", "8:1"));
    assert!(!loose_eq("(2,1):(16,0)", "(2,1):(8,0)"));
    assert!(!loose_eq("(1,2)", "(2,1)"));
}
