//! Invalid static layouts are rejected at compile time, with CuTe's condition and the offending
//! values in the message (`tests/ui/fail/*.rs`, pinned `.stderr`); their valid counterparts build
//! and run (`tests/ui/pass/*.rs`). A `pass` case makes trybuild run `cargo build` instead of
//! `cargo check`, which the const-evaluation (post-monomorphization) errors need.
//!
//! Re-pin after an intended message change: `TRYBUILD=overwrite cargo test -p layout-types --test compile_fail`.

#[test]
fn ui() {
    // No debug info in trybuild's builds of the cases (as in the workspace's dev profile).
    // SAFETY: set before trybuild starts any thread or process.
    unsafe {
        std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
    }
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}
