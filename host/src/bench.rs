//! Benchmark rows shared by the kernel families (`copy`, `gemm`) and the `bench` front end.

/// One measured configuration: ours beside the reference (cudaMemcpy D2D or cuBLAS) in the same run.
#[derive(Debug, Clone)]
pub struct BenchRow {
    /// "copy" or "gemm".
    pub family: &'static str,
    /// Kernel variant, e.g. "tiled_copy_v4_f32" or "sgemm_128x128x8 NN".
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
    pub fn rate(&self, ms: f64) -> f64 {
        let scale = if self.unit == "TFLOP/s" { 1e9 } else { 1e6 };
        if ms > 0.0 {
            self.work / (ms * scale)
        } else {
            0.0
        }
    }
    /// Ours / reference throughput.
    pub fn ratio(&self) -> f64 {
        if self.ours_ms > 0.0 {
            self.ref_ms / self.ours_ms
        } else {
            0.0
        }
    }
}
