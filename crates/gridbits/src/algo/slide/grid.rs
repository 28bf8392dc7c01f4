//! Runtime grids: [`Slide`] for [`BitGrid`] and the per-method dispatch (the word-array steps
//! every method shares are in `grid_steps.rs`).

use super::dumb7::grid_dumb7;
use super::gallop::grid_gallop;
use super::grid_steps::Geo;
use super::kogge_stone::grid_kogge_stone;
use super::subtract::rows_subtract;
use super::sweep::rows_sweep;
use super::{auto_gallop_speed, Approach, Method, Slide};
use crate::{BitGrid, Dir, Moves, SizeMismatch};

/// The ray on raw grid words, with every method.
#[allow(clippy::too_many_arguments)]
fn grid_ray(
    g: &[u64],
    p: &[u64],
    geo: Geo,
    d: Dir,
    len: usize,
    method: Method,
    approach: Approach,
    speed_log2: u32,
) -> Vec<u64> {
    let n = g.len();
    let mut acc = vec![0u64; n];
    if len == 0 {
        return acc;
    }
    match method {
        Method::Subtract | Method::Sweep if d.delta().1 == 0 => {
            rows_subtract(g, p, geo, d == Dir::E, &mut acc);
            acc
        }
        Method::Sweep => {
            rows_sweep(g, p, geo, d, &mut acc);
            acc
        }
        Method::Dumb7 => grid_dumb7(g, p, geo, d, acc),
        Method::Gallop => grid_gallop(g, p, geo, d, len, approach, speed_log2, acc),
        // Kogge-Stone, also the fallback of the subtraction in directions with a vertical part.
        _ => grid_kogge_stone(g, p, geo, d, len, acc),
    }
}

/// Panics with the [`SizeMismatch`] message if `passable` is not the size of `pieces`.
fn same_size(pieces: &BitGrid, passable: &BitGrid) {
    if let Err(e) = SizeMismatch::check(pieces, "pieces", passable, "passable") {
        panic!("{e}");
    }
}

fn grid_from_words(like: &BitGrid, words: &[u64]) -> BitGrid {
    let mut out = like.empty_like();
    let wpr = like.words_per_row();
    for y in 0..like.height() {
        out.row_words_mut(y)
            .copy_from_slice(&words[y * wpr..(y + 1) * wpr]);
    }
    out
}

impl BitGrid {
    /// The method [`Method::Auto`] uses on this grid for direction `d`.
    pub fn auto_method(&self, d: Dir) -> Method {
        let _ = d;
        Method::Sweep
    }
}

impl Slide for BitGrid {
    fn ray_with(&self, passable: &Self, dir: Dir, method: Method) -> Self {
        same_size(self, passable);
        let method = match method {
            Method::Auto => self.auto_method(dir),
            m => m,
        };
        let len = self.max_ray(dir);
        let geo = Geo {
            h: self.height(),
            wpr: self.words_per_row(),
        };
        let words = grid_ray(
            self.words(),
            passable.words(),
            geo,
            dir,
            len,
            method,
            Approach::Accelerate,
            auto_gallop_speed(len),
        );
        grid_from_words(self, &words)
    }

    fn reach_with(&self, passable: &Self, moves: Moves, method: Method) -> Self {
        same_size(self, passable);
        if !moves.is_sliding() {
            let mut out = self.empty_like();
            for &d in moves.dirs() {
                let mut s = self.shift(d);
                s.and_assign(passable);
                out.or_assign(&s);
            }
            return out;
        }
        let geo = Geo {
            h: self.height(),
            wpr: self.words_per_row(),
        };
        let mut words = vec![0u64; self.words().len()];
        for &d in moves.dirs() {
            let method = match method {
                Method::Auto => self.auto_method(d),
                m => m,
            };
            let len = self.max_ray(d);
            let r = grid_ray(
                self.words(),
                passable.words(),
                geo,
                d,
                len,
                method,
                Approach::Accelerate,
                auto_gallop_speed(len),
            );
            for (w, x) in words.iter_mut().zip(&r) {
                *w |= x;
            }
        }
        grid_from_words(self, &words)
    }

    fn gallop_ray_at(
        &self,
        passable: &Self,
        dir: Dir,
        speed_log2: u32,
        approach: Approach,
    ) -> Self {
        same_size(self, passable);
        let len = self.max_ray(dir);
        let geo = Geo {
            h: self.height(),
            wpr: self.words_per_row(),
        };
        let words = grid_ray(
            self.words(),
            passable.words(),
            geo,
            dir,
            len,
            Method::Gallop,
            approach,
            speed_log2,
        );
        grid_from_words(self, &words)
    }
}
