//! The modules of the project's crates depend on each other without cycles: each `crate::a::b`
//! (or `super::x`, `crate::{a, b}`) reference of a module is an edge, and the graph of modules
//! that are not each other's ancestors must be acyclic. The `host` library, the `host-cli`
//! library and its binary (`main.rs` and the `cli` tree, which reach the library as
//! `host_cli::`) are checked separately; so are `layout-types` (the value algebra, its text, the
//! checks and the typed layer), the architecture layer `device`, and the kernels' libraries
//! `collective` and `hgemm_kernel`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (e.g. `["check", "gemm"]`) of every `.rs` file under `dir`, relative to `root`.
fn modules(root: &Path, dir: &Path, out: &mut BTreeMap<Vec<String>, String>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            modules(root, &p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel: PathBuf = p.strip_prefix(root).unwrap().with_extension("");
            let mut path: Vec<String> = rel
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .collect();
            if path
                .last()
                .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
            {
                path.pop();
            }
            // code only: doc links (`[`crate::bench`]`) are not dependencies
            let code: String = std::fs::read_to_string(&p)
                .unwrap()
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .map(|l| format!("{l}\n"))
                .collect();
            out.insert(path, code);
        }
    }
}

/// Modules each module refers to (the longest known prefix of each `crate::` / `super::` path).
fn edges(
    mods: &BTreeMap<Vec<String>, String>,
    crate_root: &[String],
) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let resolve = |base: Vec<String>, rest: &str| -> Option<Vec<String>> {
        let mut path = base;
        let token: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        for seg in token.split("::") {
            if seg.is_empty() {
                break;
            }
            let mut next = path.clone();
            next.push(seg.to_string());
            if mods.contains_key(&next) {
                path = next;
            } else {
                break;
            }
        }
        Some(path)
    };
    // `crate::{a::b, c}`: each item of the list
    let items = |rest: &str| -> Vec<String> {
        match rest.strip_prefix('{') {
            Some(list) => list
                .split('}')
                .next()
                .unwrap_or("")
                .split(',')
                .map(|i| i.trim().to_string())
                .collect(),
            None => vec![rest.to_string()],
        }
    };
    let mut g = BTreeMap::new();
    for (m, text) in mods {
        if !m.starts_with(crate_root) {
            continue;
        }
        let mut to = BTreeSet::new();
        for (i, _) in text.match_indices("crate::") {
            for rest in items(&text[i + "crate::".len()..]) {
                if let Some(t) = resolve(crate_root.to_vec(), &rest) {
                    to.insert(t);
                }
            }
        }
        for (i, _) in text.match_indices("super::") {
            // `super::` inside `mod tests` means the file's own module
            let before = &text[..i];
            if before.contains("#[cfg(test)]\nmod tests") {
                continue;
            }
            let parent = m[..m.len().saturating_sub(1)].to_vec();
            for rest in items(&text[i + "super::".len()..]) {
                if let Some(t) = resolve(parent.clone(), &rest) {
                    to.insert(t);
                }
            }
        }
        // ancestors and descendants may refer to each other (a module and its children)
        to.retain(|t| !t.starts_with(m) && !m.starts_with(t));
        g.insert(m.clone(), to);
    }
    g
}

fn find_cycle(g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<Vec<String>>> {
    fn dfs(
        n: &Vec<String>,
        g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        stack: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
    ) -> Option<Vec<Vec<String>>> {
        if let Some(at) = stack.iter().position(|s| s == n) {
            return Some(stack[at..].to_vec());
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.clone());
        for t in g.get(n).into_iter().flatten() {
            if let Some(c) = dfs(t, g, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.clone());
        None
    }
    let mut done = BTreeSet::new();
    g.keys().find_map(|n| dfs(n, g, &mut Vec::new(), &mut done))
}

/// The modules of `dir/src` split by `is_bin` (the binary's `cli` tree apart from the library),
/// checked for a cycle each; `edge` is one edge the graph of `part` must have (the reader works).
fn no_cycles(dir: &Path, part: &str, is_bin: bool, edge: (&[&str], &[&str])) {
    let src = dir.join("src");
    let mut mods = BTreeMap::new();
    modules(&src, &src, &mut mods);
    let part_mods: BTreeMap<_, _> = mods
        .iter()
        .filter(|(k, _)| k.first().is_some_and(|f| f == "cli") == is_bin)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let g = edges(&part_mods, &[]);
    let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(g[&path(edge.0)].contains(&path(edge.1)), "{part}: {g:?}");
    if let Some(c) = find_cycle(&g) {
        panic!("import cycle in {part}: {c:?}");
    }
}

#[test]
fn host_modules_have_no_import_cycles() {
    let host = Path::new(env!("CARGO_MANIFEST_DIR"));
    no_cycles(host, "the host library", false, (&["hgemm"], &["gemm"]));
    let cli = host.join("../host-cli");
    no_cycles(
        &cli,
        "the host-cli library",
        false,
        (&["check", "gemm"], &["timing"]),
    );
    no_cycles(
        &cli,
        "the host binary",
        true,
        (&["cli", "layout"], &["cli", "svg"]),
    );
}

#[test]
fn library_modules_have_no_import_cycles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // the value algebra, text and checks below the typed layer; the typed layer's layouts below
    // its atoms (no circle such as `layout` ↔ `tuple` ↔ `static_result`)
    no_cycles(
        &root.join("layout-types"),
        "layout-types",
        false,
        (&["cute", "atom", "copy"], &["cute", "tensor"]),
    );
    no_cycles(
        &root.join("device"),
        "device",
        false,
        (&["tma"], &["shared"]),
    );
    no_cycles(
        &root.join("kernels/collective"),
        "collective",
        false,
        (&["mainloop"], &["tile"]),
    );
    no_cycles(
        &root.join("kernels/hgemm_kernel"),
        "hgemm_kernel",
        false,
        (&["epilogue"], &["config"]),
    );
}

/// The floor of each layer of `layout-types` refers to no layer above it: the value algebra and
/// its text (`value`, `text`) to neither typed layer; CuTe's layouts, tensors and algebra
/// (`cute::*` but `atom` and `algorithm`) and the static checks over them (`check`) to no atom;
/// nothing in `cute` or `check` to CUTLASS's parts (`cutlass`). The typed layer's `prelude` (in
/// `cute`'s own module) may gather the atoms, as CuTe's `cute.hpp` does.
fn upward_edges(g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    let starts =
        |m: &[String], p: &[&str]| m.len() >= p.len() && m.iter().zip(p).all(|(a, b)| a == b);
    let mut bad = Vec::new();
    for (m, to) in g {
        for t in to {
            let floor = ["value", "text"].iter().any(|f| starts(m, &[f]));
            let cute_floor = starts(m, &["check"])
                || (starts(m, &["cute"])
                    && m.len() > 1
                    && !starts(m, &["cute", "atom"])
                    && !starts(m, &["cute", "algorithm"]));
            let up = (floor && (starts(t, &["cute"]) || starts(t, &["cutlass"])))
                || (cute_floor && starts(t, &["cute", "atom"]))
                || ((starts(m, &["cute"]) || starts(m, &["check"])) && starts(t, &["cutlass"]));
            if up {
                bad.push(format!("{} -> {}", m.join("::"), t.join("::")));
            }
        }
    }
    bad
}

#[test]
fn layout_types_layers_point_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../layout-types/src");
    let mut mods = BTreeMap::new();
    modules(&src, &src, &mut mods);
    let g = edges(&mods, &[]);
    let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // the reader sees the layers' real edges
    assert!(g[&path(&["cutlass", "pipeline"])].contains(&path(&["cute", "atom", "tma"])));
    assert!(g[&path(&["cute", "atom", "copy"])].contains(&path(&["cute", "tensor"])));
    let bad = upward_edges(&g);
    assert!(bad.is_empty(), "layout-types: edges up a layer: {bad:#?}");
    // and an upward edge is caught
    let mut g2 = g.clone();
    g2.get_mut(&path(&["cute", "tensor"]))
        .unwrap()
        .insert(path(&["cute", "atom", "copy"]));
    assert_eq!(upward_edges(&g2), ["cute::tensor -> cute::atom::copy"]);
}

#[test]
fn a_cycle_is_found() {
    let mut g = BTreeMap::new();
    let n = |s: &str| vec![s.to_string()];
    g.insert(n("a"), BTreeSet::from([n("b")]));
    g.insert(n("b"), BTreeSet::from([n("a")]));
    assert!(find_cycle(&g).is_some());
    g.insert(n("b"), BTreeSet::new());
    assert!(find_cycle(&g).is_none());
}
