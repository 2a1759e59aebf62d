//! The typed layout API costs nothing on the GPU: each probe kernel of `kernels/src/typed_probe.rs`
//! written with `layout_types::cute` (crd2idx of a mixed layout, `local_tile` of a dynamic tensor
//! by a static tile, `local_partition` of that tile, a predicated TiledCopy of it) compiles to PTX
//! with no local-memory frame, no division or remainder, and no more than 10% more instructions
//! than its hand-written twin.

/// The PTX to check, or why there is none. The ONE place that knows where the kernels' PTX is:
/// the module embedded by `build.rs`, or the file named by `CUTE_RS_PTX_FILE` (for iterating on
/// the probes with a PTX built by hand).
fn kernels_ptx() -> Result<&'static str, &'static str> {
    if let Ok(path) = std::env::var("CUTE_RS_PTX_FILE") {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("CUTE_RS_PTX_FILE={path}: {e}"));
        return Ok(Box::leak(text.into_boxed_str()));
    }
    if let Some(why) = cute_rs::KERNELS_PTX_ERROR {
        return Err(why);
    }
    // every typed probe lives in the probe family's module
    Ok(cute_rs::module_of("probe_crd2idx_mixed_typed")
        .expect("the probe family defines probe_crd2idx_mixed_typed")
        .ptx)
}

/// The body of `.entry name`, up to its closing brace.
fn entry<'a>(ptx: &'a str, name: &str) -> &'a str {
    let start = ptx
        .find(&format!(".entry {name}("))
        .unwrap_or_else(|| panic!("{name} is not in the PTX"));
    let rest = &ptx[start..];
    let end = rest.find("\n}\n").map(|e| e + 3).unwrap_or(rest.len());
    &rest[..end]
}

/// The instructions of an entry: one per statement, inline-asm blocks (`{ .reg ...; a; b; }`)
/// split into their statements, declarations, labels and braces left out.
fn instructions(body: &str) -> Vec<String> {
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

fn check_probe(family: &str) {
    let ptx = match kernels_ptx() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("SKIPPED {family}: no PTX in this build ({why})");
            return;
        }
    };
    let typed_body = entry(ptx, &format!("probe_{family}_typed"));
    let hand_body = entry(ptx, &format!("probe_{family}_hand"));
    let typed = instructions(typed_body);
    let hand = instructions(hand_body);
    assert!(
        !typed_body.contains(".local"),
        "{family}: the typed kernel has a local-memory frame:\n{typed_body}"
    );
    for i in &typed {
        let op = i.split_whitespace().next().unwrap_or("");
        assert!(
            !op.starts_with("div.") && !op.starts_with("rem."),
            "{family}: division/remainder in the typed kernel: {i}\n{typed_body}"
        );
    }
    println!(
        "{family}: typed {} instructions, hand-written {}",
        typed.len(),
        hand.len()
    );
    assert!(
        typed.len() * 10 <= hand.len() * 11,
        "{family}: the typed kernel has {} instructions, more than 110% of the hand-written twin's {}\n--- typed\n{}\n--- hand\n{}",
        typed.len(),
        hand.len(),
        typed.join("\n"),
        hand.join("\n")
    );
}

#[test]
fn crd2idx_of_a_mixed_layout() {
    check_probe("crd2idx_mixed");
}

#[test]
fn crd2idx_of_a_static_nested_layout() {
    check_probe("crd2idx_static");
}

#[test]
fn local_tile_of_a_dynamic_tensor() {
    check_probe("local_tile");
}

#[test]
fn local_partition_of_the_tile() {
    check_probe("local_partition");
}

#[test]
fn predicated_tiled_copy_of_the_tile() {
    check_probe("tiled_copy");
}

/// The instruction counter itself: inline-asm blocks count their statements.
#[test]
fn instruction_counting() {
    let body = "{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %tid.x;\n$L1:\n\t{ .reg .u64 g; cvta.to.global.u64 g, %rd1; ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [g]; }\n\tret;\n}\n";
    assert_eq!(
        instructions(body),
        [
            "mov.u32 %r1, %tid.x;",
            "cvta.to.global.u64 g, %rd1",
            "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [g]",
            "ret;"
        ]
    );
}
