//! GPU-free checks of the PTX embedded in `cute_rs::KERNELS_PTX`.
//!
//! `ptxas` checks run when ptxas is found (`$PTXAS`, which `cargo xtask test` sets,
//! PATH, CUDA_HOME, target/cuda-tools, python site-packages); otherwise they print
//! a visible SKIP line and pass.

#[path = "../../xtask/src/ptxas.rs"]
mod ptxas;

use std::path::PathBuf;

/// The embedded PTX; `None` (after a visible SKIP line) when this build has none, unless
/// `CUTE_RS_REQUIRE_PTX=1` (set by `cargo xtask test`) makes that a failure.
fn ptx(test: &str) -> Option<&'static str> {
    if let Some(why) = cute_rs::KERNELS_PTX_ERROR {
        if std::env::var("CUTE_RS_REQUIRE_PTX").is_ok_and(|v| v == "1") {
            panic!("KERNELS_PTX is empty: {why}");
        }
        eprintln!("SKIP {test}: no PTX in this build ({why})");
        return None;
    }
    Some(cute_rs::KERNELS_PTX)
}

#[test]
fn ptx_is_one_self_contained_module() {
    let Some(p) = ptx("ptx_is_one_self_contained_module") else {
        return;
    };
    assert!(
        p.contains(&format!(".target {}", cute_rs::KERNELS_PTX_ARCH)),
        "wrong .target"
    );
    let externs: Vec<&str> = p
        .lines()
        .filter(|l| l.trim_start().starts_with(".extern .func"))
        .collect();
    assert!(externs.is_empty(), "unresolved functions: {externs:?}");
    for k in [
        "copy_f32_v4",
        "copy_f32_cp_async",
        "mma_m16n8k16_smoke",
        "warp_sum_smoke",
    ] {
        assert!(
            p.contains(&format!(".visible .entry {k}(")),
            "kernel {k} missing"
        );
    }
}

#[test]
fn ptx_has_expected_instructions() {
    let Some(p) = ptx("ptx_has_expected_instructions") else {
        return;
    };
    for i in [
        "ld.global.v4.f32",
        "st.global.v4.f32",
        "ld.shared.v4.f32",
        "cp.async.cg.shared.global",
        "cp.async.commit_group",
        "cp.async.wait_group 1",
        "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
        "shfl.sync.bfly.b32",
        ".extern .shared .align 16 .b8", // dynamic shared memory
    ] {
        assert!(p.contains(i), "`{i}` not in the PTX");
    }
    // No panic machinery survived (-Cpanic=immediate-abort).
    assert!(!p.contains("panic"), "panic code in the PTX");
}

#[test]
fn ptxas_assembles_without_spills() {
    let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target");
    let Some(bin) = ptxas::find(&target) else {
        println!(
            "SKIP ptxas_assembles_without_spills: ptxas not found (cargo xtask test installs it)"
        );
        eprintln!(
            "SKIP ptxas_assembles_without_spills: ptxas not found (cargo xtask test installs it)"
        );
        return;
    };
    let path = std::env::temp_dir().join(format!("cute-rs-test-{}.ptx", std::process::id()));
    let Some(p) = ptx("ptxas_assembles_without_spills") else {
        return;
    };
    std::fs::write(&path, p).unwrap();
    let report = ptxas::assemble(&bin, &path, cute_rs::KERNELS_PTX_ARCH);
    let _ = std::fs::remove_file(&path);
    let report = report.unwrap();
    // Every kernel of the module (more than the 4 smoke kernels as others land).
    assert!(report.kernels.len() >= 4, "{}", report.raw);
    for k in &report.kernels {
        assert_eq!((k.spill_stores, k.spill_loads), (0, 0), "{} spills", k.name);
    }
    println!("{}", ptxas::table(&report));
}
