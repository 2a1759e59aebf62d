//! The one check of the typed differential binaries (`typed_differential.rs`,
//! `typed_differential_b.rs`, `typed_product_differential.rs`): every generated case prints
//! C++ CuTe's text.

/// A generated chunk of cases: `(id, CuTe's text, the typed result printed)`.
pub type CaseFn = fn() -> Vec<(&'static str, &'static str, String)>;

/// Runs every case of `fns`, expects `n` of them, and fails listing each mismatch; `what`
/// names the cases in the messages.
pub fn all_match_cute(fns: &[CaseFn], n: usize, what: &str) {
    let mut fails = Vec::new();
    let mut seen = 0;
    for f in fns {
        for (id, expected, got) in f() {
            seen += 1;
            if got != expected {
                fails.push(format!("  {id}: expected {expected}, got {got}"));
            }
        }
    }
    assert_eq!(seen, n);
    println!("{seen} {what}, {} mismatches", fails.len());
    assert!(
        fails.is_empty(),
        "{} of {seen} {what} differ from CuTe:\n{}",
        fails.len(),
        fails.join("\n")
    );
}
