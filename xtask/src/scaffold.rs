//! `cargo xtask new-kernel-crate DIR`: a two-crate project of your own outside this workspace.
//!
//! ```text
//! DIR/Cargo.toml          workspace: member `app`, `kernels` excluded (built for nvptx64 only)
//! DIR/Cargo.lock          this checkout's, so the host dependencies resolve to the same versions
//! DIR/kernels/            `<name>-kernels`: no_std staticlib, `axpy` in CuTe's form (device +
//!                         layout-types by path), built to one PTX module
//! DIR/app/                `<name>`: build.rs (cute-builder) + main.rs (host::Context::add_ptx,
//!                         launch, check against the CPU)
//! ```
//!
//! The kernel is `examples/user-kernel/kernels/src/lib.rs`, word for word (one source, built by
//! the example and by every scaffold).

use std::path::{Path, PathBuf};

const ROOT: &str = include_str!("../templates/Cargo.toml.in");
const APP_MANIFEST: &str = include_str!("../templates/app.Cargo.toml.in");
const APP_BUILD: &str = include_str!("../templates/app.build.rs.in");
const APP_MAIN: &str = include_str!("../templates/app.main.rs.in");
const KERNELS_MANIFEST: &str = include_str!("../templates/kernels.Cargo.toml.in");
const KERNEL: &str = include_str!("../../examples/user-kernel/kernels/src/lib.rs");

/// What [`write`] made.
pub struct Scaffold {
    /// `DIR`, absolute.
    pub dir: PathBuf,
    /// The host package (`app/`), named after `DIR`.
    pub name: String,
    /// The kernel package (`kernels/`): `<name>-kernels`, its PTX module's name.
    pub kernels: String,
}

/// The package name `DIR`'s last component gives: lower case ASCII letters, digits, `-`, `_`,
/// starting with a letter.
fn package_name(dir: &Path) -> Result<String, String> {
    let raw = dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("`{}` has no usable last component", dir.display()))?;
    let ok = raw.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && raw
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok {
        return Err(format!(
            "`{raw}` is not a usable package name (letters, digits, `-`, `_`, starting with a letter)"
        ));
    }
    Ok(raw.to_ascii_lowercase())
}

/// Writes the project into `dir` (which must not exist, or be empty), with path dependencies on
/// the checkout `root`.
pub fn write(root: &Path, dir: &Path) -> Result<Scaffold, String> {
    let root = root
        .canonicalize()
        .map_err(|e| format!("{}: {e}", root.display()))?;
    let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
    let dir = cwd.join(dir);
    if dir.exists() {
        let empty = std::fs::read_dir(&dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .next()
            .is_none();
        if !empty {
            return Err(format!("`{}` exists and is not empty", dir.display()));
        }
    }
    let name = package_name(&dir)?;
    // Lexically: the directory need not exist yet.
    if dir.starts_with(&root) && !dir.starts_with(root.join("target")) {
        return Err(format!(
            "`{}` is inside the cute-rs checkout {}; pick a directory outside it",
            dir.display(),
            root.display()
        ));
    }
    let kernels = format!("{name}-kernels");
    let checkout = root.to_str().ok_or("the checkout's path is not UTF-8")?;
    if checkout.contains(['"', '\\']) {
        return Err(format!(
            "the checkout's path {checkout} has a character a Cargo.toml string cannot hold as is"
        ));
    }
    let fill = |t: &str| {
        t.replace("{{CHECKOUT}}", checkout)
            .replace("{{NAME}}", &name)
            .replace("{{KERNELS}}", &kernels)
            .replace(
                "{{KERNELS_ENV}}",
                &kernels.to_ascii_uppercase().replace('-', "_"),
            )
    };
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    let files: [(&str, String); 8] = [
        ("Cargo.toml", fill(ROOT)),
        ("Cargo.lock", lock),
        (".gitignore", "/target\n".to_string()),
        ("app/Cargo.toml", fill(APP_MANIFEST)),
        ("app/build.rs", fill(APP_BUILD)),
        ("app/src/main.rs", fill(APP_MAIN)),
        ("kernels/Cargo.toml", fill(KERNELS_MANIFEST)),
        ("kernels/src/lib.rs", KERNEL.to_string()),
    ];
    for (path, text) in files {
        if text.is_empty() {
            continue;
        }
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().expect("a file in a folder"))
            .map_err(|e| format!("creating {}: {e}", p.display()))?;
        std::fs::write(&p, text).map_err(|e| format!("writing {}: {e}", p.display()))?;
    }
    Ok(Scaffold { dir, name, kernels })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_refusals() {
        assert_eq!(package_name(Path::new("/tmp/My-Axpy")).unwrap(), "my-axpy");
        assert!(package_name(Path::new("/tmp/9lives")).is_err());
        assert!(package_name(Path::new("/tmp/a b")).is_err());
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let e = write(&root, &root.join("inside")).err().unwrap();
        assert!(e.contains("inside the cute-rs checkout"), "{e}");
    }

    #[test]
    fn writes_the_two_crates() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = std::env::temp_dir().join(format!("cute-scaffold-unit-{}", std::process::id()));
        let s = write(&root, &dir).unwrap();
        assert_eq!(s.kernels, format!("{}-kernels", s.name));
        let main = std::fs::read_to_string(dir.join("app/src/main.rs")).unwrap();
        assert!(
            main.contains("env!(\"CUTE_PTX_CUTE_SCAFFOLD_UNIT_"),
            "{main}"
        );
        assert!(!main.contains("{{"), "{main}");
        let k = std::fs::read_to_string(dir.join("kernels/Cargo.toml")).unwrap();
        let root = root.canonicalize().unwrap();
        assert!(
            k.contains(&format!("path = \"{}/device\"", root.display())),
            "{k}"
        );
        let lib = std::fs::read_to_string(dir.join("kernels/src/lib.rs")).unwrap();
        assert!(lib.lines().count() < 40, "the kernel is over 40 lines");
        assert!(
            write(&root, &dir).is_err(),
            "a second write into a non-empty dir"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
