//! `host eval`: JSON Lines in, JSON Lines out.
//!
//! In:  `{"id": "...", "op": "...", "args": ["...", ...]}` per line, with an optional
//! `"semantics": "cute" | "reference" | "auto"` (how dynamic integers are read; default `auto`:
//! the reference definition when no argument holds a static `_N`, else C++ CuTe's).
//! Out: `{"id": "...", "got": "<Display of Value>"}` or `{"id": "...", "error": "<message>"}`,
//! one line per non-blank input line, in order, flushed per line. A malformed line
//! (bad JSON, missing/mistyped field) or a panic inside the evaluator gives an
//! `error` line (`id` is `null` when it could not be read); the loop never stops early.

use std::io::{BufRead, Write};

use serde_json::{Value, json};

/// Answers one input line as one output line (no newline), `id` first.
pub fn answer(line: &str) -> String {
    let v = answer_value(line);
    let id = v.get("id").cloned().unwrap_or(Value::Null);
    match (v.get("got"), v.get("error")) {
        (Some(got), _) => format!("{{\"id\": {id}, \"got\": {got}}}"),
        (_, Some(err)) => format!("{{\"id\": {id}, \"error\": {err}}}"),
        _ => unreachable!("answer_value always sets got or error"),
    }
}

fn answer_value(line: &str) -> Value {
    let req: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return json!({"id": null, "error": format!("malformed request: {e}")}),
    };
    let id = match req.get("id") {
        Some(Value::String(s)) => Value::String(s.clone()),
        Some(Value::Number(n)) => Value::Number(n.clone()),
        _ => return json!({"id": null, "error": "malformed request: missing string \"id\""}),
    };
    let Some(op) = req.get("op").and_then(Value::as_str) else {
        return json!({"id": id, "error": "malformed request: missing string \"op\""});
    };
    let args: Vec<&str> = match req.get("args") {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            let strs: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
            match strs {
                Some(s) => s,
                None => {
                    return json!({"id": id, "error": "malformed request: \"args\" must be an array of strings"});
                }
            }
        }
        Some(_) => {
            return json!({"id": id, "error": "malformed request: \"args\" must be an array of strings"});
        }
    };
    use layout_types::text::eval::Semantics;
    let sem = match req.get("semantics").map(|v| v.as_str()) {
        None | Some(Some("auto")) => Semantics::Auto,
        Some(Some("cute")) => Semantics::Cute,
        Some(Some("reference")) | Some(Some("pycute")) => Semantics::Reference,
        _ => {
            return json!({"id": id, "error": "malformed request: \"semantics\" must be \"cute\", \"reference\" or \"auto\""});
        }
    };
    let result = host::quiet::catch_quiet(|| {
        layout_types::text::eval::eval_in(sem, op, &args)
            .map(|v| v.to_string())
            .map_err(|e| e.to_string())
    });
    match result {
        Ok(Ok(got)) => json!({"id": id, "got": got}),
        Ok(Err(msg)) => json!({"id": id, "error": msg}),
        Err(msg) => {
            json!({"id": id, "error": format!("internal error: evaluator panicked: {msg}")})
        }
    }
}

/// Reads stdin to the end; returns the process exit code (0, or 1 on an I/O error).
pub fn main() -> u8 {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().split(b'\n') {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("host eval: reading stdin: {e}");
                return 1;
            }
        };
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let reply = answer(text);
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            return 1; // stdout closed: nobody is listening
        }
    }
    0
}
