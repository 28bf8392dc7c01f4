//! A progress indicator on standard error for long runs: a spinner with a message per phase
//! (reading the input, labelling, ...) or a bar while a large output is written.
//!
//! Shown only when standard error is a terminal and the work is large (an input file of at
//! least [`MIN_BYTES`], a grid of at least [`MIN_CELLS`] cells, about a second of work or
//! more), and cleared when done: redirected runs and scripts never see it, and it never goes
//! to standard output.

use crate::input::{CliError, Input};
use indicatif::{ProgressBar, ProgressStyle};
use std::cell::Cell;
use std::io::IsTerminal;
use std::time::Duration;

/// Grids of at least this many cells (4096 x 4096) show progress.
pub const MIN_CELLS: u64 = 1 << 24;
/// Input files of at least this many bytes show a spinner while they are read and decoded.
pub const MIN_BYTES: u64 = 8 << 20;

/// A spinner or bar on standard error, or nothing; cleared when dropped.
pub struct Progress(Option<ProgressBar>, Cell<bool>);

impl Progress {
    /// No indicator.
    pub fn hidden() -> Self {
        Progress(None, Cell::new(false))
    }

    /// A spinner when `large` and standard error is a terminal.
    fn shown_if(large: bool) -> Self {
        if !large || !std::io::stderr().is_terminal() {
            return Self::hidden();
        }
        let bar = ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress(Some(bar), Cell::new(false))
    }

    /// The indicator for work on a `width` x `height` grid.
    pub fn for_grid(width: usize, height: usize) -> Self {
        Self::shown_if(width as u64 * height as u64 >= MIN_CELLS)
    }

    /// The indicator, unless hidden or cleared.
    fn shown(&self) -> Option<&ProgressBar> {
        self.0.as_ref().filter(|_| !self.1.get())
    }

    /// A spinner with `message` (the current phase).
    pub fn phase(&self, message: impl Into<String>) {
        if let Some(bar) = self.shown() {
            bar.set_style(ProgressStyle::default_spinner());
            bar.set_length(0);
            bar.set_message(message.into());
        }
    }

    /// A bar with `message`, from 0 to `len` (advanced by [`Progress::inc`]), for writing
    /// the output; cleared instead when standard output is a terminal too (the bar would
    /// mix with the output).
    pub fn bar(&self, message: impl Into<String>, len: u64) {
        if std::io::stdout().is_terminal() {
            self.clear();
        }
        if let Some(bar) = self.shown() {
            bar.set_message(message.into());
            bar.set_position(0);
            bar.set_length(len);
            bar.set_style(
                ProgressStyle::with_template("{msg} [{bar:40}] {percent}% ({eta} left)")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
        }
    }

    /// Advances the bar by `n`.
    pub fn inc(&self, n: u64) {
        if let Some(bar) = self.shown() {
            bar.inc(n);
        }
    }

    /// `items`, advancing the bar by one per item (in steps of 2^16).
    pub fn counted<'a, I: Iterator + 'a>(&'a self, items: I) -> impl Iterator<Item = I::Item> + 'a {
        const STEP: u64 = 1 << 16;
        let mut n = 0u64;
        items.inspect(move |_| {
            n += 1;
            if n.is_multiple_of(STEP) {
                self.inc(STEP);
            }
        })
    }

    /// Clears the indicator (before printing to a terminal, say).
    pub fn clear(&self) {
        if let Some(bar) = self.shown() {
            bar.finish_and_clear();
            self.1.set(true);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// [`crate::input::read_input`] with a spinner while a large file is read and decoded.
pub fn read_input(path: Option<&str>) -> Result<Input, CliError> {
    let large = match path {
        None | Some("-") => false,
        Some(p) => std::fs::metadata(p).is_ok_and(|m| m.len() >= MIN_BYTES),
    };
    let progress = Progress::shown_if(large);
    if let Some(p) = path {
        progress.phase(format!("reading {p}"));
    }
    crate::input::read_input(path)
}
