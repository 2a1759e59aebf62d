//! Differential test of the typed layer against C++ CuTe: every exact case of the repository's
//! `tests/data/cute-*.jsonl`
//! whose operation exists in `layout_types::cute` is written as typed Rust code by the generator
//! (`typed_differential/generator.rs`) into `typed_differential/cases.rs`, compiled here, and its printed
//! result compared with CuTe's text, static marks included. The value algebra runs the same cases
//! in `tests/differential.rs`.

#[path = "typed_differential/generator.rs"]
mod generator;

#[path = "typed_differential/check.rs"]
mod check;

#[allow(unused_imports)]
mod cases {
    // This binary compiles part A of the cases; `typed_differential_b.rs` and `_c.rs` B and C.
    macro_rules! part_a { ($($t:tt)*) => { $($t)* }; }
    macro_rules! part_b {
        ($($t:tt)*) => {};
    }
    macro_rules! part_c {
        ($($t:tt)*) => {};
    }
    include!("typed_differential/prelude.rs");
    include!("typed_differential/cases.rs");
}

use std::path::Path;

/// The differential data of the whole repository (`tests/data` at its root).
fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("data")
}

/// The committed `cases.rs` is what the generator makes of the committed data.
#[test]
fn generated_cases_are_current() {
    let cases = generator::load_cases(&data_dir());
    let generator::Generated {
        cases: text,
        products,
        divides,
        forms,
        stats,
    } = generator::generate(&cases);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/typed_differential");
    println!(
        "{:<24} {:>9} {:>15} {:>9} {:>15} {:>9}",
        "op", "generated", "static/mixed", "not typed", "not expressible", "rejected"
    );
    for (op, (n, st, skips)) in &stats {
        let g = |k| skips.get(&k).copied().unwrap_or(0);
        println!(
            "{op:<24} {n:>9} {st:>15} {:>9} {:>15} {:>9}",
            g(generator::Skip::OpNotTyped),
            g(generator::Skip::NotExpressible),
            g(generator::Skip::RejectedByDesign)
        );
    }
    let files = [
        ("cases.rs", &text),
        ("cases_products.rs", &products),
        ("cases_divides.rs", &divides),
        ("cases_forms.rs", &forms),
    ];
    if std::env::var("TYPED_GEN").is_ok_and(|v| v == "overwrite") {
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    for (name, text) in files {
        let path = dir.join(name);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            current == *text,
            "{} is stale: regenerate with TYPED_GEN=overwrite cargo test -p layout-types --test typed_differential",
            path.display()
        );
    }
}

/// Every generated case of part A prints CuTe's text.
#[test]
fn typed_results_match_cute() {
    check::all_match_cute(cases::CASE_FNS, cases::N_CASES, "typed cases (part A)");
}
