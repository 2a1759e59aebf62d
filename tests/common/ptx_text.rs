//! Reading the embedded PTX in tests (the product's, `cute_rs`, and the check families',
//! `check_kernels`): the module of a family, an entry's body, its instructions.
//! Shared by `tests/ptx_typed_probes.rs` and `tests/ptx_copy_kernels.rs` (`#[path]`-included).

/// The PTX of the module that defines `entry`, or why there is none: the module embedded by
/// `build.rs`, or the file named by `CUTE_RS_PTX_FILE` (for iterating on kernels with a PTX built
/// by hand).
pub fn module_ptx(entry: &str) -> Result<&'static str, &'static str> {
    if let Ok(path) = std::env::var("CUTE_RS_PTX_FILE") {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("CUTE_RS_PTX_FILE={path}: {e}"));
        return Ok(Box::leak(text.into_boxed_str()));
    }
    if let Some(why) = cute_rs::KERNELS_PTX_ERROR.or(check_kernels::KERNELS_PTX_ERROR) {
        return Err(why);
    }
    // the product's modules, else the check families' (the probes: `tests/kernels/probe`)
    Ok(cute_rs::module_of(entry)
        .or_else(|| check_kernels::module_of(entry))
        .unwrap_or_else(|| panic!("no PTX module defines {entry}"))
        .ptx)
}

/// The body of `.entry name`, up to its closing brace: the last `}` line before the next
/// function (an inline-asm block's `{ .. }` also closes on a line of its own, so the first
/// such line can be inside the entry).
pub fn entry<'a>(ptx: &'a str, name: &str) -> &'a str {
    let start = ptx
        .find(&format!(".entry {name}("))
        .unwrap_or_else(|| panic!("{name} is not in the PTX"));
    let rest = &ptx[start..];
    let next = [
        ".visible .entry ",
        "\n.entry ",
        ".visible .func ",
        "\n.func ",
    ]
    .iter()
    .filter_map(|k| rest[1..].find(k).map(|i| i + 1))
    .min()
    .unwrap_or(rest.len());
    let end = rest[..next].rfind("\n}\n").map(|e| e + 3).unwrap_or(next);
    &rest[..end]
}

/// The instructions of an entry: one per statement, inline-asm blocks (`{ .reg ...; a; b; }`)
/// split into their statements; declarations, labels and braces left out.
pub fn instructions(body: &str) -> Vec<String> {
    let body = &body[body.find('{').unwrap_or(0)..];
    let mut out = Vec::new();
    for l in body.lines().map(str::trim) {
        if l.is_empty() || l.starts_with("//") || l == "{" || l == "}" || l.ends_with(':') {
            continue;
        }
        if let Some(block) = l.strip_prefix("{ .reg") {
            // `{ .reg .u64 g; cvta...; ld...; }`: the statements after the declaration
            out.extend(
                block
                    .trim_end_matches('}')
                    .split(';')
                    .skip(1)
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
            continue;
        }
        if l.starts_with('.') {
            continue;
        }
        out.push(l.to_string());
    }
    out
}
