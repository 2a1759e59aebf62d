//! Reading compute-sanitizer's racecheck report for `cargo xtask sanitize`: the hazards in this
//! project's kernels.
//!
//! `host run` checks the GEMMs against cuBLAS, and some of cuBLAS's reference kernels (`nvjet_*`)
//! report WAR hazards of their own under racecheck (f16 NN 1032×2048×1024: over a thousand,
//! doc/hopper-gemm.md, session 42). racecheck's kernel filters (`--kernel-name`,
//! `--kernel-name-exclude`) would leave them out, but on the H200's driver racecheck with either
//! ends in an internal sanitizer error (doc/performance.md, run s42e). So racecheck runs over
//! everything and its report is read here: a hazard counts when one of its two threads runs one
//! of our kernels, an entry of a module in `target/ptx`.

use std::collections::BTreeSet;
use std::path::Path;

/// The kernel entries (`.visible .entry NAME(`) of every `.ptx` file under `dir`, recursively.
pub fn entries(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(entries(&p));
        } else if p.extension().is_some_and(|x| x == "ptx")
            && let Ok(text) = std::fs::read_to_string(&p)
        {
            out.extend(text.lines().filter_map(|l| {
                let name = l.strip_prefix(".visible .entry ")?;
                Some(name.split('(').next()?.trim().to_string())
            }));
        }
    }
    out
}

/// The hazards of a racecheck `report` that one of the `ours` kernels takes part in (every
/// hazard when `ours` is empty: nothing to tell them apart by), each as its report line; and
/// the sanitizer's own errors, which always count. Both report forms: racecheck's default
/// analysis (a race a pair of instructions) and `--racecheck-report hazard` (a hazard an
/// access, its threads below it).
///
/// ```text
/// ========= Error: Race reported between Read access at nvjet_sm90_hsh_96x192_64x5_2x1_v_badd_NNN+0xa50
/// =========     and Write access at nvjet_sm90_hsh_96x192_64x5_2x1_v_badd_NNN+0x4630 [528 hazards]
/// ========= Error: Potential WAR hazard detected at __shared__ 0x36430 in block (0,34,0) :
/// =========     Read Thread (95,0,0) at nvjet_sm90_hsh_96x192_64x5_2x1_v_badd_NNN+0xa50
/// =========     Write Thread (256,0,0) at nvjet_sm90_hsh_96x192_64x5_2x1_v_badd_NNN+0x4630
/// ```
pub fn hazards_in(report: &str, ours: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Option<(&str, bool)> = None;
    let close = |block: Option<(&str, bool)>, out: &mut Vec<String>| {
        if let Some((head, true)) = block {
            out.push(head.trim_start_matches('=').trim().to_string());
        }
    };
    // whether one of `ours` runs the code a line names (`... at KERNEL+0x...`)
    let names_ours = |line: &str| {
        line.split(" at ").skip(1).any(|at| {
            at.split_once("+0x")
                .is_some_and(|(kernel, _)| ours.contains(kernel.trim()))
        })
    };
    for line in report.lines() {
        if line.contains("hazard detected") || line.contains("Race reported between") {
            close(open.take(), &mut out);
            open = Some((line, ours.is_empty() || names_ours(line)));
        } else if line.contains("Internal Sanitizer Error") {
            out.push(line.trim_start_matches('=').trim().to_string());
        } else if let Some((_, counts)) = open.as_mut() {
            *counts |= names_ours(line);
        }
    }
    close(open, &mut out);
    out
}

/// Whether racecheck's summary reports hazards that [`hazards_in`] found no block for (a report
/// form it cannot read: then nothing can be told apart, and `sanitize` fails rather than pass
/// unread hazards).
pub fn unread(report: &str) -> bool {
    let reported = report
        .lines()
        .filter_map(|l| l.split_once("RACECHECK SUMMARY: ")?.1.split(' ').next())
        .any(|n| n.parse::<u64>().is_ok_and(|n| n > 0));
    reported && hazards_in(report, &BTreeSet::new()).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "\
========= COMPUTE-SANITIZER
========= Error: Potential WAR hazard detected at __shared__ 0x36430 in block (0,34,0) :
=========     Read Thread (95,0,0) at nvjet_sm90_hsh_96x192_64x5_2x1_v_badd_NNN+0xa50
=========     Write Thread (256,0,0) at nvjet_sm90_hsh_96x192_64x5_2x1_v_badd_NNN+0x4630
=========     Current Value : 117, Incoming Value : 117
=========         Host Frame: cuLaunchKernelEx [0x39fc2f] in libcuda.so.1
========= 
========= Error: Potential RAW hazard detected at __shared__ 0x1200 in block (3,0,0) :
=========     Write Thread (12,0,0) at hgemm_bf16_nn+0x1f30
=========     Read Thread (140,0,0) at hgemm_bf16_nn+0x2a00
========= 
========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)
";

    #[test]
    fn only_our_kernels_hazards_count() {
        let ours: BTreeSet<String> = ["hgemm_bf16_nn".to_string()].into();
        let h = hazards_in(REPORT, &ours);
        assert_eq!(h.len(), 1, "{h:?}");
        assert!(h[0].starts_with("Error: Potential RAW hazard"), "{h:?}");
        // cuBLAS's alone: nothing of ours
        let cublas_only = REPORT
            .split("========= Error: Potential RAW")
            .next()
            .unwrap();
        assert!(hazards_in(cublas_only, &ours).is_empty());
        // with no entries to tell them apart, every hazard counts
        assert_eq!(hazards_in(REPORT, &BTreeSet::new()).len(), 2);
    }

    #[test]
    fn the_default_analysis_report_too() {
        // run s42g's report (`--print-limit 0 --show-backtrace no`), and the same with one of ours
        let r = "\
========= Error: Race reported between Read access at nvjet_sm90_hss_96x192_64x5_2x1_v_bz_NNN+0xa50
=========     and Write access at nvjet_sm90_hss_96x192_64x5_2x1_v_bz_NNN+0x4ac0 [528 hazards]
========= 
========= Error: Race reported between Read access at nvjet_sm90_hsh_96x192_64x5_2x1_v_badd_NNN+0xa50
=========     and Write access at nvjet_sm90_hsh_96x192_64x5_2x1_v_badd_NNN+0x4630 [528 hazards]
========= 
1 passed, 0 failed
========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)
";
        let ours: BTreeSet<String> = ["hgemm_f16_nn".to_string()].into();
        assert!(hazards_in(r, &ours).is_empty());
        assert_eq!(hazards_in(r, &BTreeSet::new()).len(), 2);
        let mixed = r.replace(
            "and Write access at nvjet_sm90_hsh_96x192_64x5_2x1_v_badd_NNN+0x4630",
            "and Write access at hgemm_f16_nn+0x4630",
        );
        let h = hazards_in(&mixed, &ours);
        assert_eq!(h.len(), 1, "{h:?}");
        assert!(h[0].contains("v_badd_NNN+0xa50"), "{h:?}");
    }

    #[test]
    fn a_report_not_read_is_noticed() {
        assert!(!unread(REPORT));
        assert!(!unread(
            "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"
        ));
        assert!(unread(
            "========= Error: some new form at x+0x10\n========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n"
        ));
    }

    #[test]
    fn the_sanitizers_own_errors_count() {
        let r = "========= Internal Sanitizer Error: The Sanitizer failed to handle a hardware exception.\n";
        assert_eq!(hazards_in(r, &["x".to_string()].into()).len(), 1);
    }

    #[test]
    fn entries_are_read_from_the_modules() {
        let dir = std::env::temp_dir().join(format!("xtask-entries-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sm_80")).unwrap();
        std::fs::write(
            dir.join("a.ptx"),
            ".version 8.0\n.visible .entry hgemm_bf16_nn(\n\t.param .u64 p\n)\n",
        )
        .unwrap();
        std::fs::write(dir.join("sm_80/b.ptx"), ".visible .entry copy_f32(\n)\n").unwrap();
        let e = entries(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            e,
            ["copy_f32".to_string(), "hgemm_bf16_nn".to_string()].into()
        );
    }
}
