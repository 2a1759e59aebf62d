//! Static layouts fold at compile time: a kernel that indexes static tiles with a run-time thread
//! index compiles to shifts, masks and adds — no division, no remainder, no local memory.

fn kernel_body<'a>(ptx: &'a str, name: &str) -> Option<&'a str> {
    let start = ptx.find(&format!(".entry {name}("))?;
    let rest = &ptx[start..];
    let end = rest.find("\n}\n").map(|e| e + 3).unwrap_or(rest.len());
    Some(&rest[..end])
}

#[test]
fn static_layout_indexing_has_no_div_or_rem() {
    if let Some(why) = cute_rs::KERNELS_PTX_ERROR {
        eprintln!("SKIPPED static_layout_indexing_has_no_div_or_rem: no PTX in this build ({why})");
        return;
    }
    let module = cute_rs::module_of("static_layout_probe").expect("static_layout_probe is built");
    let body =
        kernel_body(module.ptx, "static_layout_probe").expect("static_layout_probe is in the PTX");
    let instrs: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('.'))
        .collect();
    for l in &instrs {
        let op = l.split_whitespace().next().unwrap_or("");
        assert!(
            !op.starts_with("div.") && !op.starts_with("rem."),
            "division/remainder in static indexing: {l}"
        );
        assert!(
            !l.contains(".local"),
            "local memory in static indexing: {l}"
        );
    }
    // the static strides appear as shifts/masks
    assert!(
        instrs
            .iter()
            .any(|l| l.starts_with("shl.") || l.starts_with("bfe.")),
        "{body}"
    );
}
