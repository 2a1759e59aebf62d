//! Rendering of results: the check table of `host run`, and benchmark rows as a table,
//! JSON, CSV and an SVG plot of throughput against size (`host bench`).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::bench::BenchRow;
use crate::check::CheckRow;

use crate::cli::svg;

/// The table of `host run`: kernel / shape / PASS-FAIL / max error / time / note, then
/// "N passed, M failed".
pub fn check_table(rows: &[CheckRow]) -> String {
    let mut s = format!(
        "{:<20} {:<30} {:<6} {:>10} {:>10}  note\n",
        "kernel", "shape", "result", "max_err", "time_ms"
    );
    for r in rows {
        let err = if r.mismatches == 0 {
            "0".to_string()
        } else {
            format!("{:.3e}", r.max_err)
        };
        let mut note = r.note.clone();
        if r.mismatches > 0 {
            note = format!("{} mismatches; {note}", r.mismatches);
        }
        s += &format!(
            "{:<20} {:<30} {:<6} {:>10} {:>10.4}  {}\n",
            r.kernel,
            r.shape,
            if r.pass { "PASS" } else { "FAIL" },
            err,
            r.ms,
            note
        );
    }
    let failed = rows.iter().filter(|r| !r.pass).count();
    s += &format!("{} passed, {} failed\n", rows.len() - failed, failed);
    s
}

/// `target/bench` of the workspace this binary was built in (else `./target/bench`).
pub fn bench_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(d).join("bench");
    }
    let exe = std::env::current_exe().ok();
    // target/<profile>/host or target/<profile>/deps/host-*
    let target = exe.as_deref().and_then(|e| {
        e.ancestors().skip(1).find(|a| {
            a.join("CACHEDIR.TAG").is_file() || a.file_name().is_some_and(|n| n == "target")
        })
    });
    target.map_or_else(|| PathBuf::from("target/bench"), |t| t.join("bench"))
}

pub fn suffixed(p: &Path, family: &str) -> PathBuf {
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    p.with_file_name(format!("{stem}-{family}.svg"))
}

pub fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d).map_err(|e| format!("creating {}: {e}", d.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// A rate with 3-4 significant digits.
pub fn fmt_rate(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The table: variant, size, ours, reference, ratio.
pub fn table(rows: &[BenchRow]) -> String {
    let head = ["variant", "size", "ours", "reference", "ratio"];
    let body: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            [
                r.variant.clone(),
                r.size.clone(),
                format!(
                    "{} {} ({:.3} ms)",
                    fmt_rate(r.rate(r.ours_ms)),
                    r.unit,
                    r.ours_ms
                ),
                // a reference that refused the problem has no time (NaN): a dash, not "NaNx"
                if r.ref_ms.is_finite() {
                    format!(
                        "{} {} ({})",
                        fmt_rate(r.rate(r.ref_ms)),
                        r.unit,
                        r.reference
                    )
                } else {
                    format!("- ({})", r.reference)
                },
                if r.ref_ms.is_finite() {
                    format!("{:.2}x", r.ratio())
                } else {
                    "-".into()
                },
            ]
        })
        .collect();
    let mut w = head.map(str::len);
    for b in &body {
        for (i, c) in b.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let mut s = String::new();
    let line = |cells: [&str; 5]| {
        let mut l = String::new();
        for (i, c) in cells.iter().enumerate() {
            // numbers right-aligned, names left-aligned
            if i >= 2 {
                l += &format!("{c:>0$}  ", w[i]);
            } else {
                l += &format!("{c:<0$}  ", w[i]);
            }
        }
        l.trim_end().to_string() + "\n"
    };
    s += &line(head);
    s += &line(w.map(|n| "-".repeat(n)).each_ref().map(String::as_str));
    for b in &body {
        s += &line(b.each_ref().map(String::as_str));
    }
    if rows.is_empty() {
        s += "(no rows)\n";
    }
    s
}

/// Rows as JSON: the fields of [`BenchRow`] plus the derived rates and ratio.
pub fn to_json(rows: &[BenchRow]) -> Value {
    Value::Array(
        rows.iter()
            .map(|r| {
                json!({
                    "family": r.family, "variant": r.variant, "size": r.size, "work": r.work,
                    "unit": r.unit, "ours_ms": r.ours_ms, "ref_ms": r.ref_ms, "reference": r.reference,
                    "ours_rate": r.rate(r.ours_ms), "ref_rate": r.rate(r.ref_ms), "ratio": r.ratio(),
                })
            })
            .collect(),
    )
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Rows as CSV (header line first).
pub fn csv(rows: &[BenchRow]) -> String {
    let mut s = String::from(
        "family,variant,size,work,unit,ours_ms,ref_ms,reference,ours_rate,ref_rate,ratio\n",
    );
    for r in rows {
        s += &format!(
            "{},{},{},{},{},{},{},{},{:.3},{:.3},{:.4}\n",
            r.family,
            csv_field(&r.variant),
            csv_field(&r.size),
            r.work,
            r.unit,
            r.ours_ms,
            r.ref_ms,
            csv_field(r.reference),
            r.rate(r.ours_ms),
            r.rate(r.ref_ms),
            r.ratio()
        );
    }
    s
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// Reads rows saved by `host bench` (`target/bench/<family>.json` or `--json` output).
pub fn load_json(path: &Path) -> Result<Vec<BenchRow>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let v: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    let items = v
        .as_array()
        .ok_or(format!("{}: expected a JSON array of rows", path.display()))?;
    items
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let s = |k: &str| {
                it.get(k).and_then(Value::as_str).ok_or(format!(
                    "{}: row {i}: missing string \"{k}\"",
                    path.display()
                ))
            };
            let f = |k: &str| {
                it.get(k).and_then(Value::as_f64).ok_or(format!(
                    "{}: row {i}: missing number \"{k}\"",
                    path.display()
                ))
            };
            Ok(BenchRow {
                family: leak(s("family")?),
                variant: s("variant")?.to_string(),
                size: s("size")?.to_string(),
                work: f("work")?,
                unit: leak(s("unit")?),
                ours_ms: f("ours_ms")?,
                ref_ms: f("ref_ms")?,
                reference: leak(s("reference")?),
            })
        })
        .collect()
}

/// The x coordinate of a size: bytes for "256 MiB"/"4 KiB"/"100 B", the geometric mean of
/// the factors for "4096x4096x4096" (N for a square GEMM), else the row's work.
pub fn size_value(r: &BenchRow) -> f64 {
    let s = r.size.trim();
    let units = [
        ("GiB", 1u64 << 30),
        ("MiB", 1 << 20),
        ("KiB", 1 << 10),
        ("GB", 1_000_000_000),
        ("MB", 1_000_000),
        ("KB", 1000),
        ("B", 1),
    ];
    for (u, m) in units {
        if let Some(n) = s.strip_suffix(u).and_then(|n| n.trim().parse::<f64>().ok()) {
            return n * m as f64;
        }
    }
    let parts: Option<Vec<f64>> = s
        .split(['x', 'X', '×'])
        .map(|p| p.trim().parse::<f64>().ok())
        .collect();
    match parts {
        Some(p) if !p.is_empty() && p.iter().all(|v| *v > 0.0) => {
            p.iter().product::<f64>().powf(1.0 / p.len() as f64)
        }
        _ => r.work.max(1.0),
    }
}

/// Throughput against size (log x): one solid line per variant (ours), one dashed line per
/// reference (its mean over the rows measured at each size).
pub fn plot(rows: &[BenchRow]) -> String {
    let family = rows.first().map_or("bench", |r| r.family);
    let unit = rows.first().map_or("", |r| r.unit);
    let mut series: Vec<svg::Series> = Vec::new();
    let mut variants: Vec<&str> = Vec::new();
    for r in rows {
        if !variants.contains(&r.variant.as_str()) {
            variants.push(&r.variant);
        }
    }
    for (i, v) in variants.iter().enumerate() {
        let points = rows
            .iter()
            .filter(|r| r.variant == *v)
            .map(|r| (size_value(r), r.rate(r.ours_ms)))
            .collect();
        series.push(svg::Series {
            name: v.to_string(),
            color: svg::LINE_COLORS[i % svg::LINE_COLORS.len()],
            dashed: false,
            points,
        });
    }
    let mut refs: Vec<&str> = Vec::new();
    for r in rows {
        if !refs.contains(&r.reference) {
            refs.push(r.reference);
        }
    }
    for (i, name) in refs.iter().enumerate() {
        let mut by_x: Vec<(f64, f64, usize)> = Vec::new();
        for r in rows.iter().filter(|r| r.reference == *name) {
            let x = size_value(r);
            match by_x.iter_mut().find(|p| p.0 == x) {
                Some(p) => {
                    p.1 += r.rate(r.ref_ms);
                    p.2 += 1;
                }
                None => by_x.push((x, r.rate(r.ref_ms), 1)),
            }
        }
        let points = by_x.iter().map(|&(x, y, n)| (x, y / n as f64)).collect();
        let color = ["#555555", "#999999", "#333333"][i % 3];
        series.push(svg::Series {
            name: format!("{name} (reference)"),
            color,
            dashed: true,
            points,
        });
    }
    let mut ticks: Vec<(f64, String)> = Vec::new();
    for r in rows {
        let x = size_value(r);
        if !ticks.iter().any(|t| t.0 == x) {
            ticks.push((x, r.size.clone()));
        }
    }
    let xlabel = if unit == "TFLOP/s" {
        "problem size (M x N x K), log scale"
    } else {
        "buffer size, log scale"
    };
    svg::plot(
        &format!("{family}: throughput, ours vs reference"),
        unit,
        xlabel,
        &ticks,
        &series,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn demo_rows() -> Vec<BenchRow> {
        let mut rows = Vec::new();
        for (i, mib) in [1u64, 4, 16, 64, 256, 1024].iter().enumerate() {
            let bytes = (mib << 20) as f64 * 2.0;
            for (v, eff) in [("tiled_copy_v4_f32", 0.93), ("tiled_copy_scalar_f32", 0.55)] {
                let ref_gbps = 900.0 + 450.0 * i as f64;
                let ours_gbps = ref_gbps * eff;
                rows.push(BenchRow {
                    family: "copy",
                    variant: v.into(),
                    size: format!("{mib} MiB"),
                    work: bytes,
                    unit: "GB/s",
                    ours_ms: bytes / (ours_gbps * 1e6),
                    ref_ms: bytes / (ref_gbps * 1e6),
                    reference: "memcpy D2D",
                });
            }
        }
        rows
    }

    #[test]
    fn table_json_csv_and_plot() {
        let rows = demo_rows();
        let t = table(&rows);
        assert!(t.lines().next().unwrap().starts_with("variant"));
        assert!(
            t.contains("0.93x") && t.contains("1 MiB") && t.contains("(memcpy D2D)"),
            "{t}"
        );
        let j = to_json(&rows);
        assert_eq!(j.as_array().unwrap().len(), 12);
        assert!((j[0]["ratio"].as_f64().unwrap() - 0.93).abs() < 1e-9);
        let c = csv(&rows);
        assert_eq!(c.lines().count(), 13);
        let p = plot(&rows);
        assert!(
            p.contains("memcpy D2D (reference)") && p.contains("256 MiB") && p.contains("GB/s")
        );
        assert_eq!(p.matches("<polyline").count(), 3);
        if let Ok(path) = std::env::var("HOST_DEMO_SVG") {
            std::fs::write(path, p).unwrap();
        }
    }

    #[test]
    fn a_refused_reference_prints_dashes() {
        let mut r = demo_rows()[0].clone();
        r.ref_ms = f64::NAN;
        r.reference = "cuBLASLt FP8: unavailable";
        let t = table(&[r]);
        let row = t.lines().nth(2).unwrap();
        assert!(!t.contains("NaN"), "{t}");
        assert!(
            row.contains("- (cuBLASLt FP8: unavailable)") && row.trim_end().ends_with('-'),
            "{t}"
        );
    }

    #[test]
    fn sizes() {
        let mut r = demo_rows()[0].clone();
        assert_eq!(size_value(&r), (1 << 20) as f64);
        r.size = "4096x4096x4096".into();
        assert!((size_value(&r) - 4096.0).abs() < 1e-6);
        r.size = "odd".into();
        assert_eq!(size_value(&r), r.work);
    }

    #[test]
    fn json_round_trip() {
        let rows = demo_rows();
        let dir = std::env::temp_dir().join(format!("host-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("rows.json");
        std::fs::write(&p, serde_json::to_string(&to_json(&rows)).unwrap()).unwrap();
        let back = load_json(&p).unwrap();
        assert_eq!(back.len(), rows.len());
        assert_eq!(back[3].variant, rows[3].variant);
        assert_eq!(back[3].ours_ms, rows[3].ours_ms);
        let _ = std::fs::remove_dir_all(dir);
    }
}
