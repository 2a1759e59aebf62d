// Dev tool: run JSONL cases through eval and print mismatches (exact compare only).
use std::io::BufRead;
fn main() {
    let mut by_op: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let show: usize = std::env::var("SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let mut shown: std::collections::BTreeMap<String, usize> = Default::default();
    for f in std::env::args().skip(1) {
        for line in std::io::BufReader::new(std::fs::File::open(&f).unwrap()).lines() {
            let line = line.unwrap();
            if line.trim().is_empty() {
                continue;
            }
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            let op = v["op"].as_str().unwrap().to_string();
            let args: Vec<String> = v["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string())
                .collect();
            let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            let exp = v["expected"].as_str().unwrap();
            let got = std::panic::catch_unwind(|| {
                layout_types::eval::eval(&op, &a)
                    .map(|x| x.to_string())
                    .unwrap_or_else(|e| format!("ERR {e}"))
            })
            .unwrap_or_else(|_| "PANIC".into());
            let e = by_op.entry(op.clone()).or_default();
            e.0 += 1;
            let loose = v["loose"].as_bool().unwrap_or(false);
            if got == exp || (loose && norm(&got) == norm(exp)) {
                e.1 += 1;
            } else {
                let s = shown.entry(op.clone()).or_default();
                if *s < show {
                    *s += 1;
                    println!(
                        "{} {} {:?}\n   exp {}\n   got {}",
                        v["id"], op, args, exp, got
                    );
                }
            }
        }
    }
    for (op, (n, p)) in by_op {
        println!("{op:24} {p}/{n}");
    }
}

fn norm(s: &str) -> String {
    use layout_types::{DynLayout, IntTuple};
    fn unwrap_all(t: &IntTuple) -> IntTuple {
        if t.is_tuple() {
            if t.rank() == 1 {
                return unwrap_all(&t.get(0));
            }
            let mut r = IntTuple::empty();
            for i in 0..t.rank() {
                r.push(&unwrap_all(&t.get(i)));
            }
            r
        } else if t.is_int() {
            IntTuple::dy(t.val().v)
        } else {
            *t
        }
    }
    fn zero1(s: &IntTuple, d: &IntTuple) -> IntTuple {
        if s.is_tuple() {
            let mut r = IntTuple::empty();
            for i in 0..s.rank() {
                r.push(&zero1(&s.get(i), &d.get(i)));
            }
            r
        } else if s.val().v == 1 {
            IntTuple::dy(0)
        } else {
            *d
        }
    }
    if let Ok(l) = s.parse::<DynLayout>() {
        if s.contains(':') {
            let sh = unwrap_all(&l.shape);
            let st = unwrap_all(&l.stride);
            return format!("{}:{}", sh, zero1(&sh, &st));
        }
    }
    match s.parse::<IntTuple>() {
        Ok(t) => unwrap_all(&t).to_string(),
        Err(_) => s.replace('_', ""),
    }
}
