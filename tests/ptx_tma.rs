//! The TMA family (`kernels/tma`, issue #25) in PTX: the tensor maps arrive by value as
//! `.param .align 64 .b8 [128]` (CUDA's `const __grid_constant__ CUtensorMap`) and are used in
//! place through `cvta.param` (no copy into a `.local` frame, no 16-byte loads of the map), and
//! each copy entry issues TMA loads on mbarriers and TMA stores in bulk groups.
//!
//! `CUTE_RS_PTX_FILE=target/ptx/tma.ptx cargo test --test ptx_tma` checks a PTX built by hand.

#[path = "common/ptx_text.rs"]
mod ptx_text;
use ptx_text::{entry, instructions};

const COPIES: [&str; 8] = [
    "tma_copy_row_b4",
    "tma_copy_col_b4",
    "tma_copy_row_b2",
    "tma_copy_col_b2",
    "tma_copy_row_b4_persistent",
    "tma_copy_col_b4_persistent",
    "tma_copy_row_b2_persistent",
    "tma_copy_col_b2_persistent",
];

fn tma_ptx() -> Option<&'static str> {
    match ptx_text::module_ptx("tma_copy_row_b4") {
        Ok(p) => Some(p),
        Err(why) => {
            eprintln!("no PTX in this build ({why}): nothing to check");
            None
        }
    }
}

#[test]
fn tensor_maps_are_64_byte_aligned_params_used_in_place() {
    let Some(ptx) = tma_ptx() else { return };
    for name in COPIES.iter().chain(&["tma_instruction_probe"]) {
        let body = entry(ptx, name);
        for p in 0..2 {
            let param = format!("{name}_param_{p}");
            assert!(
                body.contains(&format!(".param .align 64 .b8 {param}[128]")),
                "{name}: parameter {p} is not a 64-byte aligned 128-byte map"
            );
            assert!(
                body.contains("mov.b64 %rd") && body.contains("cvta.param.u64"),
                "{name}"
            );
            assert!(
                !body.contains(&format!("[{param}")),
                "{name}: the map is read into registers"
            );
        }
        assert!(!body.contains(".local"), "{name}: local-memory frame");
        assert!(
            !body.contains("__local_depot"),
            "{name}: local-memory frame"
        );
    }
}

#[test]
fn copies_load_by_tma_on_mbarriers_and_store_by_tma() {
    let Some(ptx) = tma_ptx() else { return };
    for name in COPIES {
        let ins = instructions(entry(ptx, name));
        let count = |p: &str| ins.iter().filter(|i| i.starts_with(p)).count();
        assert!(
            count("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes")
                >= 1,
            "{name}: no TMA load"
        );
        assert!(
            count("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group") >= 1,
            "{name}: no TMA store"
        );
        assert!(
            count("mbarrier.arrive.expect_tx.shared::cta.b64") >= 1,
            "{name}"
        );
        assert!(
            count("mbarrier.try_wait.parity.shared::cta.b64") >= 2,
            "{name}: full and empty waits"
        );
        assert!(
            count("mbarrier.arrive.shared::cta.b64") >= 1,
            "{name}: consumer release"
        );
        assert_eq!(
            count("mbarrier.init.shared::cta.b64"),
            8,
            "{name}: 4 stages x (full, empty)"
        );
        assert!(
            count("cp.async.bulk.commit_group") >= 1 && count("cp.async.bulk.wait_group.read") >= 2,
            "{name}"
        );
        // the expected bytes are the box's: 16 KiB for both element sizes
        assert!(
            entry(ptx, name).contains("16384"),
            "{name}: transaction bytes"
        );
        // divisions only where a tile's coordinate is made (idx2crd by the dynamic tile count,
        // once per inlined load or store site), none per element
        assert!(
            count("div.") + count("rem.") <= 8,
            "{name}: {} divisions",
            count("div.") + count("rem.")
        );
    }
}

#[test]
fn the_probe_assembles_every_wrapper() {
    let Some(ptx) = tma_ptx() else { return };
    let body = entry(ptx, "tma_instruction_probe");
    for r in 1..=5 {
        assert!(body.contains(&format!(
            "cp.async.bulk.tensor.{r}d.shared::cluster.global.mbarrier::complete_tx::bytes ["
        )));
    }
    for i in [
        "cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster",
        "cp.async.bulk.tensor.5d.global.shared::cta.bulk_group",
        "prefetch.tensormap",
        "fence.mbarrier_init.release.cluster",
        "mbarrier.expect_tx.relaxed.cta.shared::cta.b64",
        "mbarrier.complete_tx.relaxed.cta.shared::cta.b64",
        "mapa.shared::cluster.u32",
        "mbarrier.arrive.shared::cluster.b64",
        "mbarrier.inval.shared::cta.b64",
        "elect.sync",
        "%cluster_ctarank",
        "%cluster_nctarank",
        "%clusterid.x",
        "%cluster_ctaid.x",
        "%cluster_nctaid.x",
        "barrier.cluster.arrive.relaxed.aligned",
        "barrier.cluster.arrive.aligned",
        "barrier.cluster.wait.aligned",
        "fence.proxy.async.shared::cta",
    ] {
        assert!(body.contains(i), "probe lacks {i}");
    }
}

/// The cluster proof multicasts by TMA and meets the cluster at `barrier.cluster` exactly twice:
/// LLVM once duplicated the first (`.aligned`) barrier into both sides of the `tid == 0` branch,
/// which hung the kernel on the H100; the `sync_threads()` before it keeps one copy.
#[test]
fn the_cluster_proof_multicasts_and_meets_the_cluster_once_per_barrier() {
    let Some(ptx) = tma_ptx() else { return };
    let name = "tma_multicast_cluster2";
    let ins = instructions(entry(ptx, name));
    let count = |p: &str| ins.iter().filter(|i| i.starts_with(p)).count();
    assert_eq!(
        count(
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        ),
        1,
        "{name}"
    );
    assert_eq!(count("barrier.cluster.arrive.relaxed.aligned"), 1, "{name}");
    assert_eq!(count("barrier.cluster.arrive.aligned"), 1, "{name}");
    assert_eq!(count("barrier.cluster.wait.aligned"), 2, "{name}");
    assert!(
        !entry(ptx, name).contains(".local"),
        "{name}: local-memory frame"
    );
}

/// Every wgmma proof entry loads A and B by TMA (maps by value, used in place) and none copies
/// them with plain global loads; the warp-specialized entry still copies (no tensor maps).
#[test]
fn wgmma_proof_entries_load_a_and_b_by_tma() {
    // the K-major-B proofs live in `wgmma`, the MN-major-B ones in `wgmma_mn`
    let modules = match (
        ptx_text::module_ptx("wgmma_ss_bf16_kk_sw128_n256"),
        ptx_text::module_ptx("wgmma_ss_bf16_kmn_sw128_n256"),
    ) {
        (Ok(k), Ok(mn)) => [k, mn],
        (Err(why), _) | (_, Err(why)) => {
            eprintln!("no PTX in this build ({why}): nothing to check");
            return;
        }
    };
    let names: Vec<(&str, &str)> = modules
        .iter()
        .flat_map(|ptx| {
            ptx.lines()
                .filter_map(|l| l.strip_prefix(".visible .entry "))
                .map(|l| l.trim_end_matches('('))
                .filter(|n| n.starts_with("wgmma_ss_") || n.starts_with("wgmma_rs_"))
                .map(move |n| (*ptx, n))
        })
        .collect();
    // the 16-bit proofs (the FP8 ones, `tests/kernels/wgmma/src/fp8.rs`, are a chosen 14)
    let sixteen: Vec<(&str, &str)> = names
        .iter()
        .copied()
        .filter(|(_, n)| n.contains("_bf16_") || n.contains("_f16_"))
        .collect();
    // N = 64 and 128 only with the families' `all-proofs` feature (`cargo xtask run`)
    let all = sixteen.iter().any(|(_, n)| n.ends_with("_n64"));
    let ns: &[u32] = if all { &[8, 64, 128, 256] } else { &[8, 256] };
    // The coverage doc/hopper-wgmma.md states: every configuration GMMA allows — for bf16 and
    // f16, SS over the four majors and RS (K-major A) over two, every atom (INTER, SW32, SW64,
    // SW128) at N = 8, 64, 128 and 256 (8 and 256 without `all-proofs`), except an MN-major B
    // over a swizzled atom at N = 8 (the atom spans 16, 32 or 64 elements of N).
    let mut expected = Vec::new();
    for (mode, majors) in [
        ("ss", &["kk", "kmn", "mnk", "mnmn"][..]),
        ("rs", &["kk", "kmn"][..]),
    ] {
        for e in ["bf16", "f16"] {
            for m in majors {
                for atom in ["inter", "sw32", "sw64", "sw128"] {
                    for &n in ns {
                        if n == 8 && m.ends_with("mn") && atom != "inter" {
                            continue;
                        }
                        expected.push(format!("wgmma_{mode}_{e}_{m}_{atom}_n{n}"));
                    }
                }
            }
        }
    }
    let mut got: Vec<String> = sixteen.iter().map(|(_, n)| n.to_string()).collect();
    got.sort();
    expected.sort();
    assert_eq!(got, expected);
    assert_eq!(sixteen.len(), if all { 174 } else { 78 });
    for (ptx, name) in names {
        let body = entry(ptx, name);
        let ins = instructions(body);
        let count = |p: &str| ins.iter().filter(|i| i.starts_with(p)).count();
        assert!(
            count("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes")
                >= 2,
            "{name}: no TMA loads"
        );
        assert_eq!(count("ld.global"), 0, "{name}: plain global loads");
        assert!(
            body.contains(&format!(".param .align 64 .b8 {name}_param_0[128]")),
            "{name}"
        );
        assert!(
            body.contains(&format!(".param .align 64 .b8 {name}_param_1[128]")),
            "{name}"
        );
    }
}

/// The bf16/fp16 GEMM (issue #26) in clusters of 2: every entry multicasts its half of B by TMA,
/// releases stages with CUTLASS's cluster arrive (`mbarrier.arrive.shared::cluster`, default
/// `.release.cta`: a `.release.cluster` arrive made the kernel ~30% slower on an H100), meets
/// the cluster once after the barriers' initialization, and keeps no local-memory frame.
#[test]
fn hgemm_entries_multicast_b_and_release_stages_across_the_cluster() {
    let ptx = match ptx_text::module_ptx("hgemm_bf16_tn") {
        Ok(p) => p,
        Err(why) => {
            eprintln!("no PTX in this build ({why}): nothing to check");
            return;
        }
    };
    // every element type and majority; of a build with the representative entries only
    // (`cargo xtask test` without a GPU: feature `representative`), those it has
    let representative =
        cute_rs::module_of("hgemm_bf16_tn").is_some_and(|m| m.features.contains(&"representative"));
    for dt in ["bf16", "f16"] {
        for ab in ["nn", "nt", "tn", "tt"] {
            let name = format!("hgemm_{dt}_{ab}");
            if representative && !ptx.contains(&format!(".entry {name}(")) {
                continue;
            }
            let body = entry(ptx, &name);
            let ins = instructions(body);
            let count = |p: &str| ins.iter().filter(|i| i.starts_with(p)).count();
            assert!(
                count(
                    "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                ) >= 1,
                "{name}: no multicast load of B"
            );
            assert!(count("mbarrier.arrive.shared::cluster.b64") >= 1, "{name}");
            assert_eq!(count("mbarrier.arrive.release.cluster"), 0, "{name}");
            assert_eq!(count("barrier.cluster.arrive.relaxed.aligned"), 1, "{name}");
            assert!(!body.contains(".local"), "{name}: local-memory frame");
        }
    }
}
