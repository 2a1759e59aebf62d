//! Invalid static layouts are rejected at compile time, with CuTe's condition and the offending
//! values in the message (`tests/ui/fail/*.rs`, pinned `.stderr`); their valid counterparts build
//! and run (`tests/ui/pass/*.rs`). A `pass` case makes trybuild run `cargo build` instead of
//! `cargo check`, which the const-evaluation (post-monomorphization) errors need.
//!
//! Re-pin after an intended message change: `TRYBUILD=overwrite cargo test -p layout-types --test compile_fail`.

#[test]
fn ui() {
    // No debug info in trybuild's builds of the cases (as in the workspace's dev profile).
    // And trybuild builds the dependencies (layout-types, its dev-dependencies) with its rustflags
    // and then the cases with `--diagnostic-width=140` added: a second build of every
    // dependency (trybuild 1.0.122; ~25 CPU-s here). Its own flags and that one, for both
    // builds, through the variable that wins over the `--config` rustflags it passes (it clears
    // `RUSTFLAGS`, not this one), so the second build reuses the first (the quick set: 67 → 40
    // CPU-s). Not forwarded any more: `-C instrument-coverage` from a coverage run's RUSTFLAGS.
    // SAFETY: set before trybuild starts any thread or process.
    unsafe {
        std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
        std::env::set_var(
            "CARGO_ENCODED_RUSTFLAGS",
            [
                "--cfg",
                "trybuild",
                "--verbose",
                "-A",
                "dead_code",
                "--diagnostic-width=140",
            ]
            .join("\x1f"),
        );
    }
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    if std::env::var_os("CUTE_RS_UI_QUICK").is_some() {
        // `cargo xtask test` (its 10-minute budget): the first case, by name, of each group of
        // conditions (a group: the name's first word); `cargo test` and `cargo xtask test-full`
        // run them all.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui/fail");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("tests/ui/fail")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".rs"))
            .collect();
        names.sort();
        let mut groups = std::collections::BTreeSet::new();
        for name in names {
            if groups.insert(name.split('_').next().unwrap_or_default().to_owned()) {
                t.compile_fail(format!("tests/ui/fail/{name}"));
            }
        }
    } else {
        t.compile_fail("tests/ui/fail/*.rs");
    }
}
