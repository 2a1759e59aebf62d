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
}

/// No progress at all.
///
/// ```
/// use host_cli::Progress;
/// ().step("ignored");
/// ```
impl Progress for () {}
