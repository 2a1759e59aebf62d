//! The PTX this crate embeds (`cute_rs`, built from `kernels/` by the root `build.rs`), and what
//! is done to its text before the driver sees it.
//!
//! [`modules`] is the one place that names the embedded PTX; [`crate::Context`] loads what it
//! returns in one function (`Context::module`).

/// One PTX module: a name (the kernel family) and its text.
///
/// ```
/// for m in host::ptx::modules() {
///     println!("{}: {} bytes, kernels {:?}", m.name, m.text.len(), host::ptx::entries(m.text));
/// }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PtxModule {
    /// The kernel family (`smoke`, `copy`, `gemm`, `probe`).
    pub name: &'static str,
    /// The PTX text (empty when this build has no kernels; see [`build_error`]).
    pub text: &'static str,
}

/// Every embedded PTX module: one per kernel family (`cute_rs::PTX_MODULES`).
///
/// ```
/// for m in host::ptx::modules() {
///     println!("{}: {:?}", m.name, host::ptx::entries(m.text));
/// }
/// ```
pub fn modules() -> Vec<PtxModule> {
    cute_rs::PTX_MODULES
        .iter()
        .map(|m| PtxModule {
            name: m.family,
            text: m.ptx,
        })
        .collect()
}

/// The GPU architecture the PTX targets (`sm_90a` unless built with `CUTE_RS_ARCH`).
///
/// ```
/// assert!(host::ptx::ARCH.starts_with("sm_"));
/// ```
pub const ARCH: &str = cute_rs::KERNELS_PTX_ARCH;

/// Why this build embeds no PTX (the nightly toolchain was missing at build time, or
/// `CUTE_RS_SKIP_PTX=1`); `None` when it has kernels.
///
/// ```
/// if let Some(why) = host::ptx::build_error() {
///     println!("no kernels: {why}");
/// }
/// ```
pub fn build_error() -> Option<&'static str> {
    cute_rs::KERNELS_PTX_ERROR
}

/// The `.entry` (kernel) names of a PTX text, in file order.
///
/// ```
/// let ptx = ".visible .entry foo(\n.param .u64 p\n)\n{\n}\n";
/// assert_eq!(host::ptx::entries(ptx), ["foo"]);
/// ```
pub fn entries(ptx: &str) -> Vec<&str> {
    ptx.lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix(".visible .entry ")?;
            rest.split(['(', ' ']).next().filter(|n| !n.is_empty())
        })
        .collect()
}

/// The compute capability a PTX target needs: `(major, minor, exact)`; `exact` for the
/// architecture-specific targets (`sm_90a`), which run only on that capability.
///
/// ```
/// assert_eq!(host::ptx::required_capability("sm_90a"), Some((9, 0, true)));
/// assert_eq!(host::ptx::required_capability("sm_80"), Some((8, 0, false)));
/// assert_eq!(host::ptx::required_capability("gfx90a"), None);
/// ```
pub fn required_capability(arch: &str) -> Option<(i32, i32, bool)> {
    let rest = arch.strip_prefix("sm_")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let suffix = &rest[digits.len()..];
    if digits.len() < 2 || !matches!(suffix, "" | "a" | "f") {
        return None;
    }
    let (major, minor) = digits.split_at(digits.len() - 1);
    Some((major.parse().ok()?, minor.parse().ok()?, !suffix.is_empty()))
}

/// GEMM entries loaded from a copy of the PTX with `.maxntid 256,1,1` and `.minnctapersm 2`
/// after their parameter lists (rustc has no `__launch_bounds__`): at most 128 registers, two
/// CTAs per SM. Those are the entries ptxas fits in 128 registers without spilling (`nt` still
/// spills 4 bytes; a 128×128×16 variant spilled 160-230 bytes and was dropped) and that measured
/// faster so. `CUTE_RS_GEMM_BOUNDS=0` loads them plain.
pub(crate) const LAUNCH_BOUNDED: [&str; 3] = [
    "sgemm_128x128x8_nn",
    "sgemm_128x128x8_tn",
    "sgemm_128x128x8_tt",
];

/// The PTX with launch-bound directives after each [`LAUNCH_BOUNDED`] entry's parameter list.
pub(crate) fn with_launch_bounds(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len() + 4096);
    let mut pending = false;
    for line in ptx.lines() {
        out.push_str(line);
        out.push('\n');
        if let Some(rest) = line.trim_start().strip_prefix(".visible .entry ") {
            let name = rest.split('(').next().unwrap_or("").trim();
            pending = LAUNCH_BOUNDED.contains(&name);
        } else if pending && line.starts_with(')') {
            out.push_str(".maxntid 256, 1, 1\n.minnctapersm 2\n");
            pending = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_bounds_go_after_the_parameter_list_of_bounded_entries_only() {
        let ptx = ".visible .entry sgemm_128x128x8_nn(\n.param .u32 m\n)\n{\nret;\n}\n\
                   .visible .entry sgemm_128x128x8_nt(\n.param .u32 m\n)\n{\nret;\n}\n";
        let out = with_launch_bounds(ptx);
        assert_eq!(out.matches(".maxntid 256, 1, 1").count(), 1);
        let nn = out.find("sgemm_128x128x8_nn").unwrap();
        let nt = out.find("sgemm_128x128x8_nt").unwrap();
        let bound = out.find(".maxntid").unwrap();
        assert!(nn < bound && bound < nt, "{out}");
        assert_eq!(entries(&out), ["sgemm_128x128x8_nn", "sgemm_128x128x8_nt"]);
    }
}
