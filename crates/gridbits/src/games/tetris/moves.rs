//! Every final placement of a piece reachable from spawn, found bit-parallel.
//!
//! # What is reachable
//!
//! The piece starts at its [spawn](Tetris::spawn) (or at [`MoveOptions::start`]) and moves
//! one column left or right, one row down (soft drop), or rotates a quarter turn either way
//! with the SRS kicks (and a half turn, without kicks, when [`MoveOptions::rotate_180`] is
//! set), always staying inside the matrix on empty cells. A **placement** is a reachable
//! position where the piece cannot move down: where it locks. Each is listed once:
//! placements with the same four cells are one (an O's four orientations, the two horizontal
//! and the two vertical orientations of I, S and Z), reported in the lower orientation
//! (`0` before `2`, `R` before `L`). The list is ordered by orientation, then `x`, then `y`.
//!
//! A placement's [`Spin`] is the best one its lock can score (a T reached both by a slide and
//! by a rotation is a spin, since the player chooses the inputs): see the
//! [T-spin rule](crate::games::tetris::spin). [`Tetris::moves_with_inputs`] adds a shortest
//! input sequence that scores that spin.
//!
//! How the search runs (planes of positions, fit maps, moves as carries, kicks as masked
//! shifts): docs/algorithms.md.

use super::spin::{corners_at, Spin};
use super::{Piece, Rotation, Tetris, Turn};

/// Options of the move generator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveOptions {
    /// Allow half turns ([`Turn::Half`], without kicks). Off by default (guideline SRS).
    pub rotate_180: bool,
    /// Start here, `(rotation, x, y)` (SRS box), instead of the [spawn](Tetris::spawn). The
    /// blocked-spawn rule applies: where the piece does not fit, one row up is tried, then
    /// there are no placements.
    pub start: Option<(Rotation, i32, i32)>,
}

/// A final placement: where and how the piece locks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The piece.
    pub piece: Piece,
    /// Its orientation.
    pub rotation: Rotation,
    /// The SRS box's left column.
    pub x: i32,
    /// The SRS box's top row (from the top).
    pub y: i32,
    /// The best T-spin its lock can score.
    pub spin: Spin,
}

impl Placement {
    /// The four matrix cells `(x, y)`, `y` from the top, row by row from the top.
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Placement, Rotation, Spin};
    /// let p = Placement { piece: Piece::O, rotation: Rotation::Spawn, x: 4, y: 38, spin: Spin::None };
    /// assert_eq!(p.cells(), [(4, 38), (5, 38), (4, 39), (5, 39)]);
    /// ```
    #[inline]
    pub fn cells(&self) -> [(i32, i32); 4] {
        self.piece
            .cells(self.rotation)
            .map(|(dx, dy)| (self.x + dx, self.y + dy))
    }
}

/// The tight box of one orientation, top-down: its offset in the SRS box, size, and each
/// column's run of cells (first row from the tight top, length).
#[derive(Clone, Copy, Debug)]
pub(super) struct Geo {
    pub(super) w: u8,
    pub(super) h: u8,
    pub(super) dx: u8,
    pub(super) ty: u8,
    pub(super) runs: [(u8, u8); 4],
}

const fn geo(p: Piece, r: Rotation) -> Geo {
    let s = p.shape(r);
    let mut runs = [(0u8, 0u8); 4];
    let mut k = 0;
    while k < s.w as usize {
        let c = s.cols[k];
        let b = c.trailing_zeros() as u8;
        let l = c.count_ones() as u8;
        runs[k] = (s.h - b - l, l);
        k += 1;
    }
    Geo {
        w: s.w,
        h: s.h,
        dx: s.dx,
        ty: p.box_size() as u8 - s.dy - s.h,
        runs,
    }
}

/// Every orientation's tight box, `[piece][rotation]`.
pub(super) const GEO: [[Geo; 4]; 7] = {
    let mut out = [[geo(Piece::O, Rotation::Spawn); 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            out[p][r] = geo(Piece::ALL[p], Rotation::ALL[r]);
            r += 1;
        }
        p += 1;
    }
    out
};

/// The kick tests of a turn as plane shifts `(columns right, rows down)` in tight
/// coordinates, with their count.
const fn kick_shifts_of(piece: Piece, from: Rotation, turn: Turn) -> ([(i32, i32); 5], usize) {
    let to = turn.apply(from);
    let a = &GEO[piece as usize][from as usize];
    let b = &GEO[piece as usize][to as usize];
    let ox = b.dx as i32 - a.dx as i32;
    let oy = b.ty as i32 - a.ty as i32;
    let (mut k, n) = super::srs::kick_table(piece, from, turn);
    let mut i = 0;
    while i < n {
        k[i] = (k[i].0 + ox, k[i].1 + oy);
        i += 1;
    }
    (k, n)
}

/// [`kick_shifts_of`] for every piece, orientation and turn.
/// Kick tests as plane shifts, padded to 5, with their count.
type KickShifts = ([(i32, i32); 5], usize);

const SHIFTS: [[[KickShifts; 3]; 4]; 7] = {
    let mut out = [[[([(0, 0); 5], 0); 3]; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            let mut t = 0;
            while t < 3 {
                out[p][r][t] = kick_shifts_of(Piece::ALL[p], Rotation::ALL[r], Turn::ALL[t]);
                t += 1;
            }
            r += 1;
        }
        p += 1;
    }
    out
};

/// The kick tests of a turn as plane shifts `(columns right, rows down)` in tight
/// coordinates, with their count.
#[inline(always)]
pub(super) fn kick_shifts(piece: Piece, from: Rotation, turn: Turn) -> ([(i32, i32); 5], usize) {
    let t = match turn {
        Turn::Cw => 0,
        Turn::Ccw => 1,
        Turn::Half => 2,
    };
    SHIFTS[piece as usize][from.index()][t]
}

/// How many distinct plane shapes a piece has: 1 (O), 2 (I S Z: `2` is `0`, `L` is `R`) or 4.
pub(super) const fn distinct(piece: Piece) -> usize {
    match piece {
        Piece::O => 1,
        Piece::I | Piece::S | Piece::Z => 2,
        _ => 4,
    }
}

#[inline(always)]
fn same<const W: usize>(a: &[u64; W], b: &[u64; W]) -> bool {
    a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Soft drop of every bit of `s` (a subset of `f`) to the bottom of its run in `f`: the
/// carry of `f + s` clears each run from its first reached bit down.
#[inline(always)]
fn drop_fill(s: u64, f: u64) -> u64 {
    (f & !f.wrapping_add(s)) | s
}

/// One sweep right (`RIGHT`) or left across the columns: each column takes the positions of
/// its neighbour behind that fit, then drops them; returns the bits that changed.
#[inline(always)]
fn sweep<const W: usize, const RIGHT: bool>(reach: &mut [u64; W], fit: &[u64; W]) -> u64 {
    let mut carry = 0;
    let mut changed = 0;
    for i in 0..W {
        let x = if RIGHT { i } else { W - 1 - i };
        let old = reach[x];
        let v = drop_fill(old | (carry & fit[x]), fit[x]);
        reach[x] = v;
        changed |= v ^ old;
        carry = v;
    }
    changed
}

/// Grows `reach` (a subset of `fit`) by every left, right and down move inside `fit`: sweeps
/// in alternating directions until one changes nothing (after a sweep the set is closed
/// under that direction and down, so a sweep the other way that adds nothing closes it).
#[inline(always)]
fn slide_closure<const W: usize>(reach: &mut [u64; W], fit: &[u64; W]) {
    sweep::<W, true>(reach, fit);
    loop {
        if sweep::<W, false>(reach, fit) == 0 || sweep::<W, true>(reach, fit) == 0 {
            return;
        }
    }
}

/// The generator's planes for one board and piece.
pub(super) struct Planes<const W: usize> {
    pub(super) piece: Piece,
    /// Positions where the piece fits, per orientation (tight coordinates, rows downwards).
    pub(super) fit: [[u64; W]; 4],
    /// The matrix columns top-down, every bit at or past the floor set.
    pub(super) solid: [u64; W],
}

/// The matrix columns of `t` top-down (bit `y` is row `y` from the top), every bit at or
/// past the floor set.
#[inline(always)]
pub(super) fn solid_columns<const W: usize>(t: &Tetris<W>) -> [u64; W] {
    let h = t.height() as u32;
    let floor = (!0u64).checked_shl(h).unwrap_or(0);
    let mut solid = [0u64; W];
    for (x, s) in solid.iter_mut().enumerate() {
        *s = t.column(x).reverse_bits() >> (64 - h) | floor;
    }
    solid
}

impl<const W: usize> Planes<W> {
    /// The fit maps of `piece` on `t`.
    #[allow(clippy::needless_range_loop)] // planes and columns indexed together
    #[inline(always)]
    pub(super) fn new(t: &Tetris<W>, piece: Piece) -> Self {
        let h = t.height() as u32;
        let solid = solid_columns(t);
        // or1..or4: each column ORed with itself shifted up by 0..len-1 rows.
        let mut ors = [[0u64; W]; 4];
        for x in 0..W {
            let c = t.column(x).reverse_bits() >> (64 - h);
            let o2 = c | c >> 1;
            ors[0][x] = c;
            ors[1][x] = o2;
            ors[2][x] = o2 | c >> 2;
            ors[3][x] = o2 | o2 >> 2;
        }
        let mut fit = [[0u64; W]; 4];
        let n = distinct(piece);
        for r in 0..n {
            let g = &GEO[piece as usize][r];
            let (w, gh) = (usize::from(g.w), u32::from(g.h));
            if w > W || gh > h {
                continue;
            }
            let valid = (!0u64) >> (64 - (h - gh + 1));
            for cx in 0..=W - w {
                let mut hit = 0;
                for k in 0..w {
                    let (a, l) = g.runs[k];
                    hit |= ors[usize::from(l) - 1][cx + k] >> a;
                }
                fit[r][cx] = !hit & valid;
            }
        }
        for r in n..4 {
            fit[r] = fit[r % n];
        }
        Planes { piece, fit, solid }
    }

    /// The start position in tight coordinates `(rotation, cx, cy)` after the blocked-spawn
    /// rule, or `None`.
    pub(super) fn start(&self, t: &Tetris<W>, opts: &MoveOptions) -> Option<(usize, usize, u32)> {
        let (r, x, y) = match opts.start {
            Some((r, x, y)) => (r, x, y),
            None => {
                let (x, y) = super::spawn_position(self.piece, W, t.height());
                (Rotation::Spawn, x, y)
            }
        };
        let (x, y) = t.spawn_near(self.piece, r, x, y)?;
        let g = &GEO[self.piece as usize][r.index()];
        Some((
            r.index(),
            (x + i32::from(g.dx)) as usize,
            (y + i32::from(g.ty)) as u32,
        ))
    }
}

/// The reachable sets of a generator run.
pub(super) struct Reach<const W: usize> {
    pub(super) reach: [[u64; W]; 4],
    /// Positions reached by a rotation (any test), per orientation (T only).
    pub(super) rot_any: [[u64; W]; 4],
    /// Positions reached by a rotation with the fifth test (T only).
    pub(super) rot_tst: [[u64; W]; 4],
}

/// The turns the options allow.
pub(super) fn turns(opts: &MoveOptions) -> &'static [Turn] {
    if opts.rotate_180 {
        &Turn::ALL
    } else {
        &Turn::ALL[..2]
    }
}

/// The columns `a..b` of `plane` from its first nonzero column to its last (`a == b` when it
/// is all zero).
#[inline(always)]
fn span<const W: usize>(plane: &[u64; W], (a, b): (usize, usize)) -> (usize, usize) {
    let cols = &plane[a..b];
    match cols.iter().position(|&c| c != 0) {
        None => (a, a),
        Some(first) => {
            let last = cols.iter().rposition(|&c| c != 0).unwrap_or(first);
            (a + first, a + last + 1)
        }
    }
}

/// One kick test for a whole plane: the positions of `rem` whose target (shifted by
/// `(sx, sy)`) fits in `fit_to` leave `rem` and enter `reach_to` (and, when `TRACK`, the
/// rotation planes: `any` always, `tst` when `fifth`). `cols` holds every nonzero column
/// of `rem` (see [`span`]); returns `cols` while anything is left, an empty range when
/// nothing is.
#[inline(always)]
fn kick_step<const W: usize, const TRACK: bool>(
    rem: &mut [u64; W],
    fit_to: &[u64; W],
    reach_to: &mut [u64; W],
    any: &mut [u64; W],
    tst: &mut [u64; W],
    (sx, sy, fifth): (i32, i32, bool),
    cols: (usize, usize),
) -> (usize, usize) {
    // Columns x of the source whose target column x + sx is on the matrix, among `cols`.
    let lo = (-sx).clamp(cols.0 as i32, cols.1 as i32) as usize;
    let hi = (W as i32 - sx).clamp(lo as i32, cols.1 as i32) as usize;
    if lo == hi {
        // No source column of `rem` has its target on the matrix.
        return cols;
    }
    let (tlo, thi) = ((lo as i32 + sx) as usize, (hi as i32 + sx) as usize);
    let (up, down) = (sy.max(0) as u32, (-sy).max(0) as u32);
    // What is left of `rem`, ORed as it is written (a load of the whole plane right after
    // the loop's stores would wait for them): the columns the loop skips, then its own.
    let mut left = rem[cols.0..lo]
        .iter()
        .chain(&rem[hi..cols.1])
        .fold(0, |a, &c| a | c);
    let src = rem[lo..hi].iter_mut().zip(&fit_to[tlo..thi]);
    if TRACK {
        let dst = reach_to[tlo..thi]
            .iter_mut()
            .zip(&mut any[tlo..thi])
            .zip(&mut tst[tlo..thi]);
        for ((r, &f), ((reach, any), tst)) in src.zip(dst) {
            let ok = *r & ((f >> up) << down);
            *r &= !ok;
            left |= *r;
            let moved = (ok << up) >> down;
            *reach |= moved;
            *any |= moved;
            if fifth {
                *tst |= moved;
            }
        }
    } else {
        for ((r, &f), reach) in src.zip(&mut reach_to[tlo..thi]) {
            let ok = *r & ((f >> up) << down);
            *r &= !ok;
            left |= *r;
            *reach |= (ok << up) >> down;
        }
    }
    // The columns stay as they were (narrowing them cost more than the shorter loops
    // saved); only an empty remainder ends the turn's tests.
    if left == 0 {
        (cols.0, cols.0)
    } else {
        cols
    }
}

/// Reachability from `start` over the four planes.
#[allow(clippy::needless_range_loop)] // planes and columns indexed together
#[inline(always)]
pub(super) fn reach<const W: usize>(
    pl: &Planes<W>,
    start: (usize, usize, u32),
    opts: &MoveOptions,
    out: &mut Reach<W>,
) {
    let piece = pl.piece;
    let track = piece == Piece::T;
    let mut done = [[0u64; W]; 4];
    out.reach[start.0][start.1] = 1u64 << start.2;
    let rotates = piece != Piece::O;
    loop {
        let mut progress = false;
        for r in 0..4 {
            if same(&out.reach[r], &done[r]) {
                continue;
            }
            progress = true;
            slide_closure(&mut out.reach[r], &pl.fit[r]);
            if !rotates {
                done[r] = out.reach[r];
                continue;
            }
            let mut delta = out.reach[r];
            for x in 0..W {
                delta[x] = out.reach[r][x] & !done[r][x];
            }
            done[r] = out.reach[r];
            let delta_cols = span(&delta, (0, W));
            for &turn in turns(opts) {
                let to = turn.apply(Rotation::ALL[r]).index();
                let (shifts, n) = kick_shifts(piece, Rotation::ALL[r], turn);
                let mut rem = delta;
                let mut cols = delta_cols;
                for (test, &(sx, sy)) in shifts[..n].iter().enumerate() {
                    let (any, tst) = (&mut out.rot_any[to], &mut out.rot_tst[to]);
                    let kick = (sx, sy, test == 4);
                    cols = if track {
                        kick_step::<W, true>(
                            &mut rem,
                            &pl.fit[to],
                            &mut out.reach[to],
                            any,
                            tst,
                            kick,
                            cols,
                        )
                    } else {
                        kick_step::<W, false>(
                            &mut rem,
                            &pl.fit[to],
                            &mut out.reach[to],
                            any,
                            tst,
                            kick,
                            cols,
                        )
                    };
                    if cols.0 == cols.1 {
                        break;
                    }
                }
            }
        }
        if !progress {
            return;
        }
    }
}

/// The lock positions per reported orientation (tight coordinates: bit `cy` of column `cx`
/// is the placement whose tight box has its top-left cell at column `cx`, row `cy` from the
/// top) and, for the T, the full and mini planes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Locks<const W: usize> {
    pub(crate) lock: [[u64; W]; 4],
    pub(crate) full: [[u64; W]; 4],
    pub(crate) mini: [[u64; W]; 4],
}

impl<const W: usize> Locks<W> {
    /// No lock position.
    pub(crate) const EMPTY: Self = Locks {
        lock: [[0; W]; 4],
        full: [[0; W]; 4],
        mini: [[0; W]; 4],
    };

    /// The spin of the lock position `(r, cx, cy)` (tight coordinates).
    #[inline(always)]
    pub(crate) fn spin(&self, r: usize, cx: usize, cy: u32) -> Spin {
        let b = 1u64 << cy;
        if self.full[r][cx] & b != 0 {
            Spin::Full
        } else if self.mini[r][cx] & b != 0 {
            Spin::Mini
        } else {
            Spin::None
        }
    }
}

/// The offset from a placement's SRS box to its tight box in `rotation`: `(dx, ty)`, the
/// columns right and rows down of the tight box's top-left cell.
#[inline(always)]
pub(crate) const fn tight_offset(piece: Piece, rotation: Rotation) -> (i32, i32) {
    let g = &GEO[piece as usize][rotation as usize];
    (g.dx as i32, g.ty as i32)
}

/// Lock positions with merged orientations and the spin planes.
#[allow(clippy::needless_range_loop)] // planes and columns indexed together
#[inline(always)]
pub(super) fn locks<const W: usize>(pl: &Planes<W>, re: &Reach<W>, out: &mut Locks<W>) {
    let piece = pl.piece;
    let n = distinct(piece);
    for r in 0..4 {
        let dst = r % n;
        for x in 0..W {
            out.lock[dst][x] |= re.reach[r][x] & !(pl.fit[r][x] >> 1);
        }
    }
    if piece == Piece::T {
        for r in 0..4 {
            let g = &GEO[piece as usize][r];
            for x in 0..W {
                let cand = out.lock[r][x] & re.rot_any[r][x];
                if cand == 0 {
                    continue;
                }
                let (three, front) = corners_at(
                    &pl.solid,
                    x,
                    Rotation::ALL[r],
                    i32::from(g.dx),
                    i32::from(g.ty),
                );
                let spun = three & cand;
                let full = spun & (front | re.rot_tst[r][x]);
                out.full[r][x] = full;
                out.mini[r][x] = spun & !full;
            }
        }
    }
}

impl<const W: usize> Tetris<W> {
    /// Every final placement of `piece` reachable from its [spawn](Self::spawn) with the
    /// guideline moves (left, right, soft drop, quarter turns with SRS kicks), each once, with
    /// its best [`Spin`]; see the [module documentation](crate::games::tetris::moves). Empty
    /// when the spawn is blocked.
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Rotation, Spin, Tetris};
    /// let t = Tetris::<10>::default();
    /// let o = t.moves(Piece::O);
    /// assert_eq!(o.len(), 9); // one per column pair
    /// assert!(o.iter().all(|p| p.y == 38 && p.rotation == Rotation::Spawn));
    /// // 34 for the T: 8 + 9 + 8 + 9 (x positions per orientation).
    /// assert_eq!(t.moves(Piece::T).len(), 34);
    /// ```
    pub fn moves(&self, piece: Piece) -> Vec<Placement> {
        self.moves_with(piece, &MoveOptions::default())
    }

    /// [`moves`](Self::moves) with options: half turns, another start.
    pub fn moves_with(&self, piece: Piece, opts: &MoveOptions) -> Vec<Placement> {
        let mut out = Vec::with_capacity(4 * W);
        self.for_each_move(piece, opts, |p| out.push(p));
        out
    }

    /// Calls `f` on every placement [`moves_with`](Self::moves_with) lists, in the same
    /// order, without allocating (for game loops that only scan the list).
    ///
    /// ```
    /// use gridbits::games::tetris::{MoveOptions, Piece, Tetris};
    /// let t = Tetris::<10>::default();
    /// let mut n = 0;
    /// t.for_each_move(Piece::T, &MoveOptions::default(), |_| n += 1);
    /// assert_eq!(n, t.moves(Piece::T).len());
    /// ```
    pub fn for_each_move(&self, piece: Piece, opts: &MoveOptions, mut f: impl FnMut(Placement)) {
        let mut lk = Locks::EMPTY;
        if !self.lock_planes(piece, opts, &mut lk) {
            return;
        }
        for r in 0..distinct(piece) {
            let rotation = Rotation::ALL[r];
            let (dx, ty) = tight_offset(piece, rotation);
            for x in 0..W {
                let mut bits = lk.lock[r][x];
                while bits != 0 {
                    let cy = bits.trailing_zeros();
                    bits &= bits - 1;
                    f(Placement {
                        piece,
                        rotation,
                        x: x as i32 - dx,
                        y: cy as i32 - ty,
                        spin: lk.spin(r, x, cy),
                    });
                }
            }
        }
    }

    /// The lock planes of every placement [`for_each_move`](Self::for_each_move) lists, in
    /// tight coordinates (see [`Locks`]), written over `out`; `false` (and `out` empty) when
    /// the spawn is blocked.
    pub(crate) fn lock_planes(&self, piece: Piece, opts: &MoveOptions, out: &mut Locks<W>) -> bool {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(AVX2_BMI) {
            // SAFETY: the CPU runs AVX2, BMI1 and BMI2 (checked just above), all that
            // `lock_planes_avx2` is compiled for.
            return unsafe { lock_planes_avx2(self, piece, opts, out) };
        }
        self.lock_planes_here(piece, opts, out)
    }

    /// [`lock_planes`](Self::lock_planes) compiled for the caller's CPU features (the
    /// search's functions are inlined into it).
    #[inline(always)]
    fn lock_planes_here(&self, piece: Piece, opts: &MoveOptions, out: &mut Locks<W>) -> bool {
        *out = Locks::EMPTY;
        let pl = Planes::new(self, piece);
        let Some(start) = pl.start(self, opts) else {
            return false;
        };
        let mut re = Reach {
            reach: [[0u64; W]; 4],
            rot_any: [[0u64; W]; 4],
            rot_tst: [[0u64; W]; 4],
        };
        reach(&pl, start, opts, &mut re);
        locks(&pl, &re, out);
        true
    }
}

/// The features of [`lock_planes_avx2`].
#[cfg(target_arch = "x86_64")]
const AVX2_BMI: crate::cpu::Features = crate::cpu::Features::AVX2
    .union(crate::cpu::Features::BMI1)
    .union(crate::cpu::Features::BMI2);

/// The search compiled for AVX2 and BMI2: the kick tests run four columns a vector with
/// per-lane shifts (`vpsrlvq`), the shifts by a variable count take one instruction
/// (`shrx`), where the portable build shifts two columns a vector by one count (timings in
/// docs/benchmarks.md).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn lock_planes_avx2<const W: usize>(
    t: &Tetris<W>,
    piece: Piece,
    opts: &MoveOptions,
    out: &mut Locks<W>,
) -> bool {
    t.lock_planes_here(piece, opts, out)
}
