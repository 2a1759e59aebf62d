//! The `host` binary's CLI contract, GPU-free.

use std::io::Write;
use std::process::{Command, Stdio};

fn host() -> Command {
    Command::new(env!("CARGO_BIN_EXE_host"))
}

#[test]
fn unknown_subcommand_is_one_line_and_exit_2() {
    let o = host().arg("frobnicate").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("unknown subcommand `frobnicate`"));
}

#[test]
fn placeholders_exit_2() {
    for sub in ["bench", "layout"] {
        let o = host().arg(sub).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{sub}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("not yet implemented"));
    }
}

#[test]
fn run_without_gpu_is_one_line_exit_2_or_passes_with_gpu() {
    let o = host().arg("run").output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    match o.status.code() {
        Some(2) => {
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(err.contains("no GPU"), "{err}");
            assert!(!err.contains("panicked"), "{err}");
            println!("SKIP gpu checks: {}", err.trim());
        }
        Some(0) => assert!(String::from_utf8_lossy(&o.stdout).contains("PASS")),
        other => panic!("host run exited {other:?}: {err}"),
    }
}

fn eval(input: &str) -> Vec<serde_json::Value> {
    let mut child = host().arg("eval").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad output line {l:?}: {e}")))
        .collect()
}

#[test]
fn eval_answers_every_line_in_order() {
    let out = eval(concat!(
        "{\"id\": \"a\", \"op\": \"size\", \"args\": [\"(2,3):(1,2)\"]}\n",
        "this is not json\n",
        "\n",
        "{\"op\": \"size\"}\n",
        "{\"id\": \"b\", \"op\": \"size\", \"args\": [1]}\n",
        "{\"id\": \"c\", \"args\": []}\n",
    ));
    assert_eq!(out.len(), 5, "{out:?}");
    assert_eq!(out[0]["id"], "a");
    assert!(out[0].get("got").is_some() || out[0].get("error").is_some());
    assert!(out[1]["id"].is_null() && out[1]["error"].as_str().unwrap().contains("malformed"));
    assert!(out[2]["id"].is_null() && out[2]["error"].is_string());
    assert_eq!(out[3]["id"], "b");
    assert!(out[3]["error"].as_str().unwrap().contains("args"));
    assert_eq!(out[4]["id"], "c");
    assert!(out[4]["error"].as_str().unwrap().contains("op"));
}
