//! A benchmark's result row: one configuration, ours beside the reference in the same run
//! ([`crate::bench`] measures them, [`crate::Progress::row`] reports each as it is measured).

/// One measured configuration: ours beside the reference in the same run.
///
/// ```
/// let r = host_cli::bench::BenchRow {
///     family: "gemm", variant: "sgemm_128x128x8 NN".into(), size: "4096x4096x4096".into(),
///     work: 2.0 * 4096f64.powi(3), unit: "TFLOP/s", ours_ms: 3.0, ref_ms: 2.7,
///     reference: "cuBLAS SGEMM",
/// };
/// assert!((r.ratio() - 0.9).abs() < 1e-9);
/// assert!((r.rate(r.ours_ms) - 45.8).abs() < 0.1);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BenchRow {
    /// "copy" or "gemm".
    pub family: &'static str,
    /// Kernel variant, e.g. "tiled_copy_row_f32_v4" or "sgemm_128x128x8 NN".
    pub variant: String,
    /// Problem size as text, e.g. "256 MiB" or "4096x4096x4096".
    pub size: String,
    /// Work per launch: bytes read+written (copy) or flops (gemm).
    pub work: f64,
    /// Unit of the rates: "GB/s" or "TFLOP/s".
    pub unit: &'static str,
    /// Our time per launch, milliseconds (median of the timed launches).
    pub ours_ms: f64,
    /// The reference's time per launch, milliseconds.
    pub ref_ms: f64,
    /// Name of the reference ("memcpy D2D", "cuBLAS SGEMM").
    pub reference: &'static str,
}

impl BenchRow {
    /// Rate of a time for this row's work, in its unit.
    ///
    /// ```
    /// # let r = host_cli::bench::BenchRow { family: "copy", variant: "v".into(), size: "1 MiB".into(),
    /// #     work: 2e9, unit: "GB/s", ours_ms: 1.0, ref_ms: 1.0, reference: "memcpy D2D" };
    /// assert_eq!(r.rate(1.0), 2000.0); // 2e9 bytes in 1 ms
    /// ```
    pub fn rate(&self, ms: f64) -> f64 {
        let scale = if self.unit == "TFLOP/s" { 1e9 } else { 1e6 };
        if ms > 0.0 {
            self.work / (ms * scale)
        } else {
            0.0
        }
    }
    /// Ours / reference throughput.
    ///
    /// ```
    /// # let r = host_cli::bench::BenchRow { family: "copy", variant: "v".into(), size: "1 MiB".into(),
    /// #     work: 2e9, unit: "GB/s", ours_ms: 2.0, ref_ms: 1.0, reference: "memcpy D2D" };
    /// assert_eq!(r.ratio(), 0.5);
    /// ```
    pub fn ratio(&self) -> f64 {
        if self.ours_ms > 0.0 {
            self.ref_ms / self.ours_ms
        } else {
            0.0
        }
    }
}
