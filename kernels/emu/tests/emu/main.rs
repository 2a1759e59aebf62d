//! The emulator's tests, one binary (each test file of its own would be one more crate to
//! compile and link in `cargo xtask test`).

mod copy;
mod gemm;
mod geometry;
mod probe;
mod selftest;
mod smoke;
