// Dev tool: run JSONL cases through eval and print mismatches (exact compare only).
use std::io::BufRead;
fn main() {
    let mut by_op: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let show: usize = std::env::var("SHOW").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut shown: std::collections::BTreeMap<String, usize> = Default::default();
    for f in std::env::args().skip(1) {
        for line in std::io::BufReader::new(std::fs::File::open(&f).unwrap()).lines() {
            let line = line.unwrap();
            if line.trim().is_empty() { continue; }
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            let op = v["op"].as_str().unwrap().to_string();
            let args: Vec<String> = v["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect();
            let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            let exp = v["expected"].as_str().unwrap();
            let got = std::panic::catch_unwind(|| layout_types::eval::eval(&op, &a).map(|x| x.to_string()).unwrap_or_else(|e| format!("ERR {e}"))).unwrap_or_else(|_| "PANIC".into());
            let e = by_op.entry(op.clone()).or_default();
            e.0 += 1;
            if got == exp { e.1 += 1; } else {
                let s = shown.entry(op.clone()).or_default();
                if *s < show { *s += 1; println!("{} {} {:?}\n   exp {}\n   got {}", v["id"], op, args, exp, got); }
            }
        }
    }
    for (op, (n, p)) in by_op { println!("{op:24} {p}/{n}"); }
}
