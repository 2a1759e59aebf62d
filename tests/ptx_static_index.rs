//! The crate-root prelude (`layout_types::prelude`, CuTe's typed layer) costs nothing on the GPU:
//! each probe of `tests/kernels/probe/src/lib.rs` — `call` of a static nested layout, `crd2idx` of a
//! zipped-divided static tile at a run-time thread index, `crd2idx` of a mixed static/dynamic
//! layout at a thread coordinate — compiles to PTX with no local-memory frame, no division or
//! remainder, and at most 10% more instructions than its hand-written twin.

#[path = "common/ptx_text.rs"]
mod ptx_text;
use ptx_text::{entry, instructions};

fn check_probe(family: &str) {
    let ptx = match ptx_text::module_ptx("probe_prelude_static_typed") {
        Ok(p) => p,
        Err(why) => {
            eprintln!("SKIPPED {family}: no PTX in this build ({why})");
            return;
        }
    };
    let typed_body = entry(ptx, &format!("probe_prelude_{family}_typed"));
    let hand_body = entry(ptx, &format!("probe_prelude_{family}_hand"));
    let (typed, hand) = (instructions(typed_body), instructions(hand_body));
    assert!(
        !typed_body.contains(".local"),
        "{family}: the prelude kernel has a local-memory frame:\n{typed_body}"
    );
    for i in &typed {
        let op = i.split_whitespace().next().unwrap_or("");
        assert!(
            !op.starts_with("div.") && !op.starts_with("rem."),
            "{family}: division/remainder in the prelude kernel: {i}\n{typed_body}"
        );
    }
    println!(
        "prelude {family}: {} instructions, hand-written {}",
        typed.len(),
        hand.len()
    );
    assert!(
        typed.len() * 10 <= hand.len() * 11,
        "{family}: the prelude kernel has {} instructions, more than 110% of the hand-written twin's {}\n--- prelude\n{}\n--- hand\n{}",
        typed.len(),
        hand.len(),
        typed.join("\n"),
        hand.join("\n")
    );
}

#[test]
fn prelude_call_of_a_static_nested_layout() {
    check_probe("static");
}

#[test]
fn prelude_crd2idx_of_a_zipped_divide() {
    check_probe("zipped");
}

#[test]
fn prelude_crd2idx_of_a_mixed_layout() {
    check_probe("mixed");
}
