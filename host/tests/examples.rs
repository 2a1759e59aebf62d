//! The examples build with the tests (`cargo test` builds `examples/`); the GPU-free one runs
//! here and must print exactly what the README's tour shows.

use std::path::PathBuf;
use std::process::Command;

/// `target/<profile>/examples/<name>` next to this test binary.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(|d| d.parent()).unwrap();
    profile.join("examples").join(name)
}

#[test]
fn layout_tour_prints_the_readme_output() {
    let o = Command::new(example("layout_tour")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let readme = include_str!("../../README.md");
    let tour = readme
        .split("## Tour of the layout API")
        .nth(1)
        .and_then(|t| t.split("```text\n").nth(1))
        .and_then(|t| t.split("```").next())
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), tour);
}

#[test]
fn sgemm_example_without_gpu_is_one_line_exit_2() {
    let o = Command::new(example("sgemm"))
        .args(["64"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    match o.status.code() {
        Some(2) => {
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(err.starts_with("sgemm: no GPU: "), "{err}");
        }
        Some(0) => assert!(String::from_utf8_lossy(&o.stdout).contains("TFLOP/s")),
        other => panic!("sgemm example exited {other:?}: {err}"),
    }
}

/// The README's library example is the crate's doc example (which `cargo test` compiles
/// against the public API as an outside crate would).
#[test]
fn readme_library_example_is_the_crate_doc_example() {
    let readme = include_str!("../../README.md");
    let snippet = readme
        .split("## Use it from Rust")
        .nth(1)
        .and_then(|t| t.split("```rust\n").nth(1))
        .and_then(|t| t.split("```").next())
        .unwrap();
    let lib = include_str!("../src/lib.rs");
    let doc: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    assert!(snippet.lines().count() >= 10, "{snippet}");
    assert!(
        doc.contains(snippet),
        "README snippet not in host/src/lib.rs docs:\n{snippet}"
    );
}

/// The README's kernel is `examples/user-kernel`'s (built to PTX by that example's build and by
/// `cargo xtask test`'s scaffold step, which writes the same file into a new project).
#[test]
fn readme_kernel_is_the_user_kernel_example() {
    let readme = include_str!("../../README.md");
    let snippet = readme
        .split("## A kernel in CuTe's form")
        .nth(1)
        .and_then(|t| t.split("```rust\n").nth(1))
        .and_then(|t| t.split("```").next())
        .unwrap();
    let lib = include_str!("../../examples/user-kernel/kernels/src/lib.rs");
    assert!(
        snippet.starts_with("device::kernel! {") && lib.ends_with(snippet),
        "README kernel is not the end of examples/user-kernel/kernels/src/lib.rs:\n{snippet}"
    );
}

/// The README's tensor-core example is the first example of `doc/typed-mma.md`, which runs as a
/// doc test of `layout_types::cute::atom::mma`.
#[test]
fn readme_tiled_mma_example_is_the_typed_mma_doc_test() {
    let block = |text: &'static str| {
        text.split("```rust\n")
            .nth(1)
            .and_then(|t| t.split("```").next())
            .unwrap()
    };
    let readme = include_str!("../../README.md");
    let section = readme.split("## Tensor cores and Hopper").nth(1).unwrap();
    let snippet = block(section);
    assert!(snippet.contains("make_tiled_mma"), "{snippet}");
    assert_eq!(
        snippet,
        block(include_str!("../../doc/typed-mma.md")),
        "the README's TiledMMA example differs from doc/typed-mma.md's first example"
    );
}

/// The README's tour code is `examples/layout_tour.rs`'s (whose output the test above checks).
#[test]
fn readme_tour_code_is_the_layout_tour_example() {
    let readme = include_str!("../../README.md");
    let code = readme
        .split("## Tour of the layout API")
        .nth(1)
        .and_then(|t| t.split("```rust\n").nth(1))
        .and_then(|t| t.split("```").next())
        .unwrap();
    let example = include_str!("../examples/layout_tour.rs");
    for line in code.lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            example.lines().any(|e| e.trim() == line.trim()),
            "README tour line not in examples/layout_tour.rs: {line}"
        );
    }
    assert!(code.lines().count() >= 20, "{code}");
}
