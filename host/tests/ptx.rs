//! GPU-free checks of the PTX modules embedded in `cute_rs::PTX_MODULES` (the product's) and
//! `check_kernels::PTX_MODULES` (the check families': probe, smoke, proofs, references).
//!
//! `ptxas` checks run when ptxas is found (`$PTXAS`, which `cargo xtask test` sets,
//! PATH, CUDA_HOME, target/cuda-tools, python site-packages); otherwise they print
//! a visible SKIP line and pass.

#[path = "../../xtask/src/ptxas.rs"]
mod ptxas;

use host::hgemm::config;
use std::path::PathBuf;

/// The embedded PTX modules; `None` (after a visible SKIP line) when this build has none,
/// unless `CUTE_RS_REQUIRE_PTX=1` (set by `cargo xtask test`) makes that a failure.
fn modules(test: &str) -> Option<Vec<&'static cute_rs::PtxModule>> {
    if let Some(why) = cute_rs::KERNELS_PTX_ERROR.or(check_kernels::KERNELS_PTX_ERROR) {
        if std::env::var("CUTE_RS_REQUIRE_PTX").is_ok_and(|v| v == "1") {
            panic!("PTX_MODULES is empty: {why}");
        }
        eprintln!("SKIP {test}: no PTX in this build ({why})");
        return None;
    }
    Some(every_module().collect())
}

/// The product's modules, then the check families'.
fn every_module() -> impl Iterator<Item = &'static cute_rs::PtxModule> {
    cute_rs::PTX_MODULES
        .iter()
        .chain(check_kernels::PTX_MODULES)
}

/// The module (product or check) that defines `entry`, primary architecture first.
fn module_of(entry: &str) -> Option<&'static cute_rs::PtxModule> {
    cute_rs::module_of(entry).or_else(|| check_kernels::module_of(entry))
}

/// The check families: built for the tests and the CLI's checks, never embedded by the product.
const CHECK_FAMILIES: [&str; 5] = ["smoke", "probe", "wgmma", "wgmma_mn", "attention_ref"];

#[test]
fn the_product_embeds_no_check_family() {
    let Some(_) = modules("the_product_embeds_no_check_family") else {
        return;
    };
    for m in cute_rs::PTX_MODULES {
        assert!(
            !CHECK_FAMILIES.contains(&m.family),
            "{} in cute_rs",
            m.family
        );
    }
    let mut checks: Vec<&str> = check_kernels::PTX_MODULES
        .iter()
        .map(|m| m.family)
        .collect();
    checks.sort();
    checks.dedup();
    let mut want = CHECK_FAMILIES;
    want.sort();
    assert_eq!(checks, want);
}

/// All modules' text, for instruction searches.
fn ptx(test: &str) -> Option<String> {
    Some(modules(test)?.iter().map(|m| m.ptx).collect())
}

/// Each `.entry` of a module's text: `(its declaration up to the parameters, its text up to
/// the next entry)`.
fn entry_bodies(ptx: &str) -> Vec<(&str, &str)> {
    let starts: Vec<usize> = ptx
        .match_indices(".visible .entry ")
        .map(|(i, _)| i)
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            let body = &ptx[a..starts.get(i + 1).copied().unwrap_or(ptx.len())];
            (body.split('(').next().unwrap_or(body), body)
        })
        .collect()
}

/// The modules of the `sm_80` build, if this build embeds one.
fn ampere_modules() -> Vec<&'static cute_rs::PtxModule> {
    every_module().filter(|m| m.arch == "sm_80").collect()
}

#[test]
fn the_ampere_build_has_the_families_written_for_sm_80_only() {
    let Some(_) = modules("the_ampere_build_has_the_families_written_for_sm_80_only") else {
        return;
    };
    if !cute_rs::KERNELS_PTX_ARCHS.contains(&"sm_80") {
        eprintln!("SKIP the_ampere_build_...: no sm_80 build embedded (CUTE_RS_ARCH(S))");
        return;
    }
    let mods = ampere_modules();
    let families: Vec<&str> = mods.iter().map(|m| m.family).collect();
    assert_eq!(
        families,
        [
            "copy",
            "gemm_n",
            "gemm_t",
            "hgemm_sm80",
            "smoke",
            "probe",
            "attention_ref"
        ]
    );
    for m in &mods {
        assert!(
            m.ptx.contains(".target sm_80"),
            "{}: wrong .target",
            m.family
        );
        // nothing of Hopper's: TMA, bulk copies, wgmma, clusters, mbarrier waits
        for hopper in [
            "cp.async.bulk",
            "wgmma.",
            "cp.async.bulk.tensor",
            "%cluster",
        ] {
            assert!(!m.ptx.contains(hopper), "{}: {hopper}", m.family);
        }
    }
    assert!(cute_rs::module_of_arch("transpose_f32_bulk", "sm_80").is_none());
    assert!(cute_rs::module_of_arch("transpose_f32_swizzled", "sm_80").is_some());
    assert!(cute_rs::module_of_arch("transpose_f32_bulk", "sm_90a").is_some());
}

#[test]
fn every_family_is_one_self_contained_module() {
    let Some(mods) = modules("every_family_is_one_self_contained_module") else {
        return;
    };
    let mods: Vec<&cute_rs::PtxModule> = mods
        .into_iter()
        .filter(|m| m.arch == cute_rs::KERNELS_PTX_ARCH)
        .collect();
    let families: Vec<&str> = mods.iter().map(|m| m.family).collect();
    // beside an sm_80 build, the families written for sm_80 only are in that one alone (the
    // builder's `Family::builds_in`; Hopper loads their sm_80 PTX)
    let hopper_only = [
        "copy",
        "gemm_n",
        "gemm_t",
        "tma",
        "hgemm",
        "hgemm_fp8",
        "attention",
        "wgmma",
        "wgmma_mn",
    ];
    if cute_rs::KERNELS_PTX_ARCHS.contains(&"sm_80") {
        assert_eq!(families, hopper_only);
    } else {
        assert_eq!(
            families,
            [
                "copy",
                "gemm_n",
                "gemm_t",
                "tma",
                "hgemm",
                "hgemm_fp8",
                "hgemm_sm80",
                "attention",
                "smoke",
                "probe",
                "wgmma",
                "wgmma_mn",
                "attention_ref"
            ]
        );
    }
    for m in mods {
        let p = m.ptx;
        assert!(
            p.contains(&format!(".target {}", cute_rs::KERNELS_PTX_ARCH)),
            "{}: wrong .target",
            m.family
        );
        let externs: Vec<&str> = p
            .lines()
            .filter(|l| l.trim_start().starts_with(".extern .func"))
            .collect();
        assert!(
            externs.is_empty(),
            "{}: unresolved functions: {externs:?}",
            m.family
        );
        assert!(!m.entries.is_empty(), "{}: no kernels", m.family);
        for k in m.entries {
            assert!(
                p.contains(&format!(".visible .entry {k}(")),
                "{}: kernel {k} missing",
                m.family
            );
        }
    }
    for (k, family) in [
        ("copy_f32_v4", "smoke"),
        ("copy_f32_cp_async", "smoke"),
        ("mma_m16n8k16_smoke", "smoke"),
        ("warp_sum_smoke", "smoke"),
        ("tiled_copy_row_f32_v4", "copy"),
        ("transpose_f32_swizzled", "copy"),
        ("transpose_f32_bulk", "copy"),
        ("sgemm_128x128x8_nn", "gemm_n"),
        ("sgemm_128x128x8_tt_2cta", "gemm_t"),
        ("sgemm_scale_c", "gemm_n"),
        ("probe_prelude_static_typed", "probe"),
        ("wgmma_ss_bf16_kk_sw128_n256", "wgmma"),
        ("wgmma_rs_f16_kmn_sw128_n256", "wgmma_mn"),
        ("wgmma_ws_f16_m128n128", "wgmma"),
        ("hgemm_bf16_tn", "hgemm"),
        ("hgemm_f16_nt", "hgemm"),
        ("hgemm_bf16_nn_pp64", "hgemm"),
        ("gemm_fp8_e4m3_tn_promoted", "hgemm_fp8"),
        ("gemm_fp8_e5m2_tn_fast_pp64", "hgemm_fp8"),
        ("hgemm_sm80_bf16_tn", "hgemm_sm80"),
        ("hgemm_sm80_f16_nt", "hgemm_sm80"),
        ("attention_fwd_bf16_d128", "attention"),
        ("attention_fwd_f16_d256", "attention"),
        ("attention_ref_bf16", "attention_ref"),
        ("attention_ref_f16", "attention_ref"),
    ] {
        assert_eq!(module_of(k).map(|m| m.family), Some(family), "{k}");
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
        "wgmma.fence.sync.aligned",
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16",
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16",
        "wgmma.commit_group.sync.aligned",
        "wgmma.wait_group.sync.aligned 0",
        "setmaxnreg.inc.sync.aligned.u32 232",
        "setmaxnreg.dec.sync.aligned.u32 40",
        "stmatrix.sync.aligned.m8n8.x4.shared.b16",
        "barrier.sync 1, 384",
    ] {
        assert!(p.contains(i), "`{i}` not in the PTX");
    }
    // No panic machinery survived (-Cpanic=immediate-abort).
    assert!(!p.contains("panic"), "panic code in the PTX");
}

/// The wgmma families keep their accumulators in registers: no local-memory array in the PTX (a
/// `[f32; 128]` that LLVM failed to split would be a `.local` depot here, before ptxas).
#[test]
fn wgmma_accumulators_never_touch_local_memory() {
    let Some(mods) = modules("wgmma_accumulators_never_touch_local_memory") else {
        return;
    };
    // without `all-proofs` (N = 8 and 256 only): 48 16-bit proofs with a K-major B, 30 with an
    // MN-major one (the FP8 proofs and the warp-specialized entry come on top in `wgmma`)
    for (family, least) in [("wgmma", 48), ("wgmma_mn", 30)] {
        let m = mods
            .iter()
            .find(|m| m.family == family)
            .expect("the wgmma families");
        assert!(
            m.entries.len() >= least,
            "{} {family} entries",
            m.entries.len()
        );
        assert!(!m.ptx.contains(".local"), "a .local depot in {family}.ptx");
    }
}

/// The GEMM families likewise (bf16/fp16 in `hgemm`, FP8 in `hgemm_fp8`): their entries keep
/// the 128 accumulators of each consumer in registers (an `[f32; 128]` initialized with an array
/// literal once became a store loop and a 512-byte `.local` depot; a chunk loop of the epilogue
/// left rolled indexed them dynamically: 7 KB of spills), issue `wgmma`s, TMA loads and stores
/// and the producer/consumer register split.
#[test]
fn hgemm_is_tma_wgmma_in_registers() {
    let Some(mods) = modules("hgemm_is_tma_wgmma_in_registers") else {
        return;
    };
    let family = |name: &str| {
        mods.iter()
            .find(|m| m.family == name)
            .unwrap_or_else(|| panic!("the {name} family"))
    };
    // 16-bit: 8 plain entries (two elements × four majorities), their 8 on the 128×128 ping-pong
    // (skinny K and badly filled waves), their 8 on the 64×128 ping-pong (small M), their 8 on
    // 128×192 tiles, the 5 fused ones (bf16 TN, one per activation) and those on the three
    // other tiles (15)
    // (`cargo xtask test` without a GPU builds the representative entries only, feature
    // `representative`: 12 and 13, one per schedule, tile, epilogue form and majority;
    // `cargo xtask test-full` checks every entry)
    let every = |m: &cute_rs::PtxModule| !m.features.contains(&"representative");
    let h = family("hgemm");
    assert_eq!(
        h.entries.len(),
        if every(h) { 52 } else { 12 },
        "{:?}",
        h.entries
    );
    // FP8: 14 (e4m3, e5m2: TN, fast accumulation, on 128×256, on 128×192 and for small M on the
    // ping-pong's 64×128; e4m3 promoted, with block scales from global memory and through shared
    // memory, both also on 64×128 for small M and on 128×128 with split-K / stream-K for middle
    // M, and for per-tensor scales on 128×192, 128×160 and 128×128 tiles and on 64×128 for small M, the
    // host choosing by shape) and the 10 fused ones (e4m3 promoted per-tensor on 128×192 and
    // 128×128, one per activation)
    let f = family("hgemm_fp8");
    assert_eq!(
        f.entries.len(),
        if every(f) { 30 } else { 13 },
        "{:?}",
        f.entries
    );
    // both: the TMA loads, the register split, the TMA epilogue (packed conversions, stmatrix
    // into the swizzled chunk, the proxy fence, the warpgroup's named barrier, the bulk-group
    // store), the fused epilogue (the bias's predicated load, the activations' approximate
    // instructions: no IEEE division, its slow path is a call)
    let common = [
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes",
        "setmaxnreg.dec.sync.aligned.u32 40",
        "setmaxnreg.inc.sync.aligned.u32 232",
        "cvt.rn.bf16x2.f32",
        "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
        "fence.proxy.async.shared::cta",
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group",
        "cp.async.bulk.wait_group.read 0",
        "@p ld.global.nc.f32",
        "ex2.approx.ftz.f32",
        "rcp.approx.ftz.f32",
    ];
    let bf16 = [
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16",
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16",
        // the ping-pong entries' two m64n128 blocks a warpgroup
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16",
    ];
    let fp8 = [
        "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3",
        "wgmma.mma_async.sync.aligned.m64n256k32.f32.e5m2.e5m2",
        // the promoted FP8 entries' 64×128 temporary, and the per-tensor entry's 64×192
        "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3",
        "wgmma.mma_async.sync.aligned.m64n192k32.f32.e4m3.e4m3",
        // the staged block scales' 1-D boxes
        "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes",
    ];
    // the warpgroups' epilogue meetings (`config::EPI_BARRIER`) in both; each staged chunk's
    // hand-off to warp 0 (`ChunkHandoff`: `config::CHUNK_BARRIER` on, a barrier a chunk and
    // warpgroup) in the 16-bit family only, the FP8 entries meeting once a tile (`OneMeeting`)
    let meeting = format!("barrier.sync {}, 128", config::EPI_BARRIER + 1);
    let handoff = |id: u32| format!("barrier.arrive {id}, 128");
    for m in [h, f] {
        assert!(m.ptx.contains(&meeting), "{}.ptx lacks {meeting}", m.family);
    }
    for id in config::CHUNK_BARRIER..config::CHUNK_BARRIER + 8 {
        assert!(
            h.ptx.contains(&handoff(id)),
            "hgemm.ptx lacks {}",
            handoff(id)
        );
        assert!(
            !f.ptx.contains(&handoff(id)),
            "hgemm_fp8.ptx hands a chunk off ({})",
            handoff(id)
        );
    }
    for (m, own) in [(h, &bf16[..]), (f, &fp8[..])] {
        assert!(
            !m.ptx.contains(".local"),
            "a .local depot in {}.ptx",
            m.family
        );
        for needle in common.iter().chain(own) {
            assert!(m.ptx.contains(needle), "{}.ptx lacks {needle}", m.family);
        }
        // neither family holds the other's entries
        let foreign = if m.family == "hgemm" {
            ".f32.e4m3.e4m3"
        } else {
            "k16.f32.bf16.bf16"
        };
        assert!(
            !m.ptx.contains(foreign),
            "{}.ptx holds {foreign} wgmmas",
            m.family
        );
    }
    for m in [h, f] {
        // every entry's producer is a warp whose elected lane issues (CUTLASS's producer warp: the
        // TMA operands in uniform registers, not a loop over their values in one thread's)
        assert_eq!(
            m.ptx.matches("elect.sync").count(),
            m.entries.len(),
            "{}: one elect.sync an entry (the producer warp's leader)",
            m.family
        );
        // every entry issues its first TMA load before the roles split (the producer warp's first
        // k-tiles from the code every warp runs first, doc/hopper-gemm.md "The first loads from the
        // prologue"): in each entry's text a tensor load comes before the first `setmaxnreg`
        for (name, body) in entry_bodies(m.ptx) {
            let load = body.find("cp.async.bulk.tensor.2d.shared::cluster.global");
            let split = body.find("setmaxnreg");
            assert!(
                matches!((load, split), (Some(l), Some(r)) if l < r),
                "{name}: no TMA load before the roles split (load at {load:?}, setmaxnreg at {split:?})"
            );
        }
        // the tile schedulers divide by no run-time value: the host builds their parameters (tile
        // counts, FastDivmods), and an integer division would be ptxas's ~20-instruction chain
        for op in [
            "div.s32", "div.u32", "rem.s32", "rem.u32", "div.s64", "div.u64", "rem.s64", "rem.u64",
        ] {
            assert!(
                !m.ptx.contains(op),
                "{}.ptx divides by a run-time value: {op}",
                m.family
            );
        }
    }
}

/// Programmatic dependent launch (the host launches the hgemm and attention entries with
/// programmatic stream serialization): each entry lets the next kernel start
/// (`griddepcontrol.launch_dependents`) and, before its first access to global memory — a TMA
/// copy, a global or generic load or store, a reduction —, waits for the kernel before it
/// (`griddepcontrol.wait`); only parameters and shared memory come before the wait. The GEMM
/// entries trigger after that wait (a launch behind one has every kernel before it finished:
/// what a stream-K launch beside the kernel ahead, which waits only before it exits, relies on);
/// attention triggers first.
#[test]
fn programmatic_launches_wait_before_global_memory() {
    let Some(mods) = modules("programmatic_launches_wait_before_global_memory") else {
        return;
    };
    for family in ["hgemm", "hgemm_fp8", "attention"] {
        let m = mods
            .iter()
            .find(|m| m.family == family && m.arch == "sm_90a")
            .unwrap_or_else(|| panic!("the {family} family"));
        let bodies = entry_bodies(m.ptx);
        assert_eq!(bodies.len(), m.entries.len(), "{family}");
        for (name, body) in bodies {
            let trigger = body.find("griddepcontrol.launch_dependents;");
            let wait = body.find("griddepcontrol.wait;");
            let (Some(trigger), Some(wait)) = (trigger, wait) else {
                panic!("{name}: no griddepcontrol (trigger {trigger:?}, wait {wait:?})");
            };
            if family == "attention" {
                assert!(trigger < wait, "{name}: the wait before the trigger");
            } else {
                assert!(wait < trigger, "{name}: the trigger before the wait");
            }
            for line in body[..wait].lines().map(str::trim) {
                // the instruction (after a guard predicate `@%p` / `@!%p`)
                let mut words = line.split_whitespace();
                let op = match words.next() {
                    Some(g) if g.starts_with('@') => words.next().unwrap_or(""),
                    w => w.unwrap_or(""),
                };
                let memory = ["ld.", "st.", "red.", "atom.", "cp.", "prefetch."]
                    .iter()
                    .any(|p| op.starts_with(p));
                let allowed = op.starts_with("ld.param")
                    || op.contains(".shared")
                    || op.starts_with("prefetch.param")
                    || op.starts_with("prefetch.tensormap");
                assert!(
                    !memory || allowed,
                    "{name}: `{line}` before griddepcontrol.wait"
                );
            }
        }
    }
}

/// The cubins `cargo xtask test`'s ptxas steps kept beside the PTX (`target/ptx/`, and
/// `target/ptx/<arch>/` for the other build): every embedded module's is there under the name
/// the host looks up (`host::ptx::cubin_path`: the text the host embeds is the text xtask
/// assembled), and each is a whole ELF image (`host::ptx::whole_cubin`), so a host given
/// `CUTE_RS_CUBIN_DIR=target/ptx` loads none of them by JIT.
#[test]
fn kept_cubins_are_whole_and_named_as_the_host_looks_them_up() {
    let test = "kept_cubins_are_whole_and_named_as_the_host_looks_them_up";
    let Some(mods) = modules(test) else {
        return;
    };
    if std::env::var_os("CUTE_RS_PTXAS_CHECKED").is_none() {
        println!("SKIP {test}: cargo xtask test's ptxas steps did not assemble these modules");
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/ptx");
    for m in mods {
        let module = host::ptx::PtxModule {
            name: m.family,
            arch: m.arch,
            text: m.ptx,
        };
        let path = host::ptx::cubin_path(&dir, &module);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| {
            panic!("{} {}: no cubin {}: {e}", m.arch, m.family, path.display())
        });
        assert!(
            host::ptx::whole_cubin(&bytes),
            "{}: not a whole ELF image",
            path.display()
        );
        assert!(
            !host::ptx::whole_cubin(&bytes[..bytes.len() - 1]),
            "{}: cut yet whole",
            path.display()
        );
    }
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
    if std::env::var_os("CUTE_RS_PTXAS_CHECKED").is_some() {
        println!(
            "SKIP ptxas_assembles_without_spills: cargo xtask test's ptxas steps assembled these modules"
        );
        return;
    }
    let Some(mods) = modules("ptxas_assembles_without_spills") else {
        return;
    };
    let mut kernels = 0;
    for m in mods {
        let path = std::env::temp_dir().join(format!(
            "cute-rs-test-{}-{}-{}.ptx",
            std::process::id(),
            m.arch,
            m.family
        ));
        std::fs::write(&path, m.ptx).unwrap();
        // every build: the sm_90a modules for sm_90a, the sm_80 ones for sm_80
        let report = ptxas::assemble(&bin, &path, m.arch, false);
        let _ = std::fs::remove_file(&path);
        let report = report.unwrap();
        assert_eq!(report.kernels.len(), m.entries.len(), "{}", report.raw);
        // Every kernel entry: no spills and no local-memory frame.
        for k in &report.kernels {
            assert_eq!((k.spill_stores, k.spill_loads), (0, 0), "{} spills", k.name);
            assert_eq!(
                k.stack_bytes, 0,
                "{} has a {} B stack frame",
                k.name, k.stack_bytes
            );
        }
        // No wgmma serialized, no setmaxnreg ignored (ptxas's performance-loss notes).
        ptxas::performance_losses(&report).unwrap();
        kernels += report.kernels.len();
        println!("{} {}: {}", m.arch, m.family, ptxas::table(&report));
    }
    assert!(kernels >= 20, "only {kernels} kernels");
}
