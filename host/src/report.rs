//! `host bench`: progress on stderr, then a table (or `--json`/`--csv`) of ours vs the
//! reference, and an SVG plot of throughput against size per family.
//!
//! ```text
//! host bench [copy|gemm|all] [--json|--csv] [--svg FILE] [--device N]
//! host bench --from FILE.json [--json|--csv] [--svg FILE]   re-render saved rows, no GPU
//! ```
//!
//! Every run also saves its rows to `target/bench/<family>.json` and the plot to
//! `target/bench/<family>.svg` (or `--svg FILE`; with `all`, `FILE` gets `-<family>`).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{Value, json};

use crate::bench::BenchRow;
use crate::gpu::{self, Gpu};
use crate::svg;

const USAGE: &str = "usage: host bench [copy|gemm|all] [--json|--csv] [--svg FILE] [--device N] | host bench --from FILE.json [--json|--csv] [--svg FILE]";

/// The benchmark families, in the order `all` runs them.
pub const FAMILIES: [&str; 2] = ["copy", "gemm"];

/// A family's benchmark: `crate::<family>::bench(gpu, progress)`.
pub type Runner = fn(&Gpu, &mut Progress) -> Result<Vec<BenchRow>, String>;

/// The runner of each family. ONE LINE PER FAMILY: when `host/src/<family>.rs` lands with
/// `pub fn bench(gpu: &Gpu, progress: &mut Progress) -> Result<Vec<BenchRow>, String>`,
/// replace its `Err(...)` with `Ok(crate::<family>::bench)`.
fn runner(family: &str) -> Result<Runner, String> {
    match family {
        "copy" => Ok(crate::copy::bench_report), // FAMILY copy
        "gemm" => Ok(crate::gemm::bench),        // FAMILY gemm
        other => Err(format!(
            "unknown benchmark family `{other}` (copy, gemm, all)"
        )),
    }
}

/// Progress of a running benchmark on stderr: one updating line on a terminal, else one
/// line per step. Families call [`Progress::set_total`] once and [`Progress::step`] before
/// each configuration.
#[allow(dead_code)] // the API the families call; unused until a family lands
pub struct Progress {
    family: String,
    total: usize,
    done: usize,
    t0: Instant,
    tty: bool,
    last_len: usize,
    quiet: bool,
}

#[allow(dead_code)]
impl Progress {
    /// A progress line for `family` (e.g. "copy").
    pub fn new(family: &str) -> Progress {
        Progress {
            family: family.to_string(),
            total: 0,
            done: 0,
            t0: Instant::now(),
            tty: std::io::stderr().is_terminal(),
            last_len: 0,
            quiet: false,
        }
    }
    /// A progress that prints nothing (tests).
    pub fn quiet() -> Progress {
        Progress {
            quiet: true,
            ..Progress::new("")
        }
    }
    /// How many configurations the family will measure (0 = unknown).
    pub fn set_total(&mut self, total: usize) {
        self.total = total;
    }
    /// Starts the next configuration (`what`, e.g. "tiled_copy_v4 256 MiB").
    pub fn step(&mut self, what: &str) {
        self.done += 1;
        let line = self.line(what);
        self.show(&line);
    }
    /// A free-form note (e.g. "warming up cuBLAS"), without advancing.
    pub fn note(&mut self, what: &str) {
        let line = format!("[{}] {what}", self.family);
        self.show(&line);
    }
    /// Ends the progress line.
    pub fn finish(&mut self) {
        if self.quiet {
            return;
        }
        let secs = self.t0.elapsed().as_secs_f64();
        let line = format!(
            "[{}] done: {} configurations in {secs:.1} s",
            self.family, self.done
        );
        self.show(&line);
        if self.tty {
            eprintln!();
        }
    }
    /// Configurations started so far.
    pub fn count(&self) -> usize {
        self.done
    }
    fn line(&self, what: &str) -> String {
        let secs = self.t0.elapsed().as_secs_f64();
        if self.total > 0 {
            let n = self.done.min(self.total);
            let filled = n * 20 / self.total;
            format!(
                "[{}] [{}{}] {n}/{} {what} ({secs:.1} s)",
                self.family,
                "#".repeat(filled),
                ".".repeat(20 - filled),
                self.total
            )
        } else {
            format!("[{}] {} {what} ({secs:.1} s)", self.family, self.done)
        }
    }
    fn show(&mut self, line: &str) {
        if self.quiet {
            return;
        }
        let mut e = std::io::stderr().lock();
        if self.tty {
            let pad = self.last_len.saturating_sub(line.len());
            let _ = write!(e, "\r{line}{}", " ".repeat(pad));
            self.last_len = line.len();
        } else {
            let _ = writeln!(e, "{line}");
        }
        let _ = e.flush();
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Table,
    Json,
    Csv,
}

struct Opts {
    family: String,
    format: Format,
    svg: Option<PathBuf>,
    device: usize,
    from: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        family: "all".into(),
        format: Format::Table,
        svg: None,
        device: 0,
        from: None,
    };
    let mut family_given = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |n: &str| {
            it.next()
                .cloned()
                .ok_or(format!("{n} needs a value; {USAGE}"))
        };
        match a.as_str() {
            "--json" => o.format = Format::Json,
            "--csv" => o.format = Format::Csv,
            "--svg" => o.svg = Some(value("--svg")?.into()),
            "--from" => o.from = Some(value("--from")?.into()),
            "--device" => {
                let v = value("--device")?;
                o.device = v
                    .parse()
                    .map_err(|_| format!("--device: `{v}` is not a number"))?;
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            f @ ("copy" | "gemm" | "all") if !family_given => {
                o.family = f.to_string();
                family_given = true;
            }
            other => return Err(format!("unknown argument `{other}`; {USAGE}")),
        }
    }
    Ok(o)
}

/// `host bench`; returns the exit code (0 ok, 1 a benchmark failed, 2 usage / not built / no GPU).
pub fn main(args: &[String]) -> i32 {
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("host bench: {e}");
            return 2;
        }
    };
    if let Some(from) = &o.from {
        return match load_json(from) {
            Ok(rows) => emit(&rows, &o, false),
            Err(e) => {
                eprintln!("host bench: {e}");
                2
            }
        };
    }
    let families: Vec<&str> = if o.family == "all" {
        FAMILIES.to_vec()
    } else {
        vec![o.family.as_str()]
    };
    let mut runners = Vec::new();
    let mut missing = Vec::new();
    for f in &families {
        match runner(f) {
            Ok(r) => runners.push((*f, r)),
            Err(e) => missing.push(e),
        }
    }
    if runners.is_empty() {
        eprintln!("host bench: {}", missing.join("; "));
        return 2;
    }
    for m in &missing {
        eprintln!("host bench: skipping: {m}");
    }
    let gpu = match gpu::open(o.device) {
        Ok(g) => g,
        Err(why) => {
            eprintln!("host bench: no GPU: {why}");
            return 2;
        }
    };
    eprintln!("device: {}", gpu.description);
    let mut rows = Vec::new();
    let mut failed = false;
    for (f, run) in runners {
        let mut p = Progress::new(f);
        match run(&gpu, &mut p) {
            Ok(r) => {
                p.finish();
                rows.extend(r);
            }
            Err(e) => {
                p.finish();
                eprintln!("host bench: {f}: {e}");
                failed = true;
            }
        }
    }
    let code = emit(&rows, &o, true);
    if failed { 1 } else { code }
}

/// Prints the rows in the chosen format, writes the plot(s) (and, for a fresh run, the JSON).
fn emit(rows: &[BenchRow], o: &Opts, save_json: bool) -> i32 {
    match o.format {
        Format::Table => print!("{}", table(rows)),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&to_json(rows)).unwrap_or_default()
        ),
        Format::Csv => print!("{}", csv(rows)),
    }
    let mut families: Vec<&str> = rows.iter().map(|r| r.family).collect();
    families.dedup();
    families.sort();
    families.dedup();
    let dir = bench_dir();
    for f in &families {
        let mine: Vec<BenchRow> = rows.iter().filter(|r| r.family == *f).cloned().collect();
        let path = match &o.svg {
            Some(p) if families.len() == 1 => p.clone(),
            Some(p) => suffixed(p, f),
            None => dir.join(format!("{f}.svg")),
        };
        if let Err(e) = write(&path, &plot(&mine)) {
            eprintln!("host bench: {e}");
            return 1;
        }
        eprintln!("plot: {}", path.display());
        if save_json {
            let jp = dir.join(format!("{f}.json"));
            let text = serde_json::to_string_pretty(&to_json(&mine)).unwrap_or_default() + "\n";
            match write(&jp, &text) {
                Ok(()) => eprintln!("rows: {}", jp.display()),
                Err(e) => eprintln!("host bench: {e}"),
            }
        }
    }
    0
}

/// `target/bench` of the workspace this binary was built in (else `./target/bench`).
fn bench_dir() -> PathBuf {
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

fn suffixed(p: &Path, family: &str) -> PathBuf {
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    p.with_file_name(format!("{stem}-{family}.svg"))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
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
                format!(
                    "{} {} ({})",
                    fmt_rate(r.rate(r.ref_ms)),
                    r.unit,
                    r.reference
                ),
                format!("{:.2}x", r.ratio()),
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
