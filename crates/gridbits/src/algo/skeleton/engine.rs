//! The thinning engine shared by [`skeletonize`](fn@super::skeletonize) and
//! [`thin`](fn@super::thin): two alternating parallel sub-iterations on a padded copy of the grid, a whole word of
//! pixels per step, until an iteration deletes nothing.
//!
//! Each sub-iteration decides every pixel on the image as it was when the sub-iteration
//! began, then deletes. Rows are visited top to bottom and a row's deletions are written
//! only after the next row has been decided (the next row still reads the original), so no
//! second image is needed. A word whose 3x3 block of words has not changed since the last
//! sub-iteration of the same kind cannot change now (that sub-iteration deleted nothing
//! there, and it would decide the same), so it is skipped, and so are whole rows whose
//! 3-row neighbourhood has not changed: thick shapes take many iterations, but each one
//! touches only the words along the shapes' shrinking outlines.

use super::neighbours::Neighbours;
use crate::cpu::Features;
use crate::BitGrid;

/// A row is decided word by word, skipping the words whose neighbourhood did not change,
/// when fewer than one word in this many is to be decided; otherwise all its words are,
/// without branches.
const SPARSE_SHARE: usize = 4;

/// A thinning rule: for 64 pixels with the given neighbours, the ones each sub-iteration
/// deletes if they are set.
pub(crate) trait Rule {
    /// The pixels deleted in the first sub-iteration (when set).
    fn first(nb: &Neighbours) -> u64;
    /// The pixels deleted in the second sub-iteration (when set).
    fn second(nb: &Neighbours) -> u64;
}

/// A grid with one zero word on each side of every row and one zero row above and below,
/// so that every pixel's eight neighbours can be read without bounds tests.
struct Padded {
    height: usize,
    wpr: usize,
    stride: usize,
    words: Vec<u64>,
    /// The sub-iteration (from 1) in which each padded row last lost pixels; 0: never.
    row_changed_at: Vec<u64>,
    /// The same for each word of the padded grid.
    word_changed_at: Vec<u64>,
    /// For the row being decided, the latest change of each column of words in it and the
    /// rows above and below.
    column_changed_at: Vec<u64>,
    /// Deletions of the row waiting to be written, and of the row being decided.
    pending: Vec<u64>,
    current: Vec<u64>,
}

impl Padded {
    fn new(grid: &BitGrid) -> Self {
        let (height, wpr) = (grid.height(), grid.words_per_row());
        let stride = wpr + 2;
        let mut words = vec![0; stride * (height + 2)];
        for y in 0..height {
            let at = (y + 1) * stride + 1;
            words[at..at + wpr].copy_from_slice(grid.row_words(y));
        }
        Padded {
            height,
            wpr,
            stride,
            word_changed_at: vec![0; words.len()],
            words,
            row_changed_at: vec![0; height + 2],
            column_changed_at: vec![0; stride],
            pending: vec![0; stride],
            current: vec![0; stride],
        }
    }

    fn write_to(&self, grid: &mut BitGrid) {
        for y in 0..self.height {
            let at = (y + 1) * self.stride + 1;
            grid.row_words_mut(y)
                .copy_from_slice(&self.words[at..at + self.wpr]);
        }
    }

    /// Clears the `pending` deletions from padded row `y`, marking it and the words that
    /// changed as changed in `t`.
    fn delete_pending(&mut self, y: usize, t: u64) {
        let at = y * self.stride..(y + 1) * self.stride;
        let row = self.words[at.clone()].iter_mut();
        let stamps = self.word_changed_at[at].iter_mut();
        for ((w, stamp), &d) in row.zip(stamps).zip(&self.pending) {
            if d != 0 {
                *w &= !d;
                *stamp = t;
            }
        }
        self.row_changed_at[y] = t;
    }

    /// Sub-iteration number `t` (from 1) with the rule `deletes`. Returns whether a pixel
    /// was deleted.
    #[inline(always)]
    fn sub_iteration(&mut self, t: u64, deletes: impl Fn(&Neighbours) -> u64) -> bool {
        let (s, wpr) = (self.stride, self.wpr);
        let mut pending_row = None;
        let mut changed = false;
        for y in 1..=self.height {
            let recent = self.row_changed_at[y - 1]
                .max(self.row_changed_at[y])
                .max(self.row_changed_at[y + 1]);
            let mut any = 0;
            if t <= 2 || recent + 2 >= t {
                let up = &self.words[(y - 1) * s..y * s];
                let mid = &self.words[y * s..(y + 1) * s];
                let down = &self.words[(y + 1) * s..(y + 2) * s];
                let out = &mut self.current[1..=wpr];
                // After the first two sub-iterations, the words whose 3x3 block of words
                // changed since the last sub-iteration of this kind (the same argument as
                // for rows); the others are known to delete nothing.
                let mut active = wpr;
                if t > 2 {
                    let stamps = &self.word_changed_at[(y - 1) * s..(y + 2) * s];
                    let (su, rest) = stamps.split_at(s);
                    let (sm, sd) = rest.split_at(s);
                    for (c, ((&a, &b), &d)) in self
                        .column_changed_at
                        .iter_mut()
                        .zip(su.iter().zip(sm).zip(sd))
                    {
                        *c = a.max(b).max(d);
                    }
                    active = self
                        .column_changed_at
                        .windows(3)
                        .filter(|c| c[0].max(c[1]).max(c[2]) + 2 >= t)
                        .count();
                }
                if active * SPARSE_SHARE >= wpr {
                    // Every word, without branches (the compiler vectorises this loop):
                    // a word whose neighbourhood did not change deletes nothing anyway.
                    let rows = up.windows(3).zip(mid.windows(3)).zip(down.windows(3));
                    for (o, ((u, m), d)) in out.iter_mut().zip(rows) {
                        let del = m[1] & deletes(&Neighbours::of(u, m, d));
                        *o = del;
                        any |= del;
                    }
                } else if active > 0 {
                    // Few words to decide: one at a time, skipping the others.
                    let cols = &self.column_changed_at;
                    for (j, o) in (1..=wpr).zip(out.iter_mut()) {
                        let near = cols[j - 1].max(cols[j]).max(cols[j + 1]);
                        let d = if mid[j] != 0 && near + 2 >= t {
                            mid[j] & deletes(&Neighbours::gather(up, mid, down, j))
                        } else {
                            0
                        };
                        *o = d;
                        any |= d;
                    }
                }
            }
            if let Some(py) = pending_row.take() {
                self.delete_pending(py, t);
            }
            if any != 0 {
                std::mem::swap(&mut self.pending, &mut self.current);
                pending_row = Some(y);
                changed = true;
            }
        }
        if let Some(py) = pending_row {
            self.delete_pending(py, t);
        }
        changed
    }
}

/// The CPU features of the AVX2 copy of the engine (BMI1 for `andn`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const AVX2_PATH: Features = Features::AVX2.union(Features::BMI1);
/// The CPU features of the AVX-512 copy (`vpternlogq` merges two boolean operations).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const AVX512_PATH: Features = AVX2_PATH.union(Features::AVX512F);

/// Thins `grid` in place with rule `R` by whole iterations (both sub-iterations) until one
/// deletes nothing, or until `max_iterations` have run (`None`: no limit). Returns the
/// number of iterations run, the last one (which changed nothing) included. The copy
/// compiled for AVX-512 or AVX2 runs when the CPU has them (the rule's formula is
/// vectorised over the words of a row), else the portable code; all give the same result.
pub(crate) fn run<R: Rule>(grid: &mut BitGrid, max_iterations: Option<usize>) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::cpu::has(AVX512_PATH) {
            // SAFETY: `run_avx512` is only compiled for AVX-512 F, AVX2 and BMI1, which the
            // CPU was just checked to support; it has no other requirement.
            return unsafe { run_avx512::<R>(grid, max_iterations) };
        }
        if crate::cpu::has(AVX2_PATH) {
            // SAFETY: `run_avx2` is only compiled for AVX2 and BMI1, which the CPU was just
            // checked to support; it has no other requirement.
            return unsafe { run_avx2::<R>(grid, max_iterations) };
        }
    }
    run_body::<R>(grid, max_iterations)
}

/// [`run`] compiled for AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,bmi1")]
fn run_avx512<R: Rule>(grid: &mut BitGrid, max_iterations: Option<usize>) -> usize {
    run_body::<R>(grid, max_iterations)
}

/// [`run`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1")]
fn run_avx2<R: Rule>(grid: &mut BitGrid, max_iterations: Option<usize>) -> usize {
    run_body::<R>(grid, max_iterations)
}

/// The engine behind [`run`], inlined into each compiled copy.
#[inline(always)]
fn run_body<R: Rule>(grid: &mut BitGrid, max_iterations: Option<usize>) -> usize {
    let mut padded = Padded::new(grid);
    let mut iterations = 0;
    let mut t = 0;
    while max_iterations.is_none_or(|m| iterations < m) {
        iterations += 1;
        let first = padded.sub_iteration(t + 1, R::first);
        let second = padded.sub_iteration(t + 2, R::second);
        t += 2;
        if !first && !second {
            break;
        }
    }
    padded.write_to(grid);
    iterations
}
