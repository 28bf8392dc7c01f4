//! Move generation: listing, counting without listing, playing and perft (see "Moves" in the
//! [module documentation](super)).

use super::notation::square_text;
use super::rays::{bit_of, cell_of, mobility_sum, rays_from, reach};
use super::{Move, Position, Side};
use crate::Board10x10;
use std::fmt;

impl Side {
    /// The other side.
    ///
    /// ```
    /// use gridbits::games::amazons::Side;
    /// assert_eq!(Side::White.opponent(), Side::Black);
    /// ```
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// A move that is not legal in the position it was played in.
///
/// ```
/// use gridbits::games::amazons::{Position, Side};
/// let p = Position::start();
/// let err = p.try_play(Side::White, "a7-a6/a5".parse().unwrap()).unwrap_err();
/// assert_eq!(err.to_string(), "illegal move a7-a6/a5: no white amazon on a7");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The side that tried it.
    pub side: Side,
    /// What is wrong.
    pub reason: IllegalReason,
}

/// Why a [`Move`] is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalReason {
    /// A square is off the 10x10 board.
    OffBoard,
    /// No amazon of the side on `from`.
    NoAmazon,
    /// `to` is not an empty square a queen move away from `from` through empty squares.
    BlockedMove,
    /// `arrow` is not an empty square (or `from`) a queen move away from `to`.
    BlockedArrow,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.side {
            Side::White => "white",
            Side::Black => "black",
        };
        let m = self.mv;
        match self.reason {
            IllegalReason::OffBoard => write!(f, "illegal move {m}: a square is off the board"),
            IllegalReason::NoAmazon => {
                write!(
                    f,
                    "illegal move {m}: no {side} amazon on {}",
                    square_text(m.from)
                )
            }
            IllegalReason::BlockedMove => {
                write!(f, "illegal move {m}: the amazon cannot reach its target")
            }
            IllegalReason::BlockedArrow => {
                write!(f, "illegal move {m}: the arrow cannot reach its target")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Calls `f(from, to, arrow)` (bit indices) for every move of the amazons `own` through the
/// empty cells `e`, from lowest to highest bit (row-major from the top) at each level.
#[inline(always)]
fn for_each_raw(own: u128, e: u128, mut f: impl FnMut(usize, usize, usize)) {
    let occ = !e;
    let mut amazons = own;
    while amazons != 0 {
        let from = amazons.trailing_zeros() as usize;
        amazons &= amazons - 1;
        let vacated = occ ^ (1u128 << from);
        let mut targets = reach(from, occ) & e;
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let mut arrows = reach(to, vacated) & !vacated;
            while arrows != 0 {
                let arrow = arrows.trailing_zeros() as usize;
                arrows &= arrows - 1;
                f(from, to, arrow);
            }
        }
    }
}

/// The number of moves of the amazons `own` through the empty cells `e`, without listing.
///
/// For an amazon on `f` and a target `t`, the arrow reach of `t` with `f` vacated is the reach
/// of `t` in the position as it stands (`f` still blocking), plus `f` itself, plus `f`'s own
/// ray beyond `f` in the direction from `t` to `f` (nothing else changes: `f` lies on one ray
/// of `t` only). Summed over the targets of `f`, ray by ray, that is
/// `Σ_t |reach(t) ∩ e| + |targets| + Σ_d L_d · L_opposite(d)`, where `L_d` is the length of
/// `f`'s ray in direction `d`; the first sum is [`mobility_sum`], bit-parallel over all
/// targets of (up to 7) amazons at once, counted with multiplicity.
#[inline(always)]
fn count_raw(own: u128, e: u128) -> u64 {
    let occ = !e;
    let mut total = 0u64;
    let mut amazons = own;
    while amazons != 0 {
        // Up to 7 amazons at a time: how many of them reach each cell, in 3 bit planes.
        let (mut c0, mut c1, mut c2) = (0u128, 0u128, 0u128);
        let mut n = 0;
        while amazons != 0 && n < 7 {
            let from = amazons.trailing_zeros() as usize;
            amazons &= amazons - 1;
            n += 1;
            let r = rays_from(from, occ);
            let mut targets = 0u128;
            let mut cross = 0u32;
            let mut d = 0;
            while d < 4 {
                let (a, b) = (r[d] & e, r[d + 4] & e);
                targets |= a | b;
                cross += a.count_ones() * b.count_ones();
                d += 1;
            }
            total += u64::from(targets.count_ones() + 2 * cross);
            let carry0 = c0 & targets;
            c0 ^= targets;
            let carry1 = c1 & carry0;
            c1 ^= carry0;
            c2 |= carry1;
        }
        total += u64::from(mobility_sum(c0, c1, c2, e));
    }
    total
}

/// Whether the amazons `own` have a move through `e` (an amazon with a target always has an
/// arrow: it can shoot back onto the square it left).
#[inline(always)]
fn has_moves_raw(own: u128, e: u128) -> bool {
    let occ = !e;
    let mut amazons = own;
    while amazons != 0 {
        let from = amazons.trailing_zeros() as usize;
        amazons &= amazons - 1;
        if reach(from, occ) & e != 0 {
            return true;
        }
    }
    false
}

/// Perft on raw words: `own` to move, `opp` waiting, `e` empty; `rec` is the function the
/// plies below call (this body compiled with the same CPU features).
#[inline(always)]
fn perft_body(
    own: u128,
    opp: u128,
    e: u128,
    depth: u32,
    count: impl Fn(u128, u128) -> u64,
    rec: impl Fn(u128, u128, u128, u32) -> u64,
) -> u64 {
    match depth {
        0 => 1,
        1 => count(own, e),
        2 => {
            let mut total = 0;
            for_each_raw(own, e, |f, t, a| {
                let (f, t, a) = (1u128 << f, 1u128 << t, 1u128 << a);
                total += count(opp, e ^ f ^ t ^ a);
            });
            total
        }
        _ => {
            let mut total = 0;
            for_each_raw(own, e, |f, t, a| {
                let (f, t, a) = (1u128 << f, 1u128 << t, 1u128 << a);
                // `a` may be `f`: the xors leave it occupied then.
                total += rec(opp, own ^ f ^ t, e ^ f ^ t ^ a, depth - 1);
            });
            total
        }
    }
}

fn perft_portable(own: u128, opp: u128, e: u128, depth: u32) -> u64 {
    perft_body(own, opp, e, depth, count_portable, perft_portable)
}

#[inline(never)]
fn count_portable(own: u128, e: u128) -> u64 {
    count_raw(own, e)
}

/// The kernels compiled for x86-64 CPUs with POPCNT, BMI1/2 and LZCNT: the popcounts of
/// counting and the bit scans of listing become single instructions.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{count_raw, for_each_raw, perft_body};

    /// Whether this CPU has the instructions ([`crate::cpu`]: detected once, may be capped).
    #[inline]
    pub(super) fn available() -> bool {
        crate::cpu::has(crate::cpu::Features::BIT_INSTRUCTIONS)
    }

    #[inline(never)]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn count(own: u128, e: u128) -> u64 {
        count_raw(own, e)
    }

    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn for_each(own: u128, e: u128, f: impl FnMut(usize, usize, usize)) {
        for_each_raw(own, e, f)
    }

    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn perft(own: u128, opp: u128, e: u128, depth: u32) -> u64 {
        // The closure inherits `perft`'s features, so the recursive call is safe.
        perft_body(
            own,
            opp,
            e,
            depth,
            |o, e| count(o, e),
            |o, p, e, d| perft(o, p, e, d),
        )
    }
}

/// Whether the copy of the move generator compiled for POPCNT, BMI and LZCNT may run: see
/// [`crate::cpu`] (its override forces the portable copy for tests and benchmarks).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline]
fn fast() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        x86::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn to_move(f: usize, t: usize, a: usize) -> Move {
    Move {
        from: cell_of(f),
        to: cell_of(t),
        arrow: cell_of(a),
    }
}

impl Position {
    #[inline(always)]
    fn side_raw(&self, side: Side) -> (u128, u128, u128) {
        let (w, b, e) = self.raw();
        match side {
            Side::White => (w, b, e),
            Side::Black => (b, w, e),
        }
    }

    /// Calls `f` on every legal move of `side`: amazons in row-major order (from the top
    /// left), then their targets, then the arrows, each in row-major order. No allocation.
    ///
    /// ```
    /// use gridbits::games::amazons::{Position, Side};
    /// let mut n = 0;
    /// Position::start().for_each_move(Side::White, |_| n += 1);
    /// assert_eq!(n, 2176);
    /// ```
    pub fn for_each_move(&self, side: Side, mut f: impl FnMut(Move)) {
        let (own, _, e) = self.side_raw(side);
        let g = |fr, t, a| f(to_move(fr, t, a));
        #[cfg(target_arch = "x86_64")]
        if fast() {
            // SAFETY: `fast` checked that the CPU has every feature `x86::for_each` uses.
            return unsafe { x86::for_each(own, e, g) };
        }
        for_each_raw(own, e, g);
    }

    /// Every legal move of `side`, in the order of [`Position::for_each_move`].
    ///
    /// ```
    /// use gridbits::games::amazons::{Position, Side};
    /// let moves = Position::start().moves(Side::Black);
    /// assert_eq!(moves.len(), 2176);
    /// assert_eq!(moves[0].to_string(), "d10-a10/b10");
    /// ```
    pub fn moves(&self, side: Side) -> Vec<Move> {
        let mut out = Vec::with_capacity(self.count_moves(side) as usize);
        self.for_each_move(side, |m| out.push(m));
        out
    }

    /// The number of legal moves of `side`, counted without listing them: per amazon, a few
    /// ray lengths and one bit-parallel sum of the mobilities of all its targets (see the
    /// [module documentation](super)).
    ///
    /// ```
    /// use gridbits::games::amazons::{Position, Side};
    /// assert_eq!(Position::start().count_moves(Side::White), 2176);
    /// ```
    pub fn count_moves(&self, side: Side) -> u64 {
        let (own, _, e) = self.side_raw(side);
        #[cfg(target_arch = "x86_64")]
        if fast() {
            // SAFETY: `fast` checked that the CPU has every feature `x86::count` uses.
            return unsafe { x86::count(own, e) };
        }
        count_raw(own, e)
    }

    /// Whether `side` has a legal move (a side without one loses).
    ///
    /// ```
    /// use gridbits::games::amazons::{Position, Side};
    /// assert!(Position::start().has_moves(Side::White));
    /// ```
    pub fn has_moves(&self, side: Side) -> bool {
        let (own, _, e) = self.side_raw(side);
        has_moves_raw(own, e)
    }

    /// The squares an arrow can reach after the amazon on `from` moved to `to`: the queen
    /// reach of `to` with `from` vacated (empty if `from` holds no amazon or `to` is not one
    /// of its targets).
    pub fn arrow_targets(&self, from: (usize, usize), to: (usize, usize)) -> Board10x10 {
        let targets = self.moves_from(from.0, from.1);
        if !targets.get(to.0, to.1) {
            return Board10x10::EMPTY;
        }
        let (_, _, e) = self.raw();
        let vacated = !e ^ Board10x10::cell(from.0, from.1).to_u128();
        let t = Board10x10::bit_index(to.0, to.1);
        Board10x10::from_u128(reach(t, vacated) & !vacated)
    }

    /// Checks that `mv` is legal for `side`.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] naming the first rule it breaks.
    pub fn check_move(&self, side: Side, mv: Move) -> Result<(), IllegalMove> {
        let err = |reason| IllegalMove { mv, side, reason };
        let on_board = |(x, y): (u8, u8)| (x as usize) < super::SIZE && (y as usize) < super::SIZE;
        if !(on_board(mv.from) && on_board(mv.to) && on_board(mv.arrow)) {
            return Err(err(IllegalReason::OffBoard));
        }
        let at = |(x, y): (u8, u8)| (x as usize, y as usize);
        let (fx, fy) = at(mv.from);
        if !self.amazons(side).get(fx, fy) {
            return Err(err(IllegalReason::NoAmazon));
        }
        let (tx, ty) = at(mv.to);
        if !self.moves_from(fx, fy).get(tx, ty) {
            return Err(err(IllegalReason::BlockedMove));
        }
        let (ax, ay) = at(mv.arrow);
        if !self.arrow_targets((fx, fy), (tx, ty)).get(ax, ay) {
            return Err(err(IllegalReason::BlockedArrow));
        }
        Ok(())
    }

    /// The position after `side` plays `mv`, checked.
    ///
    /// ```
    /// use gridbits::games::amazons::{Position, Side};
    /// let p = Position::start().try_play(Side::White, "d1-d7/g7".parse().unwrap()).unwrap();
    /// assert!(p.white().get(3, 3) && p.arrows().get(6, 3) && !p.white().get(3, 9));
    /// ```
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] if `mv` is not one of [`Position::moves`]`(side)`.
    pub fn try_play(&self, side: Side, mv: Move) -> Result<Position, IllegalMove> {
        self.check_move(side, mv)?;
        Ok(self.play_unchecked(side, mv))
    }

    /// The position after `side` plays `mv`.
    ///
    /// # Panics
    ///
    /// If `mv` is illegal ([`Position::try_play`] returns the error instead).
    pub fn play(&self, side: Side, mv: Move) -> Position {
        match self.try_play(side, mv) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        }
    }

    fn play_unchecked(&self, side: Side, mv: Move) -> Position {
        let bit = |(x, y): (u8, u8)| 1u128 << bit_of(x, y);
        let (f, t, a) = (bit(mv.from), bit(mv.to), bit(mv.arrow));
        let mut p = *self;
        let own = match side {
            Side::White => &mut p.white,
            Side::Black => &mut p.black,
        };
        *own = Board10x10::from_u128(own.to_u128() ^ f ^ t);
        p.arrows = Board10x10::from_u128(p.arrows.to_u128() | a);
        p
    }

    /// The number of move sequences of length `depth` from this position, `side` moving
    /// first and the sides alternating (`perft(0)` is 1; a side without a move ends a
    /// sequence early, which is not counted). The last ply is counted, not listed.
    ///
    /// ```
    /// use gridbits::games::amazons::{Position, Side};
    /// assert_eq!(Position::start().perft(Side::White, 1), 2176);
    /// assert_eq!(Position::start().perft(Side::White, 2), 4_307_152);
    /// ```
    pub fn perft(&self, side: Side, depth: u32) -> u64 {
        let (own, opp, e) = self.side_raw(side);
        #[cfg(target_arch = "x86_64")]
        if fast() {
            // SAFETY: `fast` checked that the CPU has every feature `x86::perft` uses.
            return unsafe { x86::perft(own, opp, e, depth) };
        }
        perft_portable(own, opp, e, depth)
    }
}
