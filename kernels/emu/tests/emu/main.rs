//! The emulator's tests, one binary (each test file of its own would be one more crate to
//! compile and link in `cargo xtask test`).

/// One `#[test]` per kernel entry, each `run("<entry>")` with the `run` of the module that
/// invokes it (declared before the modules: `macro_rules!` scope is textual).
macro_rules! entry_tests {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            run(stringify!($name));
        }
    )*};
}

mod attention_ref;
mod copy;
mod gemm;
mod geometry;
mod hgemm_sm80;
mod probe;
mod selftest;
mod smoke;

/// `host`'s attention problem type and CPU reference (std only), for `attention_ref`.
#[allow(dead_code)]
#[path = "../../../../host/src/attention/problem.rs"]
mod problem;
#[allow(dead_code)]
#[path = "../../../../host-cli/src/reference/attention.rs"]
mod reference;
