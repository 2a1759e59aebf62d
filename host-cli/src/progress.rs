//! How long-running work ([`crate::check`], [`crate::bench`]) reports progress, without this
//! library depending on a terminal crate: the caller passes something that implements
//! [`Progress`] (the `host` CLI: an indicatif bar), or `&mut ()` for silence.

/// Receives progress of a run of checks or benchmarks.
///
/// ```
/// use host_cli::Progress;
/// struct Count(usize);
/// impl host_cli::Progress for Count {
///     fn step(&mut self, _what: &str) { self.0 += 1; }
/// }
/// let mut c = Count(0);
/// c.step("sgemm 4096x4096x4096 NN");
/// assert_eq!(c.0, 1);
/// ```
pub trait Progress {
    /// How many steps the run will take (0: unknown).
    fn set_total(&mut self, _total: usize) {}
    /// The next step starts (`what`, e.g. "tiled_copy_row_f32_v4 256 MiB").
    fn step(&mut self, _what: &str) {}
    /// A free-form note that does not advance the count.
    fn note(&mut self, _what: &str) {}
    /// A finished result row of a benchmark, as soon as it is measured (the `host` CLI prints
    /// it on stderr as `[family] row <CSV line>`, so a run cut short keeps what it measured).
    ///
    /// ```
    /// use host_cli::{Progress, bench::BenchRow};
    /// struct Keep(Vec<String>);
    /// impl Progress for Keep {
    ///     fn row(&mut self, r: &BenchRow) { self.0.push(format!("{} {:.2}", r.variant, r.ratio())); }
    /// }
    /// let r = BenchRow { family: "gemm", variant: "x".into(), size: "1".into(), work: 2e9,
    ///     unit: "TFLOP/s", ours_ms: 1.0, ref_ms: 1.1, reference: "cuBLAS GemmEx" };
    /// let mut k = Keep(Vec::new());
    /// k.row(&r);
    /// ().row(&r); // the default: nothing
    /// assert_eq!(k.0, ["x 1.10"]);
    /// ```
    fn row(&mut self, _row: &crate::row::BenchRow) {}
}

/// No progress at all.
///
/// ```
/// use host_cli::Progress;
/// ().step("ignored");
/// ```
impl Progress for () {}
