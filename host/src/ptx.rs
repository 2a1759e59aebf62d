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
    /// The kernel family (`copy`, `gemm_n`, `hgemm`, `attention`, ...).
    pub name: &'static str,
    /// The architecture it was built for (`sm_90a`, `sm_80`; one of [`ARCHS`]).
    pub arch: &'static str,
    /// The PTX text (empty when this build has no kernels; see [`build_error`]).
    pub text: &'static str,
}

/// Every embedded PTX module: one per kernel family and architecture (`cute_rs::PTX_MODULES`,
/// [`ARCH`]'s first).
///
/// ```
/// for m in host::ptx::modules() {
///     println!("{}: {:?}", m.name, host::ptx::entries(m.text));
/// }
/// ```
pub fn modules() -> Vec<PtxModule> {
    modules_from(None)
}

/// [`modules`], with the files of folder `dir` in place of the embedded texts, for measuring
/// kernel variants without rebuilding the host ([`crate::LoadOptions::ptx_dir`]): a file
/// `<family>.ptx` there replaces that family's embedded text for [`ARCH`], and
/// `<arch>/<family>.ptx` for another architecture (`cargo xtask build-kernels`' layout under
/// `target/ptx/`; read once; the entries and their signatures must match what the host
/// launches).
///
/// ```
/// let dir = std::env::temp_dir().join(format!("cute-rs-ptx-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// // the first module is one of ARCH's (a build without PTX has none)
/// if let Some(m) = host::ptx::modules().first() {
///     std::fs::write(dir.join(format!("{}.ptx", m.name)), "// replaced").unwrap();
///     let r = host::ptx::modules_from(Some(&dir));
///     let same = |r: &&host::ptx::PtxModule| r.name == m.name && r.arch == m.arch;
///     assert_eq!(r.iter().find(same).unwrap().text, "// replaced");
/// }
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn modules_from(dir: Option<&std::path::Path>) -> Vec<PtxModule> {
    modules_with(dir, &[])
}

/// [`modules_from`] followed by the modules of `extra` ([`crate::LoadOptions::extra_modules`]),
/// whose files in `dir` replace them the same way.
///
/// ```
/// let none = host::ptx::modules_with(None, &[]);
/// assert_eq!(none.len(), host::ptx::modules().len());
/// ```
pub fn modules_with(
    dir: Option<&std::path::Path>,
    extra: &'static [cute_rs::PtxModule],
) -> Vec<PtxModule> {
    cute_rs::PTX_MODULES
        .iter()
        .chain(extra)
        .map(|m| {
            let file = if m.arch == ARCH {
                format!("{}.ptx", m.family)
            } else {
                format!("{}/{}.ptx", m.arch, m.family)
            };
            let replaced = dir.and_then(|d| std::fs::read_to_string(d.join(&file)).ok());
            PtxModule {
                name: m.family,
                arch: m.arch,
                // leaked once per Context: a measuring aid, not a per-launch path
                text: replaced.map_or(m.ptx, |t| Box::leak(t.into_boxed_str())),
            }
        })
        .collect()
}

/// Where folder `dir` ([`crate::LoadOptions::cubin_dir`]) holds the cubin of module `m`'s very
/// text: `dir/<family>-<key>.<arch>.cubin` for `sm_90a` (`cute_builder::DEFAULT_ARCH`),
/// `dir/<arch>/...` for another architecture (`cargo xtask build-kernels` keeps them so beside
/// the PTX in `target/ptx/`;
/// the name is [`cute_builder::cubin_file_name`]'s, so a changed text finds no file and is
/// JIT-compiled as before).
///
/// ```
/// let m = host::ptx::PtxModule { name: "copy", arch: host::ptx::ARCH, text: ".version 8.0\n" };
/// let p = host::ptx::cubin_path(std::path::Path::new("target/ptx"), &m);
/// assert_eq!(p.parent(), Some(std::path::Path::new("target/ptx")));
/// assert!(p.to_str().unwrap().ends_with(&format!(".{}.cubin", host::ptx::ARCH)));
/// let a = host::ptx::PtxModule { name: "copy", arch: "sm_80", text: ".version 8.0\n" };
/// assert_eq!(host::ptx::cubin_path(std::path::Path::new("t"), &a).parent(), Some(std::path::Path::new("t/sm_80")));
/// ```
pub fn cubin_path(dir: &std::path::Path, m: &PtxModule) -> std::path::PathBuf {
    let name = cute_builder::cubin_file_name(m.name, m.arch, m.text);
    // the layout `cargo xtask build-kernels` writes (`cute_builder::Options::ptx_dir`)
    if m.arch == cute_builder::DEFAULT_ARCH {
        dir.join(name)
    } else {
        dir.join(m.arch).join(name)
    }
}

/// Whether `bytes` hold a whole 64-bit ELF image, as `ptxas` writes a cubin: the magic, and
/// its section and program header tables inside the bytes. The driver takes an image by its
/// address alone, so a cut file (a copy that failed halfway) must be refused before it sees it.
///
/// ```
/// let mut elf = vec![0u8; 128];
/// elf[..5].copy_from_slice(b"\x7fELF\x02");
/// elf[0x28] = 64; // section headers at 64: 1 of 64 bytes (0x3A, 0x3C)
/// elf[0x3A] = 64;
/// elf[0x3C] = 1;
/// assert!(host::ptx::whole_cubin(&elf));
/// assert!(!host::ptx::whole_cubin(&elf[..100])); // cut
/// assert!(!host::ptx::whole_cubin(b"")); // empty
/// ```
pub fn whole_cubin(bytes: &[u8]) -> bool {
    let u16_at = |o: usize| {
        bytes
            .get(o..o + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as u64)
    };
    let u64_at = |o: usize| {
        let b: [u8; 8] = bytes.get(o..o + 8)?.try_into().ok()?;
        Some(u64::from_le_bytes(b))
    };
    let end = |off, size, count| -> Option<u64> {
        u64_at(off)?.checked_add(u16_at(size)?.checked_mul(u16_at(count)?)?)
    };
    bytes.starts_with(b"\x7fELF\x02")
        && bytes.len() >= 64
        && [end(0x28, 0x3A, 0x3C), end(0x20, 0x36, 0x38)]
            .iter()
            .all(|e| e.is_some_and(|e| e <= bytes.len() as u64))
}

/// Whether a cubin assembled for `arch` runs on a device of compute capability `capability`:
/// the same major version and at least the minor (exactly it for `sm_90a`); unlike PTX, a cubin
/// does not run on a later major version.
///
/// ```
/// use host::ptx::cubin_runs_on;
/// assert!(cubin_runs_on("sm_90a", (9, 0)) && cubin_runs_on("sm_80", (8, 9)));
/// assert!(!cubin_runs_on("sm_80", (9, 0)) && !cubin_runs_on("sm_90a", (10, 0)));
/// ```
pub fn cubin_runs_on(arch: &str, capability: (i32, i32)) -> bool {
    match required_capability(arch) {
        Some((a, b, exact)) => {
            capability.0 == a && (capability.1 == b || (!exact && capability.1 > b))
        }
        None => false,
    }
}

/// The primary GPU architecture of the embedded PTX (`sm_90a` unless built with
/// `CUTE_RS_ARCH` / `CUTE_RS_ARCHS`).
///
/// ```
/// assert!(host::ptx::ARCH.starts_with("sm_"));
/// ```
pub const ARCH: &str = cute_rs::KERNELS_PTX_ARCH;

/// Every architecture the embedded PTX has a build for, [`ARCH`] first (by default `sm_90a`
/// and `sm_80`; a [`crate::Context`] loads, per family, the best one its device runs).
///
/// ```
/// assert_eq!(host::ptx::ARCHS.first(), Some(&host::ptx::ARCH));
/// ```
pub const ARCHS: &[&str] = cute_rs::KERNELS_PTX_ARCHS;

/// Whether PTX built for `arch` runs on a device of compute capability `capability`: plain
/// targets on that capability and newer, architecture-specific ones (`sm_90a`) on exactly it.
///
/// ```
/// use host::ptx::runs_on;
/// assert!(runs_on("sm_80", (9, 0)) && runs_on("sm_80", (8, 9)) && runs_on("sm_90a", (9, 0)));
/// assert!(!runs_on("sm_90a", (10, 0)) && !runs_on("sm_90a", (8, 0)) && !runs_on("sm_80", (7, 5)));
/// ```
pub fn runs_on(arch: &str, capability: (i32, i32)) -> bool {
    match required_capability(arch) {
        Some((a, b, true)) => (a, b) == capability,
        Some((a, b, false)) => capability >= (a, b),
        None => true, // an unknown target: let the driver decide
    }
}

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

/// The suffix of a GEMM entry's twin declared with `device::launch_bounds!(_, 256, 2)` in
/// `kernels/gemm` (at most 128 registers, two CTAs per SM; the PTX build writes the
/// directives): `sgemm_128x128x8_nn` → `sgemm_128x128x8_nn_2cta`. The four 128×128 entries have
/// one (ptxas fits them in 128 registers without spilling); the 64×64 entries do not.
pub(crate) const BOUNDED_SUFFIX: &str = "_2cta";

/// The launch-bounded twin of `entry`, if the embedded PTX has one.
///
/// ```ignore
/// assert_eq!(bounded_twin("sgemm_128x128x8_nn").as_deref(), Some("sgemm_128x128x8_nn_2cta"));
/// ```
pub(crate) fn bounded_twin(entry: &str) -> Option<String> {
    let twin = format!("{entry}{BOUNDED_SUFFIX}");
    cute_rs::module_of(&twin).map(|_| twin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_twins_are_the_2cta_entries_of_the_gemm_module() {
        if cute_rs::KERNELS_PTX_ERROR.is_some() {
            return; // no PTX in this build: nothing to look up
        }
        for e in [
            "sgemm_128x128x8_nn",
            "sgemm_128x128x8_nt",
            "sgemm_128x128x8_tn",
            "sgemm_128x128x8_tt",
        ] {
            let twin = bounded_twin(e).unwrap();
            let m = cute_rs::module_of(&twin).unwrap();
            assert!(m.family.starts_with("gemm_"), "{}", m.family);
            let body = &m.ptx[m.ptx.find(&format!(".entry {twin}(")).unwrap()..];
            let header = &body[..body.find('{').unwrap()];
            assert!(header.contains(".maxntid 256, 1, 1"), "{header}");
            assert!(header.contains(".minnctapersm 2"), "{header}");
        }
        assert_eq!(bounded_twin("sgemm_64x64x8_nt"), None);
    }
}
