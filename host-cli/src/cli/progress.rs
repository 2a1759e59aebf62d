//! Progress of long work on stderr: an indicatif bar on a terminal; one line per step
//! otherwise (logs keep what ran and when).

use std::io::IsTerminal;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A [`crate::Progress`] for the CLI, labelled `[name]`.
pub struct Bar {
    name: String,
    bar: Option<ProgressBar>,
    done: usize,
    total: usize,
    t0: Instant,
}

impl Bar {
    /// A bar (terminal) or a line printer (anything else) for `name`, e.g. "copy".
    pub fn new(name: &str) -> Bar {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "[{prefix}] {bar:24.cyan/blue} {pos}/{len} {elapsed:>4} {wide_msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("##.");
            b.set_style(style);
            b.set_prefix(name.to_string());
            b
        });
        Bar {
            name: name.to_string(),
            bar,
            done: 0,
            total: 0,
            t0: Instant::now(),
        }
    }

    /// Ends the bar with a summary line.
    pub fn finish(&self) {
        let line = format!(
            "[{}] done: {} steps in {:.1} s",
            self.name,
            self.done,
            self.t0.elapsed().as_secs_f64()
        );
        match &self.bar {
            Some(b) => b.finish_with_message(line),
            None => eprintln!("{line}"),
        }
    }
}

impl crate::Progress for Bar {
    fn set_total(&mut self, total: usize) {
        self.total = total;
        if let Some(b) = &self.bar {
            b.set_length(total as u64);
        }
    }
    fn step(&mut self, what: &str) {
        self.done += 1;
        match &self.bar {
            Some(b) => {
                b.set_position(self.done.saturating_sub(1) as u64);
                b.set_message(what.to_string());
            }
            None => {
                let of = if self.total > 0 {
                    format!("/{}", self.total)
                } else {
                    String::new()
                };
                eprintln!(
                    "[{}] {}{of} {what} ({:.1} s)",
                    self.name,
                    self.done,
                    self.t0.elapsed().as_secs_f64()
                );
            }
        }
    }
    fn row(&mut self, row: &crate::row::BenchRow) {
        // the CSV line of `--csv` (its header dropped)
        let csv = super::report::csv(std::slice::from_ref(row));
        if let Some(line) = csv.lines().nth(1) {
            self.note(&format!("row {line}"));
        }
    }
    fn note(&mut self, what: &str) {
        match &self.bar {
            Some(b) => b.println(format!("[{}] {what}", self.name)),
            None => eprintln!("[{}] {what}", self.name),
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(b) = &self.bar
            && !b.is_finished()
        {
            b.abandon();
        }
    }
}
