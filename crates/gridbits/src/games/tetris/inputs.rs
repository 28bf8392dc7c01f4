//! Shortest input sequences to the placements of the move generator.
//!
//! The inputs are the moves of the generator: [`Input::Left`], [`Input::Right`],
//! [`Input::Down`] (soft drop by one row), [`Input::Cw`], [`Input::Ccw`], [`Input::Half`]
//! (with [`MoveOptions::rotate_180`]), and one more, [`Input::Drop`]: a soft drop held down to
//! the first row where the piece rests (a "sonic drop", which does not lock). Each counts one.
//! A sequence starts at the spawn and leaves the piece at the placement; locking it there
//! (a hard drop that does not move it) is the caller's part. When the placement is a T-spin,
//! the sequence ends with the rotation that scores it.

use super::moves::{kick_shifts, turns, Planes};
use super::{MoveOptions, Piece, Placement, Rotation, Spin, Tetris};
use std::collections::VecDeque;
use std::fmt;

/// One player input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// One column left.
    Left,
    /// One column right.
    Right,
    /// Soft drop by one row.
    Down,
    /// Soft drop down to where the piece rests, without locking.
    Drop,
    /// A quarter turn clockwise, with kicks.
    Cw,
    /// A quarter turn counter-clockwise, with kicks.
    Ccw,
    /// A half turn (no kicks).
    Half,
}

impl Input {
    /// `left`, `right`, `down`, `drop`, `cw`, `ccw` or `180`.
    pub const fn name(self) -> &'static str {
        match self {
            Input::Left => "left",
            Input::Right => "right",
            Input::Down => "down",
            Input::Drop => "drop",
            Input::Cw => "cw",
            Input::Ccw => "ccw",
            Input::Half => "180",
        }
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const NONE: u32 = u32::MAX;

impl<const W: usize> Tetris<W> {
    /// [`moves_with`](Self::moves_with), each placement with a shortest input sequence from
    /// the start that locks it with its [`Spin`] (see the
    /// [module documentation](crate::games::tetris::inputs)). Found by a breadth-first search
    /// over the positions, on the generator's fit maps.
    ///
    /// ```
    /// use gridbits::games::tetris::{Input, MoveOptions, Piece, Tetris};
    /// let t = Tetris::<10>::default();
    /// let all = t.moves_with_inputs(Piece::O, &MoveOptions::default());
    /// // The O spawns in columns 4-5; to columns 0-1 it takes four lefts and a drop.
    /// let (p, inputs) = &all[0];
    /// assert_eq!((p.x, p.y), (0, 38));
    /// assert_eq!(inputs.len(), 5);
    /// assert_eq!(inputs.iter().filter(|&&i| i == Input::Left).count(), 4);
    /// ```
    ///
    /// ```
    /// use gridbits::games::tetris::{Input, MoveOptions, Piece, Rotation, Spin, Tetris};
    /// // A T-spin double slot at the bottom of a 10 x 40 matrix.
    /// let mut text = "..........\n".repeat(37);
    /// text.push_str("##........\n#...######\n##.#######\n");
    /// let t: Tetris<10> = text.parse().unwrap();
    /// let all = t.moves_with_inputs(Piece::T, &MoveOptions::default());
    /// let (tsd, inputs) = all
    ///     .iter()
    ///     .find(|(p, _)| p.rotation == Rotation::Two && (p.x, p.y) == (1, 37))
    ///     .unwrap();
    /// assert_eq!(tsd.spin, Spin::Full);
    /// assert_eq!(inputs, &[Input::Left, Input::Left, Input::Cw, Input::Drop, Input::Cw]);
    /// let mut after = t;
    /// assert_eq!(after.place(Piece::T, tsd.rotation, tsd.x, tsd.y), Some(2)); // a double
    /// ```
    pub fn moves_with_inputs(
        &self,
        piece: Piece,
        opts: &MoveOptions,
    ) -> Vec<(Placement, Vec<Input>)> {
        let placements = self.moves_with(piece, opts);
        let pl = Planes::new(self, piece);
        let Some(start) = pl.start(self, opts) else {
            return Vec::new();
        };
        let fit = &pl.fit;
        let idx = |r: usize, x: usize, y: u32| ((r * W + x) * 64 + y as usize) as u32;
        let n = 4 * W * 64;
        let mut dist = vec![NONE; n];
        let mut parent: Vec<(u32, Input)> = vec![(NONE, Input::Down); n];
        // Best rotation arrival per (lock state, spin): (source, input).
        let mut spun: Vec<[(u32, Input); 2]> = if piece == Piece::T {
            vec![[(NONE, Input::Cw); 2]; n]
        } else {
            Vec::new()
        };
        let mut queue = VecDeque::new();
        let s = idx(start.0, start.1, start.2);
        dist[s as usize] = 0;
        queue.push_back((start.0, start.1, start.2));
        let fits = |r: usize, x: i32, y: i32| {
            x >= 0 && (x as usize) < W && (0..64).contains(&y) && fit[r][x as usize] >> y & 1 != 0
        };
        while let Some((r, x, y)) = queue.pop_front() {
            let here = idx(r, x, y);
            let d = dist[here as usize];
            let mut next: [(usize, i32, i32, Input, usize); 7] = [(0, 0, 0, Input::Down, 0); 7];
            let mut m = 0;
            let (xi, yi) = (x as i32, y as i32);
            for (dx, input) in [(-1, Input::Left), (1, Input::Right)] {
                if fits(r, xi + dx, yi) {
                    next[m] = (r, xi + dx, yi, input, 0);
                    m += 1;
                }
            }
            if fits(r, xi, yi + 1) {
                next[m] = (r, xi, yi + 1, Input::Down, 0);
                m += 1;
                let c = fit[r][x];
                let run = (c & !c.wrapping_add(1 << y)) | 1 << y;
                next[m] = (r, xi, 63 - run.leading_zeros() as i32, Input::Drop, 0);
                m += 1;
            }
            if piece != Piece::O {
                for &turn in turns(opts) {
                    let to = turn.apply(Rotation::ALL[r]).index();
                    let (shifts, k) = kick_shifts(piece, Rotation::ALL[r], turn);
                    if let Some(test) =
                        (0..k).find(|&t| fits(to, xi + shifts[t].0, yi + shifts[t].1))
                    {
                        let input = match turn {
                            super::Turn::Cw => Input::Cw,
                            super::Turn::Ccw => Input::Ccw,
                            super::Turn::Half => Input::Half,
                        };
                        next[m] = (to, xi + shifts[test].0, yi + shifts[test].1, input, test);
                        m += 1;
                    }
                }
            }
            for &(r2, x2, y2, input, test) in &next[..m] {
                let j = idx(r2, x2 as usize, y2 as u32) as usize;
                if piece == Piece::T
                    && matches!(input, Input::Cw | Input::Ccw | Input::Half)
                    && !fits(r2, x2, y2 + 1)
                {
                    let g = &super::moves::GEO[Piece::T as usize][r2];
                    let spin = self.t_spin(
                        Rotation::ALL[r2],
                        x2 - i32::from(g.dx),
                        y2 - i32::from(g.ty),
                        test,
                    );
                    if spin != Spin::None {
                        let slot = &mut spun[j][spin as usize - 1];
                        if slot.0 == NONE {
                            *slot = (here, input);
                        }
                    }
                }
                if dist[j] == NONE {
                    dist[j] = d + 1;
                    parent[j] = (here, input);
                    queue.push_back((r2, x2 as usize, y2 as u32));
                }
            }
        }
        let path = |mut at: u32| {
            let mut out = Vec::new();
            while parent[at as usize].0 != NONE {
                let (p, input) = parent[at as usize];
                out.push(input);
                at = p;
            }
            out.reverse();
            out
        };
        let nd = super::moves::distinct(piece);
        placements
            .into_iter()
            .map(|p| {
                let g = &super::moves::GEO[piece as usize][p.rotation.index()];
                let (x, y) = (
                    (p.x + i32::from(g.dx)) as usize,
                    (p.y + i32::from(g.ty)) as u32,
                );
                let r = p.rotation.index();
                let inputs = if p.spin != Spin::None
                    && spun[idx(r, x, y) as usize][p.spin as usize - 1].0 != NONE
                {
                    let (src, input) = spun[idx(r, x, y) as usize][p.spin as usize - 1];
                    let mut v = path(src);
                    v.push(input);
                    v
                } else {
                    // The same cells in every orientation of the piece's shape class.
                    let best = (0..4)
                        .filter(|&r2| r2 % nd == r % nd)
                        .map(|r2| idx(r2, x, y))
                        .filter(|&j| dist[j as usize] != NONE)
                        .min_by_key(|&j| dist[j as usize]);
                    best.map(path).unwrap_or_default()
                };
                (p, inputs)
            })
            .collect()
    }
}
