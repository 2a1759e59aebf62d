//! The example runs: PASS on a GPU with its PTX; otherwise one line and exit 2.

use std::process::Command;

#[test]
fn runs_or_says_why_not() {
    let o = Command::new(env!("CARGO_BIN_EXE_user-kernel"))
        .args(["100", "70"])
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    match o.status.code() {
        Some(0) => assert!(out.contains("PASS"), "{out}"),
        Some(2) => {
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(err.starts_with("user-kernel: no GPU: "), "{err}");
        }
        other => panic!("user-kernel exited {other:?}: {out}{err}"),
    }
}
